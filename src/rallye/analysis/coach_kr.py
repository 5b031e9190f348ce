"""The coach's reasons for a Knight Rider decision: each a small pure function of the view
and the candidate facts, never of a hidden card (the other hands, the order of the escape
cards, the dice). ``coach.kr.*`` keys of the ``kr`` catalog (docs/analysis.md).

Distances are the pips a car needs to end a step on the villain's field (turns cost pips,
roadblocks stop; other cars ignored), as the bots count them; the roll odds are the
look-ahead's: the chance that one die roll next turn (helped by the Turbo-Boosts held)
ends a move on the villain, over where the public escape cards can take it meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from rallye.agents.knightrider.heuristic import MANTLE_REACH, Reading, cost_to
from rallye.agents.knightrider.search import Lookahead, hit_table
from rallye.analysis.coach import Margin, Reason, pick
from rallye.analysis.evaluators import Judgement
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import Action, End, Move, PlayDetour, PlayKitt
from rallye.knightrider.state import TURN_PHASE
from rallye.knightrider.track import mask_table, relink_tile, roadblocks
from rallye.knightrider.view import View

#: a rival this many pips from the villain can catch it with one roll
ONE_ROLL = 6


@dataclass(frozen=True)
class Facts:
    """What a reason reads: the view, the preferred move, the next best (or None)."""

    view: View
    best: Action
    next: Action | None
    #: the look-ahead's value of the preferred move (None: not searched; 1: a catch now)
    best_win: float | None = None

    @cached_property
    def reading(self) -> Reading | None:
        """The bots' reading of the chase (None before the villain is on the map)."""
        if self.view.villain is None or self.view.phase != TURN_PHASE:
            return None
        return Reading.of(self.view)

    def pips(
        self, cell: int, heading: int, links: bytes | None = None, blocked: frozenset[int] | None = None
    ) -> int | None:
        """Pips from (cell, heading) to end a step on the villain's field (None: no way)."""
        r = self.reading
        assert r is not None
        table = cost_to(r.links if links is None else links, r.blocked if blocked is None else blocked, r.villain)
        return table.get(cell * 4 + heading)

    def rivals(self) -> list[tuple[int, int, int]]:
        """(player, cell, heading) of the other cars on the map."""
        r = self.reading
        return [] if r is None else [(p, c, h) for c, h, p in r.others]

    def nearest_rival(self) -> tuple[int, int] | None:
        """(player, pips) of the rival nearest to the villain."""
        near = [(pips, p) for p, c, h in self.rivals() if (pips := self.pips(c, h)) is not None]
        if not near:
            return None
        pips, player = min(near)
        return player, pips


Rule = Callable[[Facts], Reason | None]


def catch_now(f: Facts) -> Reason | None:
    """A move that ends on the villain's field: the game is won."""
    r = f.reading
    if r is None or not isinstance(f.best, Move):
        return None
    left = r.base.pips - r.base.used
    return Reason("coach.kr.catch_now") if r.wins(f.best, left) else None


def turbo(f: Facts) -> Reason | None:
    """A Turbo-Boost: what it makes of the roll."""
    b = f.best
    if not isinstance(b, PlayKitt) or b.kind not in ("TURBO1", "TURBO2"):
        return None
    roll = f.view.roll
    pips = 6 if b.kind == "TURBO2" else 2 * roll
    key = "coach.kr.turbo_catch" if f.best_win is not None and f.best_win >= 1.0 else "coach.kr.turbo"
    return Reason(key, {"kitt": b.kind, "roll": roll, "pips": pips})


def next_roll(f: Facts) -> Reason | None:
    """A move: the chance that one roll next turn catches the villain from where it ends,
    and how far the villain's field is from there."""
    r = f.reading
    if r is None or not isinstance(f.best, Move):
        return None
    cell = g.cell(f.best.x, f.best.y)
    look = Lookahead(r, correlated=False, gamma=1.0, closeness=0.0)
    t1, t2 = f.view.hand_kitt[1] > 0, f.view.hand_kitt[2] > 0
    table = hit_table(r.links, r.blocked, cell, f.best.heading, t1, t2)
    chance = sum(p * table.get(at, 0.0) for at, p in look.next_round.items())
    pips = f.pips(cell, f.best.heading)
    if pips is None:
        return Reason("coach.kr.next_roll", {"pct": round(100 * chance)})
    return Reason("coach.kr.next_roll_pips", {"pct": round(100 * chance), "count": pips})


def block(f: Facts) -> Reason | None:
    """A detour: how much longer the nearest rival's way to the villain becomes."""
    r, b = f.reading, f.best
    if r is None or not isinstance(b, PlayDetour):
        return None
    near = f.nearest_rival()
    if near is None:
        return Reason("coach.kr.block_odds", {"detour": b.kind})
    player, before = near
    state = r.base
    sq = g.sq_index(b.x, b.y)
    dets = (*state.detours, (sq, b.kind, b.rot, f.view.me))
    links = relink_tile(r.links, state.board, mask_table(state.pieces), dets, sq)
    car = next(c for c in state.cars if c.player == player)
    after = f.pips(car.cell, car.heading, links, roadblocks(dets))
    if after is not None and after <= before:
        return Reason("coach.kr.block_odds", {"detour": b.kind})
    params: dict[str, object] = {"detour": b.kind, "player": player + 1, "before": before}
    if after is None:
        return Reason("coach.kr.block_cut_who", params)
    return Reason("coach.kr.block_who", {**params, "after": after})


def mantle(f: Facts) -> Reason | None:
    """The shell against a ram: a rival near this car."""
    r, b = f.reading, f.best
    if r is None or not isinstance(b, PlayKitt) or b.kind != "MANTLE":
        return None
    me = r.base.cars[f.view.me]
    if me.cell < 0:
        return None
    near = []
    for p, c, h in f.rivals():
        pips = cost_to(r.links, r.blocked, me.cell).get(c * 4 + h)
        if pips is not None and pips <= MANTLE_REACH:
            near.append((pips, p))
    if not near:
        return None
    pips, player = min(near)
    return Reason("coach.kr.mantle_who", {"player": player + 1, "count": pips})


def rival_close(f: Facts) -> Reason | None:
    """A rival one roll from the villain."""
    near = f.nearest_rival()
    if near is None or not 1 <= near[1] <= ONE_ROLL:
        return None
    return Reason("coach.kr.rival_close_who", {"player": near[0] + 1, "count": near[1]})


def distance_now(f: Facts) -> Reason | None:
    """A Turbo-Boost or the end of the turn: how far the villain is from this car now."""
    r = f.reading
    if r is None or not isinstance(f.best, PlayKitt | End):
        return None
    me = r.base.cars[f.view.me]
    pips = f.pips(me.cell, me.heading) if me.cell >= 0 else None
    return None if pips is None else Reason("coach.kr.distance_now", {"count": pips})


def end_turn(f: Facts) -> Reason | None:
    """The end of the turn: standing still, or (after the move) keeping the cards."""
    if not isinstance(f.best, End):
        return None
    return Reason("coach.kr.end_keep_cards" if f.view.moved else "coach.kr.end")


#: the reasons, most telling first
RULES: tuple[Rule, ...] = (turbo, block, mantle, next_roll, end_turn, rival_close, distance_now)


def catch_chance(judgement: Judgement, m: Margin) -> Reason | None:
    """The look-ahead's own value: the chance to catch the villain in the next turns."""
    win = judgement.candidates[0].win
    if win is None:
        return Reason("coach.kr.not_searched")
    if win >= 1.0:  # a catch now: said by the reasons
        return None
    params: dict[str, object] = {"pct": round(100 * win)}
    if m.next is not None and m.next.win is not None and round(100 * m.next.win) != params["pct"]:
        params["next_pct"] = round(100 * m.next.win)
        return Reason("coach.kr.catch_chance_vs", params)
    return Reason("coach.kr.catch_chance", params)


def reasons(view: View, legal: Sequence[Action], judgement: Judgement, m: Margin) -> tuple[Reason, ...]:
    """One to three reasons for the preferred move, most telling first."""
    facts = Facts(view, judgement.best, m.next.action if m.next is not None else None, judgement.candidates[0].win)
    now = catch_now(facts)
    if now is not None:  # nothing else matters
        return (now,)
    found = [r for rule in RULES if (r := rule(facts)) is not None]
    closing = catch_chance(judgement, m)
    if found and closing is not None and closing.params.get("pct") == 0 and closing.params.get("next_pct", 0) == 0:
        closing = None  # no chance either way: the facts say more
    if (
        found
        and closing is not None
        and closing.key == "coach.kr.not_searched"
        and isinstance(facts.best, End | PlayDetour)
    ):
        closing = None  # the end of the turn and the detours are weighed by the rivals' odds (the block reasons)
    return pick(found, closing)
