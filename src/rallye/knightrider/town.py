"""What a built town is like, for a designer: its road-connected pieces and how far the
cars start from the villain.

``rallye simulate knightrider`` reports these figures over many deals (issue #62), and the
tests on the quick build check them.

>>> from rallye.knightrider import Options, new_game
>>> f = town_figures(new_game(3, seed=1, options=Options(quick_build=True)))
>>> f.tiles, f.start_fields == 3 * f.start_tiles
(36, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from rallye.knightrider import geometry as g
from rallye.knightrider.state import State
from rallye.knightrider.track import compute_links, mask_table, road_distances, road_pieces


@dataclass(frozen=True, slots=True)
class TownFigures:
    """One town, once the chase has its villain.

    * ``tiles`` – tiles laid (the unused ones not counted);
    * ``pieces`` – road-connected pieces (a tile no road joins is a piece of one);
    * ``largest`` – tiles in the largest piece;
    * ``villain_piece`` – tiles in the villain's piece;
    * ``start_fields`` – road fields from the villain's field to the start tile's middle
      field by the shortest way (-1 before the start tile is known);
    * ``start_tiles`` – the same in tiles: a tile is 3×3 cells and every road between two
      tiles passes both middles, so one tile further is exactly 3 fields further
      (``start_fields == 3 * start_tiles``): counting "von Tableau-Mitte zu
      Tableau-Mitte" in tiles or in road fields gives the same farthest tile.
    """

    tiles: int
    pieces: int
    largest: int
    villain_piece: int
    start_fields: int
    start_tiles: int

    @property
    def largest_share(self) -> float:
        """The largest piece's share of the tiles laid."""
        return self.largest / self.tiles if self.tiles else 0.0


def town_figures(state: State) -> TownFigures:
    """The figures of ``state``'s town (the road links as laid: detours not counted)."""
    if state.villain < 0:
        raise ValueError("the town's figures need the villain placed (the building phase is over)")
    links = compute_links(state.board, mask_table(state.pieces))
    mids = {g.sq_index(x, y): g.middle(x, y) for _, x, y, _ in state.laid}
    pieces = road_pieces(links, mids)
    villain_sq = g.sq_index(*g.cell_square(state.villain))
    villain_piece = next(len(p) for p in pieces if villain_sq in p)
    fields = tiles = -1
    if state.start_sq >= 0:
        fields = road_distances(links, state.villain).get(mids[state.start_sq], -1)
        tiles = _tile_steps(mids, villain_sq, state.start_sq, links)
    return TownFigures(
        tiles=len(mids),
        pieces=len(pieces),
        largest=max(len(p) for p in pieces),
        villain_piece=villain_piece,
        start_fields=fields,
        start_tiles=tiles,
    )


def _tile_steps(mids: dict[int, int], start: int, goal: int, links: bytes) -> int:
    """Tiles from ``start`` to ``goal`` by road, counted tile by tile (neighbours whose
    roads meet), independently of the field count; -1 if no road joins them."""
    steps = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for sq in frontier:
            x, y = g.sq_xy(sq)
            for d, (dx, dy) in enumerate(g.DXY):
                nb = g.sq_index(x + dx, y + dy) if g.in_table(x + dx, y + dy) else -1
                if nb in mids and nb not in steps and (links[g.arm(x, y, d)] >> d) & 1:
                    steps[nb] = steps[sq] + 1
                    nxt.append(nb)
        frontier = nxt
    return steps.get(goal, -1)
