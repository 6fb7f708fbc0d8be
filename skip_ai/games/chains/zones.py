"""Chains' table in a browser (``GameSpec.layout``, :mod:`skip_ai.layout`): the cards placed,
as an open grid around the first card, and the cell a move names."""

from skip_ai.kernel.state import NUM_CARDS, param
from skip_ai.layout import Layout

from .layout import CH_CELL, P_DECK


def layout(s) -> Layout:
    n = int(param(s, P_DECK)) // 4
    w = 2 * n - 1
    cells = [
        {
            "row": int(s[CH_CELL + c]) // w - (n - 1),
            "col": int(s[CH_CELL + c]) % w - (n - 1),
            "card": c,
        }
        for c in range(NUM_CARDS)
        if s[CH_CELL + c] >= 0
    ]
    return {"zones": [{"kind": "grid", "title": f"table (4 × {n})", "cells": cells}], "facts": []}


def move_target(s, action: int) -> str | None:
    """The cell, relative to the first card (``cell:row,col``)."""
    n = int(param(s, P_DECK)) // 4
    w = 2 * n - 1
    cell = action % (w * w)
    return f"cell:{cell // w - (n - 1)},{cell % w - (n - 1)}"
