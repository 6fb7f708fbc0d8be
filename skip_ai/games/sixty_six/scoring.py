"""The board and the outcome (RULES §12.5, §12.6): a team's total, board points awarded,
the end of a deal or of the match, declaring 66, the last trick's points, returns and
scores."""

from numba import njit

from skip_ai.kernel.state import H_CUR, TERMINAL, param, team_of
from skip_ai.kernel.tricks import clear_table

from .deal import start_deal
from .layout import (
    DEAL,
    MATCH,
    P_MODE,
    P_STAKES,
    PH_OVER,
    R_DECLARE,
    SX_BOARD,
    SX_DEALER,
    SX_LAST_A,
    SX_LAST_B,
    SX_LAST_TEXT,
    SX_MARR,
    SX_NOX,
    SX_OUTCOME,
    SX_PHASE,
    SX_POINTS,
    SX_TRICKS,
    SX_WINNER,
    TARGET,
    WIN,
)
from .seats import seat_after


@njit(cache=True, inline="always")
def total(s, t):
    """A team's total: card points, plus marriages once it has taken a trick (§12.4.3)."""
    return s[SX_POINTS + t] + (s[SX_MARR + t] if s[SX_TRICKS + t] > 0 else 0)


@njit(cache=True)
def set_last(s, code, a, b):
    """Record the last automatic result (``R_*`` code, its two numbers) for the text."""
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
def score(s, code, t, pts):
    """Team ``t`` scores ``pts`` board points by result ``code`` (``R_*``, kept for the text);
    True when that ends the match."""
    set_last(s, code, t, pts)
    return award(s, t, pts)


@njit(cache=True)
def score_and_end_deal(s, code, t, pts, rotate):
    """``score``, then the deal ends unless the match did; ``rotate``: the deal passes on."""
    if not score(s, code, t, pts):
        end_deal(s, rotate)


@njit(cache=True)
def score_66(s, t, code):
    """Team ``t`` has 66: 3, 2 or 1 board points by the opponents' tricks and total (§12.5.2)."""
    o = 1 - t
    pts = 3 if s[SX_TRICKS + o] == 0 else (2 if total(s, o) < 33 else 1)
    score_and_end_deal(s, code, t, pts, True)


@njit(cache=True)
def judge_declaration(s, t):
    """Team ``t`` declared 66: scored if true, else the opponents score 3 (§12.5)."""
    clear_table(s)  # an unfinished trick counts for nobody
    if total(s, t) >= 66:
        score_66(s, t, R_DECLARE)
    else:
        score_and_end_deal(s, R_DECLARE, 1 - t, 3, True)


@njit(cache=True)
def returns(s, out):
    """Graded or ±1 per seat, equal within a team (§12.6.4)."""
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
        out[q] = v if team_of(s, q) == 0 else -v


@njit(cache=True)
def scores(s, out):
    """The two boards, team 0 first."""
    out[0] = s[SX_BOARD]
    out[1] = s[SX_BOARD + 1]
