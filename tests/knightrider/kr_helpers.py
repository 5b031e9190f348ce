"""Build small Knight Rider states directly, with scripted dice, for scenario tests."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rallye.core.rng import Rng
from rallye.knightrider import geometry as g
from rallye.knightrider.engine import apply, legal_actions, new_game
from rallye.knightrider.state import Car, Options, State, evolve
from rallye.knightrider.track import compute_links, mask_table

N, E, S, W = 0, 1, 2, 3
MASK = {
    "NS": 0b0101,
    "EW": 0b1010,
    "NE": 0b0011,
    "ES": 0b0110,
    "SW": 0b1100,
    "NW": 0b1001,
    "NEW": 0b1011,
    "NES": 0b0111,
    "ESW": 0b1110,
    "NSW": 0b1101,
    "N": 1,
    "E": 2,
    "S": 4,
    "W": 8,
}


@dataclass(frozen=True, slots=True)
class ScriptedRng(Rng):
    """An Rng whose die rolls (and, if given, randbelow draws) come from scripts first."""

    dice: tuple[int, ...] = ()
    below: tuple[int, ...] = ()

    def die(self, sides: int = 6) -> tuple[int, Rng]:
        if self.dice:
            return self.dice[0], ScriptedRng(self.state, self.dice[1:], self.below)
        v, r = Rng(self.state).die(sides)
        return v, ScriptedRng(r.state, (), self.below)

    def randbelow(self, n: int) -> tuple[int, Rng]:
        if self.below:
            return self.below[0] % n, ScriptedRng(self.state, self.dice, self.below[1:])
        v, r = Rng(self.state).randbelow(n)
        return v, ScriptedRng(r.state, self.dice, ())


def script(state: State, *dice: int, below: tuple[int, ...] = ()) -> State:
    """The same state with these die rolls coming next."""
    return evolve(state, rng=ScriptedRng(state.rng.state, tuple(dice), below))


def pick_tiles(masks: dict[tuple[int, int], int]) -> dict[tuple[int, int], tuple[int, int]]:
    """Choose tile numbers and rotations (degrees) giving each square's opening mask."""
    opts = Options()
    table = mask_table(opts.pieces())
    used: set[int] = set()
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for sq, want in masks.items():
        for number, rots in table.items():
            if number in used:
                continue
            if want in rots:
                out[sq] = (number, 90 * rots.index(want))
                used.add(number)
                break
        else:
            raise ValueError(f"no tile left with mask {want:04b}")
    return out


def chase(
    layout: dict[tuple[int, int], str],
    cars: list[tuple[tuple[int, int], int] | None],
    *,
    villain: tuple[int, int] = (7, 7),
    current: int = 0,
    roll: int | None = None,
    dice: tuple[int, ...] = (),
    options: Options | None = None,
    detours: tuple[tuple[tuple[int, int], str, int], ...] = (),
    start: tuple[int, int] | None = None,
) -> State:
    """A chase-phase state: ``layout`` square → opening letters (e.g. ``"EW"``); ``cars``
    per player ((cell x, y), heading) or ``None`` (waits at the start tile's W side);
    ``villain`` is a square whose middle holds the red car (need not be laid: then it is
    only a marker); ``roll`` the current player's roll already made."""
    players = len(cars)
    base = new_game(players, 1, options)
    tiles = pick_tiles({sq: MASK[m] for sq, m in layout.items()})
    board = [0] * g.N_SQUARES
    laid = []
    for (x, y), (number, rot) in tiles.items():
        board[g.sq_index(x, y)] = number * 4 + rot // 90 + 1
        laid.append((number, x, y, rot))
    det = tuple((g.sq_index(x, y), kind, rot, 0) for (x, y), kind, rot in detours)
    links = compute_links(tuple(board), mask_table(base.pieces), det)
    start_sq = g.sq_index(*(start or next(iter(layout))))
    car_objs = []
    for p, c in enumerate(cars):
        if c is None:
            car_objs.append(Car(p, -1, E, W))
        else:
            (cx, cy), h = c
            car_objs.append(Car(p, g.cell(cx, cy), h))
    state = evolve(
        base,
        phase="turn",
        current=current,
        board=tuple(board),
        laid=tuple(laid),
        pile=(),
        centre=(),
        drawn=0,
        first_laid=(True,) * players,
        links=links,
        villain=g.middle(*villain),
        start_sq=start_sq,
        cars=tuple(car_objs),
        detours=det,
        turn=1,
        roll=roll or 0,
        pips=roll or 0,
        escape_deck=tuple(range(11)),
        escape_pos=0,
    )
    return script(state, *dice)


def at(state: State, player: int) -> tuple[tuple[int, int] | None, int]:
    c = state.cars[player]
    return (g.cell_xy(c.cell) if c.cell >= 0 else None), c.heading


def moves(state: State) -> list:  # type: ignore[type-arg]
    from rallye.knightrider.actions import Move

    return [a for a in legal_actions(state) if isinstance(a, Move)]


def move_to(
    state: State, x: int, y: int, heading: int | None = None, *, cost: int | None = None, jump: bool = False
) -> State:
    from rallye.knightrider.actions import Move

    for a in legal_actions(state):
        if (
            isinstance(a, Move)
            and (a.x, a.y) == (x, y)
            and (heading is None or a.heading == heading)
            and (cost is None or a.cost == cost)
            and a.jump == jump
        ):
            return apply(state, a)
    raise AssertionError(
        f"no legal move to {x},{y} h={heading} cost={cost} jump={jump}: {[str(m) for m in moves(state)]}"
    )


def with_car(state: State, player: int, **kw: object) -> State:
    cars = list(state.cars)
    cars[player] = replace(cars[player], **kw)  # type: ignore[arg-type]
    return evolve(state, cars=tuple(cars))


def kinds(state: State) -> list[str]:
    return [e.kind for e in state.events]


def playout(
    players: int, seed: int, options: Options | None = None, *, max_steps: int = 100_000, each=None
) -> tuple[State, list]:  # type: ignore[no-untyped-def, type-arg]
    """A random game (bot choices from its own seeded Rng); returns final state and actions."""
    s = new_game(players, seed, options)
    r = Rng.from_seed("random-bot", seed)
    actions = []
    for _ in range(max_steps):
        if s.phase == "over":
            break
        acts = legal_actions(s)
        i, r = r.randbelow(len(acts))
        before = s
        s = apply(s, acts[i])
        actions.append(acts[i])
        if each is not None:
            each(before, acts[i], s)
    return s, actions
