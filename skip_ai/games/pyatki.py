"""skip_pyatki — Pyatki, each for themselves («Пятки», СКИП-1, RULES.md §1), and
skip_pyatki_pairs — Pyatki two against two («Пятки двое на двое», СКИП-2, RULES.md §2).

One kernel serves both (``P_PAIRS``); the exchange itself — building an attack card by card
with the completability rule, covering or taking card by card — is ``kernel.attack``.

Pyatki (§1): 5 cards each; a chance node turns the trump card (never an Ace), which lies face
up under the stock and is drawn last, without a chance node. The holder of the lowest trump
attacks first (seat 0 if nobody holds one); a player attacks the next player still in. After
an exchange the attacker, then the defender, draw up to 5 (one chance node per card, over the
stock without the trump card). Whoever covered everything attacks next, else the first
player still in after the defender. A player without cards while the stock is empty is out
(checked for the attacker at ATTACK, then for attacker and defender after the refills). Without
``places`` the first out wins (1, others -1/(n-1)); with ``places`` play goes on and place p
gets 1 - 2p/(n-1). After ``max_exchanges`` exchanges the players still in share the remaining
places (their mean return).

Pairs (§2): four players, teams {0, 1} and {2, 3}; the whole deck is dealt, the last dealt
card (shown to all) gives the trump suit; the holder of the lowest trump attacks the opposite
seat (n-1-i). No stock. Next: the defender's team attacks if he covered everything, else the
attacker's team; attacker and defender are the members who sat out the last exchange when they
hold cards, else their partners (§2.4). A team whose two players hold no cards wins (±1); the
cap is a draw.

Actions (both): ``c`` (0..53) adds card ``c`` to the attack; ``54`` ATTACK; ``55 + d`` covers
the current attacking card with ``d``; ``109`` TAKE. Chance outcomes are card ids.
num_distinct_actions = 110.

What a player knows, beyond the common state: accepted cards, picked cards, a drawn trump
card and (pairs) the last dealt card and the lowest trump are known to every seat
(``KNOWN``); stock draws are seen by the drawer only. Two public events depend on hidden
cards, and ``resample`` keeps both: who attacked first (Pyatki: the opener held the lowest
trump of the initial hands, or nobody held one and he is seat 0; shown as the information
state's ``public_record``), and, while an attack is built, that the attacker holds higher
cards completing his picks.

State (after the slots of ``kernel.attack``):

- ``PY_STAGE``          ``DEAL``, ``TURN`` (the trump card's chance node), ``PLAY``, ``DRAW``
- ``PY_TRUMP_CARD``     the trump card (Pyatki: under the stock; pairs: the last dealt card)
- ``PY_DRAWER``         the seat refilling now (-1 when refills are over)
- ``PY_COVERED``        1 when the defender of the last exchange covered every card
- ``PY_EXCHANGES``      exchanges completed
- ``PY_OUT``            mask of the seats out (Pyatki); ``PY_NOUT`` how many
- ``PY_PLACE[seat]``    the seat's finishing place from 0, -1 while in (Pyatki)
- ``PY_OPENER``         the seat that attacked first
- ``PY_INIT_HAND[seat]``  mask of the seat's initial hand (Pyatki; for the resampler)
- ``PY_WINNER``         the winning team (pairs), -1 none
- ``PY_CAPPED``         1 when the game stopped at ``max_exchanges``

Observation tensor (697 floats) for player ``p``, relative seat k = seat ``(p + k) % n``:
``[0, 72)`` the common part (``kernel.state.write_common_observation``); ``[72, 629)`` the
exchange part (``kernel.attack.write_observation``); ``[629, 683)`` the trump card; ``683``
stock size / 52; ``[684, 690)`` 1 per relative seat out; ``[690, 696)`` its score
(n-1-place) / (n-1), Pyatki; ``696`` exchanges / ``max_exchanges``.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.games.spec import GameSpec, Param
from skip_ai.kernel.attack import (
    AT_ANSWER,
    AT_ATTACKER,
    AT_CARDS,
    AT_DEFENDER,
    AT_DEFENDING,
    AT_NEXT,
    AT_PICKED,
    AT_SIZE,
    AT_TRUMP,
    ATTACK,
    ATTACK_END,
    COVER0,
    NUM_ACTIONS,
    OBS_ATTACK,
    ROW,
    TAKE,
    TAKEN,
    answer,
    completable,
    end_defence,
    init_attack,
    launch,
    limit,
    list_legal,
    pick,
    sample_legal,
    start_exchange,
)
from skip_ai.kernel.attack import write_observation as write_attack_observation
from skip_ai.kernel.bits import bit, lowest, popcount, sample_mask, to_list
from skip_ai.kernel.resample import P_PLAYER, hidden_slots, relabel
from skip_ai.kernel.resample import plan_player_only as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below, uniform
from skip_ai.kernel.state import (
    CHANCE,
    DECK,
    EXTRAS_3V3,
    H_CUR,
    H_MOVES,
    H_PLAYERS,
    HAND,
    KNOWN,
    LOC,
    LOC_OUT,
    MAX_SEATS,
    NUM_CARDS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    give,
    init_common,
    new_state,
    param,
    plan_round_robin,
    standard_deck,
    team_of,
    write_common_observation,
)
from skip_ai.pyspiel_wrapper import register

P_PLAYERS, P_DECK, P_PLACES, P_MAX, P_PAIRS = 0, 1, 2, 3, 4
HAND_SIZE = 5
DEAL, TURN, PLAY, DRAW = 0, 1, 2, 3
ACES = np.int64(1) << 12 | np.int64(1) << 25 | np.int64(1) << 38 | np.int64(1) << 51
WORLD_TRIES = 100
"""Resampled worlds drawn before the attacker's hidden cards are kept (see ``resample``)."""

PY_STAGE = ATTACK_END
PY_TRUMP_CARD = PY_STAGE + 1
PY_DRAWER = PY_TRUMP_CARD + 1
PY_COVERED = PY_DRAWER + 1
PY_EXCHANGES = PY_COVERED + 1
PY_OUT = PY_EXCHANGES + 1
PY_NOUT = PY_OUT + 1
PY_PLACE = PY_NOUT + 1
PY_OPENER = PY_PLACE + MAX_SEATS
PY_INIT_HAND = PY_OPENER + 1
PY_WINNER = PY_INIT_HAND + MAX_SEATS
PY_CAPPED = PY_WINNER + 1
STATE_SIZE = PY_CAPPED + 1

OBS_TRUMP = OBS_COMMON + OBS_ATTACK
OBS_STOCK = OBS_TRUMP + NUM_CARDS
OBS_OUT = OBS_STOCK + 1
OBS_SCORE = OBS_OUT + MAX_SEATS
OBS_EXCHANGES = OBS_SCORE + MAX_SEATS
OBS_SIZE = OBS_EXCHANGES + 1


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    players = params[P_PLAYERS]
    deck = standard_deck(params[P_DECK], False)
    init_common(s, players, deck)
    dealt = len(deck) if params[P_PAIRS] else HAND_SIZE * players
    plan_round_robin(s, dealt, np.arange(players), EXTRAS_3V3)
    init_attack(s)
    s[PY_TRUMP_CARD] = -1
    s[PY_DRAWER] = -1
    s[PY_WINNER] = -1
    for seat in range(MAX_SEATS):
        s[PY_PLACE + seat] = -1
    return s


# ----- chance --------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _chance_mask(s):
    """The deal: any undealt card; the trump card: any but an Ace; a draw: the stock without
    the trump card."""
    stage = s[PY_STAGE]
    if stage == DEAL:
        return s[DECK]
    if stage == TURN:
        return s[DECK] & ~ACES
    return s[DECK] & ~bit(s[PY_TRUMP_CARD])


@njit(cache=True)
def chance_outcomes(s, out):
    return to_list(_chance_mask(s), out)


@njit(cache=True, inline="always")
def sample_chance(s, rng):
    return sample_mask(_chance_mask(s), rng)


# ----- decisions -----------------------------------------------------------------------------


@njit(cache=True)
def legal_actions(s, out):
    return list_legal(s, out)


@njit(cache=True, inline="always")
def random_legal(s, rng):
    return sample_legal(s, rng)


# ----- seats ---------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _is_out(s, seat):
    return (s[PY_OUT] >> seat) & 1 == 1


@njit(cache=True, inline="always")
def _next_in(s, seat):
    """The first seat still in clockwise after ``seat``."""
    q = seat
    for _ in range(s[H_PLAYERS]):
        q = q + 1 if q + 1 < s[H_PLAYERS] else 0
        if not _is_out(s, q):
            return q
    return -1


@njit(cache=True, inline="always")
def _team_empty(s, team):
    return (s[HAND + 2 * team] | s[HAND + 2 * team + 1]) == 0


@njit(cache=True, inline="always")
def _sat_out(s, team, busy):
    """Pairs §2.4: the member of ``team`` who did not take part in the last exchange (seats
    in ``busy``) if he holds cards, else the other member."""
    a, b = 2 * team, 2 * team + 1
    fresh, other = (b, a) if (busy >> a) & 1 else (a, b)
    return fresh if s[HAND + fresh] != 0 else other


# ----- the flow ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _first_exchange(s):
    """The holder of the lowest trump attacks (seat 0 if nobody holds a trump): Pyatki's
    opener attacks the next seat, the pairs' opener the opposite one. In the pairs game the
    lowest trump is the deck's lowest, so everybody then knows where it is."""
    trumps = ROW << (13 * s[AT_TRUMP])
    held = np.int64(0)
    for seat in range(s[H_PLAYERS]):
        held |= s[HAND + seat]
    opener = 0
    if held & trumps:
        opener = s[LOC + lowest(held & trumps)]
    s[PY_OPENER] = opener
    s[PY_STAGE] = PLAY
    if param(s, P_PAIRS):
        s[KNOWN + lowest(held & trumps)] = all_seats(s)
        start_exchange(s, opener, s[H_PLAYERS] - 1 - opener)
    else:
        for seat in range(s[H_PLAYERS]):
            s[PY_INIT_HAND + seat] = s[HAND + seat]
        start_exchange(s, opener, _next_in(s, opener))


@njit(cache=True, inline="always")
def _deal(s, c):
    vis = deal_card(s, c)
    if not dealing(s):
        if param(s, P_PAIRS):  # the last dealt card is shown: its suit is trump
            s[KNOWN + c] = all_seats(s)
            s[PY_TRUMP_CARD] = c
            s[AT_TRUMP] = c // 13
            _first_exchange(s)
            vis = all_seats(s)
        else:
            s[PY_STAGE] = TURN
    return vis


@njit(cache=True, inline="always")
def _turn_trump(s, c):
    """The trump card lies face up under the stock, drawn last."""
    s[PY_TRUMP_CARD] = c
    s[KNOWN + c] = all_seats(s)
    s[AT_TRUMP] = c // 13
    _first_exchange(s)


@njit(cache=True, inline="always")
def _go_out(s, seat):
    s[PY_PLACE + seat] = s[PY_NOUT]
    s[PY_NOUT] += 1
    s[PY_OUT] |= 1 << seat


@njit(cache=True, inline="always")
def _decided(s):
    """Without ``places`` one player out ends the game; with it, at most one still in (who
    takes the last place)."""
    n = s[H_PLAYERS]
    if not param(s, P_PLACES):
        return s[PY_NOUT] >= 1
    if n - s[PY_NOUT] > 1:
        return False
    last = _next_in(s, 0)
    if last >= 0:
        _go_out(s, last)
    return True


@njit(cache=True, inline="always")
def _attack(s):
    """ATTACK: the cards leave the attacker's hand; he may be out (or his team may win)."""
    launch(s)
    att = s[AT_ATTACKER]
    if s[HAND + att] != 0:
        return
    if param(s, P_PAIRS):
        team = team_of(s, att)
        if _team_empty(s, team):
            s[PY_WINNER] = team
            s[H_CUR] = TERMINAL
    elif s[DECK] == 0:
        _go_out(s, att)
        if _decided(s):
            s[H_CUR] = TERMINAL


@njit(cache=True, inline="always")
def _refill(s):
    """The attacker, then the defender, draw up to 5 while the stock lasts: a chance node per
    card, except the trump card, drawn last in plain sight. Then the exchange ends."""
    while s[PY_DRAWER] >= 0:
        seat = s[PY_DRAWER]
        if s[DECK] != 0 and popcount(s[HAND + seat]) < HAND_SIZE:
            trump_card = s[PY_TRUMP_CARD]
            if s[DECK] != bit(trump_card):
                s[PY_STAGE] = DRAW
                s[H_CUR] = CHANCE
                return
            s[DECK] = 0
            give(s, trump_card, seat)
        elif seat == s[AT_ATTACKER]:
            s[PY_DRAWER] = s[AT_DEFENDER]
        else:
            s[PY_DRAWER] = -1
    s[PY_STAGE] = PLAY
    _end_exchange(s)


@njit(cache=True, inline="always")
def _draw(s, c):
    seat = s[PY_DRAWER]
    s[DECK] &= ~bit(c)
    give(s, c, seat)
    _refill(s)
    return np.int64(1) << seat


@njit(cache=True, inline="always")
def _end_exchange(s):
    """Pyatki: going out after the refills, the cap, and who attacks whom next."""
    att, dfd = s[AT_ATTACKER], s[AT_DEFENDER]
    if s[DECK] == 0:
        for seat in (att, dfd):
            if not _is_out(s, seat) and s[HAND + seat] == 0:
                _go_out(s, seat)
    s[PY_EXCHANGES] += 1
    if s[PY_NOUT] > 0 and _decided(s):
        s[H_CUR] = TERMINAL
    elif s[PY_EXCHANGES] >= param(s, P_MAX):
        s[PY_CAPPED] = 1
        s[H_CUR] = TERMINAL
    else:
        nxt = dfd if s[PY_COVERED] and not _is_out(s, dfd) else _next_in(s, dfd)
        start_exchange(s, nxt, _next_in(s, nxt))


@njit(cache=True, inline="always")
def _pairs_next(s):
    """Pairs: the defender's team wins with no cards left; else the cap, else §2.4."""
    att, dfd = s[AT_ATTACKER], s[AT_DEFENDER]
    if _team_empty(s, team_of(s, dfd)):
        s[PY_WINNER] = team_of(s, dfd)
        s[H_CUR] = TERMINAL
        return
    s[PY_EXCHANGES] += 1
    if s[PY_EXCHANGES] >= param(s, P_MAX):
        s[PY_CAPPED] = 1
        s[H_CUR] = TERMINAL
        return
    team = team_of(s, dfd) if s[PY_COVERED] else team_of(s, att)
    busy = (1 << att) | (1 << dfd)
    start_exchange(s, _sat_out(s, team, busy), _sat_out(s, 1 - team, busy))


@njit(cache=True, inline="always")
def _move(s, a):
    if not s[AT_DEFENDING]:
        if a == ATTACK:
            _attack(s)
        else:
            pick(s, a)
    elif answer(s, a):
        s[PY_COVERED] = end_defence(s)
        if param(s, P_PAIRS):
            _pairs_next(s)
        else:
            s[PY_DRAWER] = s[AT_ATTACKER]
            _refill(s)


# The three kernel functions of a playout step are inlined into the engine's playout loop.
@njit(cache=True, inline="always")
def apply_action(s, a):
    s[H_MOVES] += 1
    vis = all_seats(s)
    if s[H_CUR] != CHANCE:
        _move(s, a)
    elif s[PY_STAGE] == DEAL:
        vis = _deal(s, a)
    elif s[PY_STAGE] == TURN:
        _turn_trump(s, a)
    else:
        vis = _draw(s, a)
    return vis


# ----- outcome -------------------------------------------------------------------------------


@njit(cache=True)
def returns(s, out):
    n = s[H_PLAYERS]
    if param(s, P_PAIRS):
        w = s[PY_WINNER]
        sign = 0.0 if w < 0 else (1.0 if w == 0 else -1.0)
        for seat in range(n):
            out[seat] = sign if team_of(s, seat) == 0 else -sign
        return
    # place p is worth 1 - 2p/(n-1); the players still in share the places k..n-1 that are
    # left (their mean): -1/(n-1) each without ``places``, 0 for all when nobody is out
    k = s[PY_NOUT]
    rest = 1.0 - (k + n - 1) / (n - 1)
    for seat in range(n):
        p = s[PY_PLACE + seat]
        out[seat] = 1.0 - 2.0 * p / (n - 1) if p >= 0 else rest


@njit(cache=True)
def scores(s, out):
    """Pyatki: n-1-place per seat (0 while in); pairs: minus the cards each team holds."""
    n = s[H_PLAYERS]
    if param(s, P_PAIRS):
        for team in range(2):
            out[team] = -popcount(s[HAND + 2 * team] | s[HAND + 2 * team + 1])
        return
    for seat in range(n):
        p = s[PY_PLACE + seat]
        out[seat] = n - 1 - p if p >= 0 else 0.0


# ----- what a player knows -------------------------------------------------------------------


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_attack_observation(s, p, out, OBS_COMMON)
    n = s[H_PLAYERS]
    if s[PY_TRUMP_CARD] >= 0:
        out[OBS_TRUMP + s[PY_TRUMP_CARD]] = 1.0
    out[OBS_STOCK] = popcount(s[DECK]) / 52.0 if s[PY_STAGE] != DEAL else 0.0
    for k in range(n):
        seat = (p + k) % n
        if _is_out(s, seat):
            out[OBS_OUT + k] = 1.0
            out[OBS_SCORE + k] = (n - 1 - s[PY_PLACE + seat]) / (n - 1)
    out[OBS_EXCHANGES] = s[PY_EXCHANGES] / param(s, P_MAX)


@njit(cache=True, inline="always")
def _building_blocked(s, p):
    """Is an attack being built by a seat other than ``p`` (whose hand ``p`` cannot see)?"""
    att = s[AT_ATTACKER]
    return (
        s[PY_STAGE] == PLAY
        and s[H_CUR] == att
        and att != p
        and not s[AT_DEFENDING]
        and s[AT_PICKED] != 0
    )


@njit(cache=True, inline="always")
def _completes(s, cards_, places, occupant, assign, m):
    """In the world ``assign``, can the attacker still complete his picks (rule 4)?"""
    att = s[AT_ATTACKER]
    held = s[HAND + att]
    for i in range(m):
        if places[i] == att:
            held &= ~bit(occupant[i])
    for i in range(m):
        if places[i] == att:
            held |= bit(cards_[assign[i]])
    top = s[AT_CARDS + s[AT_SIZE] - 1]
    return completable(s[AT_PICKED], held & ~((np.int64(2) << top) - 1), limit(s))


@njit(cache=True, inline="always")
def _take_slot(slots, count, rng):
    """Remove and return a uniformly chosen entry of ``slots[:count]``."""
    i = below(rng, count)
    slot = slots[i]
    slots[i] = slots[count - 1]
    return slot


@njit(cache=True)
def _sample_world(s, cards_, places, initial, m, keep, rng, assign):
    """Fill ``assign`` (slot i gets card ``cards_[assign[i]]``): a slot with ``keep[i] ≥ 0``
    keeps card ``cards_[keep[i]]``, the other hidden cards go uniformly over the other slots
    among the worlds in which the opener still held the lowest trump of the initial hands
    (Pyatki §1.3). ``initial[i]``: slot ``i`` belongs to its seat's initial hand.

    Only the hidden trumps below every fixed initial trump ("low") can change the opener: the
    lowest of them that lands in an initial hand must land in the opener's. They are placed
    first, in increasing order, each either in one of the opener's initial slots (which
    settles it) or outside the initial hands, with the exact conditional odds ``g``; then the
    rest is shuffled over the remaining slots."""
    NONE = NUM_CARDS
    trumps = ROW << (13 * s[AT_TRUMP])
    opener = s[PY_OPENER]
    pinned = np.zeros(m, np.bool_)
    for i in range(m):
        if keep[i] >= 0:
            pinned[keep[i]] = True
    moving = np.int64(0)
    for j in range(m):
        if not pinned[j]:
            moving |= bit(cards_[j])
    # where the lowest fixed initial trumps are: the opener's, everybody else's
    own, other = NONE, NONE
    if not param(s, P_PAIRS):
        for seat in range(s[H_PLAYERS]):
            fixed = s[PY_INIT_HAND + seat] & ~moving & trumps
            if fixed:
                if seat == opener:
                    own = lowest(fixed)
                else:
                    other = min(other, lowest(fixed))
        threshold = min(own, other)
        settled = own < other or (other == NONE and own == NONE and opener == 0)
    else:
        threshold, settled = -1, True
    opener_slots = np.empty(m, np.int64)
    outside = np.empty(m, np.int64)
    others = 0
    na, nn = 0, 0
    for i in range(m):
        assign[i] = keep[i]
        if keep[i] >= 0:
            continue
        seat = places[i]
        if initial[i]:
            if seat == opener:
                opener_slots[na] = i
                na += 1
            else:
                others += 1
        else:
            outside[nn] = i
            nn += 1
    low = np.empty(m, np.int64)  # indices into cards_, ascending card order
    k = 0
    for i in range(m):  # cards_ is ascending
        if not pinned[i] and (trumps >> cards_[i]) & 1 and cards_[i] < threshold:
            low[k] = i
            k += 1
    # g[j]: the chance that the opener keeps the lowest trump, given low[0..j) all landed
    # outside the initial hands
    g = np.empty(k + 1, np.float64)
    g[k] = 1.0 if settled else 0.0
    for j in range(k - 1, -1, -1):
        free_out = nn - j
        g[j] = 0.0 if free_out < 0 else (na + free_out * g[j + 1]) / (na + others + free_out)
    used = pinned.copy()
    left_out = nn
    for j in range(k):
        w_out = left_out * g[j + 1]
        if uniform(rng) * (na + w_out) < na:
            slot = opener_slots[below(rng, na)]
            assign[slot] = low[j]
            used[low[j]] = True
            break
        slot = _take_slot(outside, left_out, rng)
        left_out -= 1
        assign[slot] = low[j]
        used[low[j]] = True
    # everything else uniformly over the slots still empty
    rest = np.empty(m, np.int64)
    r = 0
    for j in range(m):
        if not used[j]:
            rest[r] = j
            r += 1
    for i in range(m):
        if assign[i] < 0:
            assign[i] = _take_slot(rest, r, rng)
            r -= 1


@njit(cache=True)
def resample(s, p, rng, sigma):
    """Re-deal every card hidden from ``p`` (slots as in ``kernel.resample``; no NOT_HOLD
    knowledge arises in these games) consistently with the public events: the opener held
    the lowest trump dealt (:func:`_sample_world`, exact), and the attacker of an attack
    being built can complete his picks (worlds where he cannot are redrawn, up to
    ``WORLD_TRIES`` times; then his hidden cards are kept and only the rest is redrawn).
    ``sigma`` receives the card permutation."""
    cards_ = np.empty(NUM_CARDS, np.int64)
    places = np.empty(NUM_CARDS, np.int64)
    known = np.empty(NUM_CARDS, np.int64)
    occupant = np.empty(NUM_CARDS, np.int64)
    in_initial = np.zeros(NUM_CARDS, np.int64)  # the slot kind: part of an initial hand
    for c in range(NUM_CARDS):
        seat = s[LOC + c]
        if 0 <= seat < MAX_SEATS and (s[PY_INIT_HAND + seat] >> c) & 1:
            in_initial[c] = 1
    m = hidden_slots(s, p, in_initial, cards_, places, known, occupant)
    initial = np.empty(m, np.bool_)
    for i in range(m):
        initial[i] = in_initial[occupant[i]] == 1
    assign = np.empty(m, np.int64)
    keep = np.full(m, -1, np.int64)
    check = _building_blocked(s, p)
    found = False
    for _ in range(WORLD_TRIES):
        _sample_world(s, cards_, places, initial, m, keep, rng, assign)
        if not check or _completes(s, cards_, places, occupant, assign, m):
            found = True
            break
    if not found:
        for i in range(m):
            if places[i] == s[AT_ATTACKER]:
                keep[i] = np.searchsorted(cards_[:m], occupant[i])
        _sample_world(s, cards_, places, initial, m, keep, rng, assign)
    # each initial hand keeps its slots, whichever cards now fill them
    hidden = np.int64(0)
    for i in range(m):
        hidden |= bit(cards_[i])
    for seat in range(s[H_PLAYERS]):
        init_hand = s[PY_INIT_HAND + seat]
        moved = init_hand & ~hidden
        for i in range(m):
            if (init_hand >> occupant[i]) & 1:
                moved |= bit(cards_[assign[i]])
        s[PY_INIT_HAND + seat] = moved
    relabel(s, cards_, places, known, occupant, assign, m, sigma)


@njit(cache=True)
def resample_planned(s, plan, rng, sigma):
    """``resample`` for the plan's player (``resample_plan`` is ``plan_player_only``)."""
    resample(s, plan[P_PLAYER], rng, sigma)


# ----- Python side: declaration and text --------------------------------------------------

TEAM_NAMES = ("team 0", "team 1")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0 or action < ATTACK:
        return cards.to_str(action)
    if action == ATTACK:
        return "ATTACK"
    if action == TAKE:
        return "TAKE"
    return f"cover with {cards.to_str(action - COVER0)}"


def _pairs(s) -> bool:
    return bool(param(s, P_PAIRS))


def _n(s) -> int:
    return int(s[H_PLAYERS])


def _mask_cards(m: int) -> list[int]:
    return [c for c in range(NUM_CARDS) if (int(m) >> c) & 1]


def _seat_note(s, seat: int) -> str:
    place = int(s[PY_PLACE + seat])
    if place >= 0:
        return f"  [out: place {place + 1}]"
    if s[H_CUR] != TERMINAL and int(s[PY_STAGE]) >= PLAY:
        if seat == s[AT_ATTACKER]:
            return "  [attacks]"
        if seat == s[AT_DEFENDER]:
            return "  [defends]"
    return ""


def _chance_text(s) -> str:
    """What the chance node of the current stage does (asked only at chance nodes)."""
    return {
        DEAL: "dealing",
        TURN: "turning the trump card",
        DRAW: f"seat {int(s[PY_DRAWER])} draws",
    }.get(int(s[PY_STAGE]), "chance")


def _title(s) -> str:
    deck = int(param(s, P_DECK))
    cap = int(param(s, P_MAX))
    if _pairs(s):
        return f"Pyatki for pairs, {deck} cards, cap {cap} exchanges"
    places = ", places" if param(s, P_PLACES) else ""
    return f"Pyatki, {_n(s)} players, {deck} cards{places}, cap {cap} exchanges"


def _trump_line(s) -> str:
    card = int(s[PY_TRUMP_CARD])
    if card < 0:
        return "  trump: not turned yet"
    suit = cards.SUIT_SYMBOLS[card // 13]
    if _pairs(s):
        return f"  trump: {suit} (the last dealt card, {cards.to_str(card)})"
    stock = popcount(s[DECK])
    where = "under the stock" if (int(s[DECK]) >> card) & 1 else "drawn"
    return f"  trump: {suit} ({cards.to_str(card)}, {where}); stock: {stock} cards"


def _exchange_line(s) -> str:
    if int(s[PY_STAGE]) < PLAY or s[AT_ATTACKER] < 0:
        return "  exchange: -"
    att, dfd = int(s[AT_ATTACKER]), int(s[AT_DEFENDER])
    parts = []
    for i in range(int(s[AT_SIZE])):
        c = cards.to_str(int(s[AT_CARDS + i]))
        ans = int(s[AT_ANSWER + i])
        if not s[AT_DEFENDING] or i >= s[AT_NEXT]:
            parts.append(c)
        elif ans == TAKEN:
            parts.append(f"{c} taken")
        else:
            parts.append(f"{c}/{cards.to_str(ans)}")
    verb = "attacks" if s[AT_DEFENDING] else "builds an attack on"
    done = int(s[PY_EXCHANGES])
    return (
        f"  exchange {done + 1}: seat {att} {verb} seat {dfd}: "
        f"{', '.join(parts) or '(nothing picked yet)'}"
    )


def _table_lines(s) -> list[str]:
    out = int(sum(1 for c in range(NUM_CARDS) if s[LOC + c] == LOC_OUT))
    lines = [_trump_line(s), _exchange_line(s), f"  discard: {out} cards"]
    if s[H_CUR] == TERMINAL:
        if s[PY_CAPPED]:
            lines.append(f"  stopped at the cap of {int(param(s, P_MAX))} exchanges")
        if _pairs(s) and s[PY_WINNER] >= 0:
            lines.append(f"  {TEAM_NAMES[int(s[PY_WINNER])]} wins")
    return lines


def _public_lines(s) -> list[str]:
    """The cards every seat has seen go into a hand (accepted, picked, the opener's), then
    the table."""
    everyone = (1 << _n(s)) - 1
    known = []
    for q in range(_n(s)):
        cards_known = [c for c in _mask_cards(s[HAND + q]) if s[KNOWN + c] == everyone]
        if cards_known:
            known.append(f"seat {q}: {cards.cards_to_str(cards_known)}")
    return [f"  known in hands: {'; '.join(known) or '-'}", *_table_lines(s)]


def public_record(s) -> str:
    """Who attacked first: public, but not an action of the history."""
    if int(s[PY_STAGE]) < PLAY:
        return "opener: -"
    return f"opener: seat {int(s[PY_OPENER])}"


def _max_length(p: dict) -> int:
    # an exchange is at most 5 picks, ATTACK and 5 answers
    return (2 * 5 + 1) * p["max_exchanges"]


CAPS = (1, 2, 3, 5, 10, 20, 50, 100, 200, 300, 500, 1000)
_MAX = Param(
    "max_exchanges", 200, CAPS, "the game stops after this many exchanges", variant_values=(2, 200)
)
_COMMON = dict(
    kernel=sys.modules[__name__],
    num_distinct_actions=lambda p: NUM_ACTIONS,
    max_chance_outcomes=lambda p: NUM_CARDS,
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_public_lines,
    seat_note=_seat_note,
    chance_text=_chance_text,
    public_record=public_record,
)

PYATKI = GameSpec(
    short_name="skip_pyatki",
    long_name="Pyatki",
    original_name="Пятки",
    rules_section="§1",
    params=(
        Param("players", 3, (2, 3, 4, 5, 6), "2 to 6, each for themselves"),
        Param("deck", 36, (36, 52), "36 or 52 cards"),
        Param(
            "places",
            False,
            (False, True),
            "play on for the other places after the first player is out",
        ),
        _MAX,
    ),
    num_players=lambda p: p["players"],
    kernel_params=lambda p: [p["players"], p["deck"], int(p["places"]), p["max_exchanges"], 0],
    team_game=False,
    **_COMMON,
)
PYATKI_PAIRS = GameSpec(
    short_name="skip_pyatki_pairs",
    long_name="Pyatki for pairs",
    original_name="Пятки двое на двое",
    rules_section="§2",
    params=(Param("deck", 52, (36, 52), "36 or 52 cards"), _MAX),
    num_players=lambda p: 4,
    kernel_params=lambda p: [4, p["deck"], 0, p["max_exchanges"], 1],
    team_names=TEAM_NAMES,
    **_COMMON,
)
register(PYATKI)
register(PYATKI_PAIRS)
