"""Phase 1: building the track (rule model "Phase 1" and its Resolutions)."""

from __future__ import annotations

from kr_helpers import MASK, ScriptedRng, pick_tiles

from rallye.knightrider import Options, Place, apply, legal_actions, new_game
from rallye.knightrider import geometry as g
from rallye.knightrider.engine import _draw, _Ev
from rallye.knightrider.state import evolve
from rallye.knightrider.track import mask_table, orientation_table, placement_problem, square_mask

CENTRE = {g.sq_index(x, y) for x, y in g.CENTRE}


def _touches_centre(x: int, y: int) -> bool:
    return any((x + dx, y + dy) in g.CENTRE for dx, dy in g.DXY)


def test_build_centre_is_four_face_down_tiles_and_start_player_rolled() -> None:
    s = new_game(4, 11)
    assert s.phase == "build"
    assert len(s.centre) == 4 and len(s.pile) == 36 - 4 - 1 and s.drawn
    assert s.current == s.start_player
    assert [e.kind for e in s.events][:2] == ["centre", "start_player"]
    starts = {new_game(4, seed).start_player for seed in range(40)}
    assert starts == {0, 1, 2, 3}


def test_build_turns_go_clockwise() -> None:
    s = new_game(3, 2)
    order = []
    for _ in range(6):
        order.append(s.current)
        s = apply(s, legal_actions(s)[0])
    assert order == [(order[0] + i) % 3 for i in range(6)]


def test_build_first_tile_of_each_player_must_touch_centre() -> None:
    s = new_game(3, 4)
    for _ in range(3):
        acts = legal_actions(s)
        assert acts and all(isinstance(a, Place) and _touches_centre(a.x, a.y) for a in acts)
        s = apply(s, acts[-1])
    # the fourth tile (start player's second) may go anywhere next to a face-up tile
    assert any(not _touches_centre(a.x, a.y) for a in legal_actions(s))  # type: ignore[union-attr]


def test_build_player_chooses_among_all_legal_positions_and_rotations() -> None:
    """legal_actions lists exactly the (square, rotation) pairs the laying rules allow."""
    s = new_game(2, 9)
    for step in range(14):
        masks = mask_table(s.pieces)
        orients = orientation_table(s.pieces)
        brute = set()
        for sq in range(g.N_SQUARES):
            for q in orients[s.drawn]:
                ok = (
                    placement_problem(
                        s.board, masks, s.drawn, sq, q, first=not s.first_laid[s.current], centre_down=bool(s.centre)
                    )
                    is None
                )
                if ok:
                    brute.add((sq, q))
        listed = [(g.sq_index(a.x, a.y), a.rot // 90) for a in legal_actions(s)]  # type: ignore[union-attr]
        assert set(listed) == brute and len(listed) == len(brute)
        assert listed == sorted(listed)  # documented order
        s = apply(s, legal_actions(s)[step % len(listed)])


def test_build_road_meets_road_and_built_meets_built() -> None:
    s = new_game(2, 5, Options(quick_build=True))
    masks = mask_table(s.pieces)
    for sq, v in enumerate(s.board):
        if not v:
            continue
        m = square_mask(s.board, masks, sq)
        x, y = g.sq_xy(sq)
        for d, (dx, dy) in enumerate(g.DXY):
            if g.in_table(x + dx, y + dy) and s.board[g.sq_index(x + dx, y + dy)]:
                nm = square_mask(s.board, masks, g.sq_index(x + dx, y + dy))
                assert (m >> d) & 1 == (nm >> g.opposite(d)) & 1


def test_build_square_where_several_roads_end_takes_only_a_tile_continuing_all() -> None:
    tiles = pick_tiles({(3, 2): MASK["ES"], (4, 3): MASK["NW"]})  # roads into (4,2) from W? no: build below
    board = [0] * g.N_SQUARES
    # square (4,2) is empty; west neighbour (3,2) has an E road, south neighbour (4,3) has an N road
    for (x, y), (n, rot) in tiles.items():
        board[g.sq_index(x, y)] = n * 4 + rot // 90 + 1
    s = new_game(2, 1)
    masks = mask_table(s.pieces)
    by_mask = {}
    for n, rots in masks.items():
        for q, m in enumerate(rots):
            by_mask.setdefault(m, (n, q))
    sq = g.sq_index(4, 2)
    ok = {
        name
        for name in ("SW", "EW", "NS", "NSW", "ESW", "W", "S", "NE")
        if placement_problem(
            tuple(board), masks, by_mask[MASK[name]][0], sq, by_mask[MASK[name]][1], first=False, centre_down=False
        )
        is None
    }
    assert ok == {"SW", "NSW", "ESW"}  # only tiles continuing both roads


def test_build_tile_fitting_nowhere_goes_back_and_player_draws_another() -> None:
    s0 = new_game(2, 1)
    masks = mask_table(s0.pieces)
    dead_end = next(n for n, r in masks.items() if bin(r[0]).count("1") == 1)
    t_tile = next(n for n, r in masks.items() if bin(r[0]).count("1") == 3)
    filler = next(n for n, r in masks.items() if n not in (dead_end, t_tile))
    hole = (5, 5)
    board = [filler * 4 + 1] * g.N_SQUARES
    for sq in CENTRE:
        board[sq] = 0
    board[g.sq_index(*hole)] = 0

    def put(x: int, y: int, name: str) -> None:
        n = next(n for n, r in masks.items() if MASK[name] in r and n not in (dead_end, t_tile))
        board[g.sq_index(x, y)] = n * 4 + masks[n].index(MASK[name]) + 1

    put(5, 4, "NS")  # road into the hole from the north
    put(6, 5, "EW")  # from the east
    put(5, 6, "NS")  # from the south
    put(4, 5, "NS")  # built-up on the west
    laid = tuple((0, x, y, 0) for x, y in [g.sq_xy(i) for i, v in enumerate(board) if v])
    s = evolve(
        s0,
        board=tuple(board),
        laid=laid,
        pile=tuple(sorted((dead_end, t_tile))),
        centre=(),
        first_laid=(True, True),
        drawn=0,
    )
    ev = _Ev(ScriptedRng(1, (), (0 if dead_end < t_tile else 1,)))
    s2 = _draw(s, ev)
    kinds = [(e.kind, e.value) for e in ev.events]
    assert kinds[:2] == [("return", dead_end), ("draw", t_tile)]
    assert s2.drawn == t_tile and s2.pile == (dead_end,)
    assert [(a.x, a.y) for a in legal_actions(s2)] == [hole]  # type: ignore[union-attr]


def test_build_ends_when_no_remaining_tile_fits() -> None:
    s = new_game(2, 8, Options(quick_build=True))
    assert s.phase != "build"
    laid = {n for n, *_ in s.laid}
    assert laid | set(s.unused) == set(range(11, 67)) - {n for n in range(11, 67) if n % 10 == 0 or n % 10 > 6}
    assert "build_end" in [e.kind for e in s.events]


def test_build_centre_tiles_laid_elsewhere_and_centre_stays_empty() -> None:
    for seed in range(15):
        s = new_game(2 + seed % 4, seed, Options(quick_build=True))
        assert all(not s.board[sq] for sq in CENTRE)
        assert not s.centre and not s.pile
        assert len(s.laid) + len(s.unused) == 36
        texts = " ".join(e.text for e in s.events)
        assert "centre tiles are taken up" in texts


def test_quick_build_is_deterministic_and_varies_with_seed() -> None:
    a = new_game(3, 21, Options(quick_build=True))
    b = new_game(3, 21, Options(quick_build=True))
    c = new_game(3, 22, Options(quick_build=True))
    assert a == b and a.laid == b.laid
    assert a.laid != c.laid
