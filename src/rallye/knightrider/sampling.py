"""From a view back to states: the legal actions, and full states consistent with it.

A :class:`~rallye.knightrider.view.View` holds everything public plus the viewer's own
hand. What it hides is exactly:

* the **escape deck order** among the cards not yet turned since the last shuffle
  (which cards they are is known: the deck minus the turned ones);
* the **other players' hands** — only their sizes are shown. The cards they can hold are
  the dealt cards minus the own hand minus every card played (K.I.T.T. cards in
  ``played``, detour cards on the map). In the basic game (one of each card per player,
  spares dealt in a fixed order) the hands are therefore fully determined; with the
  ``shuffle_cards`` variant they are a uniform split of those cards;
* while building, **which face-down tiles are the centre** (the face-down tiles as a
  set are known: all tiles minus the laid, drawn and unused ones) — a tile the last
  events showed going back to the pile is not a centre tile;
* the :class:`~rallye.core.rng.Rng` (future dice, draws and shuffles) and the game seed.

:func:`sample_state` draws those unknowns at random (a uniform order of the unturned
escape cards, a uniform deal of the unseen cards, uniform centre tiles, a fresh Rng) and
builds a :class:`State` whose view for the viewer equals the given view.
:func:`legal_from_view` gives the viewer's legal actions (when it is their turn), which
never depend on the hidden parts.

The view does not carry the game's :class:`Options`. Pass them when they are known;
without them the shipped pieces are assumed, and the hands are taken as the basic deal
when the view is consistent with it (else as a shuffled deal).

>>> from rallye.knightrider import new_game, view_for, legal_actions, Options
>>> import random
>>> s = new_game(3, seed=4, options=Options(quick_build=True))
>>> v = view_for(s, s.current)
>>> legal_from_view(v) == legal_actions(s)
True
>>> view_for(sample_state(v, random.Random(1)), v.me) == v
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from rallye.core.rng import Rng
from rallye.knightrider import geometry as g
from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS, Action
from rallye.knightrider.engine import MAX_PLAYERS, legal_actions
from rallye.knightrider.state import OVER_PHASE, Car, Event, Options, State, evolve
from rallye.knightrider.track import compute_links, mask_table
from rallye.knightrider.view import View

Hands = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class _Template:
    """A state built from a view, with the hidden parts still to be drawn."""

    state: State  # hidden parts filled canonically
    turned: tuple[int, ...]  # escape card indices turned, in order
    unturned: tuple[int, ...]  # escape card indices not turned (sorted)
    # hands: fixed (basic deal) or drawn from the pool
    kitt_fixed: Hands | None
    detour_fixed: Hands | None
    kitt_pool: tuple[int, ...]  # unseen K.I.T.T. cards (kind indices), sorted
    detour_pool: tuple[int, ...]
    face_down: tuple[int, ...]  # face-down tile numbers (pile + centre), sorted
    pile_only: frozenset[int]  # face-down tiles known to be pile tiles
    centre_size: int


def _sq(xy: tuple[int, int]) -> int:
    return g.sq_index(*xy)


def _basic_deal(players: int, start: int, sets: int, kinds: int) -> Hands:
    """The hands of the basic deal (one of each per player, spares dealt round from the start player)."""
    counts = [[1] * kinds for _ in range(players)]
    spare = [k for _ in range(sets - players) for k in range(kinds)]
    for i, k in enumerate(spare):
        counts[(start + i) % players][k] += 1
    return tuple(tuple(c) for c in counts)


def _played_counts(players: int, plays: list[tuple[int, int]], kinds: int) -> list[list[int]]:
    out = [[0] * kinds for _ in range(players)]
    for p, k in plays:
        out[p][k] += 1
    return out


def _hands_for(
    view: View, which: int, plays: list[tuple[int, int]], kinds: int, shuffled: bool | None, sets: int
) -> tuple[Hands | None, tuple[int, ...]]:
    """Fixed hands (basic deal) or ``None`` and the pool of unseen cards for a shuffled deal."""
    n = view.players
    own = view.hand_kitt if which == 0 else view.hand_detour
    if len(own) != kinds:
        raise ValueError(f"the view's hand has {len(own)} card kinds, expected {kinds}")
    played = _played_counts(n, plays, kinds)
    if shuffled is not True:
        dealt = _basic_deal(n, view.start_player, sets, kinds)
        hands = tuple(tuple(dealt[p][k] - played[p][k] for k in range(kinds)) for p in range(n))
        ok = hands[view.me] == tuple(own) and all(
            min(h) >= 0 and sum(h) == view.hand_sizes[p][which] for p, h in enumerate(hands)
        )
        if ok:
            return hands, ()
        if shuffled is False:
            raise ValueError(
                "the view does not match the basic deal of the given options (one of each card per player);"
                " pass the game's options (shuffle_cards?)"
            )
    counts = [sets] * kinds
    for p in range(n):
        for k in range(kinds):
            counts[k] -= played[p][k]
    for k in range(kinds):
        counts[k] -= own[k]
    if min(counts) < 0:
        raise ValueError("the view shows more cards than the game holds")
    pool = tuple(k for k in range(kinds) for _ in range(counts[k]))
    need = sum(view.hand_sizes[p][which] for p in range(n) if p != view.me)
    if len(pool) != need:
        raise ValueError(f"the view is inconsistent: {len(pool)} unseen cards but the other hands hold {need}")
    return None, pool


@lru_cache(maxsize=16)
def _template(view: View, options: Options | None) -> _Template:
    opts = options if options is not None else Options()
    pieces = opts.pieces()
    masks = mask_table(pieces)
    n = view.players
    if not 2 <= n <= MAX_PLAYERS or not 0 <= view.me < n:
        raise ValueError(f"bad view: seat {view.me} of {n} players")
    # ---- track
    board = [0] * g.N_SQUARES
    laid: list[tuple[int, int, int, int]] = []
    for t in view.tiles:
        if t.number not in masks or masks[t.number][t.rot // 90] != t.openings:
            raise ValueError(f"tile {t.number} of the view does not match the piece set; pass the game's options")
        board[g.sq_index(t.x, t.y)] = t.number * 4 + t.rot // 90 + 1
        laid.append((t.number, t.x, t.y, t.rot))
    all_numbers = {t.number for t in pieces.tiles}
    seen = {t.number for t in view.tiles} | set(view.unused) | ({view.drawn} if view.drawn else set())
    face_down = tuple(sorted(all_numbers - seen))
    if len(face_down) != view.face_down:
        raise ValueError(
            f"the view is inconsistent: {len(face_down)} tiles unaccounted for, {view.face_down} face down"
        )
    centre_size = 4 if view.centre_face_down else 0
    pile_only = frozenset(e.value for e in view.events if e.kind == "return" and e.value is not None)
    if centre_size and len(set(face_down) - pile_only) < centre_size:
        raise ValueError("the view is inconsistent: too few face-down tiles for the centre")
    detours = tuple((_sq((d.x, d.y)), d.kind, d.rot, d.player) for d in view.detours)
    chase_started = view.villain is not None
    links = compute_links(tuple(board), masks, detours) if chase_started else bytes(g.N_CELLS)
    # ---- escape deck
    index_of = {c.id: i for i, c in enumerate(pieces.escape)}
    try:
        turned = tuple(index_of[e.id] for e in view.escape_turned)
    except KeyError as exc:
        raise ValueError(f"escape card {exc.args[0]} is not in the piece set; pass the game's options") from None
    unturned = tuple(sorted(set(range(len(pieces.escape))) - set(turned)))
    if len(unturned) != view.escape_left or len(set(turned)) != len(turned):
        raise ValueError("the view's escape cards do not match the piece set; pass the game's options")
    # ---- hands
    sets = MAX_PLAYERS - view.set_aside[0] // len(KITT_KINDS)
    if not n <= sets <= MAX_PLAYERS or view.set_aside != (
        len(KITT_KINDS) * (MAX_PLAYERS - sets),
        len(DETOUR_KINDS) * (MAX_PLAYERS - sets),
    ):
        raise ValueError(
            f"the view's set-aside cards ({view.set_aside[0]} K.I.T.T., {view.set_aside[1]} detour)"
            f" do not fit {n} players"
        )
    shuffled = opts.shuffle_cards if options is not None else None
    kitt_plays = [(p, KITT_KINDS.index(k)) for p, k in view.played]
    detour_plays = [(d.player, DETOUR_KINDS.index(d.kind)) for d in view.detours]
    kitt_fixed, kitt_pool = _hands_for(view, 0, kitt_plays, len(KITT_KINDS), shuffled, sets)
    detour_fixed, detour_pool = _hands_for(view, 1, detour_plays, len(DETOUR_KINDS), shuffled, sets)
    # ---- cars and the rest
    cars = tuple(
        Car(
            player=c.player,
            cell=g.cell(*c.field) if c.field is not None else -1,
            heading=c.heading,
            side=c.side,
            roof=c.roof,
            mantle=c.mantle,
            reached=tuple(_sq(s) for s in c.reached),
        )
        for c in view.cars
    )
    first_laid = tuple(len(laid) > (p - view.start_player) % n for p in range(n))
    zero_hands: Hands = tuple((0,) * len(KITT_KINDS) if p != view.me else tuple(view.hand_kitt) for p in range(n))
    zero_detours: Hands = tuple((0,) * len(DETOUR_KINDS) if p != view.me else tuple(view.hand_detour) for p in range(n))
    state = State(
        players=n,
        seed=0,
        options=opts,
        rng=Rng(0),
        phase=OVER_PHASE if view.over else view.phase,
        current=view.current if view.current is not None else view.me,
        start_player=view.start_player,
        board=tuple(board),
        laid=tuple(laid),
        pile=tuple(sorted(set(face_down))) if not centre_size else (),
        centre=(),
        drawn=view.drawn,
        first_laid=first_laid,
        unused=tuple(view.unused),
        links=links,
        villain=g.cell(*view.villain) if view.villain is not None else -1,
        targets=tuple(_sq(s) for s in view.targets),
        start_sq=_sq(view.start_tile) if view.start_tile is not None else -1,
        start_choices=tuple(_sq(s) for s in view.start_choices),
        cars=cars,
        detours=detours,
        kitt_hands=kitt_fixed if kitt_fixed is not None else zero_hands,
        detour_hands=detour_fixed if detour_fixed is not None else zero_detours,
        set_aside=view.set_aside,
        played=tuple(view.played),
        escape_deck=turned + unturned,
        escape_pos=len(turned),
        turn=view.turn,
        roll=view.roll,
        pips=view.pips,
        used=view.used,
        moved=view.moved,
        move_done=view.move_done,
        kitt_played=view.kitt_played,
        detour_played=view.detour_played,
        winner=view.winner,
        events=tuple(Event(e.kind, e.player, e.value, e.text) for e in view.events),
    )
    if centre_size:
        # canonical centre: the first four face-down tiles that may be centre tiles
        free = [t for t in face_down if t not in pile_only]
        centre = tuple(free[:centre_size])
        state = evolve(state, centre=centre, pile=tuple(t for t in face_down if t not in centre))
    return _Template(
        state=state,
        turned=turned,
        unturned=unturned,
        kitt_fixed=kitt_fixed,
        detour_fixed=detour_fixed,
        kitt_pool=kitt_pool,
        detour_pool=detour_pool,
        face_down=face_down,
        pile_only=pile_only,
        centre_size=centre_size,
    )


def legal_from_view(view: View, options: Options | None = None) -> tuple[Action, ...]:
    """The viewer's legal actions (the viewer must be the player to act).

    Equal to :func:`~rallye.knightrider.engine.legal_actions` on the true state: the
    legal actions depend only on public facts and the acting player's own hand.
    """
    if view.over:
        return ()
    if view.current != view.me:
        raise ValueError(f"it is not P{view.me + 1}'s turn (P{(view.current or 0) + 1} acts)")
    return legal_actions(_template(view, options).state)


def state_from_view(view: View, options: Options | None = None) -> State:
    """One state consistent with ``view``, its hidden parts filled in a fixed way (the
    unturned escape cards in deck order, the unseen cards dealt in kind order, Rng 0).

    For deterministic look-ahead by the viewer (e.g. what a Turbo-Boost would allow):
    the viewer's legal actions and everything public are exact; nothing hidden is.
    """
    t = _template(view, options)
    if t.kitt_fixed is None or t.detour_fixed is None:
        return sample_state(view, random.Random(0), options)
    return t.state


def _deal(pool: tuple[int, ...], view: View, which: int, kinds: int, rng: random.Random) -> Hands:
    cards = list(pool)
    rng.shuffle(cards)
    hands: list[tuple[int, ...]] = []
    pos = 0
    for p in range(view.players):
        if p == view.me:
            hands.append(tuple(view.hand_kitt if which == 0 else view.hand_detour))
            continue
        size = view.hand_sizes[p][which]
        counts = [0] * kinds
        for k in cards[pos : pos + size]:
            counts[k] += 1
        pos += size
        hands.append(tuple(counts))
    return tuple(hands)


def sample_state(view: View, rng: random.Random, options: Options | None = None) -> State:
    """A full state consistent with ``view``, its hidden parts drawn with ``rng``.

    ``view_for(sample_state(view, rng), view.me) == view`` always holds; every
    assignment of the hidden parts consistent with the view has a positive chance.
    """
    t = _template(view, options)
    order = list(t.unturned)
    rng.shuffle(order)
    changes: dict[str, object] = {
        "rng": Rng(rng.getrandbits(64)),
        "escape_deck": t.turned + tuple(order),
    }
    if t.kitt_fixed is None:
        changes["kitt_hands"] = _deal(t.kitt_pool, view, 0, len(KITT_KINDS), rng)
    if t.detour_fixed is None:
        changes["detour_hands"] = _deal(t.detour_pool, view, 1, len(DETOUR_KINDS), rng)
    if t.centre_size:
        free = [x for x in t.face_down if x not in t.pile_only]
        centre = tuple(sorted(rng.sample(free, t.centre_size)))
        changes["centre"] = centre
        changes["pile"] = tuple(x for x in t.face_down if x not in centre)
    return evolve(t.state, **changes)


__all__ = ["legal_from_view", "sample_state", "state_from_view"]
