"""Shared helpers of the Knight Rider bot tests: random games, and states that hide other facts."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rallye.core.rng import Rng
from rallye.knightrider import Options, apply, is_over, legal_actions, new_game, view_for
from rallye.knightrider.state import State, evolve


def random_states(players: int, seed: int, options: Options, steps: int) -> Iterator[State]:
    rng = random.Random(seed)
    s = new_game(players, seed, options)
    for _ in range(steps):
        if is_over(s):
            s = new_game(players, rng.randrange(10**6), options)
        yield s
        s = apply(s, rng.choice(legal_actions(s)))


def hidden_variants(s: State) -> list[State]:
    """The same public position with other hidden facts: escape deck order, the others'
    hands (moved between them), the Rng."""
    out = []
    rest = list(s.escape_deck[s.escape_pos :])
    random.Random(1).shuffle(rest)
    out.append(evolve(s, escape_deck=s.escape_deck[: s.escape_pos] + tuple(reversed(rest))))
    out.append(evolve(s, rng=Rng.from_seed("other", 99)))
    others = [p for p in range(s.players) if p != s.current]
    if len(others) >= 2:
        a, b = others[:2]
        ka, kb = list(s.detour_hands[a]), list(s.detour_hands[b])
        i = next((k for k in range(len(ka)) if ka[k] > 0 and kb[k] == 0), None)
        j = next((k for k in range(len(kb)) if kb[k] > 0 and ka[k] == 0), None)
        if i is not None and j is not None:
            ka[i] -= 1
            ka[j] += 1
            kb[j] -= 1
            kb[i] += 1
            hands = list(s.detour_hands)
            hands[a], hands[b] = tuple(ka), tuple(kb)
            out.append(evolve(s, detour_hands=tuple(hands)))
    return out


def hidden_twins() -> list[tuple[State, ...]]:
    """States with the same view for the player to act but other hidden facts (escape deck
    order, the others' hands, the Rng), on driving turns of a random 3-player game; some of
    them with the others' hands swapped."""
    opts = Options(quick_build=True, shuffle_cards=True, turn_limit=60)
    out: list[tuple[State, ...]] = []
    swapped_hands = 0
    for s in random_states(3, 21, opts, 400):
        if s.phase != "turn" or s.moved or s.cars[s.current].roof:
            continue
        variants = hidden_variants(s)
        swapped_hands += len(variants) == 3
        v = view_for(s, s.current)
        assert all(view_for(t, t.current) == v for t in variants)
        out.append((s, *variants))
        if len(out) >= 8:
            break
    assert swapped_hands >= 1
    return out
