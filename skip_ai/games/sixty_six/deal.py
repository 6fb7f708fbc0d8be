"""A fresh match and the deal (RULES §12.2): gathering the cards, the plan of the two rounds
dealt in packets of three from the elder hand, and each dealt card."""

from numba import njit

from skip_ai.kernel.bits import bit
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
    MAX_SEATS,
    NOT_HOLD,
    NUM_CARDS,
    all_seats,
    give,
    init_common,
    new_state,
    param,
    standard_deck,
)
from skip_ai.kernel.tricks import clear_table

from .deck import FULL_DECK
from .layout import (
    P_CUT,
    PH_CUT,
    PH_DEAL1,
    PH_DEAL2,
    PH_TRUMP,
    STATE_SIZE,
    SX_BID,
    SX_BIDDER,
    SX_BOARD,
    SX_BOTTOM,
    SX_CONTRACT,
    SX_COUNT,
    SX_DEAL_START,
    SX_DEALER,
    SX_DECL,
    SX_FOUR_OPP,
    SX_LEADER,
    SX_NAMED,
    SX_NG_INIT,
    SX_NOX,
    SX_OFFER_TO,
    SX_PHASE,
    SX_POINTS,
    SX_R1,
    SX_REDEALT,
    SX_REVEALED,
    SX_TRUMP,
    SX_WINNER,
    TARGET,
    extras_on,
)
from .phases import after_second_round
from .seats import PARTNERS_ALTERNATE, elder, seat_after


@njit(cache=True)
def init(params):
    """A fresh game: seat 3 deals first (§12.2.1), the board at 0:0."""
    s = new_state(STATE_SIZE, params)
    init_common(s, 4, standard_deck(24, False))
    s[H_TEAMS] = PARTNERS_ALTERNATE
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
    """Plan the first round: three cards each, in packets, from E to the dealer."""
    s[SX_PHASE] = PH_DEAL1
    e = elder(s)
    k = s[H_DEAL_LEN]
    for i in range(12):
        s[DEAL_PLAN + k + i] = seat_after(e, i // 3)
    s[H_DEAL_LEN] = k + 12


@njit(cache=True)
def plan_second_round(s):
    """Plan the second round: three cards each from E, less the cards E revealed, and two
    for the dealer when the cut bottom card will be his."""
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


@njit(cache=True, inline="always")
def deal_card(s, c):
    """Card ``c`` goes where the plan says; after the first round E names the trump, after the
    second the cut bottom card joins the dealer's hand and the phases after the deal follow.
    Returns the seats that saw it."""
    target = s[DEAL_PLAN + s[H_DEALT]]
    s[H_DEALT] += 1
    give(s, c, target)
    ph = s[SX_PHASE]
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
            s[KNOWN + s[SX_BOTTOM]] = all_seats(s)
        after_second_round(s)
    return 1 << target
