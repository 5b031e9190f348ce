"""The coach in the terminal (issue #61, item 3): ``hint`` at a person's prompt shows the
analysis bot's move, the margin and the reasons in the screen's language, from the view of
the person to act, and plays nothing; on for one person with bots, ``--no-coach`` turns it
off, several people at one keyboard get it only with ``--coach``."""

from __future__ import annotations

import argparse

import pytest
from tests.tui.helpers import feed, recording_console
from tests.tui.knightrider.test_play import QUICK, to_the_chase
from tests.tui.knightrider.test_play import play_args as kr_args
from tests.tui.mille.test_play import play_args as mille_args

from rallye.analysis.coach import Coach, Hint, Reason
from rallye.i18n import translator
from rallye.tui.coach import hint_lines, margin_text
from rallye.tui.knightrider.app import KRSession, play_knightrider
from rallye.tui.knightrider.app import run_session as kr_run
from rallye.tui.loop import coach_wanted
from rallye.tui.mille.app import MilleSession
from rallye.tui.mille.app import run_session as mille_run
from rallye.tui.play import play_mille


def test_hint_shows_the_coachs_move_and_reasons_and_plays_nothing() -> None:
    session = MilleSession.new("wm2006", 2, 4, 0, ["random"])
    expected = Coach("mille").hint(session.view(), session.legal())
    c = recording_console(140)
    assert mille_run(session, feed(["hint"]), c, lang="en", coach=True) == 0  # then EOF: leaves
    assert session.actions_played == 0  # the hint is shown, not played
    out = c.export_text()
    number = session.legal().index(expected.best) + 1
    assert f"Hint: {number}. {expected.best_text}" in out
    names = session.view().edition.card_name
    for reason in expected.reasons:
        assert "· " + reason.text("en", lambda card: names(card, "en")) in out
    assert expected.next_text is not None and expected.next_text in out


@pytest.mark.parametrize(("lang", "title"), [("de", "Tipp: "), ("fr", "Conseil : "), ("hu", "Tipp: ")])
def test_the_hint_speaks_the_screens_language(lang: str, title: str) -> None:
    c = recording_console(140)
    assert play_mille(mille_args(seed=4, lang=lang, coach=None), c, feed(["hint"])) == 0
    out = c.export_text()
    assert title in out
    assert "Hint: " not in out


def test_no_coach_turns_the_hint_off() -> None:
    c = recording_console(140)
    assert play_mille(mille_args(seed=4, coach=False), c, feed(["hint"])) == 0
    assert translator("en", "common")("hint.off") in c.export_text()
    assert "Hint: " not in c.export_text()


def test_the_coach_is_on_for_one_person_and_off_for_several_at_one_keyboard() -> None:
    assert coach_wanted(argparse.Namespace(coach=None), (0,))
    assert not coach_wanted(argparse.Namespace(coach=None), (0, 2))
    assert coach_wanted(argparse.Namespace(coach=True), (0, 2))
    assert not coach_wanted(argparse.Namespace(coach=False), (0,))
    assert coach_wanted(argparse.Namespace(), (1,))  # an older caller without the option


def test_knight_rider_hint_in_the_chase() -> None:
    session = KRSession.new(3, 2, 0, ["random", "random"], QUICK)
    to_the_chase(session)
    expected = Coach("knightrider").hint(session.view(), session.legal())
    c = recording_console(140)
    before = session.actions_played
    assert kr_run(session, feed(["hint"]), c, lang="en", coach=True) == 0
    assert session.actions_played == before
    out = c.export_text()
    assert "Hint: " in out and expected.best_text in out
    for reason in expected.reasons:
        assert "· " + reason.text("en") in out


def test_knight_rider_no_coach() -> None:
    c = recording_console(140)
    assert play_knightrider(kr_args(seed=3, quick_build=True, coach=False), c, feed(["1", "hint"])) == 0
    assert translator("en", "common")("hint.off") in c.export_text()


def _hint(**kw: object) -> Hint:
    base: dict[str, object] = dict(
        best="play D100", best_text="play D100", next_text="discard STOP", margin_points=58.9, margin_win=0.0071,
        reasons=(Reason("coach.mille.distance_left", {"card": "D100", "km": 400}),),
    )  # fmt: skip
    base.update(kw)
    return Hint(**base)  # type: ignore[arg-type]


def test_the_margin_in_words() -> None:
    assert margin_text(_hint(), "en") == (
        "better than the next best, discard STOP, by 59 hand points, 0.7 percentage points of chance to win"
    )
    assert margin_text(_hint(equal=True), "en") == "about equal to the next best, discard STOP"
    assert (
        margin_text(_hint(margin_points=0.2, margin_win=0.0001), "en") == "about equal to the next best, discard STOP"
    )
    assert margin_text(_hint(margin_points=None, margin_win=0.25), "de") == (
        "besser als der zweitbeste, discard STOP, um 25.0 Prozentpunkte Gewinnchance"
    )
    assert margin_text(_hint(next_text=None), "en") is None
    lines = hint_lines(_hint(), "en", lambda card: {"D100": "100 km"}[card], 3)
    assert lines[0] == "Hint: 3. play D100"
    assert lines[-1] == "  · 100 km: 400 km left to the end of the trip"


def test_at_an_online_table_the_terminal_points_to_the_browser() -> None:
    session = MilleSession.new("wm2006", 2, 4, 0, ["random"])
    session.kept_by_server = True  # as an online table's game looks to the loop
    c = recording_console(140)
    assert mille_run(session, feed(["hint"]), c, lang="en") == 0
    assert translator("en", "common")("hint.online") in c.export_text()


def test_a_position_the_coach_cannot_read_is_told_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def cannot(self: Coach, view: object, legal: object, history: object = ()) -> Hint:
        raise ValueError("the view is inconsistent")

    monkeypatch.setattr(Coach, "hint", cannot)
    session = MilleSession.new("wm2006", 2, 4, 0, ["random"])
    c = recording_console(140)
    assert mille_run(session, feed(["hint", "1"]), c, lang="en", coach=True) == 0
    out = c.export_text()
    assert "The coach cannot judge this position (the view is inconsistent); the game goes on." in out
    assert session.actions_played >= 1  # the move typed after it was played


def test_a_reason_names_a_side_as_the_terminal_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reason about another side says the name the screen gives that side (its label with
    its players), in the sentence written for names, not "side 3"."""

    def named(self: Coach, view: object, legal: object, history: object = ()) -> Hint:
        return _hint(reasons=(Reason("coach.mille.attack_near_end_who", {"km": 200, "side": 3}),))

    monkeypatch.setattr(Coach, "hint", named)
    shown = {"en": "P3 (random) needs 200 km", "hu": "J3 (véletlen): már csak 200 km hiányzik"}
    for lang, said in shown.items():
        session = MilleSession.new("wm2006", 3, 4, 0, ["random", "random"])
        c = recording_console(160)
        assert mille_run(session, feed(["hint", "1"]), c, lang=lang, coach=True) == 0
        text = c.export_text()
        assert said in text  # a one-player side by its player's label, as the screen names the seat
        assert "csapat: J3 (véletlen): már" not in text  # not the side's full label: one colon, not two
    # a team by its number (its full label "3. csapat: J3 + J6" would put two colons in a row)
    team = MilleSession.new("wm2006", 6, 4, 0, ["random"] * 5)
    c = recording_console(160)
    assert mille_run(team, feed(["hint", "1"]), c, lang="hu", coach=True) == 0
    assert "3. csapat: már csak 200 km hiányzik" in c.export_text()


def test_the_history_is_followed_from_hint_to_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hint after hint along a game, the coach gets the person's views the replay of the
    game's record gives, and the record is read from its start once, at the first hint."""
    from rallye.analysis import DecisionViews, decision_views
    from rallye.games import game_for

    session = MilleSession.new("wm2006", 2, 4, 0, ["random"])
    histories: list[tuple[object, ...]] = []
    real_hint, real_rebuild = Coach.hint, DecisionViews._rebuild
    rebuilt: list[int] = []
    replaying = [False]  # the spy's own replay (decision_views reads the record afresh): not counted

    def spy(self: Coach, view: object, legal: object, history: object = ()) -> Hint:
        replaying[0] = True
        try:
            replayed = decision_views(game_for("mille"), session.lines, session.viewer)
        finally:
            replaying[0] = False
        assert history == replayed
        histories.append(tuple(history))  # type: ignore[arg-type]
        return real_hint(self, view, legal, history)  # type: ignore[arg-type]

    def counted(self: DecisionViews, lines: object, seats: object) -> None:
        if not replaying[0]:
            rebuilt.append(len(histories))
        real_rebuild(self, lines, seats)  # type: ignore[arg-type]

    monkeypatch.setattr(Coach, "hint", spy)
    monkeypatch.setattr(DecisionViews, "_rebuild", counted)
    c = recording_console(140)
    assert mille_run(session, feed(["hint", "1"] * 6), c, lang="en", coach=True) == 0
    assert len(histories) == 6 and len(histories[-1]) >= 5
    assert rebuilt == [0]
