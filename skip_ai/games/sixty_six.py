"""classic_sixty_six_4p — Sixty-six for four («Шуба вчетвером», RULES.md §12).

Four players, partners sitting alternately (team = seat mod 2), 24 cards (9..A; within a
suit A > 10 > K > Q > J > 9; points A 11, 10 10, K 4, Q 3, J 2, 9 0). A deal: [cut] → first
round (3 cards each in packets, from the elder hand E = dealer + 1) → E names the trump from
the suits of his three cards or reveals cards → [offers of nines] → second round → [nines
games] → [redeal] → [bids] → a contract or the standard play: follow suit, else trump, else
anything (no duty to win); marriages (K+Q, 20 / 40 in trumps) announced when leading and
counted once the team has taken a trick; DECLARE claims 66 (3 / 2 / 1 board points, a false
claim gives the opponents 3); without a claim the last trick's team scores its 66 or the
last-trick point. ``mode=match``: first team to 8 board points wins (shuba, klin, cross klin);
``mode=deal``: one deal. Extras (§12.7): ``cut``, ``nines``, ``nines_declarer``, ``redeal``,
``contracts``.

Actions (§12.9): ``c`` a card (play, discard, target nine); ``52+s`` / ``56+s`` lead the Queen /
King of suit s announcing the marriage; ``60+s`` TRUMP(s); ``64`` REVEAL; ``65`` DECLARE;
``66`` PASS; ``67`` / ``68`` the opponent on the left / right; ``69`` NINES; ``70`` TWO_DARK;
``71`` THREE_NINES; ``72`` FOUR_NINES; ``73+s`` CATCH(s); ``77`` REDEAL; ``78+k`` BID(k).
Chance outcomes are card ids. num_distinct_actions = 82.

State (after the trick slots of ``kernel.tricks``, whose table and taken places are used):
``SX_PHASE`` the phase (``PH_*``); ``SX_DEALER``; ``SX_TRUMP`` the trump suit (-1 none);
``SX_BOARD[t]``; ``SX_POINTS[t]`` card points taken; ``SX_MARR[t]`` marriage points;
``SX_TRICKS[t]`` tricks taken; ``SX_LEADER`` the seat that led the trick on the table;
``SX_SEQ[i]`` the cards of that trick in order; ``SX_TURN`` how many seats acted in an extras
phase; ``SX_REVEALED`` cards E revealed; ``SX_R1`` mask of the first-round cards;
``SX_REVEALS`` mask of the cards E revealed;
``SX_NAMED`` the suit E named from his three cards (-1); ``SX_NOT1[q]`` cards proved absent
from q's first-round cards; ``SX_PLAYED[q]`` cards q played (or discarded, when shown) this deal; ``SX_BOTTOM`` the cut
bottom card (-1); ``SX_CUT_NINES``, ``SX_DEALER_CUT``; ``SX_REDEALT`` this deal is a redeal;
``SX_NOX`` no more extras in this deal (7:7); ``SX_OUTCOME`` 1 shuba, 2 klin, 3 cross klin;
``SX_WINNER`` the winning team (-1); ``SX_DEAL_START`` the history index where this deal
starts (the resampler re-deals only the current deal); bids and contracts ``SX_BID``,
``SX_BIDDER``, ``SX_CONTRACT``, ``SX_DECL``, ``SX_PICS_MIN[q]`` pictures a bid proved;
``SX_CATCHABLE[q]`` a bid (or a pyatak discard) proved a catchable card; nines ``SX_USED``
(offered nines), ``SX_NINES_PLAYED[t]``, ``SX_OFFER_*`` (the offers' facts), ``SX_NG_*`` (the
nines game under way), ``SX_ASKED[q]``, ``SX_COUNT[q]`` (announced unused nines, -1),
``SX_FOUR_*`` (the four-nines facts), ``SX_TEAM_GAME[t]`` the nines game team t chose,
``SX_TEAM_CATCH[t]`` its catches once shown, ``SX_LAST_*`` the last result for the text.

Resampling for player p (§12.10) re-deals the cards of the current deal hidden from p and
redraws the hidden choices: the catchers' suits of an unresolved nines game that p did not
make, uniformly among the legal ones (a resolved game's catches are public and stay). It keeps
every public fact: first-round cards stay first-round cards, voids (``NOT_HOLD``, ``SX_NOT1``),
E's named suit, the offers beaten or not, the announced counts and ``NINES``, three / four
nines, the four-nines result, the pictures and catchable cards that bids and discards proved.
Worlds are drawn uniformly until one fits (``TRIES``), else searched for (never a world that
contradicts a public event); either way they depend only on p's information and the
generator. ``remap_choice`` writes the redrawn catches into the replayed history.

Observation tensor (``OBS_SIZE`` floats) for player p, relative seat k = seat (p + k) % 4:
``[0, 72)`` the common part (``kernel.state.write_common_observation``); then ``[72, 126)``
cards on the table; ``[126, 180)`` taken by p's team; ``[180, 234)`` taken by the other team;
``[234, 288)`` cards of other hands known to p (shown); ``[288, 292)`` the trump suit;
``[292, 296)`` the dealer's relative seat; ``[296, 313)`` the phase one-hot; ``313, 314``
board of p's team / other team / 8; ``315, 316`` points / 120; ``317, 318`` marriages / 120;
``319, 320`` tricks / 6; ``[321, 325)`` the declarer's relative seat (contracts); ``[325,
329)`` the contract; ``[329, 333)`` the highest bid; ``333`` redealt deal; ``334`` no more
extras.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.games.spec import GameSpec, Param
from skip_ai.kernel.bits import bit, kth, lowest, popcount, to_list
from skip_ai.kernel.resample import (
    P_PLAYER,
    default_feasibility,
    hidden_slots,
    relabel,
    sample_assignment,
    shuffle,
)
from skip_ai.kernel.resample import plan_player_only as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import (
    CHANCE,
    DEAL_PLAN,
    DECK,
    H_CUR,
    H_DEAL_LEN,
    H_DEALT,
    H_MOVES,
    H_TEAMS,
    HAND,
    KNOWN,
    LOC,
    LOC_DECK,
    LOC_NONE,
    LOC_UNSEEN,
    MAX_SEATS,
    NOT_HOLD,
    NUM_CARDS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    give,
    hidden_from,
    init_common,
    new_state,
    param,
    standard_deck,
    write_common_observation,
)
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.kernel.tricks import LOC_TAKEN, TK_TABLE, TRICK_END, clear_table, put_on_table
from skip_ai.pyspiel_wrapper import register

P_PLAYERS, P_MODE, P_STAKES, P_CUT, P_NINES, P_NDECL, P_REDEAL, P_CONTRACTS = range(8)
MATCH, DEAL = 0, 1
GRADED, WIN = 0, 1
TARGET = 8

Q_MARRIAGE, K_MARRIAGE, TRUMP0, REVEAL, DECLARE, PASS = 52, 56, 60, 64, 65, 66
LEFT, RIGHT, NINES, TWO_DARK, THREE_NINES, FOUR_NINES, CATCH0, REDEAL, BID0 = (
    67, 68, 69, 70, 71, 72, 73, 77, 78)
NUM_ACTIONS = 82
FIVE_PICTURES, SIX_PICTURES, PYATAK, SIX = 0, 1, 2, 3
CONTRACT_WORTH = np.array([5, 6, 5, 6], np.int64)

(PH_CUT, PH_DEAL1, PH_TRUMP, PH_REVEAL, PH_OFFER, PH_DEAL2, PH_NINES, PH_NG_CHOOSE,
 PH_NG_CATCH, PH_NG_TARGET, PH_NG_FOUR, PH_REDEAL, PH_BID, PH_DISCARD, PH_PLAY, PH_CPLAY,
 PH_OVER) = range(17)
NUM_PHASES = 17

# by c % 13 (rank - 2): strength within a suit (9 < J < Q < K < 10 < A) and card points
STRENGTH = np.array([0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 2, 3, 5], np.int64)
POINTS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11], np.int64)
NINE_RANK = 7
SUIT_BITS = np.int64(0b111111 << 7)
ALL_NINES = np.int64(1 << 7 | 1 << 20 | 1 << 33 | 1 << 46)
PICTURES = np.int64(0)
for _s in range(4):
    PICTURES |= np.int64(0b111 << (13 * _s + 9))
FULL_DECK = np.int64(0)
for _s in range(4):
    FULL_DECK |= SUIT_BITS << (13 * _s)
TRIES = 4000
"""Uniform worlds drawn by ``resample`` before it searches for one that fits."""
LOC_BOTTOM = LOC_TAKEN + 2
"""The cut bottom card: face up under the deck (public)."""

SX_PHASE = TRICK_END
SX_DEALER = SX_PHASE + 1
SX_TRUMP = SX_DEALER + 1
SX_BOARD = SX_TRUMP + 1
SX_POINTS = SX_BOARD + 2
SX_MARR = SX_POINTS + 2
SX_TRICKS = SX_MARR + 2
SX_LEADER = SX_TRICKS + 2
SX_SEQ = SX_LEADER + 1
SX_NSEQ = SX_SEQ + 4
SX_TURN = SX_NSEQ + 1
SX_REVEALED = SX_TURN + 1
SX_R1 = SX_REVEALED + 1
SX_REVEALS = SX_R1 + 1
SX_NAMED = SX_REVEALS + 1
SX_NOT1 = SX_NAMED + 1
SX_PLAYED = SX_NOT1 + 4
SX_BOTTOM = SX_PLAYED + 4
SX_CUT_NINES = SX_BOTTOM + 1
SX_DEALER_CUT = SX_CUT_NINES + 1
SX_REDEALT = SX_DEALER_CUT + 1
SX_NOX = SX_REDEALT + 1
SX_OUTCOME = SX_NOX + 1
SX_WINNER = SX_OUTCOME + 1
SX_DEAL_START = SX_WINNER + 1
SX_BID = SX_DEAL_START + 1
SX_BIDDER = SX_BID + 1
SX_CONTRACT = SX_BIDDER + 1
SX_DECL = SX_CONTRACT + 1
SX_PICS_MIN = SX_DECL + 1
SX_CATCHABLE = SX_PICS_MIN + 4
SX_USED = SX_CATCHABLE + 4
SX_NINES_PLAYED = SX_USED + 1
SX_OFFER_TO = SX_NINES_PLAYED + 2          # per offerer: the opponent offered to, -1
SX_OFFER_MASK = SX_OFFER_TO + 4            # per offerer: the nines offered
SX_OFFER_BEATEN = SX_OFFER_MASK + 4        # per offerer: 1 beaten, 0 not
SX_ASKED = SX_OFFER_BEATEN + 4             # per seat: asked NINES (at least two unused)
SX_COUNT = SX_ASKED + 4                    # per seat: announced unused nines, -1
SX_NG_INIT = SX_COUNT + 4
SX_NG_GAME = SX_NG_INIT + 1
SX_NG_CATCH = SX_NG_GAME + 1               # the two catchers' suits
SX_NG_STEP = SX_NG_CATCH + 2
SX_NG_LAID = SX_NG_STEP + 1                # three nines laid face up
SX_FOUR_OPP = SX_NG_LAID + 1               # four nines: the opponent asked, -1
SX_FOUR_ALL = SX_FOUR_OPP + 1              # and whether he held all four suits
SX_LAST_TEXT = SX_FOUR_ALL + 1             # code of the last automatic result (text)
SX_LAST_A = SX_LAST_TEXT + 1
SX_LAST_B = SX_LAST_A + 1
SX_TEAM_GAME = SX_LAST_B + 1               # per team: the nines game it chose (0 none)
SX_TEAM_CATCH = SX_TEAM_GAME + 2           # per team: its game's catches, 1 + 4 c0 + c1 (0)
STATE_SIZE = SX_TEAM_CATCH + 2

# codes of SX_LAST_TEXT
R_NONE, R_CUT3, R_OFFER, R_NINES_GAME, R_FOUR, R_SIX_SHOWN, R_CONTRACT, R_DECLARE, \
    R_LAST_TRICK, R_REDEAL = range(10)

OBS_GAME = 54 * 4 + 4 + 4 + NUM_PHASES + 8 + 4 + 4 + 4 + 2
OBS_SIZE = OBS_COMMON + OBS_GAME


# ----- small helpers ------------------------------------------------------------------------

@njit(cache=True, inline="always")
def team(seat):
    return seat & 1


@njit(cache=True, inline="always")
def seat_after(seat, k):
    return (seat + k) & 3


@njit(cache=True, inline="always")
def suit_mask(suit):
    return SUIT_BITS << (13 * suit)


@njit(cache=True, inline="always")
def beats(a, b, trump):
    """Does card ``a`` beat card ``b`` (the best so far of a trick)?"""
    sa, sb = a // 13, b // 13
    if sa == sb:
        return STRENGTH[a % 13] > STRENGTH[b % 13]
    return sa == trump


@njit(cache=True, inline="always")
def points_of(m):
    total = 0
    while m:
        c = lowest(m)
        m &= m - 1
        total += POINTS[c % 13]
    return total


@njit(cache=True, inline="always")
def catchable(six):
    """Mask of the catchable cards of a six-card hand: a higher card of the suit is missing."""
    out = np.int64(0)
    m = six
    while m:
        c = lowest(m)
        m &= m - 1
        rest = suit_mask(c // 13)
        while rest:
            h = lowest(rest)
            rest &= rest - 1
            if STRENGTH[h % 13] > STRENGTH[c % 13] and not (six >> h) & 1:
                out |= bit(c)
                break
    return out


@njit(cache=True, inline="always")
def owned(s, q):
    """Cards ``q`` holds or held in this deal: hand, played and his own face-down discard."""
    m = s[HAND + q] | s[SX_PLAYED + q]
    for c in range(NUM_CARDS):
        if s[LOC + c] == LOC_UNSEEN and s[KNOWN + c] == 1 << q:
            m |= bit(c)
    return m


@njit(cache=True, inline="always")
def extras_on(s):
    return s[SX_NOX] == 0


@njit(cache=True, inline="always")
def elder(s):
    return seat_after(s[SX_DEALER], 1)


@njit(cache=True, inline="always")
def total(s, t):
    """A team's total: card points, plus marriages once it has taken a trick (§12.4.3)."""
    return s[SX_POINTS + t] + (s[SX_MARR + t] if s[SX_TRICKS + t] > 0 else 0)


# ----- the deal ---------------------------------------------------------------------------

@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    init_common(s, 4, standard_deck(24, False))
    s[H_TEAMS] = 1
    s[SX_DEALER] = 3
    s[SX_WINNER] = -1
    start_deal(s, 0)
    return s


@njit(cache=True)
def start_deal(s, redealt):
    """Gather the cards and start a deal by the current dealer."""
    for c in range(NUM_CARDS):
        if s[LOC + c] != -1:
            s[LOC + c] = LOC_DECK
        s[KNOWN + c] = 0
    for q in range(MAX_SEATS):
        s[HAND + q] = 0
        s[NOT_HOLD + q] = 0
    s[DECK] = FULL_DECK
    clear_table(s)
    for i in range(SX_TRUMP, STATE_SIZE):
        if i < SX_BOARD or i >= SX_POINTS:
            s[i] = 0
    s[SX_TRUMP] = -1
    s[SX_LEADER] = -1
    s[SX_NAMED] = -1
    s[SX_BOTTOM] = -1
    s[SX_BID] = -1
    s[SX_BIDDER] = -1
    s[SX_CONTRACT] = -1
    s[SX_DECL] = -1
    s[SX_NG_INIT] = -1
    s[SX_FOUR_OPP] = -1
    s[SX_WINNER] = -1
    for q in range(4):
        s[SX_OFFER_TO + q] = -1
        s[SX_COUNT + q] = -1
    s[SX_REDEALT] = redealt
    s[SX_NOX] = 1 if (s[SX_BOARD] == TARGET - 1 and s[SX_BOARD + 1] == TARGET - 1) else 0
    s[SX_DEAL_START] = s[H_MOVES]
    s[H_DEALT] = 0
    s[H_DEAL_LEN] = 0
    s[H_CUR] = CHANCE
    if param(s, P_CUT) and extras_on(s):
        s[SX_PHASE] = PH_CUT
    else:
        plan_first_round(s)


@njit(cache=True)
def plan_first_round(s):
    s[SX_PHASE] = PH_DEAL1
    e = elder(s)
    k = s[H_DEAL_LEN]
    for i in range(12):
        s[DEAL_PLAN + k + i] = seat_after(e, i // 3)
    s[H_DEAL_LEN] = k + 12


@njit(cache=True)
def plan_second_round(s):
    s[SX_PHASE] = PH_DEAL2
    e = elder(s)
    k = s[H_DEAL_LEN]
    n = 0
    for j in range(4):
        count = 3 - s[SX_REVEALED] if j == 0 else 3
        if j == 3 and s[SX_BOTTOM] >= 0:
            count = 2
        for _ in range(count):
            s[DEAL_PLAN + k + n] = seat_after(e, j)
            n += 1
    s[H_DEAL_LEN] = k + n
    s[H_CUR] = CHANCE


@njit(cache=True)
def apply_chance(s, c):
    vis = all_seats(s)
    ph = s[SX_PHASE]
    s[DECK] &= ~bit(c)
    if ph == PH_CUT:
        cut(s, c)
        return vis
    if ph == PH_REVEAL:
        e = elder(s)
        give(s, c, e)
        s[KNOWN + c] = vis
        s[SX_REVEALED] += 1
        s[SX_REVEALS] |= bit(c)
        if c % 13 == NINE_RANK and s[SX_REVEALED] == 1:
            s[SX_PHASE] = PH_TRUMP
            s[H_CUR] = e
        else:
            trump_fixed(s, c // 13)
        return vis
    target = s[DEAL_PLAN + s[H_DEALT]]
    s[H_DEALT] += 1
    give(s, c, target)
    if ph == PH_DEAL1:
        s[SX_R1] |= bit(c)
    if s[H_DEALT] < s[H_DEAL_LEN]:
        return 1 << target
    if ph == PH_DEAL1:
        s[SX_PHASE] = PH_TRUMP
        s[H_CUR] = elder(s)
    else:
        if s[SX_BOTTOM] >= 0:
            give(s, s[SX_BOTTOM], s[SX_DEALER])
            s[KNOWN + s[SX_BOTTOM]] = vis
        after_second_round(s)
    return 1 << target


@njit(cache=True)
def cut(s, c):
    """A cut turned ``c`` (§12.7.1)."""
    old = s[SX_BOTTOM]
    if old >= 0:
        s[LOC + old] = LOC_DECK
        s[DECK] |= bit(old)
    s[SX_BOTTOM] = c
    s[LOC + c] = LOC_BOTTOM
    s[KNOWN + c] = all_seats(s)
    if s[SX_DEALER_CUT]:
        plan_first_round(s)
        return
    if c % 13 == NINE_RANK:
        s[SX_CUT_NINES] += 1
        if s[SX_CUT_NINES] == 3:
            set_last(s, R_CUT3, team(s[SX_DEALER]), 3)
            if award(s, team(s[SX_DEALER]), 3):
                return
            plan_first_round(s)
        return
    if c % 13 == 9 and s[SX_CUT_NINES] < 3:  # a jack: the dealer cuts once himself
        s[SX_DEALER_CUT] = 1
        return
    plan_first_round(s)


@njit(cache=True)
def trump_fixed(s, suit):
    s[SX_TRUMP] = suit
    s[SX_TURN] = 0
    if param(s, P_NINES) and extras_on(s):
        s[SX_PHASE] = PH_OFFER
        s[H_CUR] = elder(s)
    else:
        plan_second_round(s)


@njit(cache=True)
def after_second_round(s):
    """The phases after the second round, each skipped when off (§12.7)."""
    s[SX_TURN] = 0
    if param(s, P_NINES) and extras_on(s):
        s[SX_PHASE] = PH_NINES
    else:
        after_nines(s)
        return
    s[H_CUR] = elder(s)


@njit(cache=True)
def after_nines(s):
    s[SX_TURN] = 0
    s[H_CUR] = elder(s)
    if param(s, P_REDEAL) and extras_on(s) and not s[SX_REDEALT]:
        s[SX_PHASE] = PH_REDEAL
    else:
        after_redeal(s)


@njit(cache=True)
def after_redeal(s):
    s[SX_TURN] = 0
    s[H_CUR] = elder(s)
    if param(s, P_CONTRACTS) and extras_on(s):
        s[SX_PHASE] = PH_BID
    else:
        start_play(s)


@njit(cache=True)
def start_play(s):
    s[SX_PHASE] = PH_PLAY
    s[H_CUR] = elder(s)
    s[SX_LEADER] = elder(s)


@njit(cache=True)
def extras_turn_done(s):
    """The seat to move in an extras phase has acted: the next seat, or None left."""
    s[SX_TURN] += 1
    if s[SX_TURN] < 4:
        s[H_CUR] = seat_after(elder(s), s[SX_TURN])
        return False
    return True


@njit(cache=True)
def set_last(s, code, a, b):
    s[SX_LAST_TEXT] = code
    s[SX_LAST_A] = a
    s[SX_LAST_B] = b


@njit(cache=True)
def award(s, t, pts):
    """Team ``t`` scores ``pts`` board points; True when that ends the match (§12.6)."""
    before0, before1 = s[SX_BOARD], s[SX_BOARD + 1]
    s[SX_BOARD + t] += pts
    if param(s, P_MODE) == MATCH and s[SX_BOARD + t] >= TARGET:
        if before0 == TARGET - 1 and before1 == TARGET - 1:
            s[SX_OUTCOME] = 3
        elif s[SX_BOARD + 1 - t] == 0:
            s[SX_OUTCOME] = 2
        else:
            s[SX_OUTCOME] = 1
        s[SX_WINNER] = t
        s[SX_PHASE] = PH_OVER
        s[H_CUR] = TERMINAL
        return True
    if s[SX_BOARD] == TARGET - 1 and s[SX_BOARD + 1] == TARGET - 1:
        s[SX_NOX] = 1
    return False


@njit(cache=True)
def end_deal(s, rotate):
    """The deal is over: the game ends (``mode=deal``) or the next deal starts."""
    if param(s, P_MODE) == DEAL:
        s[SX_PHASE] = PH_OVER
        s[H_CUR] = TERMINAL
        return
    if rotate:
        s[SX_DEALER] = seat_after(s[SX_DEALER], 1)
    start_deal(s, 0)


@njit(cache=True)
def award_and_end(s, t, pts, rotate):
    if not award(s, t, pts):
        end_deal(s, rotate)


# ----- legal actions ------------------------------------------------------------------------

@njit(cache=True)
def _legal(s):
    """(mask of legal card ids, mask of legal actions >= 52 as bits ``a - 52``)."""
    cur = s[H_CUR]
    ph = s[SX_PHASE]
    held = s[HAND + cur]
    one = np.int64(1)
    if ph == PH_PLAY:
        declare = (one << (DECLARE - 52)) if s[SX_TRICKS + team(cur)] > 0 else np.int64(0)
        if s[TK_TABLE] == 0:
            extra = declare
            for su in range(4):
                q, k = 13 * su + 10, 13 * su + 11
                if (held >> q) & 1 and (held >> k) & 1:
                    extra |= one << su | one << (4 + su)
            return held, extra
        return playable(s, cur), declare
    if ph == PH_CPLAY:
        return (held if s[TK_TABLE] == 0 else playable(s, cur)), np.int64(0)
    if ph == PH_TRUMP:
        extra = one << (REVEAL - 52)
        if s[SX_REVEALED] == 1:  # only the nine just revealed names a trump (§12.2.3)
            extra |= one << (TRUMP0 - 52 + lowest(s[SX_REVEALS]) // 13)
        else:
            for su in range(4):
                if held & suit_mask(su):
                    extra |= one << (TRUMP0 - 52 + su)
        return np.int64(0), extra
    passing = one << (PASS - 52)
    if ph == PH_REDEAL:
        if s[SX_NINES_PLAYED + team(cur)] == 0 and redeal_hand(held):
            return np.int64(0), passing | one << (REDEAL - 52)
        return np.int64(0), passing
    if ph == PH_BID:
        extra = passing
        for k in range(4):
            if bid_allowed(s, cur, k):
                extra |= one << (BID0 - 52 + k)
        return np.int64(0), extra
    if ph == PH_DISCARD:
        if cur == s[SX_DECL]:
            return declarer_discards(s, held), np.int64(0)
        return held, np.int64(0)
    return nines_legal(s, cur, held)


@njit(cache=True, inline="always")
def redeal_hand(held):
    if points_of(held) <= 12:
        return True
    for su in range(4):
        if popcount(held & suit_mask(su)) >= 5:
            return True
    return False


@njit(cache=True)
def qualifies(six, k):
    if k == FIVE_PICTURES:
        return popcount(six & PICTURES) >= 5
    if k == SIX_PICTURES:
        return popcount(six & PICTURES) == 6
    if k == PYATAK:
        return catchable(six) != 0
    return True


@njit(cache=True)
def bid_allowed(s, cur, k):
    if not qualifies(s[HAND + cur], k):
        return False
    hk = s[SX_BID]
    if k > hk:
        return True
    e_team = team(elder(s))
    return k == hk and team(cur) == e_team and team(s[SX_BIDDER]) != e_team


@njit(cache=True)
def declarer_discards(s, held):
    """The declarer's discards: keeping five pictures, or (pyatak) a catchable card."""
    out = np.int64(0)
    keep_from = catchable(held)
    m = held
    while m:
        c = lowest(m)
        m &= m - 1
        rest = held & ~bit(c)
        if s[SX_CONTRACT] == FIVE_PICTURES:
            ok = popcount(rest & PICTURES) >= 5
        else:
            ok = (rest & keep_from) != 0
        if ok:
            out |= bit(c)
    return out


@njit(cache=True)
def playable(s, cur):
    """Cards ``cur`` may add to the trick on the table: follow suit, else trump (standard
    play), else anything (§12.3.2, §12.7.5.4)."""
    held = s[HAND + cur]
    led = s[SX_SEQ] // 13
    m = held & suit_mask(led)
    if m:
        return m
    tr = s[SX_TRUMP]
    if tr >= 0:
        m = held & suit_mask(tr)
        if m:
            return m
    return held


@njit(cache=True)
def nines_legal(s, cur, held):
    one = np.int64(1)
    passing = one << (PASS - 52)
    ph = s[SX_PHASE]
    if ph == PH_OFFER:
        nines = held & s[SX_R1] & ALL_NINES
        if popcount(nines) < 2:
            return np.int64(0), passing
        extra = passing
        for k in range(2):
            opp = seat_after(cur, 1 + 2 * k)
            if param(s, P_NDECL) or opp != elder(s):
                extra |= one << (LEFT - 52 + k)
        return np.int64(0), extra
    if ph == PH_NINES:
        unused = held & ALL_NINES & ~s[SX_USED]
        if s[SX_TEAM_GAME + team(cur)] == 0 and popcount(unused) >= 2:
            return np.int64(0), passing | one << (NINES - 52)
        return np.int64(0), passing
    if ph == PH_NG_CHOOSE:
        extra = one << (TWO_DARK - 52)
        n = popcount((held | s[HAND + seat_after(cur, 2)]) & ALL_NINES & ~s[SX_USED])
        if n == 3:
            extra |= one << (THREE_NINES - 52)
        elif n == 4:
            extra |= one << (FOUR_NINES - 52)
        return np.int64(0), extra
    if ph == PH_NG_CATCH:
        return np.int64(0), catch_suits(s) << (CATCH0 - 52)
    if ph == PH_NG_TARGET:
        if s[SX_NG_GAME] == TWO_DARK:
            return held & ALL_NINES & ~s[SX_USED], np.int64(0)
        return s[SX_NG_LAID], np.int64(0)
    # PH_NG_FOUR
    return np.int64(0), one << (LEFT - 52) | one << (RIGHT - 52)


@njit(cache=True)
def catch_suits(s):
    """The suits a catcher may choose (§12.7.3), as bits: any in two dark, a laid nine's in
    three nines. Public, so ``resample`` redraws a hidden catch among them."""
    if s[SX_NG_GAME] == TWO_DARK:
        return np.int64(0b1111)
    out = np.int64(0)
    m = s[SX_NG_LAID]
    while m:
        c = lowest(m)
        m &= m - 1
        out |= np.int64(1) << (c // 13)
    return out


@njit(cache=True)
def legal_actions(s, out):
    cards_mask, extra = _legal(s)
    n = to_list(cards_mask, out)
    while extra:
        out[n] = 52 + lowest(extra)
        n += 1
        extra &= extra - 1
    return n


@njit(cache=True)
def random_legal(s, rng):
    cards_mask, extra = _legal(s)
    nc = popcount(cards_mask)
    k = below(rng, nc + popcount(extra))
    if k < nc:
        return kth(cards_mask, k)
    return 52 + kth(extra, k - nc)


# ----- applying an action -------------------------------------------------------------------

@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    cur = s[H_CUR]
    if cur == CHANCE:
        return apply_chance(s, a)
    vis = all_seats(s)
    ph = s[SX_PHASE]
    if ph == PH_PLAY or ph == PH_CPLAY:
        play_card(s, cur, a)
    elif ph == PH_TRUMP:
        if a == REVEAL:
            s[SX_PHASE] = PH_REVEAL
            s[H_CUR] = CHANCE
        else:
            if s[SX_REVEALED] == 0:
                s[SX_NAMED] = a - TRUMP0
            trump_fixed(s, a - TRUMP0)
    elif ph == PH_REDEAL:
        if a == REDEAL:
            set_last(s, R_REDEAL, cur, 0)
            start_deal(s, 1)
        elif extras_turn_done(s):
            after_redeal(s)
    elif ph == PH_BID:
        if a != PASS:
            s[SX_BID] = a - BID0
            s[SX_BIDDER] = cur
            bid_proves(s, cur, a - BID0)
        if extras_turn_done(s):
            start_contract(s)
    elif ph == PH_DISCARD:
        discard(s, cur, a)
        return 1 << cur
    else:
        return apply_nines(s, cur, a)
    return vis


@njit(cache=True)
def bid_proves(s, cur, k):
    if k == FIVE_PICTURES:
        s[SX_PICS_MIN + cur] = max(s[SX_PICS_MIN + cur], 5)
    elif k == SIX_PICTURES:
        s[SX_PICS_MIN + cur] = 6
    elif k == PYATAK:
        s[SX_CATCHABLE + cur] = 1


@njit(cache=True)
def start_contract(s):
    """After the bids: the highest bid is played, else the standard play (§12.7.5.2)."""
    if s[SX_BIDDER] < 0:
        start_play(s)
        return
    x = s[SX_BIDDER]
    k = s[SX_BID]
    s[SX_DECL] = x
    s[SX_CONTRACT] = k
    s[SX_TRUMP] = -1
    if k == SIX and catchable(s[HAND + x]) == 0:
        m = s[HAND + x]
        while m:
            c = lowest(m)
            m &= m - 1
            s[KNOWN + c] = all_seats(s)
        set_last(s, R_SIX_SHOWN, team(x), 6)
        award_and_end(s, team(x), 6, False)
        return
    if k == SIX:
        s[SX_CATCHABLE + x] = 1  # a six played proves a catchable card
    if k == FIVE_PICTURES or k == PYATAK:
        s[SX_PHASE] = PH_DISCARD
        s[SX_TURN] = 0
        s[H_CUR] = x
    else:
        start_contract_play(s)


@njit(cache=True)
def discard(s, cur, c):
    """A discard goes face down out of play, known to the discarder only (§12.7.5.3) —
    unless it was a shown card (a marriage half, a nine): its place stays public."""
    x = s[SX_DECL]
    s[HAND + cur] &= ~bit(c)
    s[LOC + c] = LOC_UNSEEN
    if s[KNOWN + c] != all_seats(s):
        s[KNOWN + c] = 1 << cur
    else:  # a shown card stays known wherever it goes: a public part of what he held
        s[SX_PLAYED + cur] |= bit(c)
    if cur == x:
        if s[SX_CONTRACT] == FIVE_PICTURES:
            s[NOT_HOLD + x] |= FULL_DECK & ~PICTURES  # he kept five pictures
        else:
            s[SX_CATCHABLE + x] = 2  # he kept a catchable card
        s[H_CUR] = seat_after(x, 1)
    elif cur == seat_after(x, 1):
        s[H_CUR] = seat_after(x, 3)
    else:
        start_contract_play(s)


@njit(cache=True)
def start_contract_play(s):
    s[SX_PHASE] = PH_CPLAY
    s[H_CUR] = s[SX_DECL]
    s[SX_LEADER] = s[SX_DECL]


@njit(cache=True)
def play_card(s, cur, a):
    if a == DECLARE:
        judge_declaration(s, team(cur))
        return
    c = a
    if a >= K_MARRIAGE:
        c = 13 * (a - K_MARRIAGE) + 11
        s[KNOWN + c - 1] = all_seats(s)
        marriage(s, cur, a - K_MARRIAGE)
    elif a >= Q_MARRIAGE:
        c = 13 * (a - Q_MARRIAGE) + 10
        s[KNOWN + c + 1] = all_seats(s)
        marriage(s, cur, a - Q_MARRIAGE)
    if s[TK_TABLE] != 0:
        led = s[SX_SEQ] // 13
        if c // 13 != led:  # a void in the led suit, and without trumps when not trumping
            s[NOT_HOLD + cur] |= suit_mask(led)
            tr = s[SX_TRUMP]
            if tr >= 0 and c // 13 != tr:
                s[NOT_HOLD + cur] |= suit_mask(tr)
    else:
        s[SX_LEADER] = cur
        s[SX_NSEQ] = 0
    put_on_table(s, cur, c)
    s[SX_PLAYED + cur] |= bit(c)
    s[SX_SEQ + s[SX_NSEQ]] = c
    s[SX_NSEQ] += 1
    contract = s[SX_PHASE] == PH_CPLAY
    size = 3 if contract else 4
    if s[SX_NSEQ] < size:
        s[H_CUR] = next_player(s, cur)
        return
    if contract:
        collect_contract_trick(s)
    else:
        collect_trick(s)


@njit(cache=True)
def next_player(s, cur):
    if s[SX_PHASE] == PH_CPLAY:  # X, X+1, X+3
        x = s[SX_DECL]
        return seat_after(x, 1) if cur == x else seat_after(x, 3)
    return seat_after(cur, 1)


@njit(cache=True)
def marriage(s, cur, su):
    s[SX_MARR + team(cur)] += 40 if su == s[SX_TRUMP] else 20


@njit(cache=True)
def trick_winner(s, size):
    best = 0
    for i in range(1, size):
        if beats(s[SX_SEQ + i], s[SX_SEQ + best], s[SX_TRUMP]):
            best = i
    leader = s[SX_LEADER]
    if s[SX_PHASE] == PH_CPLAY:
        return leader if best == 0 else seat_after(leader, 2 * best - 1)
    return seat_after(leader, best)


@njit(cache=True)
def take(s, t):
    m = s[TK_TABLE]
    s[SX_POINTS + t] += points_of(m)
    s[SX_TRICKS + t] += 1
    while m:
        c = lowest(m)
        m &= m - 1
        s[LOC + c] = LOC_TAKEN + t
    clear_table(s)
    s[SX_NSEQ] = 0


@njit(cache=True)
def collect_trick(s):
    w = trick_winner(s, 4)
    t = team(w)
    take(s, t)
    s[SX_LEADER] = w
    s[H_CUR] = w
    if s[SX_TRICKS] + s[SX_TRICKS + 1] == 6:  # the last trick (§12.5.3)
        if total(s, t) >= 66:
            score_66(s, t, R_LAST_TRICK)
        else:
            set_last(s, R_LAST_TRICK, t, 1)
            award_and_end(s, t, 1, True)


@njit(cache=True)
def score_66(s, t, code):
    o = 1 - t
    pts = 3 if s[SX_TRICKS + o] == 0 else (2 if total(s, o) < 33 else 1)
    set_last(s, code, t, pts)
    award_and_end(s, t, pts, True)


@njit(cache=True)
def judge_declaration(s, t):
    clear_table(s)  # an unfinished trick counts for nobody
    if total(s, t) >= 66:
        score_66(s, t, R_DECLARE)
    else:
        set_last(s, R_DECLARE, 1 - t, 3)
        award_and_end(s, 1 - t, 3, True)


@njit(cache=True)
def collect_contract_trick(s):
    x = s[SX_DECL]
    k = s[SX_CONTRACT]
    lead = s[SX_SEQ]
    # five / six pictures: an opponent "covered the last card with its suit"
    covered = s[SX_SEQ + 1] // 13 == lead // 13 or s[SX_SEQ + 2] // 13 == lead // 13
    w = trick_winner(s, 3)
    take(s, team(w))
    s[SX_LEADER] = x
    s[H_CUR] = x
    last = s[HAND + x] == 0
    if k == FIVE_PICTURES or k == SIX_PICTURES:
        if last:
            winner = 1 - team(x) if covered else team(x)
            set_last(s, R_CONTRACT, winner, CONTRACT_WORTH[k])
            award_and_end(s, winner, CONTRACT_WORTH[k], False)
        return
    if team(w) != team(x):
        set_last(s, R_CONTRACT, team(w), CONTRACT_WORTH[k])
        award_and_end(s, team(w), CONTRACT_WORTH[k], False)
    elif last:
        set_last(s, R_CONTRACT, team(x), CONTRACT_WORTH[k])
        award_and_end(s, team(x), CONTRACT_WORTH[k], False)


# ----- nines (§12.7.2, §12.7.3) ---------------------------------------------------------------

@njit(cache=True)
def show(s, m):
    """The cards of ``m`` are shown: every seat knows where they are."""
    while m:
        c = lowest(m)
        m &= m - 1
        s[KNOWN + c] = all_seats(s)


@njit(cache=True)
def apply_nines(s, cur, a):
    vis = all_seats(s)
    ph = s[SX_PHASE]
    if ph == PH_OFFER:
        if a != PASS and offer(s, cur, seat_after(cur, 1 if a == LEFT else 3)):
            return vis
        if not extras_on(s) or extras_turn_done(s):
            plan_second_round(s)
        return vis
    if ph == PH_NINES:
        if a == PASS:
            next_nines_turn(s)
            return vis
        partner = seat_after(cur, 2)
        s[SX_ASKED + cur] = 1
        s[SX_COUNT + partner] = popcount(s[HAND + partner] & ALL_NINES & ~s[SX_USED])
        s[SX_NG_INIT] = cur
        s[SX_PHASE] = PH_NG_CHOOSE
        return vis
    init_seat = s[SX_NG_INIT]
    if ph == PH_NG_CHOOSE:
        s[SX_NG_GAME] = a
        s[SX_TEAM_GAME + team(cur)] = a
        s[SX_NG_STEP] = 0
        if a == FOUR_NINES:
            s[SX_PHASE] = PH_NG_FOUR
            return vis
        if a == THREE_NINES:
            laid = (s[HAND + cur] | s[HAND + seat_after(cur, 2)]) & ALL_NINES & ~s[SX_USED]
            s[SX_NG_LAID] = laid
            show(s, laid)
        s[SX_PHASE] = PH_NG_CATCH
        s[H_CUR] = seat_after(cur, 1)
        return vis
    if ph == PH_NG_CATCH:
        s[SX_NG_CATCH + s[SX_NG_STEP]] = a - CATCH0
        s[SX_NG_STEP] += 1
        if s[SX_NG_STEP] == 1:
            s[H_CUR] = seat_after(init_seat, 3)
        else:
            s[SX_PHASE] = PH_NG_TARGET
            s[H_CUR] = init_seat
        return 1 << cur
    t = team(init_seat)
    s[SX_NINES_PLAYED + t] = 1
    if ph == PH_NG_TARGET:
        show(s, bit(a))
        s[SX_NG_LAID] |= bit(a)
        worth = 2 if s[SX_NG_GAME] == TWO_DARK else 3
        caught = s[SX_NG_CATCH] == a // 13 or s[SX_NG_CATCH + 1] == a // 13
        s[SX_TEAM_CATCH + t] = 1 + 4 * s[SX_NG_CATCH] + s[SX_NG_CATCH + 1]  # now public
        winner = 1 - t if caught else t
        set_last(s, R_NINES_GAME, winner, worth)
    else:  # PH_NG_FOUR
        opp = seat_after(cur, 1 if a == LEFT else 3)
        full = True
        for su in range(4):
            full = full and (s[HAND + opp] & suit_mask(su)) != 0
        s[SX_FOUR_OPP] = opp
        s[SX_FOUR_ALL] = 1 if full else 0
        worth = 4
        winner = 1 - t if full else t
        set_last(s, R_FOUR, winner, worth)
    s[SX_PHASE] = PH_NINES
    s[H_CUR] = init_seat
    if award(s, winner, worth):
        return vis
    next_nines_turn(s)
    return vis


@njit(cache=True)
def next_nines_turn(s):
    if not extras_on(s) or extras_turn_done(s):
        after_nines(s)


@njit(cache=True)
def offer(s, cur, opp):
    """``cur`` offers his first-round nines to ``opp``; True when that ends the match."""
    nines = s[HAND + cur] & s[SX_R1] & ALL_NINES
    k = popcount(nines)
    show(s, nines)
    s[SX_USED] |= nines
    s[SX_NOT1 + cur] |= ALL_NINES & ~nines
    s[SX_NINES_PLAYED + team(cur)] = 1
    s[SX_OFFER_TO + cur] = opp
    s[SX_OFFER_MASK + cur] = nines
    held = s[HAND + opp]
    beaten = True
    m = nines
    while m:
        c = lowest(m)
        m &= m - 1
        beaten = beaten and (held & suit_mask(c // 13)) != 0
    if beaten:
        m = nines
        while m:
            c = lowest(m)
            m &= m - 1
            cover = lowest_of(held & suit_mask(c // 13))
            show(s, bit(cover))
            for h in range(13 * (c // 13) + 7, 13 * (c // 13) + 13):
                if STRENGTH[h % 13] < STRENGTH[cover % 13]:
                    s[SX_NOT1 + opp] |= bit(h)
    elif k == 1:
        s[SX_NOT1 + opp] |= suit_mask(lowest(nines) // 13)
    s[SX_OFFER_BEATEN + cur] = 1 if beaten else 0
    winner = team(opp) if beaten else team(cur)
    set_last(s, R_OFFER, winner, k)
    return award(s, winner, k)


@njit(cache=True, inline="always")
def lowest_of(m):
    """The weakest card of a non-empty mask of one suit."""
    best = lowest(m)
    m &= m - 1
    while m:
        c = lowest(m)
        m &= m - 1
        if STRENGTH[c % 13] < STRENGTH[best % 13]:
            best = c
    return best


# ----- outcome, observation -----------------------------------------------------------------

@njit(cache=True)
def returns(s, out):
    if param(s, P_MODE) == MATCH:
        w = s[SX_WINNER]
        v = 0.0
        if w >= 0:
            v = 1.0 if param(s, P_STAKES) == WIN else float(s[SX_OUTCOME])
            if w == 1:
                v = -v
    else:
        d = s[SX_BOARD] - s[SX_BOARD + 1]
        if param(s, P_STAKES) == WIN:
            v = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
        else:
            v = float(d)
    for q in range(4):
        out[q] = v if team(q) == 0 else -v


@njit(cache=True)
def scores(s, out):
    out[0] = s[SX_BOARD]
    out[1] = s[SX_BOARD + 1]


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    b = OBS_COMMON
    mine = team(p)
    for c in range(NUM_CARDS):
        loc = s[LOC + c]
        if loc == 16:  # LOC_TABLE
            out[b + c] = 1.0
        elif loc == LOC_TAKEN + mine:
            out[b + 54 + c] = 1.0
        elif loc == LOC_TAKEN + 1 - mine:
            out[b + 108 + c] = 1.0
        elif 0 <= loc < 4 and loc != p and not hidden_from(s, c, p):
            out[b + 162 + c] = 1.0
    b += 216
    if s[SX_TRUMP] >= 0:
        out[b + s[SX_TRUMP]] = 1.0
    out[b + 4 + ((s[SX_DEALER] - p) & 3)] = 1.0
    b += 8
    out[b + s[SX_PHASE]] = 1.0
    b += NUM_PHASES
    for k in range(2):
        t = mine if k == 0 else 1 - mine
        out[b + k] = s[SX_BOARD + t] / 8.0
        out[b + 2 + k] = s[SX_POINTS + t] / 120.0
        out[b + 4 + k] = s[SX_MARR + t] / 120.0
        out[b + 6 + k] = s[SX_TRICKS + t] / 6.0
    b += 8
    if s[SX_DECL] >= 0:
        out[b + ((s[SX_DECL] - p) & 3)] = 1.0
        out[b + 4 + s[SX_CONTRACT]] = 1.0
    if s[SX_BID] >= 0:
        out[b + 8 + s[SX_BID]] = 1.0
    b += 12
    out[b] = float(s[SX_REDEALT])
    out[b + 1] = float(s[SX_NOX])


# ----- resampling ---------------------------------------------------------------------------

@njit(cache=True)
def seat_facts_hold(s, q):
    """The public facts about the cards seat ``q`` holds or held in this deal that are not a
    plain "cannot hold" (``NOT_HOLD``, ``SX_NOT1``), §12.10. They read ``q``'s cards only, so
    a world can be checked seat by seat while it is being built."""
    own = owned(s, q)
    named = s[SX_NAMED]
    if q == elder(s) and named >= 0 and (own & s[SX_R1] & suit_mask(named)) == 0:
        return False
    if s[SX_PICS_MIN + q] and popcount(own & PICTURES) < s[SX_PICS_MIN + q]:
        return False
    if s[SX_CATCHABLE + q]:
        kept = own
        if s[SX_CATCHABLE + q] == 2:  # after his discard he kept a catchable card
            kept = s[HAND + q] | s[SX_PLAYED + q]
        if (catchable(own) & kept) == 0:
            return False
    unused = popcount(own & ALL_NINES & ~s[SX_USED])
    if s[SX_ASKED + q] and unused < 2:
        return False
    if s[SX_COUNT + q] >= 0 and unused != s[SX_COUNT + q]:
        return False
    for o in range(4):  # an offer to q that he did not beat: he lacked one of its suits
        if s[SX_OFFER_TO + o] == q and s[SX_OFFER_BEATEN + o] == 0:
            first = own & (s[SX_R1] | revealed_mask(s, q))
            beaten = True
            m = s[SX_OFFER_MASK + o]
            while m:
                c = lowest(m)
                m &= m - 1
                beaten = beaten and (first & suit_mask(c // 13)) != 0
            if beaten:
                return False
    if s[SX_FOUR_OPP] == q:
        full = True
        for su in range(4):
            full = full and (own & suit_mask(su)) != 0
        if full != (s[SX_FOUR_ALL] == 1):
            return False
    return True


@njit(cache=True)
def team_facts_hold(s, t):
    """Three / four nines: team ``t`` held exactly that many unused nines."""
    g = s[SX_TEAM_GAME + t]
    if g == THREE_NINES or g == FOUR_NINES:
        both = owned(s, t) | owned(s, t + 2)
        return popcount(both & ALL_NINES & ~s[SX_USED]) == (3 if g == THREE_NINES else 4)
    return True


@njit(cache=True)
def facts_hold(s):
    """Every public fact that is not a plain "cannot hold": checked on a resampled world."""
    for q in range(4):
        if not seat_facts_hold(s, q):
            return False
    return team_facts_hold(s, 0) and team_facts_hold(s, 1)


@njit(cache=True)
def revealed_mask(s, q):
    """E's revealed cards (second-round cards he held at the offers). Kept as a mask of
    their own: other cards in E's hand may be public too (one the cut showed, a marriage
    half), and those were not held at the offers."""
    return s[SX_REVEALS] if q == elder(s) else np.int64(0)


@njit(cache=True)
def resample(s, p, rng, sigma):
    """Re-deal every card hidden from ``p`` and redraw the choices hidden from him,
    consistently with what is public (§12.10). The slots of first-round cards stay
    first-round slots (their own ``SX_NOT1`` facts) and ``NOT_HOLD`` (voids) is kept by
    construction; the other facts (``facts_hold``) by drawing up to ``TRIES`` uniform worlds
    until one fits, else by a search that always finds one (``fitting_assignment``): never
    a world that contradicts a public event. Then the catchers' suits that ``p`` did not see
    are drawn anew (``redraw_catches``). ``sigma`` receives the card permutation; the
    redrawn choices are read from the world (``remap_choice``)."""
    resample_tries(s, p, rng, sigma, TRIES)


@njit(cache=True)
def resample_tries(s, p, rng, sigma, tries):
    """``resample`` with ``tries`` uniform worlds before the search (0: the search alone)."""
    cards_ = np.empty(NUM_CARDS, np.int64)
    places = np.empty(NUM_CARDS, np.int64)
    known = np.empty(NUM_CARDS, np.int64)
    occupant = np.empty(NUM_CARDS, np.int64)
    first = np.zeros(NUM_CARDS, np.int64)
    for c in range(NUM_CARDS):
        if (s[SX_R1] >> c) & 1:
            first[c] = 1
    m = hidden_slots(s, p, first, cards_, places, known, occupant)
    f = default_feasibility(s, cards_, places, m)
    hidden = np.int64(0)
    for i in range(m):
        hidden |= bit(cards_[i])
        seat = places[i]
        if first[occupant[i]] and 0 <= seat < 4:
            for j in range(m):
                if (s[SX_NOT1 + seat] >> cards_[j]) & 1:
                    f[i, j] = False
    assign = np.empty(m, np.int64)
    world = s.copy()
    for _ in range(tries):
        sample_assignment(f, m, rng, assign)
        place_cards(world, s, cards_, places, known, occupant, first, hidden, assign, m, sigma)
        if facts_hold(world):
            break
    else:
        fitting_assignment(s, f, cards_, places, known, occupant, first, hidden, m, rng,
                           assign)
        place_cards(world, s, cards_, places, known, occupant, first, hidden, assign, m, sigma)
    s[:] = world
    redraw_catches(s, p, rng)


@njit(cache=True)
def place_cards(world, s, cards_, places, known, occupant, first, hidden, assign, m, sigma):
    """``world`` becomes ``s`` with card ``cards_[assign[i]]`` in slot ``i``; the cards of
    first-round slots are the first-round cards (``SX_R1``)."""
    world[:] = s
    r1 = s[SX_R1] & ~hidden
    for i in range(m):
        if first[occupant[i]]:
            r1 |= bit(cards_[assign[i]])
    relabel(world, cards_, places, known, occupant, assign, m, sigma)
    world[SX_R1] = r1


@njit(cache=True, inline="always")
def slot_owner(place, kn):
    """The seat whose cards a slot holds: his hand, or his own face-down discard; else -1."""
    if 0 <= place < 4:
        return place
    if place == LOC_UNSEEN:
        for q in range(4):
            if kn == 1 << q:
                return q
    return -1


@njit(cache=True, inline="always")
def put_card(w, c, place, kn, is_first):
    w[LOC + c] = place
    w[KNOWN + c] = kn
    if 0 <= place < 4:
        w[HAND + place] |= bit(c)
    if is_first:
        w[SX_R1] |= bit(c)


@njit(cache=True, inline="always")
def take_card(w, c, place):
    w[LOC + c] = LOC_NONE
    w[KNOWN + c] = 0
    if 0 <= place < 4:
        w[HAND + place] &= ~bit(c)
    w[SX_R1] &= ~bit(c)


@njit(cache=True)
def fitting_assignment(s, f, cards_, places, known, occupant, first, hidden, m, rng,
                       assign):
    """Into ``assign``, a world that fits every fact, for when ``TRIES`` uniform worlds did
    not (a few very constrained positions, e.g. two picture bids): a depth-first search over
    the slots in canonical order, each trying the hidden cards in one random order. Alike
    slots (same place, known bits and round) take their cards in that order, so a hand is
    tried once as a set, and a seat's facts (and its team's, once both partners are
    complete) are checked as soon as its last slot is filled. The true world fits, so one
    is always found; like the slots it depends only on what ``p`` knows and on ``rng``."""
    perm = np.empty(m, np.int64)
    shuffle(m, rng, perm)
    w = s.copy()  # the cards placed so far; the hidden ones nowhere yet
    w[SX_R1] = s[SX_R1] & ~hidden
    for q in range(4):
        w[HAND + q] &= ~hidden
    for j in range(m):
        w[LOC + cards_[j]] = LOC_NONE
        w[KNOWN + cards_[j]] = 0
    last = np.full(4, -1, np.int64)  # each seat's last slot
    owner = np.empty(m, np.int64)  # whose cards each slot holds; 4: nobody's
    left = np.zeros(5, np.int64)  # slots not filled yet, per owner
    for i in range(m):
        q = slot_owner(places[i], known[i])
        owner[i] = q if q >= 0 else 4
        left[owner[i]] += 1
        if q >= 0:
            last[q] = i
    unplaced = hidden
    used = np.zeros(m, np.bool_)
    pos = np.full(m, -1, np.int64)  # each filled slot's card, as a position in ``perm``
    i = 0
    while i < m:
        k = pos[i]
        if k >= 0:  # try this slot's next card
            take_card(w, cards_[perm[k]], places[i])
            used[perm[k]] = False
            unplaced |= bit(cards_[perm[k]])
            left[owner[i]] += 1
        elif i > 0 and places[i - 1] == places[i] and known[i - 1] == known[i] \
                and first[occupant[i - 1]] == first[occupant[i]]:
            k = pos[i - 1]
        k += 1
        left[owner[i]] -= 1
        while k < m:
            j = perm[k]
            if not used[j] and f[i, j]:
                c = cards_[j]
                put_card(w, c, places[i], known[i], first[occupant[i]])
                ok = counts_may_fit(w, left, unplaced & ~bit(c))
                for q in range(4):
                    if ok and last[q] == i and not seat_facts_hold(w, q):
                        ok = False
                for t in range(2):
                    if ok and max(last[t], last[t + 2]) == i and not team_facts_hold(w, t):
                        ok = False
                if ok:
                    break
                take_card(w, c, places[i])
            k += 1
        if k < m:
            used[perm[k]] = True
            unplaced &= ~bit(cards_[perm[k]])
            pos[i] = k
            i += 1
        else:
            left[owner[i]] += 1
            pos[i] = -1
            i -= 1
            if i < 0:
                raise ValueError("resample: no world fits the public facts")
    for i in range(m):
        assign[i] = perm[pos[i]]


@njit(cache=True)
def counts_may_fit(w, left, unplaced):
    """Can the counted facts still hold once the slots left are filled? The search's bound,
    so that a choice that starves another seat fails at once: each seat's proved pictures
    (bids) and unused nines (``NINES``, the announced count) must fit in his slots left, and
    all of them among the ``unplaced`` cards, which the slots left (``left[q]`` per seat,
    ``left[4]`` nobody's) must also be able to take."""
    for k in range(2):
        cat = PICTURES if k == 0 else ALL_NINES & ~w[SX_USED]
        free = popcount(unplaced & cat)
        need = 0
        room = left[4]
        for q in range(4):
            have = popcount(owned(w, q) & cat)
            lo, hi = w[SX_PICS_MIN + q], 6
            if k == 1:
                lo, hi = (2 if w[SX_ASKED + q] else 0), 4
                if w[SX_COUNT + q] >= 0:
                    lo, hi = w[SX_COUNT + q], w[SX_COUNT + q]
            if have > hi or have + left[q] < lo:
                return False
            need += max(0, lo - have)
            room += min(left[q], hi - have)
        if need > free or free > room:
            return False
    return True


@njit(cache=True)
def redraw_catches(s, p, rng):
    """The catchers' suits of the nines game under way that ``p`` did not see, drawn anew,
    uniformly among the legal ones (§12.7.3: chosen secretly, revealed with the result).
    A resolved game's catches are public and stay."""
    ph = s[SX_PHASE]
    if ph != PH_NG_CATCH and ph != PH_NG_TARGET:
        return
    suits = catch_suits(s)
    for i in range(s[SX_NG_STEP]):
        if seat_after(s[SX_NG_INIT], 1 + 2 * i) != p:
            s[SX_NG_CATCH + i] = kth(suits, below(rng, popcount(suits)))


def remap_choice(world: np.ndarray, before: np.ndarray, action: int) -> int:
    """``GameSpec.remap_choice``: a catch of the nines game under way in the resampled
    ``world`` is the suit that world drew (``redraw_catches``); every other action stays."""
    if (world[SX_PHASE] in (PH_NG_CATCH, PH_NG_TARGET) and before[SX_PHASE] == PH_NG_CATCH
            and before[SX_NG_INIT] == world[SX_NG_INIT]):
        return CATCH0 + int(world[SX_NG_CATCH + before[SX_NG_STEP]])
    return action


@njit(cache=True)
def resample_planned(s, plan, rng, sigma):
    """``resample`` for the plan's player (``resample_plan`` is ``plan_player_only``)."""
    resample(s, plan[P_PLAYER], rng, sigma)


# ----- Python side: declaration and text --------------------------------------------------

TEAM_NAMES = ("team 0", "team 1")
SUIT_CHARS = "scdh"
BID_NAMES = ("five pictures", "six pictures", "pyatak", "six")
NAMED_ACTIONS = {REVEAL: "REVEAL", DECLARE: "DECLARE", PASS: "PASS", LEFT: "LEFT",
                 RIGHT: "RIGHT", NINES: "NINES", TWO_DARK: "TWO_DARK",
                 THREE_NINES: "THREE_NINES", FOUR_NINES: "FOUR_NINES", REDEAL: "REDEAL"}
PHASE_NAMES = ("cut", "first round", "trump", "reveal", "offers of nines", "second round",
               "nines games", "nines game: choosing", "nines game: catching",
               "nines game: target", "four nines", "redeal", "bids", "discards",
               "standard play", "contract play", "over")
OUTCOMES = ("", "shuba", "klin", "cross klin")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0 or action < 52:
        return cards.to_str(action)
    if action < K_MARRIAGE:
        return f"Q{SUIT_CHARS[action - Q_MARRIAGE]}+marriage"
    if action < TRUMP0:
        return f"K{SUIT_CHARS[action - K_MARRIAGE]}+marriage"
    if action < REVEAL:
        return f"TRUMP({SUIT_CHARS[action - TRUMP0]})"
    if CATCH0 <= action < REDEAL:
        return f"CATCH({SUIT_CHARS[action - CATCH0]})"
    if action >= BID0:
        return f"BID({BID_NAMES[action - BID0]})"
    return NAMED_ACTIONS[action]


def _result_text(s) -> str:
    code, a, b = int(s[SX_LAST_TEXT]), int(s[SX_LAST_A]), int(s[SX_LAST_B])
    what = {R_CUT3: "third nine cut", R_OFFER: "nines offered", R_NINES_GAME: "nines game",
            R_FOUR: "four nines", R_SIX_SHOWN: "six shown", R_CONTRACT: "contract",
            R_DECLARE: "declaration", R_LAST_TRICK: "last trick"}.get(code)
    if code == R_REDEAL:
        return f"seat {a} asked for a redeal"
    return f"{what}: {TEAM_NAMES[a]} +{b}" if what else ""


def public_record(s) -> str:
    """What automatic events showed (results, covers, the announced count, each team's
    nines game's catches once resolved) and the board: facts the action history alone does
    not tell."""
    out = [f"board={int(s[SX_BOARD])}:{int(s[SX_BOARD + 1])}"]
    for q in range(4):
        if s[SX_OFFER_TO + q] >= 0:
            out.append(f"offer{q}->{int(s[SX_OFFER_TO + q])}:"
                       f"{'beaten' if s[SX_OFFER_BEATEN + q] else 'not_beaten'}")
        if s[SX_COUNT + q] >= 0:
            out.append(f"count{q}={int(s[SX_COUNT + q])}")
    for t in range(2):  # kept for the whole deal: the history shows catches as "?"
        code = int(s[SX_TEAM_CATCH + t]) - 1
        if code >= 0:
            out.append(f"catch{t}={SUIT_CHARS[code // 4]}{SUIT_CHARS[code % 4]}")
    shown = [c for c in range(NUM_CARDS) if 0 <= s[LOC + c] < 4 and s[KNOWN + c] == 15]
    if shown:
        out.append("shown=" + cards.cards_to_str(shown))
    last = _result_text(s)
    if last:
        out.append(f"last=[{last}]")
    return " ".join(out)


def _table_lines(s) -> list[str]:
    trump = int(s[SX_TRUMP])
    lines = [f"  dealer: seat {int(s[SX_DEALER])}; phase: {PHASE_NAMES[int(s[SX_PHASE])]}; "
             f"trump: {SUIT_CHARS[trump] if trump >= 0 else '-'}"
             + ("; redealt deal" if s[SX_REDEALT] else "")
             + ("; no more extras (7:7)" if s[SX_NOX] else ""),
             f"  board: {TEAM_NAMES[0]} {int(s[SX_BOARD])}, {TEAM_NAMES[1]} "
             f"{int(s[SX_BOARD + 1])}"]
    if s[SX_BOTTOM] >= 0:
        lines.append(f"  bottom card: {cards.to_str(int(s[SX_BOTTOM]))}")
    if s[SX_BID] >= 0:
        lines.append(f"  highest bid: {BID_NAMES[int(s[SX_BID])]} by seat "
                     f"{int(s[SX_BIDDER])}")
    seq = [int(s[SX_SEQ + i]) for i in range(int(s[SX_NSEQ]))]
    if s[SX_PHASE] in (PH_PLAY, PH_CPLAY):
        lines.append(f"  trick: {cards.cards_to_str(seq) or '(empty)'}"
                     + (f" (led by seat {int(s[SX_LEADER])})" if seq else ""))
    lines.append("  taken: " + ", ".join(
        f"{TEAM_NAMES[t]} {int(s[SX_TRICKS + t])} tricks {int(s[SX_POINTS + t])} points"
        f" + marriages {int(s[SX_MARR + t])}" for t in range(2)))
    extra = public_record(s).split(" ", 1)
    if len(extra) > 1:
        lines.append(f"  public: {extra[1]}")
    if s[SX_WINNER] >= 0:
        lines.append(f"  {TEAM_NAMES[int(s[SX_WINNER])]} wins: "
                     f"{OUTCOMES[int(s[SX_OUTCOME])]}")
    return lines


def _chance_text(s) -> str:
    ph = int(s[SX_PHASE])
    return {PH_CUT: "cutting", PH_REVEAL: "revealing a card"}.get(ph, "dealing")


def _title(s) -> str:
    names = ["cut", "nines", "redeal", "contracts"]
    on = [n for n, i in zip(names, (P_CUT, P_NINES, P_REDEAL, P_CONTRACTS)) if param(s, i)]
    if param(s, P_NINES) and not param(s, P_NDECL):
        on.append("no nines to E")
    mode = "match to 8" if param(s, P_MODE) == MATCH else "one deal"
    stakes = "graded" if param(s, P_STAKES) == GRADED else "win"
    return (f"Sixty-six for four, {mode}, {stakes} stakes"
            + (f", extras: {', '.join(on)}" if on else ""))


def _any_extra(p: dict) -> bool:
    return any(p[k] for k in ("cut", "nines", "redeal", "contracts"))


def _max_length(p: dict) -> int:
    if p["mode"] == "deal":
        return 128 if _any_extra(p) else 50
    return 1920 if _any_extra(p) else 750


SPEC = GameSpec(
    short_name="classic_sixty_six_4p",
    long_name="Sixty-six for four",
    original_name="Шуба вчетвером",
    rules_section="§12",
    kernel=sys.modules[__name__],
    params=(Param("players", 4, (4,), "4 only"),
            Param("mode", "match", ("match", "deal"), "a match to 8 board points, or one deal"),
            Param("stakes", "graded", ("graded", "win"),
                  "returns graded (shuba 1, klin 2, cross klin 3; a deal's board difference) "
                  "or ±1", variant_values=("graded",)),
            Param("cut", False, (False, True), "the dealer's opponent cuts the bottom card"),
            Param("nines", False, (False, True), "offers of nines and nines games"),
            Param("nines_declarer", True, (False, True),
                  "nines may be offered to the elder hand (used only with nines)",
                  variant_values=(True,)),
            Param("redeal", False, (False, True), "a weak or one-suited hand may ask a redeal"),
            Param("contracts", False, (False, True),
                  "five / six pictures, pyatak, six")),
    num_players=lambda p: 4,
    num_distinct_actions=lambda p: NUM_ACTIONS,
    max_chance_outcomes=lambda p: 52,
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_table_lines,
    min_utility=-20.0,
    max_utility=20.0,
    team_names=TEAM_NAMES,
    partners_alternate=True,
    chance_text=_chance_text,
    public_record=public_record,
    remap_start=lambda s: int(s[SX_DEAL_START]),
    remap_player_cards=True,
    remap_choice=remap_choice,
)
register(SPEC)
