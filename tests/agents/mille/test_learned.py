"""The ``learned`` bot: a network trained by self-play, played with NumPy alone."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.mille.encoding import OBS_SIZE, encode_view
from rallye.agents.mille.learned import LearnedAgent, Network, shipped_network
from rallye.mille.actions import NUM_ACTIONS
from rallye.sim.play import MatchJob, play_job

from .helpers import PLAYER_COUNTS, views_of


def npz(**arrays: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]
    return buf.getvalue()


def tiny(bias: np.ndarray, hidden: int = 3) -> dict[str, np.ndarray]:
    """A network whose scores are ``bias`` whatever it sees."""
    return {
        "w0": np.zeros((OBS_SIZE, hidden), np.float16),
        "b0": np.zeros(hidden, np.float16),
        "pi_w": np.zeros((hidden, NUM_ACTIONS), np.float16),
        "pi_b": bias.astype(np.float16),
        "meta": np.frombuffer(json.dumps({"edition": "wm2006"}).encode(), np.uint8),
    }


def test_the_shipped_weights_load_with_the_shape_the_code_reads() -> None:
    net = shipped_network()
    assert len(net.layers) == 3
    (w0, b0), (w1, b1), (pw, pb) = net.layers
    hidden = net.meta["hidden"]
    assert w0.shape == (OBS_SIZE, hidden) and b0.shape == (hidden,)
    assert (
        w1.shape == (hidden, hidden)
        and b1.shape == (hidden,)
        and pw.shape == (hidden, NUM_ACTIONS)
        and pb.shape == (NUM_ACTIONS,)
    )
    assert all(w.dtype == np.float32 and np.isfinite(w).all() for layer in net.layers for w in layer)
    assert net.meta["edition"] == "wm2006" and set(net.meta["sizes"]) == {2, 3, 4, 6}
    assert net.meta["teacher"] == "distilled"


def test_bad_weights_files_are_refused_naming_what_is_wrong() -> None:
    good = tiny(np.zeros(NUM_ACTIONS))
    assert len(Network.from_npz(npz(**good)).layers) == 2
    wide = {**good, "w0": np.zeros((OBS_SIZE + 1, 3))}
    short = {**good, "pi_w": np.zeros((3, 69)), "pi_b": np.zeros(69)}
    nan = {**good, "b0": np.array([0.0, np.nan, 0.0])}
    no_head = {k: v for k, v in good.items() if k != "pi_b"}
    no_body = {k: v for k, v in good.items() if k not in ("w0", "b0")}
    for data, says in [
        (b"not a zip file", "not a weights file"),
        (npz(**wide), r"w0 \(271, 3\) and b0 \(3,\) do not follow a width of 270"),
        (npz(**short), "gives 69 scores, not one per action code"),
        (npz(**nan), "not a finite number"),
        (npz(**no_head), "missing arrays pi_b"),
        (npz(**no_body), "missing arrays w0, b0"),
        (npz(**good, extra=np.zeros(2)), "unexpected arrays extra"),
        (npz(**{**good, "meta": np.frombuffer(b"[1]", np.uint8)}), "'meta' must be a JSON object"),
        (npz(**{**good, "meta": np.frombuffer(b"{no", np.uint8)}), "'meta' is not JSON"),
    ]:
        with pytest.raises(ValueError, match=says):
            Network.from_npz(data, "w.npz")


def test_it_plays_the_legal_move_scored_highest_never_an_illegal_one() -> None:
    views = [v for v in views_of("wm2006", 3, seed=4, steps=80) if len(mille.legal_from_view(v)) > 1]
    for v in views[:20]:
        legal = mille.legal_from_view(v)
        codes = [a.code for a in legal]
        bias = np.zeros(NUM_ACTIONS)
        bias[codes[-1]] = 5.0
        illegal = [c for c in range(NUM_ACTIONS) if c not in codes]
        bias[illegal] = 50.0  # scores of illegal moves never count
        bot = LearnedAgent(network=Network.from_npz(npz(**tiny(bias))))
        assert bot.choose(v, legal) == legal[-1]
        assert set(bot.last_scores) == set(legal)


def test_the_shipped_network_reads_the_encoding_and_is_deterministic() -> None:
    net = shipped_network()
    a, b = make_agent("mille", "learned", 1), make_agent("mille", "learned", 2)
    for v in views_of("wm2006", 4, seed=9, steps=60):
        legal = mille.legal_from_view(v)
        choice = a.choose(v, legal)
        assert choice in legal and b.choose(v, legal) == choice
        if len(legal) > 1:
            scores = net.scores(encode_view(v))
            assert scores.shape == (NUM_ACTIONS,)
            assert choice.code == max((a.code for a in legal), key=lambda c: scores[c])


@pytest.mark.parametrize("edition", sorted(PLAYER_COUNTS))
def test_whole_matches_at_every_size_finish_with_legal_choices(edition: str) -> None:
    """Every size of every edition (the training's wm2006 2, 3, 4 and 6 players, and the
    others: the encoding covers them); ``play_job`` refuses any choice outside the legal list."""
    for n in PLAYER_COUNTS[edition]:
        bots = tuple("learned" if i % 2 == 0 else "medium" for i in range(n))
        job = MatchJob(n, "mille", n, bots, seed=n, bot_seeds=tuple(range(n)), edition=edition)
        result = play_job(job)
        assert result.winners and result.hands >= 1


def test_neither_importing_rallye_nor_playing_the_level_imports_torch() -> None:
    """Listing the bots needs no NumPy; playing ``learned`` needs NumPy but no training library."""
    code = """
import sys
import rallye
from rallye.agents.base import agent_names, make_agent
assert "learned" in agent_names("mille")
assert "numpy" not in sys.modules and "torch" not in sys.modules
from rallye.sim.play import MatchJob, play_job
play_job(MatchJob(0, "mille", 3, ("learned", "medium", "learned"), seed=1, bot_seeds=(0, 1, 2), edition="wm2006"))
assert "numpy" in sys.modules
bad = [m for m in sys.modules if m.split(".")[0] in ("torch", "gymnasium", "numba", "rallye.rl")]
assert not bad, bad
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_without_numpy_the_bot_is_refused_with_a_clear_error() -> None:
    code = """
import sys
sys.modules["numpy"] = None  # import numpy now fails
from rallye.agents.base import agent_names, make_agent
assert "learned" in agent_names("mille")
try:
    make_agent("mille", "learned")
except ValueError as exc:
    print(exc)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "the 'learned' bot needs NumPy: pip install 'rallye[learned]'" in out.stdout
