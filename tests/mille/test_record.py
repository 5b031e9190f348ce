"""Determinism and games as data (DESIGN habits 6, 7): the same seed gives the same game; a
record replays to the same states; an altered record is rejected naming its line."""

from __future__ import annotations

import json
import random

import pytest

from rallye.core.errors import RecordError
from rallye.core.record import dumps_line
from rallye.mille import apply, explain, legal_actions, new_match, parse_action
from rallye.mille.engine import shuffled_deck
from rallye.mille.record import Recorder, replay_file, replay_text


def random_game(key, players, seed, *, policy_seed=0, max_steps=100_000):
    """Play a match with a seeded random policy; returns the states (first included)."""
    rnd = random.Random(policy_seed)
    s = new_match(key, players, seed)
    states = [s]
    while s.phase != "over" and len(states) < max_steps:
        la = legal_actions(s)
        s = apply(s, la[rnd.randrange(len(la))])
        states.append(s)
    return states


def recorded_game(key, players, seed, *, policy_seed=0, max_actions=None):
    rnd = random.Random(policy_seed)
    rec = Recorder.start(new_match(key, players, seed))
    n = 0
    while rec.state.phase != "over" and (max_actions is None or n < max_actions):
        la = legal_actions(rec.state)
        rec.step(rec.state.current, la[rnd.randrange(len(la))])
        n += 1
    return rec


def text_of(lines):
    return "\n".join(dumps_line(line) for line in lines) + "\n"


# -- determinism ---------------------------------------------------------------------
@pytest.mark.parametrize(("key", "players"), [("wm2006", 2), ("hu", 4), ("fxschmid", 6), ("meilen", 5)])
def test_same_seed_same_game(key, players):
    a = random_game(key, players, seed=42, policy_seed=1)
    b = random_game(key, players, seed=42, policy_seed=1)
    assert a == b
    assert [hash(s) for s in a] == [hash(s) for s in b]
    assert a[-1].phase == "over"


def test_different_seeds_deal_different_decks():
    decks = {new_match("wm2006", 2, seed).deck for seed in range(20)}
    assert len(decks) == 20


def test_each_hand_of_a_match_has_its_own_seeded_deck():
    states = random_game("wm2006", 2, seed=3)
    by_hand = {s.hand_no: s.deck for s in states}
    assert len(by_hand) > 1
    for hand, deck in by_hand.items():
        assert deck == shuffled_deck(states[0].edition, 2, 3, hand)


def test_new_match_with_a_given_deck_uses_it():
    deck = tuple(reversed(new_match("hu", 3, seed=1).deck))
    s = new_match("hu", 3, seed=1, deck=deck)
    assert s.deck == deck


def test_new_match_rejects_a_deck_that_is_not_the_editions():
    deck = new_match("hu", 3, seed=1).deck
    with pytest.raises(Exception, match="deck") as info:
        new_match("hu", 3, seed=1, deck=(*deck[:-1], "D200"))
    assert info.value.rule == "deck"


# -- records replay ------------------------------------------------------------------
@pytest.mark.parametrize(("key", "players", "seed"), [("wm2006", 2, 7), ("hu", 3, 8), ("fxschmid", 4, 9),
                                                      ("meilen", 6, 10)])  # fmt: skip
def test_record_replays_to_the_same_states(key, players, seed):
    rec = recorded_game(key, players, seed, policy_seed=seed)
    states = random_game(key, players, seed, policy_seed=seed)
    assert rec.state == states[-1]
    rep = replay_text(text_of(rec.lines))
    assert rep.finished
    assert rep.initial == states[0]
    assert list(rep.states) == states[1:]
    assert rep.final == rec.state
    kinds = [line["type"] for line in rec.lines]
    assert kinds[0] == "header" and kinds[1] == "deal" and kinds[-1] == "end"
    assert kinds.count("score") == len(rec.state.sheets) == kinds.count("deal")


def test_save_file_resumes_where_it_stopped(tmp_path):
    rec = recorded_game("wm2006", 3, 5, max_actions=250)
    assert rec.state.phase != "over"
    path = tmp_path / "save.jsonl"
    rec.save(path)
    rep = replay_file(path)
    assert not rep.finished and rep.final == rec.state
    resumed = rep.recorder()
    assert resumed.state == rec.state and resumed.lines == rec.lines
    assert not (tmp_path / "save.jsonl.tmp").exists()


# -- altered records are rejected, naming the line -------------------------------------
@pytest.fixture(scope="module")
def game_lines():
    return recorded_game("wm2006", 2, 11, policy_seed=4).lines


def _index(lines, kind, nth=0):
    return [i for i, line in enumerate(lines) if line["type"] == kind][nth]


def _rejected(lines, *, text=None):
    with pytest.raises(RecordError) as info:
        replay_text(text if text is not None else text_of(lines), source="game.jsonl")
    return info.value


def test_altered_record_illegal_action_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    i = _index(lines, "action", 5)
    # find an action that is illegal at that point
    state = replay_text(text_of(lines[:i])).final
    bad = next(t for t in ("play D200", "play ROLL", "attack 2 STOP", "play EXTRA_TANK", "play D25")
               if explain(state, parse_action(t)) is not None)  # fmt: skip
    lines[i]["action"] = bad
    err = _rejected(lines)
    assert f"game.jsonl: line {i + 1}:" in str(err) and f"'{bad}'" in str(err)
    assert err.rule is not None and err.code == "record_error"


def test_altered_record_unknown_notation_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    i = _index(lines, "action", 2)
    lines[i]["action"] = "teleport D100"
    err = _rejected(lines)
    assert f"line {i + 1}:" in str(err) and err.rule == "notation"


def test_altered_record_wrong_score_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    i = _index(lines, "score", 0)
    lines[i]["sheet"]["rows"][0]["distance"] += 25
    err = _rejected(lines)
    assert f"line {i + 1}:" in str(err) and err.rule == "score"


def test_altered_record_wrong_final_result_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    lines[-1]["totals"][0] += 100
    err = _rejected(lines)
    assert f"line {len(lines)}:" in str(err) and err.rule == "score"


def test_altered_record_truncated_line_names_the_line(game_lines):
    text = text_of(game_lines)
    cut = text.rstrip("\n")
    cut = cut[: len(cut) - 7]  # the last line loses its end
    err = _rejected(game_lines, text=cut)
    assert f"line {len(game_lines)} is not valid JSON" in str(err)


def test_altered_record_truncated_line_in_the_middle_names_the_line(game_lines):
    raw = text_of(game_lines).splitlines()
    raw[9] = raw[9][:15]
    err = _rejected(game_lines, text="\n".join(raw))
    assert "line 10 is not valid JSON" in str(err)


def test_altered_record_wrong_deck_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    deck = lines[1]["deck"]
    j = next(k for k in range(1, len(deck)) if deck[k] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    err = _rejected(lines)
    assert "line 2:" in str(err) and err.rule == "deck"


def test_altered_record_wrong_deck_of_a_later_hand_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    i = _index(lines, "deal", 1)
    lines[i]["deck"] = list(reversed(lines[i]["deck"]))
    err = _rejected(lines)
    assert f"line {i + 1}:" in str(err) and err.rule == "deck"


def test_altered_record_wrong_actor_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    i = _index(lines, "action", 3)
    lines[i]["player"] = 1 - lines[i]["player"]
    err = _rejected(lines)
    assert f"line {i + 1}:" in str(err) and err.rule == "turn-order"


def test_altered_record_wrong_dealer_names_the_line(game_lines):
    lines = json.loads(json.dumps(game_lines))
    lines[1]["dealer"] = 0
    err = _rejected(lines)
    assert "line 2:" in str(err) and err.rule == "dealer-rotation"


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [(lambda ls: ls[0].update(game="chess"), "line 1: the first line must be a Mille Bornes header"),
     (lambda ls: ls[0].update(format=99), "line 1: unsupported record format"),
     (lambda ls: ls[0].update(edition="monopoly"), "line 1: unknown edition"),
     (lambda ls: ls[0].update(players=5), "line 1:"),
     (lambda ls: ls[0].update(seed="x"), "line 1: field 'seed' must be an integer"),
     (lambda ls: ls.insert(2, {"type": "comment"}), "line 3: unknown line type 'comment'"),
     (lambda ls: ls.pop(1), "line 2: a deal line must come first"),
     (lambda ls: ls.append({"type": "action", "hand": 0, "player": 0, "action": "extend"}),
      "nothing may follow the end line"),
     (lambda ls: ls.__delitem__(_index(ls, "score", 0)), "the score line of hand 1 is missing")],
)  # fmt: skip
def test_altered_record_structure_names_the_line(game_lines, edit, fragment):
    lines = json.loads(json.dumps(game_lines))
    edit(lines)
    assert fragment in str(_rejected(lines))


def test_record_missing_file_and_empty_text():
    with pytest.raises(RecordError, match="cannot read"):
        replay_file("/nonexistent/game.jsonl")
    with pytest.raises(RecordError, match="empty"):
        replay_text("\n\n")


# -- issue 55, item 5: house-rule games are games like others -------------------------
def _house_file(tmp_path, key="house", **changes):
    from rallye.mille.edition import get_edition

    data = get_edition("wm2006").to_json()
    data.update(key=key, aliases=[], title="House rules", **changes)
    path = tmp_path / f"{key}-rules.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_every_edition_round_trips_through_its_json():
    from rallye.mille.edition import editions, parse_edition

    for ed in editions():
        assert parse_edition(ed.to_json()) == ed and ed.is_builtin


def test_house_rule_game_replays_and_resumes_without_its_file(tmp_path):
    from rallye.mille.edition import get_edition
    from rallye.tui.mille.app import MilleSession

    path = _house_file(tmp_path, target_alone=300)
    house = get_edition(str(path))
    rec = Recorder.start(new_match(house, 2, 11))
    rnd = random.Random(3)
    while rec.state.phase != "over" and len(rec.lines) < 60:
        rec.step(rec.state.current, legal_actions(rec.state)[rnd.randrange(len(legal_actions(rec.state)))])
    save = tmp_path / "house-game.jsonl"
    rec.save(save)
    path.unlink()  # the record alone is enough
    rep = replay_file(save)
    assert rep.final == rec.state and rep.final.edition == house and rep.final.edition.target_alone == 300
    session = MilleSession.resume(save, 0, ["random"])
    assert session.state == rec.state


def test_house_file_reusing_a_builtin_key_is_recorded_as_different(tmp_path):
    from rallye.mille.edition import get_edition

    house = get_edition(str(_house_file(tmp_path, key="wm2006", target_alone=300)))
    assert house.key == "wm2006" and not house.is_builtin
    rec = Recorder.start(new_match(house, 2, 5))
    assert rec.lines[0]["edition_data"]["target_alone"] == 300
    assert "edition_data" not in Recorder.start(new_match("wm2006", 2, 5)).lines[0]
    assert replay_text(text_of(rec.lines)).final.edition == house


def test_record_with_a_wrong_edition_data_names_the_field():
    lines = Recorder.start(new_match("wm2006", 2, 5)).lines
    lines[0]["edition_data"] = {"key": "wm2006"}
    with pytest.raises(RecordError, match=r"line 1: field 'edition_data': field 'aliases' is missing"):
        replay_text(text_of(lines))
    lines[0]["edition_data"] = new_match("hu", 2, 5).edition.to_json()
    with pytest.raises(RecordError, match="'edition_data' holds edition 'hu'"):
        replay_text(text_of(lines))


def test_record_never_reads_an_edition_file_it_names(tmp_path):
    path = _house_file(tmp_path)
    lines = Recorder.start(new_match("wm2006", 2, 5)).lines
    lines[0]["edition"] = str(path)
    with pytest.raises(RecordError, match=r"unknown edition .*carries its edition in 'edition_data'"):
        replay_text(text_of(lines))


def test_rallye_replay_verifies_a_house_rule_record(tmp_path):
    from rich.console import Console

    from rallye.mille.edition import get_edition
    from rallye.tui.replay import replay_command

    house = get_edition(str(_house_file(tmp_path, target_alone=300)))
    rec = Recorder.start(new_match(house, 2, 8))
    rec.save(tmp_path / "g.jsonl")
    console = Console(record=True, width=120)
    assert replay_command(tmp_path / "g.jsonl", console) == 0, console.export_text()


def test_house_rule_view_json_carries_its_edition(tmp_path):
    from rallye.mille import MilleView, view_for
    from rallye.mille.edition import get_edition

    house = get_edition(str(_house_file(tmp_path, key="wm2006", target_alone=300)))
    v = view_for(new_match(house, 2, 8), 0)
    data = json.loads(json.dumps(v.to_json()))
    assert data["edition_data"]["target_alone"] == 300
    assert MilleView.from_json(data) == v


# -- the end line's result, and records written before it ----------------------------
def test_end_line_says_won_shared_or_drawn():
    """A meilen game is drawn when nobody drove, and shared by the sides tied closest to
    1000; the end line says which (``result``), besides listing the winners."""
    from rallye.mille import outcome

    rec = recorded_game("wm2006", 2, 7, policy_seed=7)
    assert rec.lines[-1]["result"] == "won" == outcome(rec.state)
    for lines in (rec.lines,):
        bad = json.loads(json.dumps(lines))
        bad[-1]["result"] = "drawn"
        err = _rejected(bad)
        assert f"line {len(bad)}:" in str(err) and '"drawn"' in str(err) and err.rule == "score"
    old = json.loads(json.dumps(rec.lines))
    del old[-1]["result"]  # a record written before the field: still replays
    assert replay_text(text_of(old)).finished


def _drawn_meilen_record():
    """A meilen game of 2 where nobody drives: both discard until the pile runs out."""
    s = new_match("meilen", 2, 3)
    rec = Recorder.start(s)
    while rec.state.phase != "over":
        la = [a for a in legal_actions(rec.state) if a.verb == "discard"]
        rec.step(rec.state.current, la[0])
    return rec


def test_end_line_of_a_drawn_meilen_game():
    rec = _drawn_meilen_record()
    end = rec.lines[-1]
    assert end["result"] == "drawn" and end["winners"] == [0, 1]
    assert replay_text(text_of(rec.lines)).final == rec.state


def test_a_hu_record_with_the_score_lines_written_before_issue_54_replays():
    """Saved by rallye before the hu sheet printed a coup fourré as 300 on its own line: its
    score line has the safety's 100 on the safety line and 200 on the coup-fourré line (the
    same totals). It replays; today's sheet of that hand has the box's lines."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data" / "mille_hu_save_old_score_lines.jsonl"
    rep = replay_file(path)
    sh = rep.final.sheets[0]
    assert (sh.line(0, "safeties"), sh.line(0, "coup_fourre")) == (0, 600)  # two coups fourrés
    recorded = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["sheet"]
    assert (recorded["rows"][0]["safeties"], recorded["rows"][0]["coup_fourre"]) == (200, 400)
    assert recorded["totals"] == list(sh.totals)
    bad = path.read_text(encoding="utf-8").replace('"coup_fourre":400', '"coup_fourre":500')
    with pytest.raises(RecordError, match="score sheet of hand 1 is wrong"):
        replay_text(bad)
