"""The piece files: the shipped set is valid; bad sets are refused naming piece and field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rallye.core.errors import ConfigError
from rallye.knightrider import Options, new_game
from rallye.knightrider.pieces import TILE_NUMBERS, load_pieces, parse_escape, parse_tiles

DATA = Path(__file__).resolve().parents[2] / "src" / "rallye" / "knightrider" / "data"


def tiles_doc() -> dict[str, Any]:
    return json.loads((DATA / "tiles.json").read_text("utf-8"))  # type: ignore[no-any-return]


def escape_doc() -> dict[str, Any]:
    return json.loads((DATA / "escape_cards.json").read_text("utf-8"))  # type: ignore[no-any-return]


def test_shipped_tiles_are_the_rule_models_36() -> None:
    p = load_pieces()
    assert [t.number for t in p.tiles] == list(TILE_NUMBERS)
    shapes = [t.shape for t in p.tiles]
    assert shapes.count("t_junction") == 20
    assert shapes.count("curve") == 8
    assert shapes.count("straight") == 6
    assert shapes.count("dead_end") == 2
    for t in p.tiles:
        assert t.grid[1][1] == "."
        assert all(t.grid[r][c] == "#" for r in (0, 2) for c in (0, 2))


def test_shipped_escape_cards_are_the_rule_models_11() -> None:
    cards = load_pieces().escape
    assert len(cards) == 11
    kinds = [c.kind for c in cards]
    assert (kinds.count("orthogonal"), kinds.count("diagonal"), kinds.count("two_step"), kinds.count("knight")) == (
        4,
        3,
        2,
        2,
    )
    assert len({(c.dx, c.dy) for c in cards}) == 11  # varied directions
    for c in cards:
        assert c.grid[1][2] == "V"
        assert sum(row.count("X") for row in c.grid) == 1
    two = [c for c in cards if c.kind == "two_step"]
    assert all(c.dy == 0 for c in two)  # along the long (5-tile) axis


def _tile_error(mutate: Any) -> str:
    doc = tiles_doc()
    mutate(doc)
    with pytest.raises(ConfigError) as ei:
        parse_tiles(doc, "my_tiles.json")
    return str(ei.value)


def test_bad_tile_number_out_of_range() -> None:
    msg = _tile_error(lambda d: d["tiles"][0].update(number=17))
    assert "tile 17" in msg and "'number'" in msg and "out of range" in msg and "my_tiles.json" in msg


def test_bad_tile_number_duplicate() -> None:
    msg = _tile_error(lambda d: d["tiles"][1].update(number=11))
    assert "tile 11" in msg and "duplicate" in msg


def test_bad_tile_road_edge_not_at_edge_middle() -> None:
    msg = _tile_error(lambda d: d["tiles"][2].update(grid=[".##", "...", "#.#"]))
    assert "tile 13" in msg and "'grid'" in msg and "road edge not at an edge's middle cell" in msg


def test_bad_tile_four_openings() -> None:
    msg = _tile_error(lambda d: d["tiles"][0].update(grid=["#.#", "...", "#.#"]))
    assert "tile 11" in msg and "4 openings" in msg


def test_bad_tile_middle_not_road() -> None:
    msg = _tile_error(lambda d: d["tiles"][0].update(grid=["#.#", ".#.", "###"]))
    assert "tile 11" in msg and "middle cell not road" in msg


def test_bad_tile_wrong_mix_counts() -> None:
    def turn_t_into_cross_free_curve(d: dict[str, Any]) -> None:
        t = next(t for t in d["tiles"] if t["grid"][1] == "...")
        t["grid"] = ["#.#", "#..", "###"]

    msg = _tile_error(turn_t_into_cross_free_curve)
    assert "mix." in msg and "declares" in msg


def test_bad_tile_count() -> None:
    msg = _tile_error(lambda d: d["tiles"].pop())
    assert "35 tiles, expected 36" in msg and "missing 66)" in msg


def _escape_error(mutate: Any) -> str:
    doc = escape_doc()
    mutate(doc)
    with pytest.raises(ConfigError) as ei:
        parse_escape(doc, "my_escape.json")
    return str(ei.value)


def test_bad_escape_card_without_target() -> None:
    msg = _escape_error(lambda d: d["cards"][0].update(grid=[".....", "..V..", "....."]))
    assert "escape card 1" in msg and "exactly one target" in msg and "found 0" in msg


def test_bad_escape_card_two_targets() -> None:
    msg = _escape_error(lambda d: d["cards"][0].update(grid=["..X..", "..V..", "..X.."]))
    assert "escape card 1" in msg and "found 2" in msg


def test_bad_escape_villain_not_in_middle() -> None:
    msg = _escape_error(lambda d: d["cards"][3].update(grid=["V....", "..X..", "....."]))
    assert "escape card 4" in msg and "villain" in msg


def test_bad_escape_count() -> None:
    msg = _escape_error(lambda d: d["cards"].pop())
    assert "10 cards, expected 11" in msg


def test_bad_escape_mix() -> None:
    msg = _escape_error(lambda d: d["cards"][0].update(grid=[".....", "..V..", ".X..."]))
    assert "mix." in msg


def test_user_piece_files_via_options(tmp_path: Path) -> None:
    doc = tiles_doc()
    doc2 = copy.deepcopy(doc)
    # swap two tiles' grids: still a valid set, but a different one
    doc2["tiles"][0]["grid"], doc2["tiles"][1]["grid"] = doc["tiles"][1]["grid"], doc["tiles"][0]["grid"]
    tp = tmp_path / "tiles.json"
    tp.write_text(json.dumps(doc2), "utf-8")
    opts = Options(quick_build=True, tiles_path=str(tp))
    s = new_game(2, 3, opts)
    assert s.pieces.tile(11).grid == tuple(doc["tiles"][1]["grid"])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    with pytest.raises(ConfigError, match=r"bad\.json"):
        new_game(2, 3, Options(escape_path=str(bad)))
    with pytest.raises(ConfigError, match="cannot read"):
        new_game(2, 3, Options(tiles_path=str(tmp_path / "missing.json")))
