"""Knight Rider rendering: the map and panels are drawn from a View only."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from rich.console import Console

from rallye.knightrider import Options, apply, legal_actions, new_game, view_for
from rallye.knightrider.actions import Enter, Move, PlayDetour
from rallye.knightrider.view import CarView, DetourView, View
from rallye.tui.knightrider_render import (
    Labels,
    action_text,
    detour_glyph,
    map_panel,
    move_infos,
    players_table,
    render_screen,
    road_distance_map,
    square_letters,
    status_line,
)


def text_of(renderable: object, width: int = 140) -> str:
    c = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    c.print(renderable)
    return c.export_text()


def chase_view(seed: int = 7, players: int = 3) -> View:
    s = new_game(players, seed=seed, options=Options(quick_build=True))
    while s.phase != "turn":
        s = apply(s, legal_actions(s)[0])
    s = apply(s, next(a for a in legal_actions(s) if isinstance(a, Move)))
    return view_for(s, 0)


def test_the_map_shows_villain_cars_with_headings_roads_and_coordinates() -> None:
    v = chase_view()
    out = text_of(map_panel(v, Labels.for_view(v)))
    assert "VV" in out
    car = next(c for c in v.cars if c.field is not None)
    assert f"{car.player + 1}{'↑→↓←'[car.heading]}" in out
    assert "▒▒" in out and "··" in out and "░░" in out  # built-up, road, centre
    xs = sorted({t.x for t in v.tiles})
    assert all(str(x) in out.splitlines()[1] for x in xs)  # square x along the top


def test_the_map_draws_each_tile_as_3x3_cells_two_characters_wide() -> None:
    v = chase_view()
    rows = text_of(map_panel(v, Labels.for_view(v)), width=200).splitlines()
    body = [r[2:-2] for r in rows[2:-1]]  # inside the panel and its padding, below the x labels
    ys = {t.y for t in v.tiles} | {y for _, y in v.centre}
    xs = {t.x for t in v.tiles} | {x for x, _ in v.centre}
    assert len(body) == 3 * (max(ys) - min(ys) + 1)
    assert {len(r.rstrip()) <= 3 + 6 * (max(xs) - min(xs) + 1) for r in body} == {True}
    t = v.tiles[0]
    col = 3 + 2 * (3 * (t.x - min(xs)))
    top = 3 * (t.y - min(ys))
    middle_cell = body[top + 1][col + 2 : col + 4]
    assert middle_cell not in ("▒▒", "  ")  # the middle field is always a road (or a piece on it)


def test_detours_are_drawn_by_kind_and_orientation() -> None:
    assert detour_glyph("STRAIGHT", 0) == "S│"
    assert detour_glyph("STRAIGHT", 90) == "S─"
    assert detour_glyph("DEADEND", 90) == "D╶"
    assert detour_glyph("ROADBLOCK", 0) == "XX"
    assert detour_glyph("RIGHT", 0) == "R┌"  # driving north, turning right: south and east joined
    assert detour_glyph("LEFT", 0) == "L┐"
    v = chase_view()
    t = next(t for t in v.tiles if (t.x, t.y) != (v.villain[0] // 3, v.villain[1] // 3))  # type: ignore[index]
    occupied = {c.field for c in v.cars}
    assert (3 * t.x + 1, 3 * t.y + 1) not in occupied
    v2 = replace(v, detours=(DetourView(t.x, t.y, "LEFT", 90, 1),))
    out = text_of(map_panel(v2, Labels.for_view(v2)))
    assert "L┘" in out


def test_two_cars_on_a_field_and_a_car_on_its_roof() -> None:
    v = chase_view()
    f = next(c.field for c in v.cars if c.field is not None)
    cars: tuple[CarView, ...] = (CarView(0, f, 1, -1, False, False, ()), CarView(1, f, 3, -1, False, False, ()))
    cars += tuple(CarView(p, None, 0, 0, False, False, ()) for p in range(2, v.players))
    out = text_of(map_panel(replace(v, cars=cars), Labels.for_view(v)))
    assert "12" in out
    cars = (CarView(0, f, 1, -1, True, False, ()),) + cars[1:]
    out = text_of(map_panel(replace(v, cars=cars[:1] + cars[2:]), Labels.for_view(v)))
    assert "1x" in out


def test_moves_are_sorted_by_road_distance_to_the_villain() -> None:
    s = new_game(3, seed=7, options=Options(quick_build=True))
    while s.phase != "turn":
        s = apply(s, legal_actions(s)[0])
    v = view_for(s, s.current)
    moves = [a for a in legal_actions(s) if isinstance(a, Move)]
    infos = move_infos(v, moves)
    dist = road_distance_map(v)
    assert v.villain is not None and dist[v.villain] == 0
    assert [i.distance for i in infos] == sorted(i.distance for i in infos)  # type: ignore[type-var]
    assert {i.move for i in infos} == set(moves)
    assert all(i.distance == dist.get((i.move.x, i.move.y)) for i in infos)


def test_render_screen_and_panels_take_a_view_never_a_state() -> None:
    s = new_game(3, seed=7, options=Options(quick_build=True))
    v = view_for(s, 0)
    lab = Labels.for_view(v)
    out = text_of(render_screen(v, lab))
    assert "Knight Rider" in out and "Your cards: Molekül-Mantel" in out
    for fn in (status_line, players_table):
        with pytest.raises(TypeError, match="renders a player's view"):
            fn(s, lab)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="renders a player's view"):
        render_screen(s, lab)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="renders a player's view"):
        Labels.for_view(s)  # type: ignore[arg-type]


def test_action_texts_use_card_names_in_the_language() -> None:
    de, en = Labels(lang="de"), Labels(lang="en")
    d = PlayDetour("ROADBLOCK", 1, -2, 0)
    assert action_text(d, de) == "lays Umleitung: Straßensperre on square 1,-2 (XX, rot 0)"
    assert action_text(d, en) == "lays Detour: roadblock on square 1,-2 (XX, rot 0)"
    m = Move(4, -6, 0, 3, True, ((4, -4, 0, False), (4, -5, 0, True), (4, -6, 0, False)))
    assert action_text(m, de) == "drives ↑*↑ to 4,-6 facing N (3 pips) with Blockier-Sprung"
    assert action_text(Enter(2), en) == "waits at the south opening of the start tile"


def test_square_letters_skip_the_command_letters() -> None:
    letters = square_letters([(i, 0) for i in range(60)])
    assert "h" not in letters.values() and "q" not in letters.values()
    assert len(set(letters.values())) == 60
