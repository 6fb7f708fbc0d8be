"""skip_chains — Chains («Цепочки», СКИП-11), RULES.md §11.

Red (team 0, seats 0..k-1) and Black (team 1) build one table of cards together, a 4 × N
rectangle (N = 9 with 36 cards, 13 with 52) either way round, and score the chains of their
colour.

Deal: the red cards round robin to the Red seats (extras to seats 0, 1), then the black cards
to the Black seats (extras to k, k+1); the chance outcomes are the undealt cards of the colour
being dealt. Then seat 0, 1, .., n-1 in turn draws ``d`` cards blind, one chance node each,
from the original hand of the opposite seat n-1-i (d = 2, 3, 2, 1 for 36/4, 52/4, 52/6, 36/6
cards/players). The outcomes are the cards of that seat's own colour still in its hand (those
are exactly its original cards not taken yet, since it only ever receives cards of the other
colour); the drawer and the drawn-from seat see the card (``KNOWN``), nobody else.

Play: seat 0 first; each turn the player places one card; a player without cards is skipped.
The first card is cell (0, 0); every later card goes into an empty cell orthogonally adjacent
to a placed card such that the bounding box of the table still fits 4 × N or N × 4. A chain is a
maximal run of cards of one suit with consecutive ranks, each orthogonally adjacent to the
next, at least 2 long; it is worth length² plus 2 per J, 3 per Q, 4 per K, 5 per A. Each team
scores the chains of its colour; higher wins, equal is a draw.

Actions: chance outcomes are card ids. Placing card ``c`` at (dr, dc) relative to the first
card is ``c * C + (dr + N - 1) * W + (dc + N - 1)`` with W = 2N - 1, C = W²;
num_distinct_actions = 54 * C.

State (after the common part of ``skip_ai.kernel.state``), grid rows and columns counted
0..W-1 (the first card at N-1, N-1):

- ``CH_DRAWER``         the seat making the blind draws now; ``CH_LEFT`` draws it still
                        makes; ``CH_PER_SEAT`` draws per seat (d)
- ``CH_PLACED``         cards on the table
- ``CH_BOX``            bounding box of the table: top row, bottom row, left col, right col
- ``CH_ROWS[r]``        mask of the occupied columns of grid row ``r``
- ``CH_COLS[col]``      mask of the occupied rows of grid column ``col``
- ``CH_NEAR[r]``        mask of the empty columns of row ``r`` orthogonally next to a placed
                        card; ``CH_NEAR_N`` how many such cells there are
- ``CH_CELL[c]``        grid cell ``r * W + col`` of card ``c``, -1 while it is not on the table

Where a card came from needs no slot: a card of a seat's own colour in its hand is one of its
original cards; one of the other colour was drawn from the opposite seat. So a resampled world
is consistent exactly when every hidden card is replaced by a hidden card of its colour
(``resample``).

Observation tensor (346 floats) for player ``p``: ``[0, 72)`` the common part
(``kernel.state.write_common_observation``); ``[72, 126)`` 1 per card on the table;
``[126, 180)`` / ``[180, 234)`` its row / column offset dr / (N-1), dc / (N-1) from the first
card; ``[234, 238)`` the bounding box (top, bottom, left, right offsets / (N-1)); ``[238, 292)``
1 per card of p's hand drawn from the opposite seat (known to it); ``[292, 346)`` 1 per card
the opposite seat drew from p and still holds.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards
from skip_ai.games import text
from skip_ai.games.spec import DECK_36_52, PLAYERS_4_6, GameSpec
from skip_ai.kernel.bits import bit, kth, lowest, popcount, sample_mask, to_list
from skip_ai.kernel.resample import plan_hidden, resample_kinds
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below_split
from skip_ai.kernel.state import (
    CHANCE,
    DECK,
    GAME,
    H_CUR,
    H_DEALT,
    H_MOVES,
    H_PLAYERS,
    HAND,
    KNOWN,
    LOC,
    LOC_TABLE,
    MAX_SEATS,
    NUM_CARDS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    init_common,
    move_to_hand,
    new_state,
    next_seat_with_cards,
    param,
    plan_round_robin,
    play_public,
    standard_deck,
    team_of,
    team_seats,
    write_common_observation,
)
from skip_ai.pyspiel_wrapper import register

P_PLAYERS, P_DECK = 0, 1
SHORT = 4
"""The short side of the table."""
MAX_N = 13
MAX_W = 2 * MAX_N - 1

CH_DRAWER = GAME
CH_LEFT = CH_DRAWER + 1
CH_PER_SEAT = CH_LEFT + 1
CH_PLACED = CH_PER_SEAT + 1
CH_BOX = CH_PLACED + 1
CH_ROWS = CH_BOX + 4
CH_COLS = CH_ROWS + MAX_W
CH_NEAR = CH_COLS + MAX_W
CH_NEAR_N = CH_NEAR + MAX_W
CH_CELL = CH_NEAR_N + 1
STATE_SIZE = CH_CELL + NUM_CARDS

OBS_TABLE = OBS_COMMON
OBS_ROW = OBS_TABLE + NUM_CARDS
OBS_COL = OBS_ROW + NUM_CARDS
OBS_BOX = OBS_COL + NUM_CARDS
OBS_DRAWN = OBS_BOX + 4
OBS_GIVEN = OBS_DRAWN + NUM_CARDS
OBS_SIZE = OBS_GIVEN + NUM_CARDS

BLACK_CARDS = (np.int64(1) << 26) - 1
RED_CARDS = BLACK_CARDS << 26
MAX_CHAINS = 4 * 6
"""At most 6 chains of at least 2 cards in a suit of 13."""
JACKS, QUEENS, KINGS, ACES = (
    (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39) << (rank - 2)
    for rank in (11, 12, 13, 14)
)


# ----- sizes and parameters --------------------------------------------------------------


@njit(cache=True, inline="always")
def columns_n(s):
    """N: the long side of the table, 9 or 13 (a rank's worth of cards per column)."""
    return param(s, P_DECK) // 4


@njit(cache=True, inline="always")
def grid_width(s):
    return 2 * columns_n(s) - 1


@njit(cache=True)
def draws_per_seat(players, deck):
    """d of RULES §11.1: the cards each seat draws from the opposite seat."""
    if players == 4:
        return 2 if deck == 36 else 3
    return 1 if deck == 36 else 2


@njit(cache=True, inline="always")
def _colour(c):
    """The team whose colour card ``c`` is: 0 red, 1 black."""
    return 0 if c >= 26 else 1


# ----- deal and draws --------------------------------------------------------------------


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    players, deck_size = params[P_PLAYERS], params[P_DECK]
    init_common(s, players, standard_deck(deck_size, False))
    seats = np.empty(MAX_SEATS, np.int64)
    for team in range(2):  # Red's seats the red half, then Black's the black; extras: first two
        n = to_list(team_seats(s, team), seats)
        plan_round_robin(s, deck_size // 2, seats[:n], seats[:2])
    s[CH_PER_SEAT] = draws_per_seat(players, deck_size)
    s[CH_LEFT] = s[CH_PER_SEAT]
    for c in range(NUM_CARDS):
        s[CH_CELL + c] = -1
    centre = deck_size // 4 - 1
    s[CH_NEAR + centre] = bit(centre)  # the first card's cell
    s[CH_NEAR_N] = 1
    return s


@njit(cache=True, inline="always")
def _chance_mask(s):
    """The outcomes of the chance node: undealt cards of the colour being dealt, or the cards
    of the drawn-from seat's original hand it still holds."""
    if dealing(s):
        # the red cards are dealt first, half the deck
        return s[DECK] & (RED_CARDS if s[H_DEALT] < param(s, P_DECK) // 2 else BLACK_CARDS)
    n = s[H_PLAYERS]
    source = n - 1 - s[CH_DRAWER]
    return s[HAND + source] & (RED_CARDS if team_of(s, source) == cards.RED else BLACK_CARDS)


@njit(cache=True)
def chance_outcomes(s, out):
    return to_list(_chance_mask(s), out)


# The three kernel functions of a playout step (sample_chance, random_legal, apply_action) are
# inlined into the engine's playout loop, which makes whole playouts about 6% faster.
@njit(cache=True, inline="always")
def sample_chance(s, rng):
    return sample_mask(_chance_mask(s), rng)


# ----- placing cards ---------------------------------------------------------------------


@njit(cache=True, inline="always")
def _span_mask(lo, hi):
    """Mask of the columns lo..hi (empty when lo > hi)."""
    if lo > hi:
        return np.int64(0)
    return ((np.int64(1) << (hi + 1)) - 1) & ~((np.int64(1) << lo) - 1)


@njit(cache=True, inline="always")
def _spans(s):
    """Where a card may go now (rule 2): ``(top row, bottom row, columns open in the table's
    rows, columns open in the rows just above and below it, number of open cells)``. A cell is
    open when it is empty, orthogonally next to a placed card (``CH_NEAR``) and the bounding
    box with it still fits 4 × N or N × 4. Before the first card: the first card's cell only.

    The count needs no scan: every cell next to the table is inside its bounding box, or in
    the row above or below it (one per card of the top or bottom row), or in the column left
    or right of it (one per card of the leftmost or rightmost column); the last two kinds are
    open or not all together."""
    n = columns_n(s)
    if s[CH_PLACED] == 0:
        return n - 1, n - 1, bit(n - 1), np.int64(0), np.int64(1)
    w = grid_width(s)
    top, bottom, left, right = s[CH_BOX], s[CH_BOX + 1], s[CH_BOX + 2], s[CH_BOX + 3]
    height, width = bottom - top + 1, right - left + 1
    # the widest table a height allows: N while it is at most 4 tall, else 4
    widest_in = n if height <= SHORT else SHORT
    widest_out = n if height + 1 <= SHORT else (SHORT if height + 1 <= n else 0)
    inside = _span_mask(right - widest_in + 1, left + widest_in - 1)
    outside = np.int64(0)
    if width <= widest_out:
        outside = _span_mask(right - widest_out + 1, left + widest_out - 1)
    # cells next to the table above / below it and left / right of it (none off the grid)
    ends = (popcount(s[CH_ROWS + top]) if top > 0 else 0) + (
        popcount(s[CH_ROWS + bottom]) if bottom < w - 1 else 0
    )
    sides = (popcount(s[CH_COLS + left]) if left > 0 else 0) + (
        popcount(s[CH_COLS + right]) if right < w - 1 else 0
    )
    cells = s[CH_NEAR_N] - ends - sides
    if outside != 0:
        cells += ends
    if width < widest_in:
        cells += sides
    return top, bottom, inside, outside, cells


@njit(cache=True, inline="always")
def _row_cells(s, r, top, bottom, inside, outside):
    """Mask of the open columns of grid row ``r`` (see :func:`_spans`)."""
    return s[CH_NEAR + r] & (inside if top <= r <= bottom else outside)


@njit(cache=True, inline="always")
def _moves(s, out, rng):
    """The legal placements of the player to move, ascending (card, then row, then column).

    Returns their number; with ``out``, writes them into it; with ``rng`` instead, returns the
    one at ``below(rng, number)`` of that list. One function for listing, counting and
    sampling keeps the legal list and the random sampler identical."""
    held = s[HAND + s[H_CUR]]
    w = grid_width(s)
    size = w * w
    top, bottom, inside, outside, cells = _spans(s)
    lo, hi = max(top - 1, 0), min(bottom + 1, w - 1)
    if rng is not None:
        i, j = below_split(rng, popcount(held), cells)
        r = lo
        m = _row_cells(s, r, top, bottom, inside, outside)
        while j >= popcount(m):
            j -= popcount(m)
            r += 1
            m = _row_cells(s, r, top, bottom, inside, outside)
        return kth(held, i) * size + r * w + kth(m, j)
    if out is not None:
        i = 0
        h = held
        while h:
            c = lowest(h)
            h &= h - 1
            for r in range(lo, hi + 1):
                m = _row_cells(s, r, top, bottom, inside, outside)
                while m:
                    out[i] = c * size + r * w + lowest(m)
                    i += 1
                    m &= m - 1
    return popcount(held) * cells


@njit(cache=True)
def legal_actions(s, out):
    return _moves(s, out, None)


@njit(cache=True, inline="always")
def random_legal(s, rng):
    return _moves(s, None, rng)


@njit(cache=True, inline="always")
def _decode(s, a):
    """(card, grid row, grid column) of placement ``a``. Spelled out for the two grid sizes:
    division by a constant compiles to a multiplication (a hot path of every playout)."""
    if columns_n(s) == 13:
        return a // 625, a % 625 // 25, a % 25
    return a // 289, a % 289 // 17, a % 17


@njit(cache=True, inline="always")
def _place(s, c, r, col):
    w = grid_width(s)
    if s[CH_PLACED] == 0:
        s[CH_BOX], s[CH_BOX + 1], s[CH_BOX + 2], s[CH_BOX + 3] = r, r, col, col
    else:
        s[CH_BOX] = min(s[CH_BOX], r)
        s[CH_BOX + 1] = max(s[CH_BOX + 1], r)
        s[CH_BOX + 2] = min(s[CH_BOX + 2], col)
        s[CH_BOX + 3] = max(s[CH_BOX + 3], col)
    b = bit(col)
    s[CH_ROWS + r] |= b
    s[CH_COLS + col] |= bit(r)
    # the empty cells next to a placed card: the new card's cell leaves (it was one), its
    # empty neighbours on the grid join
    near = s[CH_NEAR + r]
    grown = (near | (b << 1) | (b >> 1)) & ~s[CH_ROWS + r] & ((np.int64(1) << w) - 1)
    added = popcount(grown) - popcount(near)
    s[CH_NEAR + r] = grown
    if r > 0:
        new = b & ~s[CH_ROWS + r - 1] & ~s[CH_NEAR + r - 1]
        s[CH_NEAR + r - 1] |= new
        added += popcount(new)
    if r < w - 1:
        new = b & ~s[CH_ROWS + r + 1] & ~s[CH_NEAR + r + 1]
        s[CH_NEAR + r + 1] |= new
        added += popcount(new)
    s[CH_NEAR_N] += added
    s[CH_CELL + c] = r * w + col
    s[CH_PLACED] += 1
    play_public(s, c, LOC_TABLE)


@njit(cache=True, inline="always")
def _draw(s, a):
    """A blind draw: card ``a`` goes from the opposite seat's hand to the drawer's."""
    n = s[H_PLAYERS]
    drawer = s[CH_DRAWER]
    source = n - 1 - drawer
    move_to_hand(s, a, drawer, 1 << source)
    left = s[CH_LEFT] - 1
    nxt = drawer
    if left == 0:  # the next seat draws
        nxt += 1
        left = s[CH_PER_SEAT]
    s[CH_LEFT] = left
    s[CH_DRAWER] = nxt
    s[H_CUR] = 0 if nxt == n else CHANCE  # after the last draw seat 0 starts
    return (1 << drawer) | (1 << source)


@njit(cache=True, inline="always")
def _play(s, a):
    cur = s[H_CUR]
    c, r, col = _decode(s, a)
    _place(s, c, r, col)
    nxt = next_seat_with_cards(s, cur)
    s[H_CUR] = TERMINAL if nxt < 0 else nxt
    return all_seats(s)


@njit(cache=True, inline="always")
def apply_action(s, a):
    s[H_MOVES] += 1
    if s[H_CUR] != CHANCE:
        vis = _play(s, a)
    elif dealing(s):
        vis = deal_card(s, a)
    else:
        vis = _draw(s, a)
    return vis


# ----- chains and the outcome ------------------------------------------------------------


@njit(cache=True)
def links_of(cells, base, w):
    """The links of a table: bit c is set when card c and the next higher card of its suit
    (c + 1) both lie on it, orthogonally adjacent. ``cells[base + c]`` is card c's cell
    ``row * w + col`` on the grid of width ``w`` = 2N - 1, -1 off the table. (Cells one apart
    are in one row: no table is wide enough to hold both ends of a grid row.)"""
    links = np.int64(0)
    for c in range(51):  # no branches: the loop vectorises
        x, y = cells[base + c], cells[base + c + 1]
        d = abs(x - y)
        touch = (x >= 0) & (y >= 0) & ((d == 1) | (d == w))
        links |= np.int64(touch) << c
    return links & ~ACES  # an Ace has no higher card in its suit


@njit(cache=True, inline="always")
def chain_value(start, length):
    """length² plus 2 per J, 3 per Q, 4 per K, 5 per A."""
    run = ((np.int64(1) << length) - 1) << start
    return (
        length * length
        + 2 * popcount(run & JACKS)
        + 3 * popcount(run & QUEENS)
        + 4 * popcount(run & KINGS)
        + 5 * popcount(run & ACES)
    )


@njit(cache=True)
def chains(links, starts, lengths):
    """The chains of a table and what each colour scores (rule 3), from its links
    (:func:`links_of`): a maximal run of links c, c+1, .., c+k-1 is the chain of cards c..c+k
    (a chain is at least 2 long, and never crosses suits: an Ace links to nothing). Returns
    (Red's total, Black's total, the number of chains); given ``starts`` and ``lengths`` (else
    None) it also writes each chain's lowest card and length there."""
    red, black, n = 0, 0, 0
    m = links
    while m:
        start = lowest(m)
        k = lowest(~(m >> start))  # the run of links from ``start``
        v = chain_value(start, k + 1)
        if _colour(start) == 0:
            red += v
        else:
            black += v
        if starts is not None:
            starts[n] = start
            lengths[n] = k + 1
        n += 1
        m &= ~(((np.int64(1) << k) - 1) << start)
    return red, black, n


@njit(cache=True)
def scores(s, out):
    red, black, _ = chains(links_of(s, CH_CELL, grid_width(s)), None, None)
    out[0] = red
    out[1] = black


@njit(cache=True)
def returns(s, out):
    red, black, _ = chains(links_of(s, CH_CELL, grid_width(s)), None, None)
    diff = np.sign(red - black)
    for seat in range(s[H_PLAYERS]):
        out[seat] = diff if team_of(s, seat) == 0 else -diff


# ----- what a player knows ---------------------------------------------------------------


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    n, w = columns_n(s), grid_width(s)
    scale = 1.0 / (n - 1)
    for c in range(NUM_CARDS):
        cell = s[CH_CELL + c]
        if cell >= 0:
            out[OBS_TABLE + c] = 1.0
            out[OBS_ROW + c] = (cell // w - (n - 1)) * scale
            out[OBS_COL + c] = (cell % w - (n - 1)) * scale
    if s[CH_PLACED] > 0:
        for i in range(4):
            out[OBS_BOX + i] = (s[CH_BOX + i] - (n - 1)) * scale
    opposite = s[H_PLAYERS] - 1 - p
    for c in range(NUM_CARDS):
        if (s[KNOWN + c] >> opposite) & 1 and s[LOC + c] == p:
            out[OBS_DRAWN + c] = 1.0
        if (s[KNOWN + c] >> p) & 1 and s[LOC + c] == opposite:
            out[OBS_GIVEN + c] = 1.0


COLOURS = np.array([_colour.py_func(c) for c in range(NUM_CARDS)], np.int64)
"""Each card's colour: the class a hidden card keeps when re-dealt (see ``resample``)."""


@njit(cache=True)
def resample(s, p, rng, sigma):
    """Re-deal the cards hidden from ``p``, each colour among the hidden slots of that colour
    (uniformly): where every card came from, and so every deal and draw of the history, stays
    legal. ``sigma`` receives the card permutation (``kernel.resample``)."""
    resample_kinds(s, p, COLOURS, rng, sigma)


@njit(cache=True)
def resample_plan(s, p, plan):
    plan_hidden(s, p, COLOURS, plan)


# ----- Python side: declaration and text --------------------------------------------------

TEAM_NAMES = ("Red", "Black")


def _n(s) -> int:
    return int(param(s, P_DECK)) // 4


def action_to_string(s, player: int, action: int) -> str:
    if player < 0:
        return cards.to_str(action)
    n = _n(s)
    w = 2 * n - 1
    c, cell = divmod(action, w * w)
    return f"{cards.to_str(c)}@{cell // w - (n - 1)},{cell % w - (n - 1)}"


def _cells(s) -> dict[tuple[int, int], int]:
    """(row, column) offset of every card on the table → card."""
    n = _n(s)
    w = 2 * n - 1
    return {
        (int(s[CH_CELL + c]) // w - (n - 1), int(s[CH_CELL + c]) % w - (n - 1)): c
        for c in range(NUM_CARDS)
        if s[CH_CELL + c] >= 0
    }


def _table_lines(s) -> list[str]:
    placed = _cells(s)
    if not placed:
        return ["  table: (empty)"]
    rows = range(min(r for r, _ in placed), max(r for r, _ in placed) + 1)
    cols = range(min(c for _, c in placed), max(c for _, c in placed) + 1)
    lines = [f"  table ({len(rows)} × {len(cols)}):", "       " + "".join(f"{c:>4}" for c in cols)]
    for r in rows:
        cells = "".join(
            f"{cards.to_str(placed[r, c]) if (r, c) in placed else '..':>4}" for c in cols
        )
        lines.append(f"  {r:>4} " + cells)
    return lines


def _chain_lines(s) -> list[str]:
    starts, lengths = np.empty(MAX_CHAINS, np.int64), np.empty(MAX_CHAINS, np.int64)
    *totals, count = chains(links_of(s, CH_CELL, 2 * _n(s) - 1), starts, lengths)
    per_team: list[list[str]] = [[], []]
    for start, length in zip(starts[:count].tolist(), lengths[:count].tolist()):
        body = "-".join(cards.to_str(c) for c in range(start, start + length))
        per_team[0 if start >= 26 else 1].append(f"{body}={chain_value(start, length)}")
    return [
        f"  chains: {TEAM_NAMES[t]} {totals[t]} ({' '.join(per_team[t]) or '-'})" for t in range(2)
    ]


def _known_lines(s, p: int) -> list[str]:
    """The cards ``p`` and the opposite seat both know of: drawn from it, taken by it."""
    q = text.players(s) - 1 - p
    drawn = [c for c in range(NUM_CARDS) if s[LOC + c] == p and (s[KNOWN + c] >> q) & 1]
    given = [c for c in range(NUM_CARDS) if s[LOC + c] == q and (s[KNOWN + c] >> p) & 1]
    return [
        f"  drawn from seat {q}: {cards.cards_to_str(drawn) or '-'}",
        f"  seat {q} drew and holds: {cards.cards_to_str(given) or '-'}",
    ]


def _title(s) -> str:
    n = _n(s)
    return f"Chains, {text.players(s)} players, {4 * n} cards, table 4 × {n}"


def _actions(p: dict) -> int:
    w = 2 * (p["deck"] // 4) - 1
    return NUM_CARDS * w * w


def _action_parts(p: dict) -> np.ndarray:
    """Each action id as three parts (``GameSpec.action_parts``): the card, the cell, and the
    card's suit at that cell (where a suit's chain can grow is what the cell is worth to it;
    the jokers, never dealt here, are a fifth suit)."""
    cells = (2 * (p["deck"] // 4) - 1) ** 2
    card, cell = np.divmod(np.arange(_actions(p)), cells)
    suit = np.minimum(card // 13, 4)
    return np.stack([card, NUM_CARDS + cell, NUM_CARDS + cells + suit * cells + cell], 1)


def _public_lines(s) -> list[str]:
    return [*_table_lines(s), *_chain_lines(s)]


SPEC = GameSpec(
    short_name="skip_chains",
    long_name="Chains",
    original_name="Цепочки",
    rules_section="§11",
    kernel=sys.modules[__name__],
    params=(PLAYERS_4_6, DECK_36_52),
    num_players=lambda p: p["players"],
    num_distinct_actions=_actions,
    action_parts=_action_parts,
    max_chance_outcomes=lambda p: 54,
    max_game_length=lambda p: (
        2 * p["deck"] + p["players"] * draws_per_seat(p["players"], p["deck"])
    ),
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_public_lines,
    private_lines=_known_lines,
    team_names=TEAM_NAMES,
)
register(SPEC)
