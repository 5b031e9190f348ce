"""Edition data (DESIGN habit 9): the four built-in files load, every cell of the rule
model's table "Where the editions differ" and of its card table is a field of the loaded
config with the right value, the registry finds editions by key and alias, and a malformed
file fails with a ConfigError naming the file and the field."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from rallye.core.errors import ConfigError
from rallye.mille import editions, get_edition, load_edition
from rallye.mille.cards import CARDS
from rallye.mille.edition import SCORE_LINES, parse_edition

KEYS = ("wm2006", "hu", "fxschmid", "meilen")


def raw(key: str) -> dict:
    text = (resources.files("rallye.mille") / "editions" / f"{key}.json").read_text(encoding="utf-8")
    return json.loads(text)


def test_every_builtin_edition_loads_in_a_fixed_order():
    assert tuple(e.key for e in editions()) == KEYS
    for key in KEYS:
        ed = get_edition(key)
        assert parse_edition(raw(key), source=f"{key}.json") == ed
        assert ed.title and ed.seed.endswith(".txt")


def test_builtin_editions_name_their_seeds():
    assert {k: get_edition(k).seed for k in KEYS} == {
        "wm2006": "000_4193bfaadeb92609.txt", "hu": "003_e3960c2f2d24cda1.txt",
        "fxschmid": "004_7f003242e2db611d.txt", "meilen": "002_be66ae708d919cfd.txt",
    }  # fmt: skip


# -- the card table ------------------------------------------------------------------
STANDARD_COUNTS = {
    "D25": 10, "D50": 10, "D75": 10, "D100": 12, "D200": 4, "ROLL": 14, "STOP": 5, "SPEED_LIMIT": 4,
    "END_OF_LIMIT": 6, "OUT_OF_GAS": 3, "GASOLINE": 6, "FLAT_TIRE": 3, "SPARE_TIRE": 6, "ACCIDENT": 3,
    "REPAIRS": 6, "RIGHT_OF_WAY": 1, "EXTRA_TANK": 1, "PUNCTURE_PROOF": 1, "DRIVING_ACE": 1,
}  # fmt: skip


@pytest.mark.parametrize("key", ["wm2006", "hu", "fxschmid"])
def test_cards_standard_deck_106(key):
    ed = get_edition(key)
    assert dict(ed.deck) == STANDARD_COUNTS
    assert sum(STANDARD_COUNTS.values()) == 106


def test_meilen_deck_ten_d100_104_cards():
    """Resolution (meilen deck): the seed's list (10 x D100, 104 cards), not its "106"."""
    ed = get_edition("meilen")
    assert dict(ed.deck) == {**STANDARD_COUNTS, "D100": 10}
    assert len(ed.deck_for(4)) == 104


NAMES = {  # the card table of docs/rules/mille-bornes.md, in each edition's own language
    "wm2006": ["Grüne Welle", "Stop", "Geschwindigkeitsbegrenzung", "Ende Geschwindigkeitsbegrenzung", "Leerer Tank",
               "Benzin", "Reifenpanne", "Ersatzreifen", "Blechschaden", "Werkstatt", "Vorfahrt", "Tankstelle",
               "Pannensichere Reifen", "Fahrer-Training"],
    "hu": ["Zöldhullám", "Stop", "Sebességkorlátozás", "Sebességkorlátozás vége", "Üres tank", "Benzin", "Defekt",
           "Pótgumik", "Ütközés", "Szerviz", "Elsőbbség", "Benzinkút", "Defekt biztos autógumi", "Autósiskola"],
    "fxschmid": ["Freie Fahrt – Grünes Licht", "Stop – Rotes Licht", "Geschwindigkeitsbegrenzung",
                 "Ende der Geschwindigkeitsbegrenzung", "Leerer Tank (Benzinpanne)", "Reservekanister",
                 "Reifenpanne", "Reservereifen", "Motorpanne", "Selbsthilfe", "Blaulicht-Fahrzeug (Vorfahrt)",
                 "Tankstelle", "Rallyeservice", "Werkstatt"],
    "meilen": ["Grüne Ampel", "Rote Ampel", "Geschwindigkeitsbegrenzung", "Ende der Geschwindigkeitsbegrenzung",
               "Benzinmangel", "Benzin", "Reifenpanne", "Ersatzrad", "Unfall", "Reparaturen", "Vorrang", "Tankwagen",
               "Unkaputtbar", "As des Lenkrads"],
}  # fmt: skip
NON_DISTANCE = CARDS[5:]


@pytest.mark.parametrize("key", KEYS)
def test_cards_named_in_the_editions_own_language(key):
    ed = get_edition(key)
    assert ed.language == {"hu": "hu"}.get(key, "de")
    assert [ed.card_name(c) for c in NON_DISTANCE] == NAMES[key]
    assert ed.card_name("ROLL", "en") == "Roll" and ed.card_name("ROLL", "fr") == "Feu vert"


def test_meilen_distance_cards_are_animals():
    ed = get_edition("meilen")
    assert [ed.card_name(c) for c in CARDS[:5]] == [
        "Schnecke 25", "Ente 50", "Schmetterling 75", "Hase 100", "Schwalbe 200",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("key", "words"),
    [("wm2006", {"delayed_action": "Die Krönung", "shutout": "Schneider", "extension": "Verlängerung"}),
     ("hu", {"delayed_action": "Végsebesség", "shutout": "Durr-defekt", "extension": "Hosszabbítás"}),
     ("fxschmid", {"delayed_action": "Sonderwertung", "shutout": "Nicht platziert", "safe_trip": "Fahrerführung"})],
)  # fmt: skip
def test_score_sheet_words_of_the_box(key, words):
    ed = get_edition(key)
    for line, word in words.items():
        assert ed.word(line) == word
    for line in SCORE_LINES:
        assert ed.word(line, "en") and ed.word(line) != ""


# -- every cell of "Where the editions differ", on the loaded config ------------------------
def cell(key):
    ed = get_edition(key)
    sc, ex = ed.scoring, ed.extension
    return {
        "players": ed.players,
        "sides": {n: ed.sides_for(n) for n in ed.players},
        "target": (ed.target_alone, ed.target_team),
        "removed": (ed.small_game_players, tuple(sorted(ed.small_game_removed))),
        "extra turn": ed.extra_turn_after_safety,
        "safety": sc.safety,
        "all four": 4 * sc.safety + sc.all_four_bonus,
        "coup fourré": sc.coup_fourre_bonus,
        "trip": sc.trip,
        "safe trip": sc.safe_trip,
        "delayed": sc.delayed_action,
        "shut-out": (sc.shutout, sc.shutout_to),
        "extension": (ex.allowed, ex.alone_only, ex.from_km, ex.to_km, sc.extension, ex.ends_on_empty_draw,
                      ex.failed_bonus_to),
        "empty pile": (ed.empty_draw_ends_hand, ed.closest_gets_trip_when_no_completion),
        "hand left": ed.subtract_distance_in_hand,
        "match": ed.match_target,
    }  # fmt: skip


ALONE_TEAMS = {2: ((0,), (1,)), 3: ((0,), (1,), (2,)), 4: ((0, 2), (1, 3))}
FOUR_HAZARDS = tuple(sorted(["STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT"]))
WM2006 = {
    "players": (2, 3, 4, 6),
    "sides": {**ALONE_TEAMS, 6: ((0, 3), (1, 4), (2, 5))},
    "target": (700, 1000),
    "removed": ((2, 3), FOUR_HAZARDS),
    "extra turn": False,
    "safety": 100,
    "all four": 700,
    "coup fourré": 300,
    "trip": 400,
    "safe trip": 300,
    "delayed": 300,
    "shut-out": (500, "completer"),
    "extension": (True, True, 700, 1000, 200, False, "nobody"),
    "empty pile": (False, False),
    "hand left": False,
    "match": 5000,
}
EXPECTED = {
    "wm2006": WM2006,
    "hu": {**WM2006, "coup fourré": 200, "extension": (True, True, 700, 1000, 200, True, "nobody")},
    "fxschmid": {
        **WM2006,
        "sides": {**ALONE_TEAMS, 6: ((0, 2, 4), (1, 3, 5))},
        "removed": ((2, 3), tuple(sorted([*FOUR_HAZARDS, "SPEED_LIMIT"]))),
        "extra turn": True,
        "shut-out": (500, "placed"),
        "extension": (True, True, 700, 1000, 200, False, "opponents"),
    },
    "meilen": {
        "players": (2, 3, 4, 5, 6),
        "sides": {n: tuple((i,) for i in range(n)) for n in range(2, 7)},
        "target": (1000, 1000),
        "removed": ((2, 3), ()),
        "extra turn": False,
        "safety": 100,
        "all four": 400,
        "coup fourré": 300,
        "trip": 400,
        "safe trip": 200,
        "delayed": 0,
        "shut-out": (0, "none"),
        "extension": (False, True, 1000, 1000, 0, True, "nobody"),
        "empty pile": (True, True),
        "hand left": True,
        "match": None,
    },
}


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("point", list(WM2006))
def test_edition_table_cell_on_the_loaded_config(key, point):
    assert cell(key)[point] == EXPECTED[key][point]


def test_extra_turn_for_a_second_safety_in_a_coup_fourre_turn_wm2006_and_fxschmid_only():
    got = {k: get_edition(k).extra_turn_after_safety_in_coup_fourre_turn for k in KEYS}
    assert got == {"wm2006": True, "hu": False, "fxschmid": True, "meilen": False}


# -- registry ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "key"),
    [("wm2006", "wm2006"), ("WM2006", "wm2006"), (" winning-moves ", "wm2006"), ("1000km", "wm2006"),
     ("hungarian", "hu"), ("Magyar", "hu"), ("schmid", "fxschmid"), ("fx-schmid", "fxschmid"),
     ("10000-kilometer", "fxschmid"), ("1000-meilen", "meilen"), ("miles", "meilen")],
)  # fmt: skip
def test_registry_finds_by_key_and_alias(name, key):
    assert get_edition(name) is get_edition(key)


def test_registry_passes_an_edition_through_and_loads_a_json_path(tmp_path):
    ed = get_edition("hu")
    assert get_edition(ed) is ed
    data = raw("hu") | {"key": "house", "aliases": ["hausregel"], "match_target": 3000}
    p = tmp_path / "house.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    house = get_edition(str(p))
    assert house.key == "house" and house.match_target == 3000 and house.scoring == ed.scoring


def test_registry_unknown_edition_lists_the_known_ones():
    with pytest.raises(ConfigError) as info:
        get_edition("monopoly")
    msg = str(info.value)
    assert "'monopoly'" in msg
    for key in KEYS:
        assert key in msg


def test_aliases_do_not_collide():
    names = [n.lower() for e in editions() for n in (e.key, *e.aliases)]
    assert len(names) == len(set(names))


# -- malformed files -----------------------------------------------------------------
def _without(path):
    def edit(d):
        *parents, last = path
        for p in parents:
            d = d[p]
        del d[last]

    return edit


def _set(path, value):
    def edit(d):
        *parents, last = path
        for p in parents:
            d = d[p]
        d[last] = value

    return edit


MALFORMED = [
    ("missing field", _without(["target_alone"]), "target_alone", "is missing"),
    ("missing nested field", _without(["scoring", "trip"]), "scoring.trip", "is missing"),
    ("missing card count", _without(["deck", "ROLL"]), "deck.ROLL", "is missing"),
    ("missing team line", _without(["teams", "6"]), "teams.6", "is missing"),
    ("wrong type", _set(["players"], "four"), "players", "must be list"),
    ("wrong type bool for int", _set(["scoring", "safety"], True), "scoring.safety", "must be int"),
    ("wrong type string for bool", _set(["extra_turn_after_safety"], "no"), "extra_turn_after_safety", "must be bool"),
    ("negative value", _set(["scoring", "trip"], -400), "scoring.trip", "negative"),
    ("unknown card in deck", _set(["deck", "D300"], 2), "deck", "unknown cards D300"),
    ("unknown card removed", _set(["small_game", "removed"], ["STOP", "BANANA"]), "small_game.removed", "BANANA"),
    ("two of a safety", _set(["deck", "EXTRA_TANK"], 2), "deck.EXTRA_TANK", "each safety exists once"),
    ("bad teams: seat missing", _set(["teams", "4"], [[0, 2], [1]]), "teams.4", "each seat"),
    ("bad teams: seat twice", _set(["teams", "4"], [[0, 2], [1, 2, 3]]), "teams.4", "each seat"),
    ("bad teams: not alternating", _set(["teams", "4"], [[0, 1], [2, 3]]), "teams.4", "alternately"),
    ("bad teams: one side", _set(["teams", "2"], [[0, 1]]), "teams.2", "two sides"),
    ("bad teams: not lists", _set(["teams", "3"], [0, 1, 2]), "teams.3", "seat lists"),
    ("bad player count", _set(["players"], [2, 7]), "players", "from 2 to 6"),
    ("bad shut-out receiver", _set(["scoring", "shutout_to"], "everyone"), "scoring.shutout_to", "one of"),
    ("bad failed-extension receiver", _set(["extension", "failed_bonus_to"], "caller"), "extension.failed_bonus_to",
     "one of"),
    ("extension going nowhere", _set(["extension", "to"], 700), "extension.to", "greater"),
    ("missing card name", _without(["names", "de", "ROLL"]), "names.de.ROLL", "missing"),
    ("no names in own language", _set(["language"], "it"), "names", "own language"),
    ("unknown score word", _set(["score_words", "de", "bonus"], "x"), "score_words.de", "unknown keys"),
    ("too few cards", _set(["deck"], {**{c: 0 for c in CARDS}, "RIGHT_OF_WAY": 1, "EXTRA_TANK": 1,
                                       "PUNCTURE_PROOF": 1, "DRIVING_ACE": 1, "D25": 20}), "deck", "too few cards"),
]  # fmt: skip


@pytest.mark.parametrize(("desc", "edit", "field", "what"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_edition_file_names_the_file_and_the_field(tmp_path, desc, edit, field, what):
    data = copy.deepcopy(raw("wm2006"))
    edit(data)
    path = tmp_path / "broken-edition.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_edition(path)
    msg = str(info.value)
    assert str(path) in msg
    assert f"field '{field}'" in msg
    assert what in msg
    assert info.value.code == "config_error"


def test_edition_file_that_is_not_json_names_the_file(tmp_path):
    path = tmp_path / "half.json"
    path.write_text(json.dumps(raw("hu"))[:300], encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_edition(path)
    assert str(path) in str(info.value) and "not valid JSON" in str(info.value)


def test_edition_file_that_is_not_an_object_names_the_file(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ConfigError, match="must be a JSON object") as info:
        load_edition(path)
    assert str(path) in str(info.value)


def test_missing_edition_file_names_the_file(tmp_path):
    path = tmp_path / "nope.json"
    with pytest.raises(ConfigError) as info:
        load_edition(path)
    assert str(path) in str(info.value)


def test_a_house_rule_table_is_just_another_file(tmp_path):
    data = raw("wm2006") | {"key": "house", "aliases": []}
    data["scoring"] = data["scoring"] | {"safe_trip": 0, "shutout_to": "placed"}
    path = tmp_path / "house.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ed = load_edition(path)
    assert ed.scoring.safe_trip == 0 and ed.scoring.shutout_to == "placed"
    assert ed.deck_for(2) == get_edition("wm2006").deck_for(2)


# Issue 55, item 7: edition files are bounded. ``target_alone: 0`` passed and later made the
# heuristic bot divide by zero; ``deck.D100: 1000000000`` built a deck until memory ran out.
UNPLAYABLE = [
    ("target_alone 0", _set(["target_alone"], 0), "target_alone", "greater than 0"),
    ("target_team 0", _set(["target_team"], 0), "target_team", "greater than 0"),
    ("target beyond the bound", _set(["target_alone"], 10**9), "target_alone", "at most 10,000"),
    ("a billion D100", _set(["deck", "D100"], 1_000_000_000), "deck.D100", "at most 50"),
    ("a deck beyond the bound", _set(["deck"], {**{c: 40 for c in CARDS}, "RIGHT_OF_WAY": 1, "EXTRA_TANK": 1,
                                                "PUNCTURE_PROOF": 1, "DRIVING_ACE": 1}), "deck", "at most 300 cards"),
    ("match target 0", _set(["match_target"], 0), "match_target", "from 1"),
    ("points beyond the bound", _set(["scoring", "trip"], 10**12), "scoring.trip", "at most 100,000"),
    ("seat that is not a number", _set(["teams", "2"], [[None], [1]]), "teams.2", "seat lists"),
    ("removed card that is not a name", _set(["small_game", "removed"], [["STOP"]]), "small_game.removed", "unknown"),
]  # fmt: skip


@pytest.mark.parametrize(("desc", "edit", "field", "what"), UNPLAYABLE, ids=[m[0] for m in UNPLAYABLE])
def test_edition_files_are_bounded(tmp_path, desc, edit, field, what):
    test_malformed_edition_file_names_the_file_and_the_field(tmp_path, desc, edit, field, what)
