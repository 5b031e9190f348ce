"""Knight Rider bots: legal choices only, views only, and the heuristic's habits."""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rallye.agents.base import make_agent
from rallye.agents.knightrider.heuristic import (
    OIL,
    TURBO2_KEEP,
    UNREACHABLE,
    HeuristicAgent,
    Reading,
    best_action,
    cost_to,
    fewest_pips,
    move_value,
    unturned_cards,
    villain_forecast,
)
from rallye.agents.knightrider.search import (
    DETOUR_GAIN,
    DETOUR_PIP,
    MAX_ROUNDS,
    Lookahead,
    LookaheadAgent,
    MctsAgent,
    fast_policy,
    hit_table,
    pips_from,
    reach_layers,
    threat_detour,
    used_pips,
)
from rallye.core.rng import Rng
from rallye.knightrider import (
    End,
    Move,
    Options,
    PlayDetour,
    PlayKitt,
    apply,
    is_over,
    legal_actions,
    new_game,
    view_for,
)
from rallye.knightrider import geometry as g
from rallye.knightrider.sampling import legal_from_view
from rallye.knightrider.state import State, evolve
from rallye.knightrider.track import roadblocks, search_moves
from rallye.knightrider.view import View

from .helpers import hidden_variants, random_states

VARIANTS = (
    Options(turn_limit=30),
    Options(quick_build=True, turn_limit=40),
    Options(quick_build=True, shuffle_cards=True, deal_spares=True, turn_limit=40),
    Options(quick_build=True, tour=1, rolled_start=True, turn_limit=40),
)


def test_the_search_levels_look_ahead_and_the_others_are_the_heuristic() -> None:
    hard, expert = make_agent("knightrider", "hard", 1), make_agent("knightrider", "expert", 1)
    assert isinstance(hard, LookaheadAgent) and isinstance(expert, LookaheadAgent)
    assert hard.rounds >= 2 and expert.rounds >= hard.rounds and expert.top_k >= hard.top_k
    assert expert.threat_detours and not hard.threat_detours
    assert isinstance(make_agent("knightrider", "medium", 1), HeuristicAgent)


@pytest.mark.parametrize("vi", range(len(VARIANTS)))
def test_heuristic_only_returns_legal_actions(vi: int) -> None:
    """Hundreds of decisions over 2–5 players, building and chase, variants."""
    phases: set[str] = set()
    for players in (2, 3, 4, 5):
        bot = HeuristicAgent(seed=players, epsilon=0.15)
        for s in random_states(players, 30 * vi + players, VARIANTS[vi], 80):
            v = view_for(s, s.current)
            legal = legal_from_view(v)
            phases.add(v.phase)
            assert bot.choose(v, legal) in legal
    assert "turn" in phases


@pytest.mark.parametrize("vi", range(len(VARIANTS)))
def test_mcts_only_returns_legal_actions(vi: int) -> None:
    for players in (2, 3, 4, 5):
        bot = MctsAgent(seed=players, iterations=3, root_top_k=3)
        for i, s in enumerate(random_states(players, 50 + 30 * vi + players, VARIANTS[vi], 80)):
            if i % 3:
                continue
            v = view_for(s, s.current)
            legal = legal_from_view(v)
            assert bot.choose(v, legal) in legal


@pytest.mark.parametrize("vi", range(len(VARIANTS)))
@pytest.mark.parametrize(("rounds", "correlated", "threat"), [(1, False, False), (2, True, True), (3, False, True)])
def test_lookahead_only_returns_legal_actions(vi: int, rounds: int, correlated: bool, threat: bool) -> None:
    for players in (2, 3, 4, 5):
        bot = LookaheadAgent(seed=players, rounds=rounds, correlated=correlated, top_k=4, threat_detours=threat)
        for i, s in enumerate(random_states(players, 70 + 30 * vi + players, VARIANTS[vi], 80)):
            if i % 3:
                continue
            v = view_for(s, s.current)
            legal = legal_from_view(v)
            assert bot.choose(v, legal) in legal


def test_bots_play_whole_games_with_legal_actions() -> None:
    """Bots against each other from the first tile to the end (or the turn limit)."""
    games = (
        (2, ["heuristic", "mcts"]),
        (4, ["easy", "medium", "mcts", "random"]),
        (4, ["hard", "expert", "medium", "easy"]),
    )
    for players, names in games:
        bots: list[Any] = [make_agent("knightrider", n, seed=i) for i, n in enumerate(names)]
        for b in bots:
            if isinstance(b, MctsAgent):
                b.iterations = 4
        s = new_game(players, 9, Options(turn_limit=25))
        while not is_over(s):
            v = view_for(s, s.current)
            legal = legal_from_view(v)
            a = bots[s.current].choose(v, legal)
            assert a in legal
            s = apply(s, a)


def _pick(name: str, state: State, legal: tuple[Any, ...]) -> object:
    """A fresh bot's choice (seed 5) from ``state``'s view for the player to act."""
    bot: Any = make_agent("knightrider", name, seed=5)
    if isinstance(bot, MctsAgent):
        bot.iterations = 6
    return bot.choose(view_for(state, state.current), legal)


def test_hidden_information_does_not_change_the_experts_detours() -> None:
    """After the move (where ``expert`` lays its threat detours): same view, different
    hidden facts, the same choice; some of those choices are detours."""
    opts = Options(quick_build=True, shuffle_cards=True, turn_limit=80)
    checked = detours = 0
    for seed in range(31, 41):
        bot = HeuristicAgent(seed)
        s = new_game(4, seed, opts)
        while not is_over(s) and checked < 40:
            v = view_for(s, s.current)
            legal = legal_from_view(v)
            if s.phase == "turn" and s.moved and any(isinstance(a, PlayDetour) for a in legal):
                first = _pick("expert", s, legal)
                for t in hidden_variants(s):
                    assert view_for(t, t.current) == v
                    assert _pick("expert", t, legal) == first
                checked += 1
                detours += isinstance(first, PlayDetour)
            s = apply(s, bot.choose(v, legal))
    assert checked >= 20 and detours >= 2, (checked, detours)


def test_heuristic_beats_random_in_two_player_games() -> None:
    wins = {"heuristic": 0, "random": 0, None: 0}
    for game in range(16):
        names = ["heuristic", "random"] if game % 2 == 0 else ["random", "heuristic"]
        bots = [make_agent("knightrider", n, seed=game * 2 + i) for i, n in enumerate(names)]
        s = new_game(2, 1000 + game, Options(quick_build=True, turn_limit=100))
        while not is_over(s):
            v = view_for(s, s.current)
            s = apply(s, bots[s.current].choose(v, legal_from_view(v)))
        w = s.winner
        wins[names[w] if w is not None else None] += 1
    assert wins["heuristic"] >= 9 and wins["heuristic"] >= 4 * wins["random"], wins


# -- the heuristic's habits, on positions met in real games ----------------------------------
def _turn_views(players: int, seed: int, steps: int) -> Iterator[tuple[State, View, tuple[Any, ...]]]:
    """Chase decisions along games of heuristic bots (so the positions are realistic)."""
    bot = HeuristicAgent(seed, epsilon=0.2)
    s = new_game(players, seed, Options(quick_build=True, turn_limit=80))
    for _ in range(steps):
        if is_over(s):
            seed += 1
            s = new_game(players, seed, Options(quick_build=True, turn_limit=80))
        v = view_for(s, s.current)
        legal = legal_from_view(v)
        if s.phase == "turn":
            yield s, v, legal
        s = apply(s, bot.choose(v, legal))


def test_fewest_pips_is_dijkstras_shortest_paths() -> None:
    """The bucket queue both distance tables use gives Dijkstra's distances (a heap's) on
    random graphs with whole costs 1 to 3 and several starts, every state reached and no other."""
    rnd = random.Random(7)
    for _ in range(200):
        n = rnd.randint(1, 30)
        edges = {u: [(rnd.randrange(n), rnd.randint(1, 3)) for _ in range(rnd.randint(0, 4))] for u in range(n)}
        starts = rnd.sample(range(n), rnd.randint(1, min(3, n)))
        want: dict[int, int] = {}
        heap = [(0, s) for s in starts]
        while heap:
            c, u = heapq.heappop(heap)
            if u in want:
                continue
            want[u] = c
            for v, w in edges[u]:
                if v not in want:
                    heapq.heappush(heap, (c + w, v))

        def steps(
            _links: bytes, _blocked: frozenset[int], u: int, e: dict[int, list[tuple[int, int]]] = edges
        ) -> list[tuple[int, int]]:
            return e[u]

        assert fewest_pips(b"", frozenset(), starts, steps) == want


def test_the_backward_and_forward_tables_agree() -> None:
    """``cost_to`` (backward from a goal) and ``pips_from`` (forward from a car) are the
    same shortest ways read from either end: on the maps of real chases, the pips from each
    car to every field it can reach are the goal table's pips at the car, and a field
    ``pips_from`` does not reach has no way in ``cost_to`` either."""
    checked = 0
    for s, _, _ in itertools.islice(_turn_views(3, 5, 300), 0, None, 10):
        blocked = roadblocks(s.detours)
        for car in s.cars:
            if car.cell < 0:
                continue
            ahead = pips_from(s.links, blocked, car.cell, car.heading)
            for goal in range(len(s.links)):
                if goal == car.cell:
                    continue
                assert cost_to(s.links, blocked, goal).get(car.cell * 4 + car.heading) == ahead.get(goal)
                checked += goal in ahead
    assert checked > 1000


def _wins(s: State, a: object) -> bool:
    """A move that wins whatever the dice (ram and oil rolls) say."""
    if not isinstance(a, Move):
        return False
    return all(apply(evolve(s, rng=Rng.from_seed("dice", k)), a).winner == s.current for k in range(4))


def test_winning_move_is_taken() -> None:
    """Winning: a move that ends on the villain's field wins at once; the bot takes one."""
    found = 0
    for s, v, legal in _turn_views(3, 1, 2000):
        moves = [a for a in legal if isinstance(a, Move)]
        if any(g.cell(m.x, m.y) == s.villain for m in moves):
            winners = [m for m in moves if _wins(s, m)]
            if winners:
                found += 1
                assert best_action(v, legal) in winners
    assert found >= 3


def test_turbo_boost_ii_is_played_on_a_rolled_one_when_it_pays() -> None:
    """Turbo-Boost II: only on a rolled 1 it counts as 6. The bot plays it unless the one
    pip leaves the car as well placed (six pips must all be used, and may overshoot)."""
    found = played = 0
    for s, v, legal in _turn_views(2, 3, 2500):
        if PlayKitt("TURBO2") not in legal or any(_wins(s, a) for a in legal if isinstance(a, Move)):
            continue
        found += 1
        a = best_action(v, legal)
        r = Reading.of(v)
        boosted = apply(r.base, PlayKitt("TURBO2"))
        six = max((move_value(r, m, boosted) for m in legal_actions(boosted) if isinstance(m, Move)), default=-1e9)
        one = max((move_value(r, m, r.base) for m in legal if isinstance(m, Move)), default=-1e9)
        if End() in legal and one > -1e9:  # moving is optional: staying put is a choice too
            me = r.base.cars[v.me]
            one = max(one, r.value(me.cell, me.heading))
        if a == PlayKitt("TURBO2"):
            played += 1
            assert six - TURBO2_KEEP >= one
        elif a == PlayKitt("TURBO1"):  # doubling the 1 wins (two pips reach the villain)
            doubled = apply(r.base, a)
            assert any(_wins(doubled, m) for m in legal_actions(doubled))
        else:
            assert one >= six - TURBO2_KEEP
    assert found >= 10 and played >= 1, (found, played)


def test_moves_head_for_the_villain() -> None:
    """Moving: the chosen move ends no farther (in pips, on average over the villain's next
    positions) than a typical legal move."""
    better = worse = 0
    for _s, v, legal in _turn_views(4, 7, 800):
        moves = [a for a in legal if isinstance(a, Move) and not a.jump]
        if len(moves) < 3 or v.moved:
            continue
        r = Reading.of(v)
        a = best_action(v, legal)
        if not isinstance(a, Move):
            continue
        costs = sorted(r.expected_cost(g.cell(m.x, m.y), m.heading) for m in moves)
        mine = r.expected_cost(g.cell(a.x, a.y), a.heading)
        median = costs[len(costs) // 2]
        better += mine <= median
        worse += mine > median
    assert better >= 20 and better >= 6 * worse


def test_oil_slick_is_avoided_unless_the_clean_moves_are_much_worse() -> None:
    """Oil slick: ending directly behind a car costs an oil roll, so the bot ends there
    only when every clean end is worse by more than the expected loss."""
    checked = clean_chosen = 0
    for _s, v, legal in _turn_views(5, 11, 1800):
        left = v.pips - v.used
        r = Reading.of(v)
        ends = [
            a
            for a in legal
            if isinstance(a, Move)
            and not a.jump
            and not r.ram_stop(g.cell(a.x, a.y), a.cost, left)
            and g.cell(a.x, a.y) != r.villain  # a win is checked before the oil
        ]
        oily = [m for m in ends if r.on_oil(g.cell(m.x, m.y))]
        clean = [m for m in ends if not r.on_oil(g.cell(m.x, m.y))]
        if not oily or not clean:
            continue
        checked += 1
        a = best_action(v, legal)
        if a in oily:
            assert isinstance(a, Move)
            mine = r.value(g.cell(a.x, a.y), a.heading) - OIL
            assert all(r.value(g.cell(m.x, m.y), m.heading) <= mine for m in clean)
        elif a in clean:
            clean_chosen += 1
    assert checked >= 5 and clean_chosen >= 1, (checked, clean_chosen)


def test_detours_are_laid_in_front_of_a_rival() -> None:
    """Detours: when the bot lays one, it lengthens the way of a rival to the villain, or
    (laid over a roadblock: the topmost card counts) it opens its own way again."""
    laid = 0
    for s, v, legal in _turn_views(3, 5, 1800):
        a = best_action(v, legal)
        if not isinstance(a, PlayDetour):
            continue
        laid += 1
        t = apply(s, a)
        before = [cost_to(s.links, Reading.of(v).blocked, s.villain).get(c.cell * 4 + c.heading, 99) for c in s.cars]
        r2 = Reading.of(view_for(t, t.current))
        after = [cost_to(t.links, r2.blocked, t.villain).get(c.cell * 4 + c.heading, 99) for c in t.cars]
        me = s.current
        assert any(after[p] > before[p] for p in range(s.players) if p != me) or after[me] < before[me]
    assert laid >= 2


def test_fast_policy_is_legal_and_prefers_a_win() -> None:
    rng = random.Random(0)
    for s, _v, legal in _turn_views(3, 2, 600):
        a = fast_policy(s, legal, rng)
        assert a in legal
        if any(_wins(s, m) for m in legal if isinstance(m, Move)):
            assert _wins(s, a)


# -- the look-ahead -------------------------------------------------------------------------------
def test_reach_layers_match_the_engines_move_search() -> None:
    """The look-ahead's ends of a move with ``p`` pips (1..12) are the engine's, with no
    other car on the map and no Blockier-Sprung."""
    checked = 0
    for s in random_states(3, 8, Options(quick_build=True, turn_limit=60), 240):
        if s.phase != "turn":
            continue
        blocked = roadblocks(s.detours)
        for car in s.cars:
            if car.cell < 0:
                continue
            layers = reach_layers(s.links, blocked, car.cell, car.heading)
            for p in range(1, 13):
                engine = search_moves(
                    s.links, blocked, {}, frozenset(), car.cell, car.heading, p, entry=False, allow_jump=False
                )
                c = used_pips(layers, p)
                assert {o.cell * 4 + o.heading for o in engine} == (set(layers[c]) if c else set())
                checked += 1
    assert checked >= 500


def test_hit_table_counts_the_rolls_that_end_on_a_middle_field() -> None:
    """A field's hit chance is the share of the six rolls (Turbo-Boost I: or the roll
    doubled; Turbo-Boost II: a 1 counted as 6) after which a move can end there."""
    seen = 0
    for s in random_states(2, 12, Options(quick_build=True, turn_limit=60), 160):
        if s.phase != "turn":
            continue
        blocked = roadblocks(s.detours)
        car = s.cars[s.current]
        if car.cell < 0:
            continue
        layers = reach_layers(s.links, blocked, car.cell, car.heading)

        def ends(p: int, layers: tuple[tuple[int, ...], ...] = layers) -> set[int]:
            c = used_pips(layers, p)  # 0: the car cannot move at all, and standing still never wins
            return {st >> 2 for st in layers[c]} if c else set()

        for t1, t2 in ((False, False), (True, False), (False, True)):
            table = hit_table(s.links, blocked, car.cell, car.heading, t1, t2)
            for f, chance in table.items():
                assert g.cell_xy(f)[0] % 3 == 1 and g.cell_xy(f)[1] % 3 == 1  # a middle field
                rolls = sum(
                    1
                    for d in range(1, 7)
                    if f in ends(d) or (t1 and f in ends(2 * d)) or (t2 and d == 1 and f in ends(6))
                )
                assert chance == pytest.approx(rolls / 6)
                seen += 1
            assert hit_table(s.links, blocked, car.cell, car.heading, True, True).keys() >= table.keys()
    assert seen >= 50


def test_lookahead_takes_a_winning_move() -> None:
    found = 0
    bot = LookaheadAgent(seed=0, correlated=True)
    for s, v, legal in _turn_views(3, 1, 2000):
        moves = [a for a in legal if isinstance(a, Move)]
        winners = [m for m in moves if g.cell(m.x, m.y) == s.villain and _wins(s, m)]
        if winners:
            found += 1
            assert bot.choose(v, legal) in winners
    assert found >= 3


def test_lookahead_plays_its_best_valued_candidate() -> None:
    """The chosen move is worth at least as much as the heuristic's (the first candidate),
    by the look-ahead's own values; it departs from the heuristic on some decisions."""
    differ = checked = 0
    for rounds, correlated in ((1, False), (2, True)):
        bot = LookaheadAgent(seed=0, rounds=rounds, correlated=correlated)
        for _s, v, legal in _turn_views(4, 3, 450):
            if v.moved or not any(isinstance(a, Move) for a in legal):
                continue
            a = bot.choose(v, legal)
            h = best_action(v, legal)
            if not isinstance(a, Move) or not isinstance(h, Move) or bot.last_evaluations == 0:
                continue
            r = Reading.of(v)
            look = Lookahead(
                r, correlated=correlated, gamma=0.9 ** (v.players - 1), closeness=bot.closeness, rounds=rounds
            )
            t1, t2 = v.hand_kitt[1] > 0, v.hand_kitt[2] > 0
            assert look.move_value(a, r.base, t1, t2) >= look.move_value(h, r.base, t1, t2) - 1e-12
            differ += a != h
            checked += 1
    assert checked >= 20 and differ >= 2, (checked, differ)


def test_lookahead_is_deterministic_and_ignores_its_seed() -> None:
    """The look-ahead draws no random numbers: two bots, any seeds, choose alike."""
    a, b = LookaheadAgent(seed=1, correlated=True), LookaheadAgent(seed=99, correlated=True)
    n = 0
    for _s, v, legal in _turn_views(4, 6, 250):
        assert a.choose(v, legal) == b.choose(v, legal) == a.choose(v, legal)
        n += 1
    assert n >= 60


def test_lookahead_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="top_k"):
        LookaheadAgent(top_k=0)
    with pytest.raises(ValueError, match="rounds"):
        LookaheadAgent(rounds=0)
    with pytest.raises(ValueError, match="rounds"):
        LookaheadAgent(rounds=MAX_ROUNDS + 1)
    with pytest.raises(ValueError, match="gamma_per_rival"):
        LookaheadAgent(gamma_per_rival=0.0)
    with pytest.raises(ValueError, match="closeness"):
        LookaheadAgent(closeness=-1.0)


def test_deeper_look_ahead_values_no_less() -> None:
    """A miss on one turn can still hit on a later one: each round more adds a chance, so
    an end position is worth no less with more rounds (the same forecast, no correlation)."""
    checked = 0
    for _s, v, legal in _turn_views(4, 9, 300):
        moves = [a for a in legal if isinstance(a, Move)]
        if v.moved or not moves:
            continue
        r = Reading.of(v)
        looks = [Lookahead(r, correlated=False, gamma=0.73, closeness=0.0, rounds=k) for k in (1, 2, 3, 4)]
        for m in moves[:3]:
            cell = g.cell(m.x, m.y)
            vals = [look.hit_value(cell, m.heading, True, False) for look in looks]
            assert all(a <= b + 1e-12 for a, b in itertools.pairwise(vals)), vals
            assert 0.0 <= vals[-1] <= 1.0 + 1.0 / 6.0
            checked += 1
    assert checked >= 30


def _threat(s: State, t: State, k: int, at: tuple[dict[tuple[int, int], float], ...]) -> float:
    """In ``t``: the chance that the ``k``-th player after the one to act hits on their next
    turn (the villain's squares by the forecast ``at``; Turbo-Boosts held in ``s``)."""
    c = t.cars[(t.current + k) % t.players]
    if c.cell < 0 or c.roof:
        return 0.0
    hand = s.kitt_hands[c.player]
    table = hit_table(t.links, roadblocks(t.detours), c.cell, c.heading, hand[1] > 0, hand[2] > 0)
    return sum(p * table.get(g.middle(*sq), 0.0) for sq, p in at[k - 1].items())


def _way(t: State, r: Reading) -> float:
    """In ``t``: the pips of the player to act to where the villain will be (``r.goals``)."""
    me = t.cars[t.current]
    table = pips_from(t.links, roadblocks(t.detours), me.cell, me.heading)
    return sum(w * min(table.get(goal, UNREACHABLE), UNREACHABLE) for goal, w in r.goals)


def test_threat_detours_cut_a_rival_and_keep_our_roads() -> None:
    """A threat detour, checked on the engine's map after it: it lowers the rivals' chance
    to hit on their next turn more than this car's (less a longer way for it), it never
    cuts the bot off from a tile, and it is legal."""
    laid = cuts = 0
    bot = LookaheadAgent(seed=0, threat_detours=True)
    for players in (3, 4):
        for s, v, legal in _turn_views(players, 40 + players, 1500):
            if not any(isinstance(a, PlayDetour) for a in legal) or any(
                isinstance(a, Move | PlayKitt) and a != PlayKitt("MANTLE") for a in legal
            ):
                continue  # the move is not done yet
            r = Reading.of(v)
            a = threat_detour(r, legal)
            if a is None:
                continue
            assert a in legal and bot.choose(v, legal) in (a, PlayKitt("MANTLE"))  # the mantle may come first
            laid += 1
            t = apply(s, a)
            me = s.cars[s.current]
            mids = [g.middle(x, y) for x, y in (g.sq_xy(sq) for sq, b in enumerate(s.board) if b)]
            reach_before = pips_from(s.links, roadblocks(s.detours), me.cell, me.heading)
            reach_after = pips_from(t.links, roadblocks(t.detours), me.cell, me.heading)
            # (a card laid on an earlier one can even open a way: the topmost card counts)
            assert {m for m in mids if m in reach_before} <= {m for m in mids if m in reach_after}
            cards = [(c.dx, c.dy) for c in s.pieces.escape]
            at, _ = villain_forecast(g.cell_square(s.villain), frozenset(r.tiles), unturned_cards(v), cards, players)
            cut = sum(_threat(s, s, k, at) - _threat(s, t, k, at) for k in range(1, players))
            ours = _threat(s, s, players, at) - _threat(s, t, players, at)  # this car's next turn
            longer = _way(t, r) - _way(s, r)
            assert cut - ours - DETOUR_PIP * longer >= DETOUR_GAIN - 1e-9, (cut, ours, longer)
            cuts += cut > 0
    assert laid >= 3 and cuts >= laid // 2, (laid, cuts)
