"""Rummy's table in a browser (``GameSpec.layout``, :mod:`skip_ai.layout`): the discard pile, a
turned-over stock, the melds; the turn."""

from skip_ai.kernel.state import param
from skip_ai.layout import Layout, mask_cards

from .deck import seq_value
from .layout import (
    P_MAX_TURNS,
    RM_MELD,
    RM_MELD_N,
    RM_PILE,
    RM_PILE_N,
    RM_STOCK,
    RM_STOCK_N,
    RM_STOCK_POS,
    RM_TURNS,
)


def layout(s) -> Layout:
    pile = [int(s[RM_PILE + i]) for i in range(int(s[RM_PILE_N]))]
    melds = [
        sorted(mask_cards(s[RM_MELD + i]), key=lambda c: (c // 13, seq_value(c)))
        for i in range(int(s[RM_MELD_N]))
    ]
    turned = [int(s[RM_STOCK + j]) for j in range(int(s[RM_STOCK_POS]), int(s[RM_STOCK_N]))]
    zones = [
        {
            "kind": "row",
            "title": "discard pile",
            "cards": pile,
            "note": "bottom first; the top card is on the right",
        },
        {
            "kind": "piles",
            "title": "melds",
            "piles": [{"cards": m, "key": f"meld:{i}"} for i, m in enumerate(melds)],
        },
    ]
    if turned:
        zones.insert(
            1,
            {
                "kind": "row",
                "title": "stock, turned over",
                "cards": turned,
                "note": "its order is public: the left card is drawn next",
            },
        )
    facts = [f"turn {int(s[RM_TURNS])} of at most {int(param(s, P_MAX_TURNS))}"]
    return {"zones": zones, "facts": facts}
