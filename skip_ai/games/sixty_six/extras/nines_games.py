"""Nines games (RULES §12.7.3), after the second round: a player with two unused nines asks
his partner (``NINES``), then chooses two dark, three nines or four nines; the catchers each
choose a suit in secret, the initiator lays the target nine (or, in four nines, asks an
opponent whether he holds all four suits)."""

import numpy as np
from numba import njit

from skip_ai.kernel.bits import bit, lowest, popcount
from skip_ai.kernel.state import H_CUR, HAND, all_seats, partner_of, team_of

from ..actions import CATCH0, FOUR_NINES, LEFT, NINES, PASS, RIGHT, THREE_NINES, TWO_DARK
from ..deck import ALL_NINES, has_suits_of
from ..layout import (
    PH_NG_CATCH,
    PH_NG_CHOOSE,
    PH_NG_FOUR,
    PH_NG_TARGET,
    PH_NINES,
    R_FOUR,
    R_NINES_GAME,
    SX_ASKED,
    SX_COUNT,
    SX_FOUR_ALL,
    SX_FOUR_OPP,
    SX_NG_CATCH,
    SX_NG_GAME,
    SX_NG_INIT,
    SX_NG_LAID,
    SX_NG_STEP,
    SX_NINES_PLAYED,
    SX_PHASE,
    SX_TEAM_CATCH,
    SX_TEAM_GAME,
    SX_USED,
    extras_on,
    show,
)
from ..phases import after_nines, extras_turn_done
from ..scoring import score
from ..seats import seat_after


@njit(cache=True)
def nines_game_legal(s, cur, held):
    """(mask of legal card ids, mask of legal actions >= 52 as bits ``a - 52``) in the
    phases of the nines games."""
    one = np.int64(1)
    ph = s[SX_PHASE]
    if ph == PH_NINES:
        passing = one << (PASS - 52)
        unused = held & ALL_NINES & ~s[SX_USED]
        if s[SX_TEAM_GAME + team_of(s, cur)] == 0 and popcount(unused) >= 2:
            return np.int64(0), passing | one << (NINES - 52)
        return np.int64(0), passing
    if ph == PH_NG_CHOOSE:
        extra = one << (TWO_DARK - 52)
        n = popcount((held | s[HAND + partner_of(s, cur)]) & ALL_NINES & ~s[SX_USED])
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
def apply_nines_game(s, cur, a):
    """Apply a decision of the nines games; returns the seats that saw it (a catch is
    secret)."""
    ph = s[SX_PHASE]
    if ph == PH_NINES:
        ask_partner(s, cur, a)
    elif ph == PH_NG_CHOOSE:
        choose_game(s, cur, a)
    elif ph == PH_NG_CATCH:
        catch(s, cur, a)
        return 1 << cur
    else:
        resolve(s, cur, a)
    return all_seats(s)


@njit(cache=True)
def ask_partner(s, cur, a):
    """``NINES``: the partner announces his unused nines and ``cur`` initiates; or PASS."""
    if a == PASS:
        next_nines_turn(s)
        return
    partner = partner_of(s, cur)
    s[SX_ASKED + cur] = 1
    s[SX_COUNT + partner] = popcount(s[HAND + partner] & ALL_NINES & ~s[SX_USED])
    s[SX_NG_INIT] = cur
    s[SX_PHASE] = PH_NG_CHOOSE


@njit(cache=True)
def choose_game(s, cur, a):
    """The initiator chooses the game; three nines are laid face up."""
    s[SX_NG_GAME] = a
    s[SX_TEAM_GAME + team_of(s, cur)] = a
    s[SX_NG_STEP] = 0
    if a == FOUR_NINES:
        s[SX_PHASE] = PH_NG_FOUR
        return
    if a == THREE_NINES:
        laid = (s[HAND + cur] | s[HAND + partner_of(s, cur)]) & ALL_NINES & ~s[SX_USED]
        s[SX_NG_LAID] = laid
        show(s, laid)
    s[SX_PHASE] = PH_NG_CATCH
    s[H_CUR] = seat_after(cur, 1)


@njit(cache=True)
def catch(s, cur, a):
    """A catcher's secret suit: the one on the initiator's left, then the one on his right,
    then the initiator lays the target."""
    s[SX_NG_CATCH + s[SX_NG_STEP]] = a - CATCH0
    s[SX_NG_STEP] += 1
    if s[SX_NG_STEP] == 1:
        s[H_CUR] = seat_after(s[SX_NG_INIT], 3)
    else:
        s[SX_PHASE] = PH_NG_TARGET
        s[H_CUR] = s[SX_NG_INIT]


@njit(cache=True)
def resolve(s, cur, a):
    """The initiator ``cur`` lays the target nine ``a`` (the catches are shown), or in four
    nines asks an opponent (``a`` LEFT / RIGHT); the result is scored and the seat after the
    initiator has its turn."""
    init_seat = s[SX_NG_INIT]
    t = team_of(s, init_seat)
    s[SX_NINES_PLAYED + t] = 1
    if s[SX_PHASE] == PH_NG_TARGET:
        show(s, bit(a))
        s[SX_NG_LAID] |= bit(a)
        worth = 2 if s[SX_NG_GAME] == TWO_DARK else 3
        caught = s[SX_NG_CATCH] == a // 13 or s[SX_NG_CATCH + 1] == a // 13
        s[SX_TEAM_CATCH + t] = 1 + 4 * s[SX_NG_CATCH] + s[SX_NG_CATCH + 1]  # now public
        winner = 1 - t if caught else t
        code = R_NINES_GAME
    else:  # PH_NG_FOUR
        opp = seat_after(cur, 1 if a == LEFT else 3)
        full = has_suits_of(s[HAND + opp], ALL_NINES)  # a card of each suit
        s[SX_FOUR_OPP] = opp
        s[SX_FOUR_ALL] = 1 if full else 0
        worth = 4
        winner = 1 - t if full else t
        code = R_FOUR
    s[SX_PHASE] = PH_NINES
    s[H_CUR] = init_seat
    if score(s, code, winner, worth):
        return
    next_nines_turn(s)


@njit(cache=True)
def next_nines_turn(s):
    if not extras_on(s) or extras_turn_done(s):
        after_nines(s)
