"""The optional compiled build (``scripts/compile``, docs/performance.md, "A compiled build") keeps what the
pure-Python one promises. These tests run in both builds: CI runs the suite on the pure
sources, then compiles and runs it again; in the pure run they check the same values.
"""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from rallye import mille
from rallye.agents.mille import search as mille_search
from rallye.agents.mille.distilled import shipped_weights
from rallye.agents.mille.heuristic import FITTED, Reading
from rallye.agents.mille.sampler import exclusions
from rallye.agents.mille.search import PimcAgent
from rallye.core.values import attributes

from .helpers import views_of


def test_frozen_values_pickle_and_stay_frozen() -> None:
    """Views, states (with their score sheets), styles, readings, exclusions and the distilled
    weights survive pickling equal (worker processes and the position caches pickle them),
    and stay frozen."""
    views = [v for v in views_of("wm2006", 2, seed=5, steps=400) if v.sheets][:3]
    assert views, "a view after a hand, with a score sheet"
    state = mille.new_match("wm2006", 2, seed=5)
    values: list[object] = [state, FITTED, shipped_weights(), *views]
    for v in views:
        values.append(Reading.of(v, FITTED))
        values.extend(exclusions(v))
    for value in values:
        back = pickle.loads(pickle.dumps(value))
        assert back == value and type(back) is type(value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        views[0].seat = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        FITTED.roll = 1.0  # type: ignore[misc]


def test_a_search_can_still_be_subclassed_and_its_settings_read() -> None:
    """The diagnostics subclass the search (``truehands:``) and tests read its settings by
    name: a compiled class allows both."""

    class Counting(PimcAgent):
        def _sample(self, view, excl, pool):  # type: ignore[no-untyped-def]
            self.sampled = getattr(self, "sampled", 0) + 1
            return super()._sample(view, excl, pool)

    bot = Counting(seed=1, deals=4, plies=400)
    view = next(v for v in views_of("wm2006", 2, seed=2, steps=40) if len(mille.legal_from_view(v)) > 3)
    assert bot.choose(view, mille.legal_from_view(view)) in mille.legal_from_view(view)
    assert bot.sampled >= 2
    settings = attributes(PimcAgent(seed=1, deals=4, plies=400))
    assert (settings["deals"], settings["plies"], settings["top_k"]) == (4, 400, 4)
    assert "rng" in settings and "tracker" in settings


def test_which_build_runs_is_visible() -> None:
    """A compiled module is an extension module beside its source (``scripts/compile
    --clean`` removes it); either way the search is the same class."""
    assert mille_search.__file__.endswith((".py", ".so"))
    assert mille_search.PimcAgent is PimcAgent
