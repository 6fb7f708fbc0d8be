"""Domino's text: moves, the title, and the table as a grid of suit rows."""

from skip_ai import cards, text
from skip_ai.kernel.state import param
from skip_ai.kernel.tricks import TK_LAST_CARD, TK_TABLE

from .grid import DM_OWNER, NO_ROW, NUM_ROWS, PASS
from .layout import P_DECK, P_KOMI, P_REMOVE4, P_VOLUNTARY

TEAM_NAMES = ("team 0", "team 1")
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0:
        return cards.to_str(action)
    if action == PASS:
        return "PASS"
    where = ("", "-above", "-below")[action // 54]
    return cards.to_str(action % 54) + where


def grid_lines(s) -> list[str]:
    """The table as a grid: one line per suit row, top row first, a column per rank of the
    deck; the last card in brackets."""
    table, last = int(s[TK_TABLE]), int(s[TK_LAST_CARD])
    ranks = range(cards.LOWEST_RANK[int(param(s, P_DECK))], 15)
    lines = [(" " * 14 + "".join(f" {cards.RANK_CHARS[r - 2]}  " for r in ranks)).rstrip()]
    for row in range(NUM_ROWS - 1, -1, -1):
        suit = int(s[DM_OWNER + row])
        if suit == NO_ROW:
            continue
        cells = []
        for r in ranks:
            c = 13 * suit + r - 2
            cells.append(
                f"[{cards.to_str(c)}]"
                if c == last
                else f" {cards.to_str(c)} "
                if (table >> c) & 1
                else " .. "
            )
        lines.append((f"    {SUIT_NAMES[suit]:10s}" + "".join(cells)).rstrip())
    return lines


def table_lines(s) -> list[str]:
    lines = [text.table_line(s, "table", text.mask_text(s[TK_TABLE]) if s[TK_TABLE] else "")]
    if s[TK_TABLE]:
        lines += grid_lines(s)
    return lines + [text.taken_line(s, TEAM_NAMES) + text.komi_note(int(param(s, P_KOMI)))]


def title(s) -> str:
    return (
        f"Domino, {text.players(s)} players, {int(param(s, P_DECK))} cards"
        + (", 4 removed unseen" if param(s, P_REMOVE4) else "")
        + (", passing by choice" if param(s, P_VOLUNTARY) else "")
    )
