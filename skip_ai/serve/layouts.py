"""Layout hints: how each family of games arranges its *public* cards on the table.

The view builder (``views``) knows where every card is from the kernel's common ``LOC`` slots;
what it cannot know is the shape a family gives its public places: piles on two fields,
rank columns, a grid of suit rows, a stream, a chain table, an attack with its covers, melds.
A layout reads those shapes from the family's public state slots and returns zones of card
ids; it never decides what the viewer may see (``views`` checks every card it emits).

A zone is a dict with ``kind`` and ``title`` and, by kind (card ids are ints; ``views`` turns
every ``card`` field and ``cards`` list into card pictures):

- ``row``: ``cards`` in order; ``backs`` face-down cards after them; ``small`` thumbnails
- ``piles``: ``piles``: [{``cards`` bottom to top, ``key`` (a move target), ``note``}]
- ``grid``: ``cells``: [{``row``, ``col``, ``card``, ``last``}]; optional ``row_labels`` /
  ``col_labels`` (then the grid has exactly those rows and columns, row 0 on top), else the
  bounds of its cells and of the moves' ``cell:r,c`` targets (an open table: Chains)
- ``pairs``: ``pairs``: [{``card``, ``cover`` (or absent), ``note``}] (an attack)

``facts`` are short public notes (trump, passes, board). Modules are found through
``spec.kernel`` so a game module that becomes a package keeps working.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from skip_ai import cards
from skip_ai.games.spec import GameSpec
from skip_ai.kernel import attack, fields, tricks
from skip_ai.kernel.state import H_PLAYERS, LOC, LOC_OUT, NUM_CARDS, param

Layout = dict
LayoutFn = Callable[[np.ndarray, GameSpec], Layout]
SUIT_SYMBOLS = cards.SUIT_SYMBOLS


def _mask_cards(m: int) -> list[int]:
    m = int(m)
    return [c for c in range(64) if (m >> c) & 1]


def _ranks(deck: int) -> range:
    return range(cards.LOWEST_RANK[deck], 15)


# ----- fields of piles: Two Captains, Little Country, Harvest ---------------------------------


def _pile(s: np.ndarray, b: int) -> list[int]:
    """Pile ``b``'s cards, bottom to top."""
    chain, c = [], int(s[fields.F_TOP + b])
    while c >= 0:
        chain.append(c)
        c = int(s[fields.F_BELOW + c])
    return chain[::-1]


def _pile_note(s: np.ndarray, spec: GameSpec, b: int) -> str:
    """A pile's value (when it has several cards) and Little Country's marks."""
    k = spec.kernel
    notes = [f"={int(s[fields.F_SUM + b])}"] if int(s[fields.F_SIZE + b]) > 1 else []
    flags = int(s[fields.F_FLAGS + b])
    if hasattr(k, "MARRIED"):  # Two Captains' kernel, which Little Country shares
        if flags & k.MARRIED:
            notes.append("married")
        if flags & k.PELICAN_CHILD:
            notes.append("pelican child")
        elif flags & k.CHILD:
            notes.append("child")
        if flags & k.PROTECTED:
            notes.append(f"protected until seat {(flags >> k.GUARD_SHIFT) - 1} plays")
    return " ".join(notes)


def field_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    zones = []
    for team in range(2):
        bottoms = _mask_cards(s[fields.F_PILES + team])
        value = sum(int(s[fields.F_SUM + b]) for b in bottoms)
        zones.append(
            {
                "kind": "piles",
                "title": f"{spec.team_names[team]} field",
                "note": f"{len(bottoms)} pile{'' if len(bottoms) == 1 else 's'}, value {value}",
                "team": team,
                "piles": [
                    {"cards": _pile(s, b), "key": f"pile:{b}", "note": _pile_note(s, spec, b)}
                    for b in bottoms
                ],
            }
        )
    return {"zones": zones, "facts": [f"consecutive passes: {int(s[fields.F_PASSES])}"]}


# ----- trick streams: Domino, Brook, Guess, Fours ----------------------------------------------


def _taken_zones(s: np.ndarray, spec: GameSpec) -> list[dict]:
    """Each team's cards taken, as thumbnails, in card order."""
    out = []
    for team in range(2):
        taken = [c for c in range(NUM_CARDS) if s[LOC + c] == tricks.LOC_TAKEN + team]
        out.append(
            {
                "kind": "row",
                "title": f"taken by {spec.team_names[team]}",
                "note": f"{int(s[tricks.TK_TAKEN + team])} cards",
                "cards": taken,
                "small": True,
                "team": team,
            }
        )
    return out


def _trick_facts(s: np.ndarray) -> list[str]:
    last = int(s[tricks.TK_LAST])
    if last < 0 or not int(s[tricks.TK_TABLE]):
        return []
    passed = [str(q) for q in range(int(s[H_PLAYERS])) if (int(s[tricks.TK_PASSED]) >> q) & 1]
    return [f"last card by seat {last}; passed since: {', '.join(passed) or 'nobody'}"]


def brook_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    stream = [int(s[k.BR_STREAM + i]) for i in range(int(s[k.BR_STREAM_N]))]
    return {
        "zones": [{"kind": "row", "title": "stream", "cards": stream}, *_taken_zones(s, spec)],
        "facts": _trick_facts(s),
    }


def domino_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    table, last = int(s[tricks.TK_TABLE]), int(s[tricks.TK_LAST_CARD])
    ranks = _ranks(int(param(s, k.P_DECK)))
    rows = [r for r in range(k.NUM_ROWS - 1, -1, -1) if int(s[k.DM_OWNER + r]) != k.NO_ROW]
    cells = []
    for i, row in enumerate(rows):
        suit = int(s[k.DM_OWNER + row])
        for j, rank in enumerate(ranks):
            c = 13 * suit + rank - 2
            if (table >> c) & 1:
                cells.append({"row": i, "col": j, "card": c, "last": c == last})
    grid = {
        "kind": "grid",
        "title": "table",
        "cells": cells,
        "row_labels": [SUIT_SYMBOLS[int(s[k.DM_OWNER + r])] for r in rows],
        "col_labels": [cards.RANK_CHARS[r - 2] for r in ranks],
    }
    return {"zones": [grid, *_taken_zones(s, spec)], "facts": _trick_facts(s)}


def guess_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    rows = int(s[H_PLAYERS]) // 2
    col, starter = int(s[k.GS_COL]), int(s[k.GS_STARTER])
    shown = col + (1 if int(s[k.GS_FILLED]) else 0) if starter >= 0 else 0
    cells = [
        {"row": r, "col": i, "card": int(s[k.GS_GRID + k.MAX_ROWS * i + r])}
        for i in range(shown)
        for r in range(rows)
        if int(s[k.GS_GRID + k.MAX_ROWS * i + r]) >= 0
    ]
    names = k.row_names(rows)
    grid = {
        "kind": "grid",
        "title": "stream",
        "cells": cells,
        "row_labels": list(names),
        "col_labels": [str(i + 1) for i in range(max(shown, 1))],
    }
    if starter >= 0:
        grid["note"] = (
            f"odd columns {spec.team_names[starter]}, even columns {spec.team_names[1 - starter]}"
        )
    way = {1: "top higher than bottom", -1: "top lower than bottom", 0: "not fixed yet"}[
        int(s[k.GS_ORIENT])
    ]
    facts = [f"orientation: {way}"] if starter >= 0 else []
    return {"zones": [grid, *_taken_zones(s, spec)], "facts": facts}


def fours_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    zones = []
    for i in range(int(s[k.FO_TRICK_START]), int(s[k.FO_NLEADS])):
        rank = int(s[k.FO_LEAD_RANK + i])
        down = [c for c in range(rank, 52, 13) if s[LOC + c] == tricks.LOC_TABLE]
        by = ", ".join(f"seat {int(s[k.FO_FROM + c])}" for c in down)
        zones.append(
            {
                "kind": "row",
                "title": f"{cards.RANK_CHARS[rank]} led by seat {int(s[k.FO_LEAD_SEAT + i])}",
                "note": f"put down by {by}",
                "cards": down,
            }
        )
    if not zones:
        zones.append({"kind": "row", "title": "table", "cards": []})
    return {
        "zones": [*zones, *_taken_zones(s, spec)],
        "facts": [f"tricks taken: {int(s[k.FO_TRICKS])}"],
    }


# ----- Columns and Chains -----------------------------------------------------------------------


def columns_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    ranks = _ranks(int(param(s, k.P_DECK)))
    cells = [
        {"row": k.FINISH - row, "col": j, "card": int(s[k.GRID + 4 * (rank - 2) + row])}
        for j, rank in enumerate(ranks)
        for row in range(k.ROWS)
        if int(s[k.GRID + 4 * (rank - 2) + row]) >= 0
    ]
    return {
        "zones": [
            {
                "kind": "grid",
                "title": "columns",
                "cells": cells,
                "row_labels": ["finish", "3", "2", "1"],
                "col_labels": [cards.RANK_CHARS[r - 2] for r in ranks],
            }
        ],
        "facts": [],
    }


def chains_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    n = int(param(s, k.P_DECK)) // 4
    w = 2 * n - 1
    cells = [
        {
            "row": int(s[k.CH_CELL + c]) // w - (n - 1),
            "col": int(s[k.CH_CELL + c]) % w - (n - 1),
            "card": c,
        }
        for c in range(NUM_CARDS)
        if s[k.CH_CELL + c] >= 0
    ]
    return {"zones": [{"kind": "grid", "title": f"table (4 × {n})", "cells": cells}], "facts": []}


def chains_target(s: np.ndarray, spec: GameSpec, action: int) -> str | None:
    n = int(param(s, spec.kernel.P_DECK)) // 4
    w = 2 * n - 1
    cell = action % (w * w)
    return f"cell:{cell // w - (n - 1)},{cell % w - (n - 1)}"


# ----- attack and defence: Pyatki ------------------------------------------------------------


def pyatki_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    zones, facts = [], []
    trump = int(s[k.PY_TRUMP_CARD])
    if trump >= 0:
        facts.append(f"trump {SUIT_SYMBOLS[trump // 13]}")
    if int(s[k.PY_STAGE]) >= k.PLAY and int(s[attack.AT_ATTACKER]) >= 0:
        pairs = []
        for i in range(int(s[attack.AT_SIZE])):
            pair = {"card": int(s[attack.AT_CARDS + i])}
            answer = int(s[attack.AT_ANSWER + i])
            if s[attack.AT_DEFENDING] and i < s[attack.AT_NEXT]:
                if answer == attack.TAKEN:
                    pair["note"] = "taken"
                else:
                    pair["cover"] = answer
            pairs.append(pair)
        att, dfd = int(s[attack.AT_ATTACKER]), int(s[attack.AT_DEFENDER])
        verb = "attacks" if s[attack.AT_DEFENDING] else "builds an attack on"
        zones.append(
            {
                "kind": "pairs",
                "title": f"seat {att} {verb} seat {dfd}",
                "pairs": pairs,
                "note": f"exchange {int(s[k.PY_EXCHANGES]) + 1}",
            }
        )
    out = [c for c in range(NUM_CARDS) if s[LOC + c] == LOC_OUT]
    zones.append(
        {
            "kind": "row",
            "title": "discard",
            "cards": out,
            "small": True,
            "note": f"{len(out)} cards",
        }
    )
    return {"zones": zones, "facts": facts}


# ----- the classics ----------------------------------------------------------------------------


def rummy_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    pile = [int(s[k.RM_PILE + i]) for i in range(int(s[k.RM_PILE_N]))]
    melds = [
        sorted(_mask_cards(s[k.RM_MELD + i]), key=lambda c: (c // 13, k.seq_value(c)))
        for i in range(int(s[k.RM_MELD_N]))
    ]
    turned = [int(s[k.RM_STOCK + j]) for j in range(int(s[k.RM_STOCK_POS]), int(s[k.RM_STOCK_N]))]
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
    facts = [f"turn {int(s[k.RM_TURNS])} of at most {int(param(s, k.P_MAX_TURNS))}"]
    return {"zones": zones, "facts": facts}


def sixty_six_layout(s: np.ndarray, spec: GameSpec) -> Layout:
    k = spec.kernel
    seq = [int(s[k.SX_SEQ + i]) for i in range(int(s[k.SX_NSEQ]))]
    zones = []
    if int(s[k.SX_PHASE]) in (k.PH_PLAY, k.PH_CPLAY):
        title = f"trick, led by seat {int(s[k.SX_LEADER])}" if seq else "trick"
        zones.append({"kind": "row", "title": title, "cards": seq})
    bottom = int(s[k.SX_BOTTOM])
    if bottom >= 0:
        zones.append({"kind": "row", "title": "bottom card", "cards": [bottom]})
    for team in range(2):
        taken = [c for c in range(NUM_CARDS) if s[LOC + c] == tricks.LOC_TAKEN + team]
        zones.append(
            {
                "kind": "row",
                "title": f"taken by {spec.team_names[team]}",
                "note": f"{int(s[k.SX_TRICKS + team])} tricks, total {int(k.total(s, team))}",
                "cards": taken,
                "small": True,
                "team": team,
            }
        )
    trump = int(s[k.SX_TRUMP])
    facts = [
        f"trump {SUIT_SYMBOLS[trump]}" if trump >= 0 else "trump not named yet",
        f"dealer: seat {int(s[k.SX_DEALER])}",
    ]  # the board is the game's score
    return {"zones": zones, "facts": facts}


# ----- by game ---------------------------------------------------------------------------------

LAYOUTS: dict[str, LayoutFn] = {
    "skip_two_captains": field_layout,
    "skip_little_country": field_layout,
    "skip_harvest": field_layout,
    "skip_columns": columns_layout,
    "skip_guess": guess_layout,
    "skip_domino": domino_layout,
    "skip_brook": brook_layout,
    "skip_fours": fours_layout,
    "skip_chains": chains_layout,
    "skip_pyatki": pyatki_layout,
    "skip_pyatki_pairs": pyatki_layout,
    "classic_sixty_six_4p": sixty_six_layout,
    "classic_rummy": rummy_layout,
}
"""The layout of every game; a game without one shows its public cards grouped by place."""


def _field_target(s: np.ndarray, spec: GameSpec, action: int) -> str | None:
    """ADD / BEAT (Two Captains, Little Country) and COVER (Harvest) name a pile: its bottom
    card is ``(action - first) % 54`` in each segment of 54 × 54 actions."""
    k = spec.kernel
    segments = [getattr(k, name) for name in ("ADD0", "BEAT0", "COVER0") if hasattr(k, name)]
    for first in segments:
        if first <= action < first + 54 * 54:
            return f"pile:{(action - first) % 54}"
    return None


TARGETS: dict[str, Callable[[np.ndarray, GameSpec, int], str | None]] = {
    "skip_two_captains": _field_target,
    "skip_little_country": _field_target,
    "skip_harvest": _field_target,
    "skip_chains": chains_target,
}
"""Where a move lands, for games whose moves name a place on the table (a pile, a cell)."""


def layout(s: np.ndarray, spec: GameSpec) -> Layout:
    """The game's zones and facts (none for a game without a layout)."""
    fn = LAYOUTS.get(spec.short_name)
    return fn(s, spec) if fn else {"zones": [], "facts": []}


def move_target(s: np.ndarray, spec: GameSpec, action: int) -> str | None:
    fn = TARGETS.get(spec.short_name)
    return fn(s, spec, action) if fn else None
