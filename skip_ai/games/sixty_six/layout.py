"""Sixty-six's state layout: parameter indices, phases, the game's own slots, result codes.

The game's slots follow the trick slots of ``kernel.tricks`` (whose table and taken places it
uses):

- ``SX_PHASE`` the phase (``PH_*``); ``SX_DEALER``; ``SX_TRUMP`` the trump suit (-1 none);
  ``SX_BOARD[t]``; ``SX_POINTS[t]`` card points taken; ``SX_MARR[t]`` marriage points;
  ``SX_TRICKS[t]`` tricks taken.
- The trick on the table: ``SX_LEADER`` the seat that led it; ``SX_SEQ[i]`` its cards in
  order, ``SX_NSEQ`` of them.
- ``SX_TURN`` how many seats acted in an extras phase.
- The trump: ``SX_REVEALED`` how many cards E revealed; ``SX_R1`` mask of the first-round
  cards; ``SX_REVEALS`` mask of the cards E revealed; ``SX_NAMED`` the suit E named from his
  three cards (-1).
- Facts for the resampler: ``SX_NOT1[q]`` cards proved absent from q's first-round cards;
  ``SX_PLAYED[q]`` cards q played (or discarded, when shown) this deal.
- The cut: ``SX_BOTTOM`` the bottom card (-1); ``SX_CUT_NINES``; ``SX_DEALER_CUT``.
- ``SX_REDEALT`` this deal is a redeal; ``SX_NOX`` no more extras in this deal (7:7).
- The outcome: ``SX_OUTCOME`` 1 shuba, 2 klin, 3 cross klin; ``SX_WINNER`` the winning team
  (-1).
- ``SX_DEAL_START`` the history index where this deal starts (the resampler re-deals only the
  current deal).
- Bids and contracts: ``SX_BID``, ``SX_BIDDER``, ``SX_CONTRACT``, ``SX_DECL``;
  ``SX_PICS_MIN[q]`` pictures a bid proved; ``SX_CATCHABLE[q]`` a bid (1) or a pyatak discard
  (2) proved a catchable card.
- Nines: ``SX_USED`` (offered nines); ``SX_NINES_PLAYED[t]``; ``SX_OFFER_*`` (the offers'
  facts); ``SX_ASKED[q]``, ``SX_COUNT[q]`` (announced unused nines, -1); ``SX_NG_*`` (the
  nines game under way); ``SX_FOUR_*`` (the four-nines facts); ``SX_TEAM_GAME[t]`` the nines
  game team t chose; ``SX_TEAM_CATCH[t]`` its catches once shown.
- ``SX_LAST_*`` the last automatic result (``R_*``), for the text.
"""

from numba import njit

from skip_ai.kernel.bits import lowest
from skip_ai.kernel.state import KNOWN, all_seats
from skip_ai.kernel.tricks import LOC_TAKEN, TRICK_END

P_PLAYERS, P_MODE, P_STAKES, P_CUT, P_NINES, P_NDECL, P_REDEAL, P_CONTRACTS = range(8)
MATCH, DEAL = 0, 1
GRADED, WIN = 0, 1
TARGET = 8
"""Board points that win a match."""

(
    PH_CUT,
    PH_DEAL1,
    PH_TRUMP,
    PH_REVEAL,
    PH_OFFER,
    PH_DEAL2,
    PH_NINES,
    PH_NG_CHOOSE,
    PH_NG_CATCH,
    PH_NG_TARGET,
    PH_NG_FOUR,
    PH_REDEAL,
    PH_BID,
    PH_DISCARD,
    PH_PLAY,
    PH_CPLAY,
    PH_OVER,
) = range(17)
NUM_PHASES = 17

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
SX_OFFER_TO = SX_NINES_PLAYED + 2  # per offerer: the opponent offered to, -1
SX_OFFER_MASK = SX_OFFER_TO + 4  # per offerer: the nines offered
SX_OFFER_BEATEN = SX_OFFER_MASK + 4  # per offerer: 1 beaten, 0 not
SX_ASKED = SX_OFFER_BEATEN + 4  # per seat: asked NINES (at least two unused)
SX_COUNT = SX_ASKED + 4  # per seat: announced unused nines, -1
SX_NG_INIT = SX_COUNT + 4
SX_NG_GAME = SX_NG_INIT + 1
SX_NG_CATCH = SX_NG_GAME + 1  # the two catchers' suits
SX_NG_STEP = SX_NG_CATCH + 2
SX_NG_LAID = SX_NG_STEP + 1  # three nines laid face up
SX_FOUR_OPP = SX_NG_LAID + 1  # four nines: the opponent asked, -1
SX_FOUR_ALL = SX_FOUR_OPP + 1  # and whether he held all four suits
SX_LAST_TEXT = SX_FOUR_ALL + 1  # code of the last automatic result (text)
SX_LAST_A = SX_LAST_TEXT + 1
SX_LAST_B = SX_LAST_A + 1
SX_TEAM_GAME = SX_LAST_B + 1  # per team: the nines game it chose (0 none)
SX_TEAM_CATCH = SX_TEAM_GAME + 2  # per team: its game's catches, 1 + 4 c0 + c1 (0)
STATE_SIZE = SX_TEAM_CATCH + 2

# codes of SX_LAST_TEXT
(
    R_NONE,
    R_CUT3,
    R_OFFER,
    R_NINES_GAME,
    R_FOUR,
    R_SIX_SHOWN,
    R_CONTRACT,
    R_DECLARE,
    R_LAST_TRICK,
    R_REDEAL,
) = range(10)


@njit(cache=True, inline="always")
def extras_on(s):
    """May the extras still be played in this deal (not at 7:7, §12.6.2)?"""
    return s[SX_NOX] == 0


@njit(cache=True)
def show(s, m):
    """The cards of ``m`` are shown: every seat knows where they are."""
    while m:
        c = lowest(m)
        m &= m - 1
        s[KNOWN + c] = all_seats(s)
