"""Domino's table in a browser (``GameSpec.layout``, :mod:`skip_ai.layout`): the grid of suit
rows, top row first, a column per rank of the deck, the last card marked; the cards each team
took."""

from skip_ai import cards
from skip_ai.kernel.state import param
from skip_ai.kernel.tricks import TK_LAST_CARD, TK_TABLE
from skip_ai.layout import Layout, deck_ranks, taken_zones, trick_facts

from .grid import DM_OWNER, NO_ROW, NUM_ROWS
from .layout import P_DECK
from .text import TEAM_NAMES


def layout(s) -> Layout:
    table, last = int(s[TK_TABLE]), int(s[TK_LAST_CARD])
    ranks = deck_ranks(int(param(s, P_DECK)))
    rows = [r for r in range(NUM_ROWS - 1, -1, -1) if int(s[DM_OWNER + r]) != NO_ROW]
    cells = []
    for i, row in enumerate(rows):
        suit = int(s[DM_OWNER + row])
        for j, rank in enumerate(ranks):
            c = 13 * suit + rank - 2
            if (table >> c) & 1:
                cells.append({"row": i, "col": j, "card": c, "last": c == last})
    grid = {
        "kind": "grid",
        "title": "table",
        "cells": cells,
        "row_labels": [cards.SUIT_SYMBOLS[int(s[DM_OWNER + r])] for r in rows],
        "col_labels": [cards.RANK_CHARS[r - 2] for r in ranks],
    }
    return {"zones": [grid, *taken_zones(s, TEAM_NAMES)], "facts": trick_facts(s)}
