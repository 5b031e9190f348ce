"""The pieces as data: the 36 track tiles and the 11 escape cards.

The shipped files live in ``rallye/knightrider/data/`` (``tiles.json``,
``escape_cards.json``); a user can point a game at their own files
(:class:`~rallye.knightrider.state.Options` ``tiles_path`` / ``escape_path``). The loader
checks every piece and refuses a bad set with a :class:`~rallye.core.errors.ConfigError`
naming the file, the piece and the field.

Tile file (``format: rallye-knightrider-tiles/1``)::

    {"format": ..., "mix": {"t_junction": 20, "curve": 8, "straight": 6, "dead_end": 2},
     "tiles": [{"number": 11, "grid": ["#.#", "...", "###"]}, ...]}

A grid is 3 rows of 3 cells, ``.`` road (a field), ``#`` built-up, north up. The middle
cell is always road; a road cell on the rim must be the middle cell of its edge (an
opening); 1 to 3 openings (no crossings). The numbers are exactly 11..66 with digits 1..6;
the tiles' shapes must match the declared ``mix``.

Escape file (``format: rallye-knightrider-escape/1``)::

    {"format": ..., "mix": {"orthogonal": 4, "diagonal": 3, "two_step": 2, "knight": 2},
     "cards": [{"id": 1, "grid": [".....", "..X..", "..V.."]}, ...]}

A grid is 3 rows of 5 tiles as the card lies on the table (north up): ``V`` the villain's
tile in the middle, exactly one ``X`` (the arrow's target), ``.`` other tiles. Exactly 11
cards whose kinds match the declared ``mix``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from rallye.core.errors import ConfigError
from rallye.core.jsonio import read_json

#: Sides / headings: 0 north, 1 east, 2 south, 3 west (clockwise).
SIDES = "NESW"
#: Rim cell (row, col) of each side's opening.
_OPENING_CELL = {(0, 1): 0, (1, 2): 1, (2, 1): 2, (1, 0): 3}

SHAPES = ("t_junction", "curve", "straight", "dead_end")
ESCAPE_KINDS = ("orthogonal", "diagonal", "two_step", "knight")
TILE_NUMBERS = tuple(10 * a + b for a in range(1, 7) for b in range(1, 7))
ESCAPE_COUNT = 11


def rotate_mask(mask: int, quarter_turns: int) -> int:
    """Rotate a 4-bit side mask clockwise by ``quarter_turns`` × 90°."""
    q = quarter_turns % 4
    return ((mask << q) | (mask >> (4 - q))) & 0xF


def shape_of(mask: int) -> str:
    n = bin(mask).count("1")
    if n == 3:
        return "t_junction"
    if n == 1:
        return "dead_end"
    if mask in (0b0101, 0b1010):
        return "straight"
    return "curve"


@dataclass(frozen=True, slots=True)
class Tile:
    """One track tile: its number, printed grid (rotation 0) and opening mask."""

    number: int
    grid: tuple[str, str, str]
    openings: int  # bit s set = road opening on side s (rotation 0)

    @property
    def shape(self) -> str:
        return shape_of(self.openings)

    def mask(self, rot: int) -> int:
        """Opening mask after turning the tile clockwise by ``rot`` degrees."""
        return rotate_mask(self.openings, rot // 90)

    def orientations(self) -> tuple[int, ...]:
        """The distinct rotations (degrees) — a straight has two, others four."""
        seen: set[int] = set()
        out: list[int] = []
        for rot in (0, 90, 180, 270):
            m = self.mask(rot)
            if m not in seen:
                seen.add(m)
                out.append(rot)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class EscapeCard:
    """One escape card: the villain moves by ``(dx, dy)`` tiles (x east, y south)."""

    id: int
    grid: tuple[str, str, str]
    dx: int
    dy: int

    @property
    def kind(self) -> str:
        return escape_kind(self.dx, self.dy)


def escape_kind(dx: int, dy: int) -> str:
    a, b = sorted((abs(dx), abs(dy)))
    if (a, b) == (0, 1):
        return "orthogonal"
    if (a, b) == (1, 1):
        return "diagonal"
    if (a, b) == (0, 2):
        return "two_step"
    if (a, b) == (1, 2):
        return "knight"
    return "other"


@dataclass(frozen=True, slots=True, eq=False)
class Pieces:
    """A validated tile set and escape deck (compared by identity; loads are cached)."""

    tiles: tuple[Tile, ...]
    escape: tuple[EscapeCard, ...]
    source: tuple[str, str]

    def tile(self, number: int) -> Tile:
        return self.tiles[_TILE_INDEX[number]]

    def mask(self, number: int, rot: int) -> int:
        return self.tiles[_TILE_INDEX[number]].mask(rot)


_TILE_INDEX = {n: i for i, n in enumerate(TILE_NUMBERS)}


def _fail(src: str, where: str, msg: str, rule: str) -> ConfigError:
    return ConfigError(f"{src}: {where}: {msg}", rule=rule)


def _load_json(path: str | Path | None, default: str) -> tuple[Any, str]:
    if path is None:
        text = resources.files("rallye.knightrider").joinpath("data").joinpath(default).read_text("utf-8")
        return json.loads(text), f"<rallye>/knightrider/data/{default}"
    return read_json(path, what="piece file"), str(path)


def _check_mix(src: str, mix: Any, kinds: tuple[str, ...], total: int, what: str) -> dict[str, int]:
    if not isinstance(mix, dict) or set(mix) - set(kinds):
        raise _fail(src, "field 'mix'", f"must map {', '.join(kinds)} to counts", f"{what}-mix")
    out: dict[str, int] = {}
    for k in kinds:
        v = mix.get(k, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise _fail(src, f"field 'mix.{k}'", "must be a count >= 0", f"{what}-mix")
        out[k] = v
    if sum(out.values()) != total:
        raise _fail(src, "field 'mix'", f"counts sum to {sum(out.values())}, expected {total}", f"{what}-mix")
    return out


def parse_tiles(doc: Any, src: str = "<tiles>") -> tuple[Tile, ...]:
    """Validate a tile document (already parsed JSON) and build the tiles, sorted by number."""
    if not isinstance(doc, dict) or not isinstance(doc.get("tiles"), list):
        raise _fail(src, "top level", "must be an object with a 'tiles' list", "tile-file")
    if doc.get("format") != "rallye-knightrider-tiles/1":
        raise _fail(src, "field 'format'", "must be 'rallye-knightrider-tiles/1'", "tile-file")
    mix = _check_mix(src, doc.get("mix"), SHAPES, len(TILE_NUMBERS), "tile")
    seen: dict[int, int] = {}
    tiles: list[Tile] = []
    for i, raw in enumerate(doc["tiles"]):
        where = f"tile #{i + 1}"
        if not isinstance(raw, dict):
            raise _fail(src, where, "must be an object", "tile-file")
        num = raw.get("number")
        if not isinstance(num, int) or isinstance(num, bool):
            raise _fail(src, f"{where} field 'number'", "missing or not an integer", "tile-number")
        where = f"tile {num}"
        if num not in _TILE_INDEX:
            raise _fail(
                src, f"{where} field 'number'", "out of range: numbers are 11..66 with digits 1..6", "tile-number"
            )
        if num in seen:
            raise _fail(src, f"{where} field 'number'", f"duplicate (also tile #{seen[num]})", "tile-number")
        seen[num] = i + 1
        grid = raw.get("grid")
        if not isinstance(grid, list) or len(grid) != 3 or not all(isinstance(r, str) and len(r) == 3 for r in grid):
            raise _fail(src, f"{where} field 'grid'", "must be 3 strings of 3 cells", "tile-grid")
        openings = 0
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch not in ".#":
                    raise _fail(
                        src, f"{where} field 'grid'", f"cell {r},{c} is {ch!r}; use '.' road or '#' built", "tile-grid"
                    )
                if ch == "." and (r, c) != (1, 1):
                    side = _OPENING_CELL.get((r, c))
                    if side is None:
                        raise _fail(
                            src,
                            f"{where} field 'grid'",
                            f"road edge not at an edge's middle cell (cell {r},{c})",
                            "tile-road-edge",
                        )
                    openings |= 1 << side
        if grid[1][1] != ".":
            raise _fail(src, f"{where} field 'grid'", "middle cell not road (the villain's field)", "tile-middle")
        n_open = bin(openings).count("1")
        if n_open == 4:
            raise _fail(
                src, f"{where} field 'grid'", "4 openings: crossings are not allowed (at most 3)", "tile-openings"
            )
        if n_open == 0:
            raise _fail(src, f"{where} field 'grid'", "no opening: a tile needs 1 to 3 roads", "tile-openings")
        tiles.append(Tile(num, (grid[0], grid[1], grid[2]), openings))
    if len(tiles) != len(TILE_NUMBERS):
        missing = sorted(set(TILE_NUMBERS) - set(seen))
        raise _fail(
            src,
            "field 'tiles'",
            f"{len(tiles)} tiles, expected 36 (missing {', '.join(map(str, missing))})",
            "tile-count",
        )
    counts = {k: 0 for k in SHAPES}
    for t in tiles:
        counts[t.shape] += 1
    for k in SHAPES:
        if counts[k] != mix[k]:
            raise _fail(src, f"field 'mix.{k}'", f"declares {mix[k]} but the tiles have {counts[k]}", "tile-mix")
    return tuple(sorted(tiles, key=lambda t: t.number))


def parse_escape(doc: Any, src: str = "<escape>") -> tuple[EscapeCard, ...]:
    """Validate an escape-card document and build the cards in file order."""
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise _fail(src, "top level", "must be an object with a 'cards' list", "escape-file")
    if doc.get("format") != "rallye-knightrider-escape/1":
        raise _fail(src, "field 'format'", "must be 'rallye-knightrider-escape/1'", "escape-file")
    mix = _check_mix(src, doc.get("mix"), ESCAPE_KINDS, ESCAPE_COUNT, "escape")
    cards: list[EscapeCard] = []
    ids: set[int] = set()
    for i, raw in enumerate(doc["cards"]):
        where = f"escape card #{i + 1}"
        if not isinstance(raw, dict):
            raise _fail(src, where, "must be an object", "escape-file")
        cid = raw.get("id")
        if not isinstance(cid, int) or isinstance(cid, bool) or cid < 1:
            raise _fail(src, f"{where} field 'id'", "missing or not a positive integer", "escape-id")
        where = f"escape card {cid}"
        if cid in ids:
            raise _fail(src, f"{where} field 'id'", "duplicate", "escape-id")
        ids.add(cid)
        grid = raw.get("grid")
        if not isinstance(grid, list) or len(grid) != 3 or not all(isinstance(r, str) and len(r) == 5 for r in grid):
            raise _fail(src, f"{where} field 'grid'", "must be 3 strings of 5 tiles", "escape-grid")
        targets: list[tuple[int, int]] = []
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch not in ".VX":
                    raise _fail(
                        src, f"{where} field 'grid'", f"tile {r},{c} is {ch!r}; use '.', 'V' or 'X'", "escape-grid"
                    )
                if ch == "V" and (r, c) != (1, 2):
                    raise _fail(
                        src, f"{where} field 'grid'", "the villain 'V' must be the middle tile only", "escape-villain"
                    )
                if ch == "X":
                    targets.append((c - 2, r - 1))
        if grid[1][2] != "V":
            raise _fail(src, f"{where} field 'grid'", "the middle tile must be the villain 'V'", "escape-villain")
        if len(targets) != 1:
            raise _fail(
                src, f"{where} field 'grid'", f"needs exactly one target 'X', found {len(targets)}", "escape-target"
            )
        dx, dy = targets[0]
        cards.append(EscapeCard(cid, (grid[0], grid[1], grid[2]), dx, dy))
    if len(cards) != ESCAPE_COUNT:
        raise _fail(src, "field 'cards'", f"{len(cards)} cards, expected {ESCAPE_COUNT}", "escape-count")
    counts = {k: 0 for k in ESCAPE_KINDS}
    for card in cards:
        k = card.kind
        if k not in counts:
            raise _fail(
                src,
                f"escape card {card.id} field 'grid'",
                f"move {card.dx},{card.dy} is none of {ESCAPE_KINDS}",
                "escape-mix",
            )
        counts[k] += 1
    for k in ESCAPE_KINDS:
        if counts[k] != mix[k]:
            raise _fail(src, f"field 'mix.{k}'", f"declares {mix[k]} but the cards have {counts[k]}", "escape-mix")
    return tuple(cards)


@lru_cache(maxsize=32)
def load_pieces(tiles_path: str | None = None, escape_path: str | None = None) -> Pieces:
    """Load and validate a piece set (the shipped one when both paths are ``None``).

    >>> p = load_pieces()
    >>> len(p.tiles), len(p.escape), sorted({t.shape for t in p.tiles})
    (36, 11, ['curve', 'dead_end', 'straight', 't_junction'])
    """
    tdoc, tsrc = _load_json(tiles_path, "tiles.json")
    edoc, esrc = _load_json(escape_path, "escape_cards.json")
    return Pieces(parse_tiles(tdoc, tsrc), parse_escape(edoc, esrc), (tsrc, esrc))
