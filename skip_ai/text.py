"""Text pieces every game's rendering uses: hands, whose turn, hand sizes."""

from __future__ import annotations

from skip_ai import cards
from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import (
    CHANCE,
    H_CUR,
    H_MOVES,
    H_PLAYERS,
    HAND,
    MAX_CARDS,
    TERMINAL,
    team_of,
)


def players(s) -> int:
    return int(s[H_PLAYERS])


def hand_cards(s, seat: int) -> list[int]:
    m = int(s[HAND + seat])
    return [c for c in range(MAX_CARDS) if (m >> c) & 1]


def hand_text(s, seat: int) -> str:
    return cards.cards_to_str(hand_cards(s, seat)) or "-"


def mask_text(m: int) -> str:
    """The cards of a mask, ascending, or ``-``."""
    return cards.cards_to_str(c for c in range(MAX_CARDS) if (int(m) >> c) & 1) or "-"


TeamNames = tuple[str, str] | None
"""The teams' names, or None in a game played each for themselves."""


def seat_name(s, seat: int, team_names: TeamNames) -> str:
    if team_names is None:
        return f"seat {seat}"
    return f"seat {seat} ({team_names[team_of(s, seat)]})"


def status(s, team_names: TeamNames, chance: str = "dealing") -> str:
    """Whose turn it is; ``chance`` says what happens at a chance node."""
    cur = int(s[H_CUR])
    if cur == TERMINAL:
        return "game over"
    if cur == CHANCE:
        return chance
    return f"{seat_name(s, cur, team_names)} to play"


def move_line(s, title: str, team_names: TeamNames, chance: str = "dealing") -> str:
    return f"{title} — move {int(s[H_MOVES])}, {status(s, team_names, chance)}"


def hands_lines(s, team_names: TeamNames, note=lambda s, q: "") -> list[str]:
    """Every hand, each followed by ``note(s, seat)`` (e.g. "out: place 1")."""
    return [
        f"  {seat_name(s, q, team_names)}: {hand_text(s, q)}{note(s, q)}" for q in range(players(s))
    ]


def sizes_text(s) -> str:
    return " ".join(str(int(popcount(s[HAND + q]))) for q in range(players(s)))


def table_line(s, label: str, content: str) -> str:
    """A trick game's table: its cards, who put down the last one, who passed since."""
    from skip_ai.kernel.tricks import TK_LAST, TK_PASSED

    last, passed = int(s[TK_LAST]), int(s[TK_PASSED])
    line = f"  {label}: {content or '(empty)'}"
    if last >= 0:
        who = [str(q) for q in range(players(s)) if (passed >> q) & 1]
        line += f"   (last card by seat {last}; passed since: {', '.join(who) or 'nobody'})"
    return line


def taken_line(s, team_names: tuple[str, str], values: bool = False) -> str:
    """Cards taken per team; with ``values`` also their total value (a tiebreak)."""
    from skip_ai.kernel.tricks import TK_TAKEN, TK_VALUE

    def team(t: int) -> str:
        worth = f" (value {int(s[TK_VALUE + t])})" if values else ""
        return f"{team_names[t]} {int(s[TK_TAKEN + t])} cards{worth}"

    return f"  taken: {team(0)}, {team(1)}"


def taken_tie_note(s, team_names: tuple[str, str], values: bool) -> str:
    """A trick game's result note (``GameSpec.result_note``) on equal cards taken: the
    tiebreak by their total value when ``values``, else that the variant has none; "" when
    the cards taken differ."""
    from skip_ai.kernel.tricks import TK_TAKEN, TK_VALUE

    taken = int(s[TK_TAKEN])
    if taken != int(s[TK_TAKEN + 1]):
        return ""
    if not values:
        return f"{taken} cards taken each, and this variant has no tiebreak"
    v0, v1 = int(s[TK_VALUE]), int(s[TK_VALUE + 1])
    if v0 == v1:
        return f"{taken} cards taken each, and the tiebreak, their total value, is level too: {v0}"
    return (
        f"{taken} cards taken each; the tiebreak is their total value: "
        f"{team_names[0]} {v0}, {team_names[1]} {v1}"
    )


def komi_note(komi: int) -> str:
    """The komi beside the cards taken: ", komi +2 to team 0"; "" without one."""
    return f", komi {komi:+d} to team 0" if komi else ""


def lever_words(first_seat: int, alternate: bool, komi: int, starts: str = "moves first") -> str:
    """The shared levers away from the rules, for a title: ", seat 2 moves first, partners
    alternate, komi +2"; "" at the rules."""
    words = [f"seat {first_seat} {starts}"] if first_seat else []
    words += ["partners alternate"] if alternate else []
    words += [f"komi {komi:+d}"] if komi else []
    return "".join(", " + w for w in words)
