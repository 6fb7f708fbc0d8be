"""Rummy as text: action names, the table lines and the title of ``str(state)`` and the
observation string, what a chance node does."""

import numpy as np

from skip_ai import cards, text
from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import DECK, H_CUR, KNOWN, LOC, param

from .actions import DRAW_STOCK, LAYOFF0, MELD_SET0
from .deck import seq_value
from .layout import (
    ASK,
    CLAIM_LAYOFF,
    OVER,
    P_MAX_TURNS,
    RM_CLAIMED,
    RM_CLOTH,
    RM_DEAD,
    RM_DISCARDER,
    RM_MELD,
    RM_MELD_N,
    RM_PHASE,
    RM_PILE,
    RM_PILE_N,
    RM_STOCK,
    RM_STOCK_N,
    RM_STOCK_POS,
    RM_TURN,
    RM_TURNOVERS,
    RM_TURNS,
    RM_WINNER,
    STOCK,
    UPCARD,
)
from .melds import meld_cards
from .scoring import returns

TARGET_NAMES = ("set", "below", "above")


def _seq_order(c: int) -> tuple[int, int]:
    return (c // 13, int(seq_value(c)))


def _mask_str(m: int) -> str:
    """A meld's cards, a sequence from its lowest value up."""
    return "".join(
        cards.to_str(c) for c in sorted((c for c in range(52) if (int(m) >> c) & 1), key=_seq_order)
    )


def action_to_string(s, player: int, action: int) -> str:
    if player < 0 or action < LAYOFF0:
        return cards.to_str(action)
    if action < MELD_SET0:
        c, t = divmod(action - LAYOFF0, 3)
        return f"lay {cards.to_str(c)} {TARGET_NAMES[t]}"
    if action < DRAW_STOCK:
        return f"meld {_mask_str(meld_cards(action))}"
    return ("DRAW_STOCK", "DRAW_DISCARD", "RUMMY", "DECLINE")[action - DRAW_STOCK]


def _cards(seq) -> str:
    return cards.cards_to_str(int(c) for c in seq) or "-"


def table_lines(s) -> list[str]:
    n = text.players(s)
    pile = [int(s[RM_PILE + i]) for i in range(int(s[RM_PILE_N]))]
    lines = [f"  pile (bottom first): {_cards(pile)}"]
    stock = [int(s[RM_STOCK + j]) for j in range(int(s[RM_STOCK_POS]), int(s[RM_STOCK_N]))]
    if s[RM_TURNOVERS]:
        lines.append(f"  stock (turned over {int(s[RM_TURNOVERS])}×, next first): {_cards(stock)}")
    else:
        lines.append(f"  stock: {int(popcount(s[DECK]))} cards face down")
    melds = [_mask_str(s[RM_MELD + i]) for i in range(int(s[RM_MELD_N]))]
    lines.append(f"  melds: {' '.join(melds) or '-'}")
    everyone = (1 << n) - 1
    known = []
    for q in range(n):
        held = [c for c in range(52) if s[LOC + c] == q and s[KNOWN + c] == everyone]
        if held:
            known.append(f"seat {q}: {cards.cards_to_str(held)}")
    lines.append(f"  known in hands: {'; '.join(known) or '-'}")
    lines.append(
        f"  turn {int(s[RM_TURNS])} of at most {int(param(s, P_MAX_TURNS))}"
        + (f", seat {int(s[RM_TURN])}'s" if s[RM_TURNS] else "")
    )
    phase = int(s[RM_PHASE])
    if phase == ASK:
        lines.append(
            f"  claim window: seat {int(s[RM_DISCARDER])}'s discard "
            f"{cards.to_str(pile[-1])} fits a meld"
        )
    elif phase == CLAIM_LAYOFF:
        lines.append(f"  seat {int(s[H_CUR])} claimed {cards.to_str(int(s[RM_CLAIMED]))}")
    if phase == OVER:
        if s[RM_DEAD]:
            lines.append("  dead hand: the turn cap was reached, nobody scores")
        else:
            out = np.zeros(n)
            returns(s, out)
            cloth = " with a tablecloth (double)" if s[RM_CLOTH] else ""
            lines.append(
                f"  seat {int(s[RM_WINNER])} went out{cloth}: " + " ".join(f"{v:+.0f}" for v in out)
            )
    return lines


def result_note(s) -> str:
    """A dead hand at the turn cap, or a tablecloth's double (``GameSpec.result_note``,
    rules 10–12)."""
    if s[RM_DEAD]:
        return f"a dead hand: the cap of {int(param(s, P_MAX_TURNS))} turns was reached"
    if s[RM_CLOTH]:
        return "a tablecloth: every card went down in the winner's one turn, so it counts double"
    return ""


def chance_text(s) -> str:
    phase = int(s[RM_PHASE])
    if phase == UPCARD:
        return "turning the up-card"
    if phase == STOCK:
        return f"seat {int(s[RM_TURN])} draws from the stock"
    return "dealing"


def title(s) -> str:
    return f"Rummy, {text.players(s)} players"
