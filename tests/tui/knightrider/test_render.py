"""Knight Rider rendering: the map and panels are drawn from a View only."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from rich.console import Console

from rallye.knightrider import Options, apply, legal_actions, new_game, view_for
from rallye.knightrider.actions import Enter, Move, PlayDetour
from rallye.knightrider.view import CarView, DetourView, View
from rallye.tui.knightrider.render import (
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
    body = [r[2:-2] for r in rows[3:-1]]  # inside the panel and its padding, below the two x label rows
    ys = {t.y for t in v.tiles} | {y for _, y in v.centre}
    xs = {t.x for t in v.tiles} | {x for x, _ in v.centre}
    assert len(body) == 3 * (max(ys) - min(ys) + 1)
    assert {len(r.rstrip()) <= 8 + 6 * (max(xs) - min(xs) + 1) for r in body} == {True}
    t = v.tiles[0]
    col = 8 + 2 * (3 * (t.x - min(xs)))
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
    assert "Knight Rider" in out and "Deine Karten: Molekül-Mantel" in out  # German by default
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
    assert action_text(d, de) == "legt Umleitung: Straßensperre auf Quadrat 1,-2 (XX, rot 0)"
    assert action_text(d, en) == "lays Detour: roadblock on square 1,-2 (XX, rot 0)"
    m = Move(4, -6, 0, 3, True, ((4, -4, 0, False), (4, -5, 0, True), (4, -6, 0, False)))
    assert action_text(m, de) == "fährt ↑*↑ nach Feld 4,-6, Richtung Norden (3 Würfelpunkte) mit Blockier-Sprung"
    assert action_text(m, en) == "drives ↑*↑ to field 4,-6 facing north (3 pips) with Block Jump"
    assert action_text(Enter(2), en) == "waits at the south opening of the start tile"
    assert action_text(Enter(2), Labels(lang="hu")) == "a rajttábla déli nyílásánál várakozik"


def test_square_letters_skip_the_command_letters() -> None:
    letters = square_letters([(i, 0) for i in range(60)])
    assert "h" not in letters.values() and "q" not in letters.values()
    assert len(set(letters.values())) == 60


def test_the_map_labels_squares_and_fields_so_a_car_can_be_found_by_its_field() -> None:
    """Issue #54 item 5: squares (place at, detours) and fields (cars, move to) are both
    on the map's axes, and named as such wherever coordinates are shown."""
    v = chase_view()
    lab = Labels.for_view(v, lang="en")
    out = text_of(map_panel(v, lab), width=200)
    lines = [r[2:].rstrip(" │") for r in out.splitlines()[1:-1]]
    assert lines[0].lstrip().startswith("square") and lines[1].lstrip().startswith("field")
    xs = sorted({t.x for t in v.tiles} | {x for x, _ in v.centre})
    ys = sorted({t.y for t in v.tiles} | {y for _, y in v.centre})
    assert lines[0].split()[1:] == [str(x) for x in range(xs[0], xs[-1] + 1)]
    assert lines[1].split()[1:] == [str(3 * x + 1) for x in range(xs[0], xs[-1] + 1)]  # each square's middle field
    body = lines[2:]
    for row, line in enumerate(body):
        square_y, field_y = line[:3].strip(), line[3:7].strip()
        assert field_y == str(3 * ys[0] + row)  # every field row is labelled
        assert square_y == (str(ys[0] + row // 3) if row % 3 == 1 else "")
    car = next(c for c in v.cars if c.field is not None)
    fx, fy = car.field  # type: ignore[misc]
    row = body[fy - 3 * ys[0]]
    col = 8 + 2 * (fx - 3 * xs[0])
    assert row[col : col + 2] in (f"{car.player + 1}{'↑→↓←'[car.heading]}", "VV") or row[col].isdigit()
    assert f"field {fx},{fy}" in text_of(players_table(v, lab))
    sx, sy = v.villain[0] // 3, v.villain[1] // 3  # type: ignore[index]
    assert f"villain on square {sx},{sy}" in text_of(status_line(v, lab))


def test_move_choices_are_marked_so_they_cannot_be_read_as_cars() -> None:
    """Issue #54 item 5: a move is '#n' on the map and in the list; a car is 'n' + arrow."""
    from rallye.tui.knightrider.render import move_mark, moves_table

    s = new_game(3, seed=7, options=Options(quick_build=True))
    while s.phase != "turn":
        s = apply(s, legal_actions(s)[0])
    v = view_for(s, s.current)
    lab = Labels.for_view(v, lang="en")
    infos = move_infos(v, [a for a in legal_actions(s) if isinstance(a, Move)])
    entries = list(enumerate(infos[:9], 1))
    marks = {(i.move.x, i.move.y): move_mark(n) for n, i in reversed(entries)}
    out = text_of(map_panel(v, lab, cell_marks=marks), width=200)
    for n, i in entries:
        if marks[(i.move.x, i.move.y)] == f"#{n}":
            assert f"#{n}" in out
    table = text_of(moves_table(v, lab, entries))
    assert "#1" in table and f"field {infos[0].move.x},{infos[0].move.y}" in table
    assert move_mark(10) == "" and move_mark(0) == ""  # no two-digit marks: '12' is two cars on a field
    assert "#1 move 1" in text_of(render_screen(v, lab))  # the legend says what a mark is


def test_seat_numbers_are_the_same_everywhere_no_second_car_numbering() -> None:
    """Issue #54 item 5: the engine's '(car 1)' for the start player is not shown; P2's car
    is '2' on the map, in the players table and in every event."""
    s = new_game(3, seed=7, options=Options(quick_build=True))
    v = view_for(s, 0)
    lab = Labels.for_view(v, lang="en")
    start = next(e for e in v.events if e.kind == "start_player")
    assert "(car 1)" in start.text
    from rallye.tui.knightrider.render import event_text

    assert event_text(start, lab).plain == f"P{v.start_player + 1} is the start player"
