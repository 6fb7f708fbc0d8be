"""Two Captains and Little Country as text: action names, the fields as table lines, the
title."""

from skip_ai import cards, text
from skip_ai.kernel.fields import (
    F_BELOW,
    F_FLAGS,
    F_PASSES,
    F_PILES,
    F_SIZE,
    F_SUM,
    F_TOP,
    field_count,
    field_sum,
)
from skip_ai.kernel.state import MAX_CARDS, PELICAN0, param

from .actions import ADD0, BEAT0, CHILD0, LAY_PELICAN0, PASS, PELICAN_CHILD0
from .layout import (
    CHILD,
    GUARD_SHIFT,
    MARRIED,
    P_DECK,
    P_JOKERS,
    P_KOMI,
    P_LITTLE,
    P_PELICANS,
    PELICAN_CHILD,
    PROTECTED,
)

TEAM_NAMES = ("Red", "Black")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0 or action < ADD0:
        return cards.to_str(action)
    if action < BEAT0:
        c, b = divmod(action - ADD0, 54)
        return f"{cards.to_str(c)} on {cards.to_str(b)}"
    if action < PASS:
        c, b = divmod(action - BEAT0, 54)
        return f"{cards.to_str(c)} beats {cards.to_str(b)}"
    if action == PASS:
        return "PASS"
    if action < LAY_PELICAN0:
        return f"child {cards.to_str(action - CHILD0)}"
    if action < PELICAN_CHILD0:
        return cards.to_str(PELICAN0 + action - LAY_PELICAN0)
    return f"pelican child {cards.to_str(action - PELICAN_CHILD0)}"


def _pile_text(s, b: int) -> str:
    chain, c = [], int(s[F_TOP + b])
    while c >= 0:  # top to bottom
        chain.append(cards.to_str(c))
        c = int(s[F_BELOW + c])
    body = "+".join(reversed(chain))
    flags = int(s[F_FLAGS + b])
    child = "pelican child" if flags & PELICAN_CHILD else "child"
    marks = [name for flag, name in ((MARRIED, "married"), (CHILD, child)) if flags & flag]
    if flags & PROTECTED:
        marks.append(f"protected until seat {(flags >> GUARD_SHIFT) - 1} plays")
    size = int(s[F_SIZE + b])
    return (
        body
        + (f"={int(s[F_SUM + b])}" if size > 1 else "")
        + (f"({', '.join(marks)})" if marks else "")
    )


def field_lines(s) -> list[str]:
    lines = []
    for team in range(2):
        piles = [b for b in range(MAX_CARDS) if (int(s[F_PILES + team]) >> b) & 1]
        lines.append(
            f"  {TEAM_NAMES[team]} field ({len(piles)} piles, value "
            f"{int(field_sum(s, team))}): " + ("  ".join(_pile_text(s, b) for b in piles) or "-")
        )
    komi = int(param(s, P_KOMI))
    if komi:
        lines.append(f"  komi: {komi:+d} piles to {TEAM_NAMES[0]}")
    lines.append(f"  consecutive passes: {int(s[F_PASSES])}")
    return lines


def result_note(s) -> str:
    """The tiebreak, when the piles are equal (``GameSpec.result_note``, RULES §3.4): the
    higher total value of the field's piles wins, else a draw; with a komi, what it made of
    Red's piles."""
    komi = int(param(s, P_KOMI))
    red, black = int(field_count(s, 0)), int(field_count(s, 1))
    with_komi = f"{TEAM_NAMES[0]} {red} piles with the komi {komi:+d}" if komi else ""
    if red + komi != black:
        return f"{with_komi}: {red + komi} against {black}" if komi else ""
    v0, v1 = int(field_sum(s, 0)), int(field_sum(s, 1))
    piles = f"{with_komi}: {black} each" if komi else f"{red} piles each"
    if v0 == v1:
        return f"{piles}, and the tiebreak, the piles' total value, is level too: {v0}"
    return (
        f"{piles}; the tiebreak is the piles' total value: "
        f"{TEAM_NAMES[0]} {v0}, {TEAM_NAMES[1]} {v1}"
    )


def title(s) -> str:
    name = "Little Country" if param(s, P_LITTLE) else "Two Captains"
    deck = int(param(s, P_DECK)) + (2 if param(s, P_JOKERS) else 0)
    pelicans = int(param(s, P_PELICANS))
    return f"{name}, {text.players(s)} players, {deck} cards" + (
        f" and {pelicans} pelicans" if pelicans else ""
    )
