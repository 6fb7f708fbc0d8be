"""Pyatki as text: action names, the public record of who attacked first, the title, the table
lines and the seat notes of ``str(state)`` and the observation string."""

from skip_ai import cards
from skip_ai.kernel.attack import (
    AT_ANSWER,
    AT_ATTACKER,
    AT_CARDS,
    AT_DEFENDER,
    AT_DEFENDING,
    AT_NEXT,
    AT_SIZE,
    ATTACK,
    COVER0,
    TAKE,
    TAKEN,
)
from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import (
    DECK,
    H_CUR,
    H_PLAYERS,
    HAND,
    KNOWN,
    LOC,
    LOC_OUT,
    NUM_CARDS,
    TERMINAL,
    param,
)

from .layout import (
    DEAL,
    DRAW,
    FIRST,
    HAND_SIZE,
    P_DECK,
    P_HAND,
    P_MAX,
    P_OPENER,
    P_PAIRS,
    P_PLACES,
    P_TRUMP_CARD,
    PLAY,
    PY_CAPPED,
    PY_DRAWER,
    PY_EXCHANGES,
    PY_NOUT,
    PY_OPENER,
    PY_PLACE,
    PY_STAGE,
    PY_TRUMP_CARD,
    PY_WINNER,
    TURN,
)

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


def seat_note(s, seat: int) -> str:
    place = int(s[PY_PLACE + seat])
    if place >= 0:
        return f"  [out: place {place + 1}]"
    if s[H_CUR] != TERMINAL and int(s[PY_STAGE]) >= PLAY:
        if seat == s[AT_ATTACKER]:
            return "  [attacks]"
        if seat == s[AT_DEFENDER]:
            return "  [defends]"
    return ""


def chance_text(s) -> str:
    """What the chance node of the current stage does (asked only at chance nodes)."""
    return {
        DEAL: "dealing",
        TURN: "turning the trump card",
        DRAW: f"seat {int(s[PY_DRAWER])} draws",
    }.get(int(s[PY_STAGE]), "chance")


def _trump_source(s) -> str:
    """Pairs: which dealt card shows the trump (the ``trump_card`` lever)."""
    return "first" if param(s, P_TRUMP_CARD) == FIRST else "last"


def _levers(s) -> str:
    """The levers away from the rules, for the title."""
    notes = []
    if not _pairs(s) and param(s, P_HAND) != HAND_SIZE:
        notes.append(f", {int(param(s, P_HAND))} cards in hand")
    if _pairs(s) and param(s, P_TRUMP_CARD) == FIRST:
        notes.append(", trump from the first dealt card")
    if param(s, P_OPENER):
        notes.append(f", seat {int(param(s, P_OPENER)) - 1} attacks first")
    return "".join(notes)


def title(s) -> str:
    deck = int(param(s, P_DECK))
    cap = int(param(s, P_MAX))
    if _pairs(s):
        return f"Pyatki for pairs, {deck} cards, cap {cap} exchanges{_levers(s)}"
    places = ", places" if param(s, P_PLACES) else ""
    return f"Pyatki, {_n(s)} players, {deck} cards{places}, cap {cap} exchanges{_levers(s)}"


def _trump_line(s) -> str:
    card = int(s[PY_TRUMP_CARD])
    if card < 0:
        return "  trump: not turned yet"
    suit = cards.SUIT_SYMBOLS[card // 13]
    if _pairs(s):
        return f"  trump: {suit} (the {_trump_source(s)} dealt card, {cards.to_str(card)})"
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


def _state_lines(s) -> list[str]:
    out = int(sum(1 for c in range(NUM_CARDS) if s[LOC + c] == LOC_OUT))
    lines = [_trump_line(s), _exchange_line(s), f"  discard: {out} cards"]
    if s[H_CUR] == TERMINAL:
        if s[PY_CAPPED]:
            lines.append(f"  stopped at the cap of {int(param(s, P_MAX))} exchanges")
        if _pairs(s) and s[PY_WINNER] >= 0:
            lines.append(f"  {TEAM_NAMES[int(s[PY_WINNER])]} wins")
    return lines


def result_note(s) -> str:
    """How the game ended (``GameSpec.result_note``, Pyatki rules 9–11, pairs rule 5): what
    the pairs' scores count, and the cap on exchanges when it stopped the game."""
    notes = []
    if _pairs(s) and s[PY_WINNER] >= 0:
        notes.append(
            f"both players of {TEAM_NAMES[int(s[PY_WINNER])]} ran out of cards; the scores "
            "are minus the cards each team still held"
        )
    if s[PY_CAPPED]:
        notes.append(f"the game stopped at its cap of {int(param(s, P_MAX))} exchanges")
        if not _pairs(s) and s[PY_NOUT] > 0:
            notes.append("the players still in share the places left")
    return "; ".join(notes)


def table_lines(s) -> list[str]:
    """The cards every seat has seen go into a hand (accepted, picked, the opener's), then
    the table."""
    everyone = (1 << _n(s)) - 1
    known = []
    for q in range(_n(s)):
        cards_known = [c for c in _mask_cards(s[HAND + q]) if s[KNOWN + c] == everyone]
        if cards_known:
            known.append(f"seat {q}: {cards.cards_to_str(cards_known)}")
    return [f"  known in hands: {'; '.join(known) or '-'}", *_state_lines(s)]


def public_record(s) -> str:
    """Who attacked first: public, but not an action of the history."""
    if int(s[PY_STAGE]) < PLAY:
        return "opener: -"
    return f"opener: seat {int(s[PY_OPENER])}"
