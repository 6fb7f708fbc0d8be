"""Chains as text: action names, the title, the table and its chains, and what a seat and the
opposite seat both know."""

import numpy as np

from skip_ai import cards, text
from skip_ai.kernel.state import KNOWN, LOC, NUM_CARDS, param

from .layout import CH_CELL, MAX_CHAINS, P_DECK, P_KOMI
from .scoring import chain_value, chains, links_of

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


SIDES = ((0, -1, "to the right of"), (0, 1, "to the left of"), (-1, 0, "below"), (1, 0, "above"))
"""Where a neighbour of the cell a card goes to lies (row and column offsets; rows grow
downwards on the drawn table), and what the card then is to it."""


def move_words(s, player: int, action: int) -> str:
    """A placement in words (``GameSpec.move_words``): "Qs starts the table", or the card
    beside one placed neighbour, "Qs to the right of Js" (a neighbour it links to in a chain
    first, then one of its suit). Each (side, neighbour) names one cell, so the moves' words
    differ as their cells do."""
    if player < 0:
        return action_to_string(s, player, action)
    w = 2 * _n(s) - 1
    c, cell = divmod(action, w * w)
    row, col = cell // w - (_n(s) - 1), cell % w - (_n(s) - 1)
    placed = _cells(s)
    near = [
        (placed[row + dr, col + dc], side)
        for dr, dc, side in SIDES
        if (row + dr, col + dc) in placed
    ]
    if not near:
        return f"{cards.to_str(c)} starts the table"

    def kin(other: int) -> tuple[bool, bool]:
        same = cards.suit(other) == cards.suit(c)
        return (not (same and abs(cards.rank(other) - cards.rank(c)) == 1), not same)

    other, side = min(near, key=lambda x: kin(x[0]))
    return f"{cards.to_str(c)} {side} {cards.to_str(other)}"


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
    lines = [
        f"  chains: {TEAM_NAMES[t]} {totals[t]} ({' '.join(per_team[t]) or '-'})" for t in range(2)
    ]
    komi = int(param(s, P_KOMI))
    if komi:
        red, black = totals[0] + komi, totals[1]
        lines.append(f"  komi: {komi:+d} to {TEAM_NAMES[0]}: {red} against {black}")
    return lines


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


def _public_lines(s) -> list[str]:
    return [*_table_lines(s), *_chain_lines(s)]
