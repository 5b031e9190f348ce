"""The compiled kernels of the batched Mille Bornes engine (numba, ``cache=True``).

One game is one row of an ``int32`` array (the layout below); an edition with its player
count is one ``int32`` configuration row (``C_*``); each game also has three ``uint64``
generator states (its match seed, its random policy's stream, its stream of next matches'
seeds). Every function mirrors the function of :mod:`rallye.mille.engine` it is named after;
the differential test (``tests/batch/test_mille_batch.py``) steps both side by side.

Everything compiled lives in this one file on purpose: numba's cache (``cache=True``) is
invalidated when a function's own file changes, not when a function it calls in another
file does, so kernels split over files could run stale code after an edit.

Cards are their indices in :data:`rallye.mille.cards.CARDS`; actions are the integer codes
of :mod:`rallye.mille.actions`. Piles keep ``-1`` past their length, so two rows holding the
same position are equal arrays.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

Row = npt.NDArray[np.int32]
Rows = npt.NDArray[np.int32]  # (games, fields)
Seeds = npt.NDArray[np.uint64]
Mask = npt.NDArray[np.bool_]
Flags = npt.NDArray[np.int8]
Counts = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Obs = npt.NDArray[np.float32]

NC = 19  # card kinds
MAXP = 6  # seats
MAXS = 6  # sides
MAXM = 3  # seats a side
DECK_MAX = 112
BAT_MAX = 48
SPD_MAX = 12
DIST_MAX = 48
N_LINES = 10  # score-sheet lines (rallye.mille.edition.SCORE_LINES)
NUM_ACTIONS = 70
HAND_SIZE = 6

PLAY_PHASE, EXTEND_PHASE, OVER_PHASE = 0, 1, 2
EXTEND_CODE, DECLINE_CODE = 68, 69

# -- a game's row ----------------------------------------------------------------------
PHASE = 0
CUR = 1
CF = 2  # the current turn is a coup-fourré turn
RANOUT = 3  # the draw pile ran out during the current turn
EXTBY = 4  # side that extended, -1 none
TARGET = 5
HANDNO = 6
DEALER = 7
DRAWPOS = 8
DISCLEN = 9
NEEDDEAL = 10  # the hand ended and the match goes on (only inside a step)
NSHEETS = 11  # hands scored in this match
SH_COMPLETED = 12  # the last sheet's side that completed the trip, -1 none
SH_EXT = 13  # the last sheet's extending side, -1 none
SH_HAND = 14
SH_DEALER = 15
RES_WINNERS = 16  # bit mask of the winning sides of the last finished match
MATCHES = 17  # matches finished in this row
DECKLEN = 18
DECK = 24
DISC = DECK + DECK_MAX
HAND = DISC + DECK_MAX  # counts: HAND + seat * NC + card
HSIZE = HAND + MAXP * NC
TOTALS = HSIZE + MAXP
SH_ROWS = TOTALS + MAXS  # the last sheet: SH_ROWS + side * N_LINES + line
SH_TOTALS = SH_ROWS + MAXS * N_LINES
RES_TOTALS = SH_TOTALS + MAXS  # the totals of the last finished match
SIDES = RES_TOTALS + MAXS
# a side's block, at SIDES + side * SIDE_SIZE
S_KM = 0
S_D200 = 1
S_SAFMASK = 2  # bit (safety - RIGHT_OF_WAY) for each safety on the tableau
S_BATLEN = 3
S_SPDLEN = 4
S_DISTLEN = 5
S_SAFLEN = 6
S_COUPMASK = 7  # bit i: the i-th safety was laid as a coup fourré
S_BAT = 8
S_SPD = S_BAT + BAT_MAX
S_DIST = S_SPD + SPD_MAX
S_SAF = S_DIST + DIST_MAX
SIDE_SIZE = S_SAF + 4
N_FIELDS = SIDES + MAXS * SIDE_SIZE

# -- the configuration row -------------------------------------------------------------
C_P = 0
C_S = 1
C_DECKLEN = 2
C_TARGET = 3
C_XSAFE = 4  # extra turn after a safety
C_XCF = 5  # extra turn after a safety in a coup-fourré turn
C_SAFETY = 6
C_ALL4 = 7
C_CFB = 8
C_TRIP = 9
C_SAFETRIP = 10
C_DELAYED = 11
C_SHUT = 12
C_SHUTTO = 13  # 0 completer, 1 placed, 2 none
C_EXTPTS = 14
C_EXALLOWED = 15
C_EXALONE = 16
C_EXFROM = 17
C_EXTO = 18
C_EXEMPTY = 19
C_EXFAILED = 20  # 0 nobody, 1 opponents
C_EMPTYENDS = 21
C_CLOSEST = 22
C_SUBTRACT = 23
C_MATCHTARGET = 24  # -1: one hand
C_CFINPLACE = 25  # hu: a coup fourré scores safety + bonus on its own line, in place of the safety's
C_SIDEOF = 32
C_SIDESIZE = C_SIDEOF + MAXP
C_MEMBERS = C_SIDESIZE + MAXS  # C_MEMBERS + side * MAXM + i
C_BASEDECK = C_MEMBERS + MAXS * MAXM
N_CFG = C_BASEDECK + DECK_MAX

# -- card tables (CARDS order) ---------------------------------------------------------
D200, ROLL, STOP, SPEED_LIMIT, END_OF_LIMIT, RIGHT_OF_WAY = 4, 5, 6, 7, 8, 15
KM = np.array([25, 50, 75, 100, 200] + [0] * 14, dtype=np.int32)
BATTLE_HAZARD = np.zeros(NC + 1, dtype=np.bool_)  # index card + 1 (-1: empty pile)
for _c in (STOP, 9, 11, 13):
    BATTLE_HAZARD[_c + 1] = True
ROLL_ONTO = np.zeros(NC + 1, dtype=np.bool_)  # index top + 1: empty, STOP or a remedy
for _c in (-1, STOP, 10, 12, 14):
    ROLL_ONTO[_c + 1] = True
SAFETY_FOR = np.full(NC, -1, dtype=np.int32)
SAFETY_FOR[STOP] = SAFETY_FOR[SPEED_LIMIT] = RIGHT_OF_WAY
SAFETY_FOR[9], SAFETY_FOR[11], SAFETY_FOR[13] = 16, 17, 18
REMEDY_FOR = np.full(NC, -2, dtype=np.int32)  # remedy -> the hazard it cures
REMEDY_FOR[10], REMEDY_FOR[12], REMEDY_FOR[14] = 9, 11, 13
ATTACK_CARD = np.array([STOP, SPEED_LIMIT, 9, 11, 13], dtype=np.int32)


# -- chance ----------------------------------------------------------------------------
@njit(cache=True)
def mix64(z: np.uint64) -> np.uint64:
    """splitmix64's output function (:class:`rallye.core.rng.Rng`)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def hand_seed(match_seed: np.uint64, hand_no: int) -> np.uint64:
    return mix64(match_seed + np.uint64(hand_no + 1) * np.uint64(0x9E3779B97F4A7C15))


@njit(cache=True)
def shuffle_deck(g: Row, cfg: Row, seed: np.uint64) -> None:
    """``Rng(seed).shuffle(base deck)``, exactly (Fisher-Yates, rejection sampling)."""
    n_cards = cfg[C_DECKLEN]
    for i in range(n_cards):
        g[DECK + i] = cfg[C_BASEDECK + i]
    s = seed
    golden = np.uint64(0x9E3779B97F4A7C15)
    zero = np.uint64(0)
    for i in range(n_cards - 1, 0, -1):
        n = np.uint64(i + 1)
        rem = (zero - n) % n
        while True:
            s = s + golden
            z = mix64(s)
            if rem == zero or z < zero - rem:
                break
        j = np.int64(z % n)
        t = g[DECK + i]
        g[DECK + i] = g[DECK + j]
        g[DECK + j] = t


@njit(cache=True)
def rand_below(seeds: Seeds, b: int, n: int) -> int:
    """A uniform pick in ``range(n)`` from game ``b``'s policy stream (splitmix64, the
    high 32 bits scaled: no modulo)."""
    s = seeds[b, 1] + np.uint64(0x9E3779B97F4A7C15)
    seeds[b, 1] = s
    v = mix64(s) >> np.uint64(32)
    return int((v * np.uint64(n)) >> np.uint64(32))


# -- small pieces ----------------------------------------------------------------------
@njit(cache=True)
def side_base(s: int) -> int:
    return SIDES + s * SIDE_SIZE


@njit(cache=True)
def push_discard(g: Row, card: int) -> None:
    n = g[DISCLEN]
    g[DISC + n] = card
    g[DISCLEN] = n + 1


@njit(cache=True)
def push_pile(g: Row, base: int, len_field: int, pile: int, card: int) -> None:
    n = g[base + len_field]
    g[base + pile + n] = card
    g[base + len_field] = n + 1


@njit(cache=True)
def draw(g: Row, seat: int) -> None:
    pos = g[DRAWPOS]
    n = g[DECKLEN]
    if pos >= n:
        return
    c = g[DECK + pos]
    g[HAND + seat * NC + c] += 1
    g[HSIZE + seat] += 1
    g[DRAWPOS] = pos + 1
    if pos + 1 == n:
        g[RANOUT] = 1


@njit(cache=True)
def ends_on_empty(g: Row, cfg: Row) -> bool:
    return bool(cfg[C_EMPTYENDS] != 0 or (g[EXTBY] >= 0 and cfg[C_EXEMPTY] != 0))


@njit(cache=True)
def lay_safety(g: Row, side: int, card: int, coup: bool) -> None:
    """[core: safety] a matching hazard on top goes to the discard pile."""
    base = side_base(side)
    n = g[base + S_BATLEN]
    if n > 0:
        top = g[base + S_BAT + n - 1]
        if BATTLE_HAZARD[top + 1] and SAFETY_FOR[top] == card:
            push_discard(g, top)
            g[base + S_BAT + n - 1] = -1
            g[base + S_BATLEN] = n - 1
    n = g[base + S_SPDLEN]
    if n > 0:
        top = g[base + S_SPD + n - 1]
        if top == SPEED_LIMIT and card == RIGHT_OF_WAY:
            push_discard(g, top)
            g[base + S_SPD + n - 1] = -1
            g[base + S_SPDLEN] = n - 1
    k = g[base + S_SAFLEN]
    g[base + S_SAF + k] = card
    if coup:
        g[base + S_COUPMASK] |= 1 << k
    g[base + S_SAFLEN] = k + 1
    g[base + S_SAFMASK] |= 1 << (card - RIGHT_OF_WAY)


# -- scoring ---------------------------------------------------------------------------
@njit(cache=True)
def score_hand(g: Row, cfg: Row, completed_by: int) -> None:
    """The hand's score sheet into ``SH_ROWS`` (:func:`rallye.mille.scoring.score_hand`)."""
    n_sides = cfg[C_S]
    for i in range(MAXS * N_LINES):
        g[SH_ROWS + i] = 0
    shut = np.zeros(MAXS, dtype=np.bool_)
    for s in range(n_sides):
        shut[s] = g[side_base(s) + S_KM] == 0
    empty_at_completion = g[DRAWPOS] >= g[DECKLEN]
    for s in range(n_sides):
        base = side_base(s)
        r = SH_ROWS + s * N_LINES
        g[r + 0] = g[base + S_KM]
        nsaf = g[base + S_SAFLEN]
        if nsaf == 4:
            g[r + 2] = cfg[C_ALL4]
        coups = 0
        m = g[base + S_COUPMASK]
        while m:
            coups += m & 1
            m >>= 1
        if cfg[C_CFINPLACE]:
            g[r + 1] = cfg[C_SAFETY] * (nsaf - coups)
            g[r + 3] = (cfg[C_SAFETY] + cfg[C_CFB]) * coups
        else:
            g[r + 1] = cfg[C_SAFETY] * nsaf
            g[r + 3] = cfg[C_CFB] * coups
        if cfg[C_SUBTRACT]:
            in_hand = 0
            for i in range(cfg[C_SIDESIZE + s]):
                p = cfg[C_MEMBERS + s * MAXM + i]
                for c in range(5):
                    in_hand += g[HAND + p * NC + c] * KM[c]
            g[r + 9] = -in_hand
        opponents_shut = 0
        for o in range(n_sides):
            if o != s and shut[o]:
                opponents_shut += 1
        if cfg[C_SHUTTO] == 1 and not shut[s]:
            g[r + 7] = cfg[C_SHUT] * opponents_shut
    if completed_by >= 0:
        r = SH_ROWS + completed_by * N_LINES
        g[r + 4] = cfg[C_TRIP]
        if g[side_base(completed_by) + S_D200] == 0:
            g[r + 5] = cfg[C_SAFETRIP]
        if empty_at_completion:
            g[r + 6] = cfg[C_DELAYED]
        if cfg[C_SHUTTO] == 0:
            k = 0
            for o in range(n_sides):
                if o != completed_by and shut[o]:
                    k += 1
            g[r + 7] = cfg[C_SHUT] * k
    elif cfg[C_CLOSEST]:
        best = 0
        for s in range(n_sides):
            best = max(best, g[side_base(s) + S_KM])
        for s in range(n_sides):
            if best > 0 and g[side_base(s) + S_KM] == best:
                g[SH_ROWS + s * N_LINES + 4] = cfg[C_TRIP]
    caller = g[EXTBY]
    if caller >= 0 and cfg[C_EXTPTS] != 0:
        if completed_by >= 0 and (completed_by == caller or cfg[C_EXFAILED] == 0):
            g[SH_ROWS + completed_by * N_LINES + 8] = cfg[C_EXTPTS]
        elif cfg[C_EXFAILED] == 1:
            for s in range(n_sides):
                if s != caller and not shut[s]:
                    g[SH_ROWS + s * N_LINES + 8] = cfg[C_EXTPTS]


@njit(cache=True)
def end_hand(g: Row, cfg: Row, completed_by: int) -> None:
    """Score the hand; then the match is over, or ``NEEDDEAL`` asks the step to deal the
    next hand (:func:`rallye.mille.engine.start_hand`)."""
    score_hand(g, cfg, completed_by)
    n_sides = cfg[C_S]
    for s in range(n_sides):
        t = g[TOTALS + s]
        for line in range(N_LINES):
            t += g[SH_ROWS + s * N_LINES + line]
        g[TOTALS + s] = t
        g[SH_TOTALS + s] = t
    g[SH_HAND] = g[HANDNO]
    g[SH_DEALER] = g[DEALER]
    g[SH_COMPLETED] = completed_by
    g[SH_EXT] = g[EXTBY]
    g[NSHEETS] += 1
    winners = 0
    target = cfg[C_MATCHTARGET]
    if target < 0:
        if completed_by >= 0:
            winners = 1 << completed_by
        else:
            best = 0
            for s in range(n_sides):
                best = max(best, g[side_base(s) + S_KM])
            for s in range(n_sides):
                if g[side_base(s) + S_KM] == best:
                    winners |= 1 << s
    else:
        top = g[TOTALS]
        for s in range(1, n_sides):
            top = max(top, g[TOTALS + s])
        if top >= target:
            leaders = 0
            for s in range(n_sides):
                if g[TOTALS + s] == top:
                    leaders += 1
                    winners = 1 << s
            if leaders != 1:  # [core: match, Resolution (match tie)] an exact tie plays another hand
                winners = 0
    if winners:
        g[RES_WINNERS] = winners
        for s in range(MAXS):
            g[RES_TOTALS + s] = g[TOTALS + s]
        g[PHASE] = OVER_PHASE
        g[MATCHES] += 1
    else:
        g[NEEDDEAL] = 1


# -- turns -----------------------------------------------------------------------------
@njit(cache=True)
def next_seat(g: Row, cfg: Row, seat: int) -> int:
    """The next seat that takes a turn, or -1 when every hand is empty and the pile too."""
    n = cfg[C_P]
    empty_pile = g[DRAWPOS] >= g[DECKLEN]
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if not empty_pile or g[HSIZE + nxt] > 0:
            return int(nxt)
    return -1


@njit(cache=True)
def begin_turn(g: Row, cfg: Row, seat: int, cf: int, keep_ran_out: bool) -> None:
    """Draw for ``seat``; a seat with no cards is passed over [core: Empty draw pile]."""
    while True:
        g[CUR] = seat
        g[CF] = cf
        g[PHASE] = PLAY_PHASE
        if not keep_ran_out:
            g[RANOUT] = 0
        draw(g, seat)
        if g[HSIZE + seat] > 0:
            return
        # end_turn(extra=False), as a loop
        if g[RANOUT] and ends_on_empty(g, cfg):
            end_hand(g, cfg, -1)
            return
        nxt = next_seat(g, cfg, seat)
        if nxt < 0:
            end_hand(g, cfg, -1)
            return
        seat = nxt
        cf = 0
        keep_ran_out = False


@njit(cache=True)
def end_turn(g: Row, cfg: Row, extra: bool) -> None:
    seat = g[CUR]
    if g[RANOUT] and ends_on_empty(g, cfg):
        end_hand(g, cfg, -1)
        return
    if extra:  # an extra turn after a safety
        begin_turn(g, cfg, seat, g[CF], False)
        return
    nxt = next_seat(g, cfg, seat)
    if nxt < 0:
        end_hand(g, cfg, -1)  # [core: empty draw pile, Resolution (empty draw pile)]
    else:
        begin_turn(g, cfg, nxt, 0, False)


@njit(cache=True)
def start_hand(g: Row, cfg: Row, seeds: Seeds, b: int, hand_no: int, dealer: int) -> None:
    """Shuffle and deal hand ``hand_no``; the seat left of the dealer draws and acts."""
    players = cfg[C_P]
    g[HANDNO] = hand_no
    g[DEALER] = dealer
    g[DECKLEN] = cfg[C_DECKLEN]
    shuffle_deck(g, cfg, hand_seed(seeds[b, 0], hand_no))
    for i in range(MAXP * NC):
        g[HAND + i] = 0
    for p in range(MAXP):
        g[HSIZE + p] = 0
    pos = 0
    for _ in range(HAND_SIZE):
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            g[HAND + seat * NC + g[DECK + pos]] += 1
            g[HSIZE + seat] += 1
            pos += 1
    g[DRAWPOS] = pos
    for i in range(g[DISCLEN]):
        g[DISC + i] = -1
    g[DISCLEN] = 0
    for s in range(MAXS):
        base = side_base(s)
        for i in range(SIDE_SIZE):
            g[base + i] = -1 if i >= S_BAT else 0
    g[TARGET] = cfg[C_TARGET]
    g[CF] = 0
    g[RANOUT] = 0
    g[EXTBY] = -1
    g[NEEDDEAL] = 0
    begin_turn(g, cfg, (dealer + 1) % players, 0, False)


@njit(cache=True)
def new_match(g: Row, cfg: Row, seeds: Seeds, b: int) -> None:
    """A new match from game ``b``'s match seed: the last seat deals the first hand."""
    for s in range(MAXS):
        g[TOTALS + s] = 0
    g[NSHEETS] = 0
    start_hand(g, cfg, seeds, b, 0, cfg[C_P] - 1)


@njit(cache=True)
def next_match(g: Row, cfg: Row, seeds: Seeds, b: int) -> None:
    """Auto-reset: the next match seed from game ``b``'s stream, then a new match."""
    s = seeds[b, 2] + np.uint64(0x9E3779B97F4A7C15)
    seeds[b, 2] = s
    seeds[b, 0] = mix64(s)
    new_match(g, cfg, seeds, b)


# -- legality --------------------------------------------------------------------------
@njit(cache=True)
def legal_codes(g: Row, cfg: Row, out: Row) -> int:
    """The legal action codes into ``out`` in the engine's documented order; their count."""
    phase = g[PHASE]
    if phase == EXTEND_PHASE:
        out[0] = EXTEND_CODE
        out[1] = DECLINE_CODE
        return 2
    if phase != PLAY_PHASE:
        return 0
    seat = g[CUR]
    my_side = cfg[C_SIDEOF + seat]
    base = side_base(my_side)
    nb = g[base + S_BATLEN]
    top = g[base + S_BAT + nb - 1] if nb > 0 else -1
    ns = g[base + S_SPDLEN]
    speed_top = g[base + S_SPD + ns - 1] if ns > 0 else -1
    row = (g[base + S_SAFMASK] & 1) != 0
    rolling = (not BATTLE_HAZARD[top + 1]) if row else top == ROLL
    fast = row or speed_top != SPEED_LIMIT
    room = g[TARGET] - g[base + S_KM]
    can_200 = g[base + S_D200] < 2
    h = HAND + seat * NC
    n = 0
    if rolling:
        for c in range(5):
            if g[h + c] > 0 and KM[c] <= room and (c < 2 or fast) and (c != D200 or can_200):
                out[n] = c
                n += 1
    if g[h + ROLL] > 0 and not row and ROLL_ONTO[top + 1]:
        out[n] = ROLL
        n += 1
    if g[h + END_OF_LIMIT] > 0 and speed_top == SPEED_LIMIT:
        out[n] = END_OF_LIMIT
        n += 1
    for c in (10, 12, 14):
        if g[h + c] > 0 and top == REMEDY_FOR[c]:
            out[n] = c
            n += 1
    for c in range(RIGHT_OF_WAY, NC):
        if g[h + c] > 0:
            out[n] = c
            n += 1
    n_sides = cfg[C_S]
    for hi in range(5):
        c = ATTACK_CARD[hi]
        if g[h + c] == 0:
            continue
        bit = 1 << (SAFETY_FOR[c] - RIGHT_OF_WAY)
        for s in range(n_sides):
            if s == my_side:
                continue
            sb = side_base(s)
            if g[sb + S_SAFMASK] & bit:
                continue
            if c == SPEED_LIMIT:
                k = g[sb + S_SPDLEN]
                if k == 0 or g[sb + S_SPD + k - 1] != SPEED_LIMIT:
                    out[n] = 38 + 6 * hi + s
                    n += 1
                continue
            k = g[sb + S_BATLEN]
            bt = g[sb + S_BAT + k - 1] if k > 0 else -1
            if (not BATTLE_HAZARD[bt + 1]) if (g[sb + S_SAFMASK] & 1) else bt == ROLL:
                out[n] = 38 + 6 * hi + s
                n += 1
    for c in range(NC):
        if g[h + c] > 0:
            out[n] = 19 + c
            n += 1
    return n


# -- applying --------------------------------------------------------------------------
@njit(cache=True)
def reached_target(g: Row, cfg: Row, seat: int) -> None:
    """[core: end of trip] the hand ends, unless the player may extend."""
    side = cfg[C_SIDEOF + seat]
    if (
        cfg[C_EXALLOWED]
        and g[EXTBY] < 0
        and g[TARGET] == cfg[C_EXFROM]
        and (not cfg[C_EXALONE] or cfg[C_SIDESIZE + side] == 1)
        and not (cfg[C_EXEMPTY] and g[DRAWPOS] >= g[DECKLEN])
    ):
        g[PHASE] = EXTEND_PHASE
    else:
        end_hand(g, cfg, side)


@njit(cache=True)
def play_own(g: Row, cfg: Row, seat: int, card: int) -> None:
    side = cfg[C_SIDEOF + seat]
    base = side_base(side)
    if card < 5:
        push_pile(g, base, S_DISTLEN, S_DIST, card)
        km = g[base + S_KM] + KM[card]
        g[base + S_KM] = km
        if card == D200:
            g[base + S_D200] += 1
        if km == g[TARGET]:
            reached_target(g, cfg, seat)
        else:
            end_turn(g, cfg, False)
        return
    extra = False
    if card >= RIGHT_OF_WAY:
        lay_safety(g, side, card, False)
        extra = cfg[C_XSAFE] != 0 or (g[CF] != 0 and cfg[C_XCF] != 0)
    elif card == END_OF_LIMIT:
        push_pile(g, base, S_SPDLEN, S_SPD, card)
    else:  # ROLL and the battle remedies
        push_pile(g, base, S_BATLEN, S_BAT, card)
    end_turn(g, cfg, extra)


@njit(cache=True)
def attack(g: Row, cfg: Row, card: int, side: int) -> None:
    safety = SAFETY_FOR[card]
    defender = -1
    for i in range(cfg[C_SIDESIZE + side]):
        p = cfg[C_MEMBERS + side * MAXM + i]
        if g[HAND + p * NC + safety] > 0:
            defender = p
            break
    base = side_base(side)
    if defender < 0:
        if card == SPEED_LIMIT:
            push_pile(g, base, S_SPDLEN, S_SPD, card)
        else:
            push_pile(g, base, S_BATLEN, S_BAT, card)
        end_turn(g, cfg, False)
        return
    # [core: Coup fourré] automatic, out of turn
    g[HAND + defender * NC + safety] -= 1
    g[HSIZE + defender] -= 1
    push_discard(g, card)
    lay_safety(g, side, safety, True)
    if ends_on_empty(g, cfg) and g[RANOUT]:
        end_hand(g, cfg, -1)
        return
    g[CUR] = defender
    g[RANOUT] = 0
    draw(g, defender)
    begin_turn(g, cfg, defender, 1, True)


@njit(cache=True)
def apply_code(g: Row, cfg: Row, code: int) -> None:
    """``code`` by the current player (unchecked: one of :func:`legal_codes`)."""
    seat = g[CUR]
    if code == EXTEND_CODE:
        side = cfg[C_SIDEOF + seat]
        g[TARGET] = cfg[C_EXTO]
        g[EXTBY] = side
        g[PHASE] = PLAY_PHASE
        end_turn(g, cfg, False)
        return
    if code == DECLINE_CODE:
        end_hand(g, cfg, cfg[C_SIDEOF + seat])
        return
    if code < 19:
        card = code
    elif code < 38:
        card = code - 19
    else:
        card = ATTACK_CARD[(code - 38) // 6]
    g[HAND + seat * NC + card] -= 1
    g[HSIZE + seat] -= 1
    if code < 19:
        play_own(g, cfg, seat, card)
    elif code < 38:
        push_discard(g, card)
        end_turn(g, cfg, False)
    else:
        attack(g, cfg, card, (code - 38) % 6)


@njit(cache=True)
def step_one(g: Row, cfg: Row, seeds: Seeds, b: int, code: int, auto_reset: bool) -> int:
    """Apply ``code``; deal the next hand or (``auto_reset``) start the next match.
    Returns 1 if a hand ended, 3 if the match ended too, else 0."""
    apply_code(g, cfg, code)
    if g[NEEDDEAL]:
        start_hand(g, cfg, seeds, b, g[HANDNO] + 1, (g[DEALER] + 1) % cfg[C_P])
        return 1
    if g[PHASE] == OVER_PHASE:
        if auto_reset:
            next_match(g, cfg, seeds, b)
        return 3
    return 0


# -- batch entry points ----------------------------------------------------------------
@njit(cache=True)
def batch_new_matches(st: Rows, cfg: Row, seeds: Seeds) -> None:
    for b in range(st.shape[0]):
        g = st[b]
        g[MATCHES] = 0
        g[RES_WINNERS] = 0
        new_match(g, cfg, seeds, b)


@njit(cache=True)
def batch_next_match(st: Rows, cfg: Row, seeds: Seeds, b: int) -> None:
    next_match(st[b], cfg, seeds, b)


@njit(cache=True)
def batch_masks(st: Rows, cfg: Row, mask: Mask) -> None:
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    for b in range(st.shape[0]):
        for a in range(NUM_ACTIONS):
            mask[b, a] = False
        n = legal_codes(st[b], cfg, buf)
        for i in range(n):
            mask[b, buf[i]] = True


@njit(cache=True)
def batch_step(st: Rows, cfg: Row, seeds: Seeds, actions: Row, auto_reset: bool, check: bool, flags: Flags) -> int:
    """One decision in every game whose action is not -1 (-1 leaves a game as it is; a
    finished game, not reset, must take -1); returns the first game whose action is
    illegal (-1: none), and then no game has moved."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    for b in range(st.shape[0]):
        g = st[b]
        code = actions[b]
        flags[b] = 0
        if code == -1:
            continue
        if g[PHASE] == OVER_PHASE:
            return b
        if check:
            n = legal_codes(g, cfg, buf)
            ok = False
            for i in range(n):
                if buf[i] == code:
                    ok = True
                    break
            if not ok:
                return b
    for b in range(st.shape[0]):
        if actions[b] != -1:
            flags[b] = step_one(st[b], cfg, seeds, b, actions[b], auto_reset)
    return -1


@njit(cache=True)
def batch_random_actions(st: Rows, cfg: Row, seeds: Seeds, actions: Row) -> None:
    """A uniformly random legal action for every game (-1 for a finished one)."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    for b in range(st.shape[0]):
        n = legal_codes(st[b], cfg, buf)
        actions[b] = buf[rand_below(seeds, b, n)] if n > 0 else -1


@njit(cache=True)
def batch_random_play(st: Rows, cfg: Row, seeds: Seeds, steps: int, auto_reset: bool, counts: Counts) -> None:
    """``steps`` rounds of one random decision in every game (legal codes, a uniform pick,
    the step): counts[0] += decisions, counts[1] += hands ended, counts[2] += matches ended."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    decisions = 0
    hands = 0
    matches = 0
    for _ in range(steps):
        for b in range(st.shape[0]):
            g = st[b]
            n = legal_codes(g, cfg, buf)
            if n == 0:
                continue
            f = step_one(g, cfg, seeds, b, buf[rand_below(seeds, b, n)], auto_reset)
            decisions += 1
            hands += f & 1
            matches += f >> 1
    counts[0] += decisions
    counts[1] += hands
    counts[2] += matches


@njit(cache=True)
def batch_rollouts(
    st: Rows, cfg: Row, seeds: Seeds, until_hand_end: bool, max_steps: int, out_rows: Rows, out_flags: Flags
) -> int:
    """Roll every game out with the random policy, to the end of the hand (or match), no
    reset: out_flags[b] = 1 if it ended in this call, and then out_rows[b] = the last
    hand's score sheet rows (side-major). Returns the decisions taken."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    decisions = 0
    for b in range(st.shape[0]):
        g = st[b]
        out_flags[b] = 0
        for _ in range(max_steps):
            n = legal_codes(g, cfg, buf)
            if n == 0:
                break
            f = step_one(g, cfg, seeds, b, buf[rand_below(seeds, b, n)], False)
            decisions += 1
            if f and (until_hand_end or f & 2):
                out_flags[b] = 1
                for i in range(MAXS * N_LINES):
                    out_rows[b, i] = g[SH_ROWS + i]
                break
    return decisions


# -- observations -----------------------------------------------------------------------
# The observation encoding (version 1 of :mod:`rallye.rl.mille.encoding`), compiled, from a
# batched game's row for one seat.
#
# It reads only what that seat's view holds: its own hand, every hand's size, the tableaus,
# the discard pile, the draw pile's size, whose turn, phase, target, extension, hand number and
# totals; never another hand's cards nor the draw pile's order. Every value is computed as
# ``encode_view`` computes it (in double precision, then rounded to float32), so the two are
# equal to the bit (``tests/batch/test_mille_observe.py`` checks it seat by seat).

OBS_SIZE = 270
SIDE_BLOCK = 31
SIDES_AT = 84
# the encoding's constants of an edition with a player count (see ``encoding_table``)
E_INVERSE = 0  # 19: 1 / copies in the deck (0 if none)
E_COPIES = NC  # 19
E_FLAGS = 2 * NC  # 4: extension allowed, empty draw ends the hand, extra turn after a safety, team game
E_MATCH = E_FLAGS + 4  # match target / 10000
N_ENC = E_MATCH + 1
# battle top -> its lane in a side block (8 + index in (None, ROLL, STOP, OUT_OF_GAS,
# FLAT_TIRE, ACCIDENT, GASOLINE, SPARE_TIRE, REPAIRS)); index card + 1
BATTLE_LANE = np.full(NC + 1, -1, dtype=np.int32)
for _i, _c in enumerate((-1, ROLL, 6, 9, 11, 13, 10, 12, 14)):
    BATTLE_LANE[_c + 1] = 8 + _i


@njit(cache=True)
def encode_one(g: Row, cfg: Row, enc: Floats, seat: int, out: Obs) -> None:
    """``encode_view(view_for(state, seat))`` of the game in row ``g``, into ``out``."""
    n = cfg[C_P]
    n_sides = cfg[C_S]
    my = cfg[C_SIDEOF + seat]
    for i in range(OBS_SIZE):
        out[i] = 0.0
    left = np.empty(NC, dtype=np.int64)
    for c in range(NC):
        left[c] = np.int64(enc[E_COPIES + c])
    disc = np.zeros(NC, dtype=np.int64)
    for i in range(g[DISCLEN]):
        disc[g[DISC + i]] += 1
    # sides, my side first
    for k in range(n_sides):
        s = (my + k) % n_sides
        base = side_base(s)
        o = SIDES_AT + k * SIDE_BLOCK
        out[o] = 1.0
        out[o + 1] = g[base + S_KM] / 1000.0
        lanes = np.zeros(5, dtype=np.float64)
        for i in range(g[base + S_DISTLEN]):
            c = g[base + S_DIST + i]
            lanes[c] += 0.1
            left[c] -= 1
        for c in range(5):
            out[o + 2 + c] = lanes[c]
        out[o + 7] = g[base + S_D200] / 2.0
        nb = g[base + S_BATLEN]
        for i in range(nb):
            left[g[base + S_BAT + i]] -= 1
        top = g[base + S_BAT + nb - 1] if nb > 0 else -1
        out[o + BATTLE_LANE[top + 1]] = 1.0
        ns = g[base + S_SPDLEN]
        for i in range(ns):
            left[g[base + S_SPD + i]] -= 1
        speed_top = g[base + S_SPD + ns - 1] if ns > 0 else -1
        out[o + 17 + (0 if speed_top < 0 else (1 if speed_top == SPEED_LIMIT else 2))] = 1.0
        row = (g[base + S_SAFMASK] & 1) != 0
        rolling = (not BATTLE_HAZARD[top + 1]) if row else top == ROLL
        out[o + 20] = 1.0 if rolling else 0.0
        out[o + 21] = 1.0 if speed_top == SPEED_LIMIT and not row else 0.0
        coups = g[base + S_COUPMASK]
        for i in range(g[base + S_SAFLEN]):
            c = g[base + S_SAF + i]
            left[c] -= 1
            out[o + 22 + c - RIGHT_OF_WAY] = 1.0
            if (coups >> i) & 1:
                out[o + 26 + c - RIGHT_OF_WAY] = 1.0
        total = g[TOTALS + s] / 1000.0
        out[o + 30] = -20.0 if total < -20.0 else (20.0 if total > 20.0 else total)
    h = HAND + seat * NC
    for c in range(NC):
        held = g[h + c]
        out[c] = held
        out[NC + c] = (left[c] - disc[c] - held) * enc[E_INVERSE + c]
        out[2 * NC + c] = disc[c] * enc[E_INVERSE + c]
    deck_size = g[DECKLEN]
    draw_count = deck_size - g[DRAWPOS]
    phase = g[PHASE]
    ext = g[EXTBY]
    mine = g[CUR] == seat and phase != OVER_PHASE
    o = 3 * NC
    out[o] = draw_count / (deck_size if deck_size else 1)
    out[o + 1] = 1.0 if draw_count == 0 else 0.0
    out[o + 2] = g[TARGET] / 1000.0
    out[o + 3] = 1.0 if phase == PLAY_PHASE else 0.0
    out[o + 4] = 1.0 if phase == EXTEND_PHASE else 0.0
    out[o + 5] = 1.0 if mine else 0.0
    out[o + 6] = 1.0 if g[CF] != 0 and mine else 0.0
    out[o + 7] = 1.0 if ext >= 0 and ext == my else 0.0
    out[o + 8] = 1.0 if ext >= 0 and ext != my else 0.0
    o += 9
    out[o + my] = 1.0
    o += MAXS
    for k in range(n):
        out[o + k] = g[HSIZE + (seat + k) % n] / 7.0
    o += MAXP
    for i in range(4):
        out[o + i] = enc[E_FLAGS + i]
    o += 4
    out[o] = min(g[HANDNO] / 10.0, 1.0)
    out[o + 1] = enc[E_MATCH]


@njit(cache=True)
def batch_encode(st: Rows, cfg: Row, enc: Floats, seats: Row, out: Obs) -> None:
    """Row ``b`` of ``out``: the observation of seat ``seats[b]`` in game ``b`` (zeros for -1)."""
    for b in range(st.shape[0]):
        if seats[b] < 0:
            for i in range(OBS_SIZE):
                out[b, i] = 0.0
        else:
            encode_one(st[b], cfg, enc, seats[b], out[b])


# -- the vector environment --------------------------------------------------------------
# Compiled pieces of the vector environment (:mod:`rallye.rl.mille.vector`): the learner's
# reward of a step, and the other seats played by the random policy until the learner is to
# act again.


@njit(cache=True)
def learner_reward(g: Row, cfg: Row, seat: int, f: int, episode_hand: bool, reward_win: bool) -> tuple[float, bool]:
    """``(reward, episode over)`` for ``seat``'s side after a step that returned ``f``; the
    rewards of :class:`rallye.rl.mille.adapter.MilleAdapter` (``score``: the side's hand points
    minus the others' mean, / 1000, at each hand; ``win``: at the episode's end, +1 / -1
    for the match, +1 / 0 (tied) / -1 for the hand)."""
    done = (f & 2) != 0 or (episode_hand and (f & 1) != 0)
    if not f & 1:
        return 0.0, done
    n_sides = cfg[C_S]
    my = cfg[C_SIDEOF + seat]
    pts = np.zeros(n_sides, dtype=np.int64)
    for s in range(n_sides):
        for line in range(N_LINES):
            pts[s] += g[SH_ROWS + s * N_LINES + line]
    if not reward_win:
        total = pts.sum()
        return (pts[my] - (total - pts[my]) / (n_sides - 1)) / 1000.0, done
    if not done:
        return 0.0, done
    if not episode_hand:
        return (1.0 if (g[RES_WINNERS] >> my) & 1 else -1.0), done
    top = pts.max()
    if pts[my] != top:
        return -1.0, done
    return (1.0 if (pts == top).sum() == 1 else 0.0), done


@njit(cache=True)
def env_rewards(
    st: Rows, cfg: Row, flags: Flags, seat: int, episode_hand: bool, reward_win: bool, rewards: Floats, dones: Mask
) -> None:
    for b in range(st.shape[0]):
        if flags[b]:
            r, d = learner_reward(st[b], cfg, seat, flags[b], episode_hand, reward_win)
            rewards[b] += r
            if d:
                dones[b] = True


@njit(cache=True)
def env_random_others(
    st: Rows,
    cfg: Row,
    seeds: Seeds,
    seat: int,
    episode_hand: bool,
    reward_win: bool,
    rewards: Floats,
    dones: Mask,
) -> int:
    """The other seats of every game not yet done play random legal moves until ``seat``
    is to act or the episode ends; returns the decisions taken."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    decisions = 0
    for b in range(st.shape[0]):
        g = st[b]
        if dones[b]:
            continue
        while g[PHASE] != OVER_PHASE and g[CUR] != seat:
            n = legal_codes(g, cfg, buf)
            f = step_one(g, cfg, seeds, b, buf[rand_below(seeds, b, n)], False)
            decisions += 1
            if f:
                r, d = learner_reward(g, cfg, seat, f, episode_hand, reward_win)
                rewards[b] += r
                if d:
                    dones[b] = True
                    break
    return decisions


@njit(cache=True)
def env_restart(st: Rows, cfg: Row, seeds: Seeds, which: Mask) -> None:
    for b in range(st.shape[0]):
        if which[b]:
            next_match(st[b], cfg, seeds, b)
