"""Mille Bornes, batched and compiled: B games in arrays, one decision in each per call.

The rules are those of :mod:`rallye.mille.engine` (every edition, every player count,
teams, coups fourrés, the extension decision, the end of the hand, the score sheets,
matches to 5000), compiled with numba (:mod:`rallye.batch._kernels`); the pure engine is
the reference: ``tests/batch/test_mille_batch.py`` plays the same decks and the same
actions through both and compares every step.

>>> from rallye.batch import MilleBatch
>>> games = MilleBatch("wm2006", 2, size=4, seed=1)
>>> mask = games.legal_mask()  # (4, 70) booleans over the action codes
>>> flags = games.step(games.random_actions())  # one decision in every game
>>> mask.shape, flags.shape
((4, 70), (4,))

Actions are the integer codes of :mod:`rallye.mille.actions`; :meth:`MilleBatch.legal_actions`
lists one game's legal codes in the engine's documented order (plays, attacks, discards).

Dealing: each match has a 64-bit seed, and hand ``h`` of it is dealt from
``batch_deck(edition, players, seed, h)``: the engine's own shuffle (:class:`rallye.core.rng.Rng`,
splitmix64 Fisher-Yates) from a seed mixed in arithmetic (the pure engine derives its
hands' seeds with blake2b, which has no place in a compiled loop). A finished match is
replaced by the next match from the game's own stream of seeds (``auto_reset``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from rallye.batch import _kernels as k
from rallye.core.errors import ConfigError, IllegalAction
from rallye.core.rng import Rng, derive_seed
from rallye.mille.actions import NUM_ACTIONS, decode_action
from rallye.mille.cards import CARD_INDEX, CARDS, DISTANCES, SAFETIES, SPEED_LIMIT
from rallye.mille.edition import SCORE_LINES, Edition, get_edition
from rallye.mille.state import EXTEND_PHASE, OVER_PHASE, PLAY_PHASE, MilleState, Phase, ScoreSheet, Tableau

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_PHASES: dict[Phase, int] = {PLAY_PHASE: k.PLAY_PHASE, EXTEND_PHASE: k.EXTEND_PHASE, OVER_PHASE: k.OVER_PHASE}
_PHASE_NAMES = {v: name for name, v in _PHASES.items()}
_BATTLE_CARDS = frozenset({"ROLL", "STOP", "OUT_OF_GAS", "GASOLINE", "FLAT_TIRE", "SPARE_TIRE", "ACCIDENT", "REPAIRS"})
_SPEED_CARDS = frozenset({SPEED_LIMIT, "END_OF_LIMIT"})
assert len(SCORE_LINES) == k.N_LINES and len(CARDS) == k.NC and NUM_ACTIONS == k.NUM_ACTIONS

I32 = npt.NDArray[np.int32]


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def batch_hand_seed(match_seed: int, hand_no: int) -> int:
    """The shuffle seed of hand ``hand_no`` of the batched match with this seed."""
    return _mix64((match_seed + (hand_no + 1) * _GOLDEN) & _MASK64)


def batch_deck(edition: str | Edition, players: int, match_seed: int, hand_no: int) -> tuple[str, ...]:
    """The deck order (top first) the batched engine deals for this hand: give it to the
    pure engine (``new_match(..., deck=...)``) to play the same hand there."""
    ed = get_edition(edition)
    deck, _ = Rng(batch_hand_seed(match_seed & _MASK64, hand_no)).shuffle(ed.deck_for(players))
    return deck


def config_for(edition: str | Edition, players: int) -> I32:
    """The configuration row of an edition with a player count (a clear error if the
    edition does not fit the compiled engine's capacities)."""
    ed = get_edition(edition)
    sides = ed.sides_for(players)  # ConfigError for a player count the edition lacks
    deck = ed.deck_for(players)
    counts = {c: deck.count(c) for c in CARDS}
    limits = [
        (len(deck), k.DECK_MAX, "cards in the deck"),
        (sum(counts[c] for c in _BATTLE_CARDS), k.BAT_MAX, "battle-pile cards"),
        (sum(counts[c] for c in _SPEED_CARDS), k.SPD_MAX, "speed-pile cards"),
        (sum(counts[c] for c in DISTANCES), k.DIST_MAX, "distance cards"),
        (len(sides), k.MAXS, "sides"),
        (max(len(s) for s in sides), k.MAXM, "seats on a side"),
    ]
    for have, most, what in limits:
        if have > most:
            raise ConfigError(
                f"{ed.key} with {players} players has {have} {what}; the batched engine holds at most {most} "
                "(use the pure engine rallye.mille)",
                rule="batch-capacity",
            )
    cfg = np.zeros(k.N_CFG, dtype=np.int32)
    sc, ex = ed.scoring, ed.extension
    cfg[k.C_P] = players
    cfg[k.C_S] = len(sides)
    cfg[k.C_DECKLEN] = len(deck)
    cfg[k.C_TARGET] = ed.target_for(len(sides[0]))
    cfg[k.C_XSAFE] = ed.extra_turn_after_safety
    cfg[k.C_XCF] = ed.extra_turn_after_safety_in_coup_fourre_turn
    cfg[k.C_SAFETY] = sc.safety
    cfg[k.C_ALL4] = sc.all_four_bonus
    cfg[k.C_CFB] = sc.coup_fourre_bonus
    cfg[k.C_CFINPLACE] = sc.coup_fourre_in_place
    cfg[k.C_TRIP] = sc.trip
    cfg[k.C_SAFETRIP] = sc.safe_trip
    cfg[k.C_DELAYED] = sc.delayed_action
    cfg[k.C_SHUT] = sc.shutout
    cfg[k.C_SHUTTO] = ("completer", "placed", "none").index(sc.shutout_to)
    cfg[k.C_EXTPTS] = sc.extension
    cfg[k.C_EXALLOWED] = ex.allowed
    cfg[k.C_EXALONE] = ex.alone_only
    cfg[k.C_EXFROM] = ex.from_km
    cfg[k.C_EXTO] = ex.to_km
    cfg[k.C_EXEMPTY] = ex.ends_on_empty_draw
    cfg[k.C_EXFAILED] = ("nobody", "opponents").index(ex.failed_bonus_to)
    cfg[k.C_EMPTYENDS] = ed.empty_draw_ends_hand
    cfg[k.C_CLOSEST] = ed.closest_gets_trip_when_no_completion
    cfg[k.C_SUBTRACT] = ed.subtract_distance_in_hand
    cfg[k.C_MATCHTARGET] = -1 if ed.match_target is None else ed.match_target
    for s, seats in enumerate(sides):
        cfg[k.C_SIDESIZE + s] = len(seats)
        for i, seat in enumerate(seats):
            cfg[k.C_SIDEOF + seat] = s
            cfg[k.C_MEMBERS + s * k.MAXM + i] = seat
    for i, c in enumerate(deck):
        cfg[k.C_BASEDECK + i] = CARD_INDEX[c]
    return cfg


def encoding_table(edition: str | Edition, players: int) -> npt.NDArray[np.float64]:
    """The observation encoding's constants of an edition with a player count (those of
    :mod:`rallye.rl.mille.encoding`): each card's copies and their inverse, the rule flags,
    the match target."""
    ed = get_edition(edition)
    deck = ed.deck_for(players)
    enc = np.zeros(k.N_ENC, dtype=np.float64)
    for i, c in enumerate(CARDS):
        copies = deck.count(c)
        enc[k.E_COPIES + i] = copies
        enc[k.E_INVERSE + i] = 1.0 / copies if copies else 0.0
    team = any(len(s) > 1 for s in ed.sides_for(players))
    flags = (ed.extension.allowed, ed.empty_draw_ends_hand, ed.extra_turn_after_safety, team)
    enc[k.E_FLAGS : k.E_FLAGS + 4] = [float(f) for f in flags]
    enc[k.E_MATCH] = (ed.match_target or 0) / 10000.0
    return enc


def blank_row() -> I32:
    """A row before anything is dealt: counters 0, piles -1."""
    row = np.full(k.N_FIELDS, -1, dtype=np.int32)
    row[: k.DECK] = 0
    row[k.HAND : k.SIDES] = 0
    for s in range(k.MAXS):
        base = k.SIDES + s * k.SIDE_SIZE
        row[base : base + k.S_BAT] = 0
    return row


def encode_state(state: MilleState) -> I32:
    """A pure engine state as the batched engine's row (the batch's own bookkeeping, the
    matches counter and the last finished match's result, left as in :func:`blank_row`,
    except that a finished match's winners and totals are filled in)."""
    row = blank_row()
    row[k.PHASE] = _PHASES[state.phase]
    row[k.CUR] = state.current
    row[k.CF] = state.cf_turn
    row[k.RANOUT] = state.ran_out_this_turn
    row[k.EXTBY] = -1 if state.extended_by is None else state.extended_by
    row[k.TARGET] = state.target
    row[k.HANDNO] = state.hand_no
    row[k.DEALER] = state.dealer
    row[k.DRAWPOS] = state.draw_pos
    row[k.DISCLEN] = len(state.discard)
    row[k.NSHEETS] = len(state.sheets)
    row[k.DECKLEN] = len(state.deck)
    idx = CARD_INDEX
    row[k.DECK : k.DECK + len(state.deck)] = [idx[c] for c in state.deck]
    row[k.DISC : k.DISC + len(state.discard)] = [idx[c] for c in state.discard]
    for seat, hand in enumerate(state.hands):
        h = k.HAND + seat * k.NC
        for c in hand:
            row[h + idx[c]] += 1
        row[k.HSIZE + seat] = len(hand)
    row[k.TOTALS : k.TOTALS + len(state.totals)] = state.totals
    if state.sheets:
        sheet = state.sheets[-1]
        row[k.SH_COMPLETED] = -1 if sheet.completed_by is None else sheet.completed_by
        row[k.SH_EXT] = -1 if sheet.extended_by is None else sheet.extended_by
        row[k.SH_HAND] = sheet.hand
        row[k.SH_DEALER] = sheet.dealer
        for s, r in enumerate(sheet.rows):
            row[k.SH_ROWS + s * k.N_LINES : k.SH_ROWS + (s + 1) * k.N_LINES] = r
        row[k.SH_TOTALS : k.SH_TOTALS + len(sheet.totals)] = sheet.totals
    if state.phase == OVER_PHASE:
        row[k.RES_WINNERS] = sum(1 << s for s in state.winners)
        row[k.RES_TOTALS : k.RES_TOTALS + len(state.totals)] = state.totals
    for s, tab in enumerate(state.tableaus):
        base = k.SIDES + s * k.SIDE_SIZE
        row[base + k.S_KM] = tab.km
        row[base + k.S_D200] = tab.d200
        row[base + k.S_SAFMASK] = sum(1 << (idx[c] - k.RIGHT_OF_WAY) for c in tab.safeties)
        row[base + k.S_COUPMASK] = sum(1 << i for i, c in enumerate(tab.safeties) if c in tab.coups)
        for len_field, pile_field, pile in (
            (k.S_BATLEN, k.S_BAT, tab.battle),
            (k.S_SPDLEN, k.S_SPD, tab.speed),
            (k.S_DISTLEN, k.S_DIST, tab.distance),
            (k.S_SAFLEN, k.S_SAF, tab.safeties),
        ):
            row[base + len_field] = len(pile)
            row[base + pile_field : base + pile_field + len(pile)] = [idx[c] for c in pile]
    return row


#: Fields of a row that are the batch's own bookkeeping, not part of the game's state.
_BOOKKEEPING = (k.NEEDDEAL, k.MATCHES, k.RES_WINNERS, *range(k.RES_TOTALS, k.RES_TOTALS + k.MAXS))
_SHEET_FIELDS = (
    k.SH_COMPLETED,
    k.SH_EXT,
    k.SH_HAND,
    k.SH_DEALER,
    *range(k.SH_ROWS, k.SH_TOTALS + k.MAXS),
)


_HEADER = (
    "PHASE", "CUR", "CF", "RANOUT", "EXTBY", "TARGET", "HANDNO", "DEALER", "DRAWPOS", "DISCLEN", "NEEDDEAL",
    "NSHEETS", "SH_COMPLETED", "SH_EXT", "SH_HAND", "SH_DEALER", "RES_WINNERS", "MATCHES", "DECKLEN",
)  # fmt: skip


def _field_names() -> list[str]:
    names = [f"field {i}" for i in range(k.N_FIELDS)]
    for name in _HEADER:
        names[getattr(k, name)] = name.lower()
    blocks = [
        ("deck", k.DECK, k.DECK_MAX, 1),
        ("discard", k.DISC, k.DECK_MAX, 1),
        ("hand", k.HAND, k.MAXP * k.NC, k.NC),
        ("hand size", k.HSIZE, k.MAXP, 1),
        ("totals", k.TOTALS, k.MAXS, 1),
        ("sheet rows", k.SH_ROWS, k.MAXS * k.N_LINES, k.N_LINES),
        ("sheet totals", k.SH_TOTALS, k.MAXS, 1),
        ("result totals", k.RES_TOTALS, k.MAXS, 1),
    ]
    for what, start, n, per in blocks:
        labels = CARDS if per == k.NC else SCORE_LINES
        for i in range(n):
            names[start + i] = f"{what}[{i}]" if per == 1 else f"{what}[{i // per}][{labels[i % per]}]"
    side_fields = {getattr(k, n): n[2:].lower() for n in dir(k) if n.startswith("S_") and getattr(k, n) < k.S_BAT}
    piles = [(getattr(k, p), p[2:].lower()) for p in ("S_SAF", "S_DIST", "S_SPD", "S_BAT")]  # last first
    for s in range(k.MAXS):
        base = k.SIDES + s * k.SIDE_SIZE
        for i in range(k.SIDE_SIZE):
            label = side_fields.get(i)
            if label is None:
                start, pile = next((start, pile) for start, pile in piles if i >= start)
                label = f"{pile}[{i - start}]"
            names[base + i] = f"side {s} {label}"
    return names


class MilleBatch:
    """``size`` Mille Bornes matches of one edition and player count, advanced together.

    ``seed`` fixes every game's first match, its random policy and its later matches.
    With ``auto_reset`` (the default) a finished match is replaced within the step that
    ends it by the game's next match; :meth:`winners` and :meth:`result_totals` then tell
    how the last one ended. Without it a finished game stays over and takes action -1.
    """

    def __init__(
        self, edition: str | Edition, players: int, size: int, seed: int = 0, *, auto_reset: bool = True
    ) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size must be a positive number of games, got {size!r}")
        self.edition = get_edition(edition)
        self.players = players
        self.size = size
        self.auto_reset = bool(auto_reset)
        self.config = config_for(self.edition, players)
        self.n_sides = int(self.config[k.C_S])
        self.rows = np.tile(blank_row(), (size, 1))
        self.seeds = np.array(
            [[derive_seed("mille-batch", seed, b, part) for part in ("match", "policy", "reset")] for b in range(size)],
            dtype=np.uint64,
        )
        self._flags = np.zeros(size, dtype=np.int8)
        self._mask = np.zeros((size, NUM_ACTIONS), dtype=np.bool_)
        self._actions = np.zeros(size, dtype=np.int32)
        self._enc = encoding_table(self.edition, players)
        self._obs = np.zeros((size, k.OBS_SIZE), dtype=np.float32)
        k.batch_new_matches(self.rows, self.config, self.seeds)

    # -- the loop ------------------------------------------------------------------
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(size, 70)`` booleans: the legal action codes of every game (a view of an
        array the next call overwrites: copy it to keep it)."""
        k.batch_masks(self.rows, self.config, self._mask)
        return self._mask

    def legal_actions(self, game: int) -> tuple[int, ...]:
        """One game's legal action codes, in the engine's documented order."""
        buf = np.empty(NUM_ACTIONS, dtype=np.int32)
        n = k.legal_codes(self.rows[self._game(game)], self.config, buf)
        return tuple(int(c) for c in buf[:n])

    def random_actions(self) -> I32:
        """A uniformly random legal action code for every game (-1 for a finished one),
        from each game's own seeded stream (a view of an array the next call overwrites)."""
        k.batch_random_actions(self.rows, self.config, self.seeds, self._actions)
        return self._actions

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer], *, check: bool = True) -> npt.NDArray[np.int8]:
        """One decision in every game: ``actions[b]`` by game ``b``'s current player; -1
        leaves game ``b`` as it is (a finished game, not reset, must take -1). Returns per
        game 0, 1 (a hand ended) or 3 (the match ended). With ``check`` (the default) an
        illegal action raises :class:`~rallye.core.errors.IllegalAction` and changes no
        game; without it, actions must come from :meth:`legal_mask`. The flags are an array the
        next call overwrites."""
        codes = np.asarray(actions)
        if codes.shape != (self.size,) or not np.issubdtype(codes.dtype, np.integer):
            raise ValueError(f"actions must be {self.size} integer codes, got an array of {codes.dtype} {codes.shape}")
        out_of_range = (codes < -1) | (codes >= NUM_ACTIONS)
        if out_of_range.any():
            b = int(np.flatnonzero(out_of_range)[0])
            raise IllegalAction(
                f"game {b}: {codes[b]} is no action code (0..{NUM_ACTIONS - 1}, or -1)", rule="notation"
            )
        codes = codes.astype(np.int32, copy=False)
        bad = k.batch_step(self.rows, self.config, self.seeds, codes, self.auto_reset, check, self._flags)
        if bad >= 0:
            raise self._illegal(bad, int(codes[bad]))
        return self._flags

    def play_random(self, steps: int) -> tuple[int, int, int]:
        """``steps`` rounds of one uniformly random legal decision in every game, all in
        compiled code: ``(decisions, hands ended, matches ended)``."""
        counts = np.zeros(3, dtype=np.int64)
        k.batch_random_play(self.rows, self.config, self.seeds, steps, self.auto_reset, counts)
        return int(counts[0]), int(counts[1]), int(counts[2])

    def rollouts(self, *, to: str = "hand", max_steps: int = 100_000) -> tuple[npt.NDArray[np.int32], int]:
        """Play every game on with the random policy to the end of its hand (``to="hand"``)
        or of its match (``"match"``), without reset: ``(rows, decisions)``, ``rows[b]``
        the ``(sides, 10)`` score sheet of the last hand scored (zeros if game ``b`` did not
        get there in this call: a finished match, or ``max_steps`` reached)."""
        if to not in ("hand", "match"):
            raise ValueError(f"to must be 'hand' or 'match', not {to!r}")
        out = np.zeros((self.size, k.MAXS * k.N_LINES), dtype=np.int32)
        ended = np.zeros(self.size, dtype=np.int8)
        decisions = k.batch_rollouts(self.rows, self.config, self.seeds, to == "hand", max_steps, out, ended)
        rows = out.reshape(self.size, k.MAXS, k.N_LINES)[:, : self.n_sides, :]
        rows[ended == 0] = 0
        return rows, int(decisions)

    def observe(self, seats: int | Sequence[int] | npt.NDArray[np.integer]) -> npt.NDArray[np.float32]:
        """``(size, 270)`` float32: row ``b`` is the observation (version 1 of
        :mod:`rallye.rl.mille.encoding`, equal to ``encode_view(view_for(state, seat))``) of
        seat ``seats[b]`` of game ``b`` (one seat for all games if an int; -1: zeros), built
        from that seat's view only. A view of an array the next call overwrites."""
        want = np.full(self.size, seats, dtype=np.int32) if isinstance(seats, int | np.integer) else np.asarray(seats)
        if want.shape != (self.size,) or not np.issubdtype(want.dtype, np.integer):
            raise ValueError(f"seats must be one seat or {self.size} seats, got {want.dtype} {want.shape}")
        if ((want < -1) | (want >= self.players)).any():
            raise ValueError(f"seats must lie in 0..{self.players - 1} (or -1), got {sorted(set(want.tolist()))}")
        k.batch_encode(self.rows, self.config, self._enc, want.astype(np.int32, copy=False), self._obs)
        return self._obs

    # -- reading -------------------------------------------------------------------
    def current_players(self) -> I32:
        """The seat to act in every game, -1 where the match is over."""
        cur = self.rows[:, k.CUR].copy()
        cur[self.rows[:, k.PHASE] == k.OVER_PHASE] = -1
        return cur

    def phase(self, game: int) -> Phase:
        return _PHASE_NAMES[int(self.rows[self._game(game), k.PHASE])]

    def match_seed(self, game: int) -> int:
        """The seed of the match game ``game`` is playing (its hands: :func:`batch_deck`)."""
        return int(self.seeds[self._game(game), 0])

    def hand(self, game: int, seat: int) -> tuple[str, ...]:
        row = self.rows[self._game(game)]
        h = k.HAND + seat * k.NC
        return tuple(c for i, c in enumerate(CARDS) for _ in range(int(row[h + i])))

    def tableau(self, game: int, side: int) -> Tableau:
        row = self.rows[self._game(game)]
        base = k.SIDES + side * k.SIDE_SIZE

        def pile(len_field: int, pile_field: int) -> tuple[str, ...]:
            n = int(row[base + len_field])
            return tuple(CARDS[int(c)] for c in row[base + pile_field : base + pile_field + n])

        safeties = pile(k.S_SAFLEN, k.S_SAF)
        coups = tuple(c for i, c in enumerate(safeties) if int(row[base + k.S_COUPMASK]) >> i & 1)
        return Tableau(
            battle=pile(k.S_BATLEN, k.S_BAT),
            speed=pile(k.S_SPDLEN, k.S_SPD),
            distance=pile(k.S_DISTLEN, k.S_DIST),
            safeties=safeties,
            coups=coups,
            km=int(row[base + k.S_KM]),
            d200=int(row[base + k.S_D200]),
        )

    def draw_pile(self, game: int) -> tuple[str, ...]:
        row = self.rows[self._game(game)]
        return tuple(CARDS[int(c)] for c in row[k.DECK + row[k.DRAWPOS] : k.DECK + row[k.DECKLEN]])

    def totals(self, game: int) -> tuple[int, ...]:
        return tuple(int(t) for t in self.rows[self._game(game), k.TOTALS : k.TOTALS + self.n_sides])

    def last_sheet(self, game: int) -> ScoreSheet | None:
        """The score sheet of the last hand scored in this game (``None`` before any)."""
        row = self.rows[self._game(game)]
        if row[k.SH_HAND] < 0 or (row[k.NSHEETS] == 0 and row[k.MATCHES] == 0):
            return None
        n = self.n_sides

        def side(v: int) -> int | None:
            return None if v < 0 else int(v)

        return ScoreSheet(
            hand=int(row[k.SH_HAND]),
            dealer=int(row[k.SH_DEALER]),
            rows=tuple(
                tuple(int(x) for x in row[k.SH_ROWS + s * k.N_LINES : k.SH_ROWS + (s + 1) * k.N_LINES])
                for s in range(n)
            ),
            totals=tuple(int(t) for t in row[k.SH_TOTALS : k.SH_TOTALS + n]),
            completed_by=side(int(row[k.SH_COMPLETED])),
            extended_by=side(int(row[k.SH_EXT])),
        )

    def winners(self, game: int) -> tuple[int, ...]:
        """The winning sides of this game's last finished match (``()`` before one ends)."""
        mask = int(self.rows[self._game(game), k.RES_WINNERS])
        return tuple(s for s in range(self.n_sides) if mask >> s & 1)

    def result_totals(self, game: int) -> tuple[int, ...]:
        """The final totals of this game's last finished match."""
        return tuple(int(t) for t in self.rows[self._game(game), k.RES_TOTALS : k.RES_TOTALS + self.n_sides])

    def matches_finished(self) -> I32:
        return self.rows[:, k.MATCHES].copy()

    @staticmethod
    def memory_per_game() -> int:
        """Bytes a game holds: its row and its three generator states."""
        return k.N_FIELDS * 4 + 3 * 8

    # -- writing -------------------------------------------------------------------
    def load(self, game: int, state: MilleState) -> None:
        """Game ``game`` takes over a pure engine state (its edition and player count must
        be this batch's); its later hands are dealt from ``state.seed`` by :func:`batch_deck`.
        A search loads a sampled deal (a view plus the hidden cards) this way and rolls out."""
        b = self._game(game)
        if state.edition != self.edition or state.n_players != self.players:
            raise ValueError(
                f"this batch plays {self.edition.key} with {self.players} players, "
                f"not {state.edition.key} with {state.n_players}"
            )
        row = encode_state(state)
        row[k.MATCHES] = self.rows[b, k.MATCHES]
        self.rows[b] = row
        self.seeds[b, 0] = state.seed & _MASK64

    def next_match(self, game: int) -> None:
        """Start game ``game``'s next match from its stream of seeds (what auto-reset does)."""
        k.batch_next_match(self.rows, self.config, self.seeds, self._game(game))

    def next_matches(self, which: npt.NDArray[np.bool_]) -> None:
        """:meth:`next_match` in every game ``which`` marks, in one compiled call."""
        k.env_restart(self.rows, self.config, self.seeds, which)

    # -- a learner's episodes --------------------------------------------------------
    # Compiled here with the engine (numba cannot call across a Python layer); the vector
    # environment (rallye.rl.mille.vector) holds the episodes and rewards they serve, which
    # are rallye.rl.mille.adapter.MilleAdapter's: ``hand_episodes`` (an episode ends with the
    # hand, else with the match) and ``win_reward`` (the "win" reward, else "score").
    def learner_rewards(
        self,
        flags: npt.NDArray[np.int8],
        seat: int,
        hand_episodes: bool,
        win_reward: bool,
        rewards: npt.NDArray[np.float64],
        dones: npt.NDArray[np.bool_],
    ) -> None:
        """Add ``seat``'s reward of the step that returned ``flags`` to ``rewards`` and mark
        in ``dones`` the games whose episode it ended."""
        k.env_rewards(self.rows, self.config, flags, seat, hand_episodes, win_reward, rewards, dones)

    def play_others_random(
        self,
        seat: int,
        hand_episodes: bool,
        win_reward: bool,
        rewards: npt.NDArray[np.float64],
        dones: npt.NDArray[np.bool_],
    ) -> int:
        """In every game ``dones`` does not mark, the other seats play random legal moves
        until ``seat`` is to act or the episode ends (its rewards added, ``dones`` marked);
        returns the decisions taken."""
        return int(
            k.env_random_others(self.rows, self.config, self.seeds, seat, hand_episodes, win_reward, rewards, dones)
        )

    def differences(self, game: int, state: MilleState) -> list[str]:
        """The fields where game ``game`` differs from the pure engine's ``state`` (empty:
        the same position): hands, tableaus, deck and draw position, discard pile, whose
        turn, phase, target, extension, the totals and the last score sheet line by line."""
        mine = self.rows[self._game(game)]
        theirs = encode_state(state)
        differ = mine != theirs
        differ[list(_BOOKKEEPING)] = False
        if not state.sheets:
            differ[list(_SHEET_FIELDS)] = False
        if state.phase == OVER_PHASE:
            differ[k.CUR] = False
        if not differ.any():
            return []
        names = _field_names()
        return [f"{names[i]}: batch {int(mine[i])}, engine {int(theirs[i])}" for i in np.flatnonzero(differ)]

    def _game(self, game: int) -> int:
        if isinstance(game, bool) or not isinstance(game, int | np.integer) or not 0 <= game < self.size:
            raise IndexError(f"game {game!r} is not in 0..{self.size - 1}")
        return int(game)

    def _illegal(self, b: int, code: int) -> IllegalAction:
        if self.rows[b, k.PHASE] == k.OVER_PHASE:
            return IllegalAction(f"game {b}: its match is over; its action must be -1, not {code}", rule="match-over")
        what = str(decode_action(code)) if 0 <= code < NUM_ACTIONS else "no action"
        legal = ", ".join(f"{c} ({decode_action(c)})" for c in self.legal_actions(b))
        return IllegalAction(f"game {b}: action {code} ({what}) is not legal; legal: {legal}", rule="batch-action")


assert frozenset(SAFETIES) == frozenset(CARDS[k.RIGHT_OF_WAY :])
