"""Sixty-six as text: action names, the public record of automatic events, the table lines
and the title of ``str(state)`` and the observation string."""

from skip_ai import cards
from skip_ai.kernel.state import KNOWN, LOC, NUM_CARDS, param

from .actions import (
    BID0,
    CATCH0,
    DECLARE,
    FOUR_NINES,
    K_MARRIAGE,
    LEFT,
    NINES,
    PASS,
    Q_MARRIAGE,
    REDEAL,
    REVEAL,
    RIGHT,
    THREE_NINES,
    TRUMP0,
    TWO_DARK,
)
from .layout import (
    GRADED,
    MATCH,
    P_CONTRACTS,
    P_CUT,
    P_MODE,
    P_NDECL,
    P_NINES,
    P_REDEAL,
    P_STAKES,
    PH_CPLAY,
    PH_CUT,
    PH_PLAY,
    PH_REVEAL,
    R_CONTRACT,
    R_CUT3,
    R_DECLARE,
    R_FOUR,
    R_LAST_TRICK,
    R_NINES_GAME,
    R_OFFER,
    R_REDEAL,
    R_SIX_SHOWN,
    SX_BID,
    SX_BIDDER,
    SX_BOARD,
    SX_BOTTOM,
    SX_COUNT,
    SX_DEALER,
    SX_LAST_A,
    SX_LAST_B,
    SX_LAST_TEXT,
    SX_LEADER,
    SX_MARR,
    SX_NOX,
    SX_NSEQ,
    SX_OFFER_BEATEN,
    SX_OFFER_TO,
    SX_OUTCOME,
    SX_PHASE,
    SX_POINTS,
    SX_REDEALT,
    SX_SEQ,
    SX_TEAM_CATCH,
    SX_TRICKS,
    SX_TRUMP,
    SX_WINNER,
)
from .scoring import total

TEAM_NAMES = ("team 0", "team 1")
SUIT_CHARS = "scdh"
BID_NAMES = ("five pictures", "six pictures", "pyatak", "six")
NAMED_ACTIONS = {
    REVEAL: "REVEAL",
    DECLARE: "DECLARE",
    PASS: "PASS",
    LEFT: "LEFT",
    RIGHT: "RIGHT",
    NINES: "NINES",
    TWO_DARK: "TWO_DARK",
    THREE_NINES: "THREE_NINES",
    FOUR_NINES: "FOUR_NINES",
    REDEAL: "REDEAL",
}
PHASE_NAMES = (
    "cut",
    "first round",
    "trump",
    "reveal",
    "offers of nines",
    "second round",
    "nines games",
    "nines game: choosing",
    "nines game: catching",
    "nines game: target",
    "four nines",
    "redeal",
    "bids",
    "discards",
    "standard play",
    "contract play",
    "over",
)
OUTCOMES = ("", "shuba", "klin", "cross klin")
OUTCOME_WHY = (
    "",
    "the losers had board points",
    "the losers had no board point",
    "the board was 7:7 before the last award",
)
"""Why a match's outcome is what it is (§12.6.1)."""


def action_to_string(s, player: int, action: int) -> str:
    """An action's name; a chance outcome, like a card action, is a card."""
    if player < 0 or action < 52:
        return cards.to_str(action)
    if action < K_MARRIAGE:
        return f"Q{SUIT_CHARS[action - Q_MARRIAGE]}+marriage"
    if action < TRUMP0:
        return f"K{SUIT_CHARS[action - K_MARRIAGE]}+marriage"
    if action < REVEAL:
        return f"TRUMP({SUIT_CHARS[action - TRUMP0]})"
    if CATCH0 <= action < REDEAL:
        return f"CATCH({SUIT_CHARS[action - CATCH0]})"
    if action >= BID0:
        return f"BID({BID_NAMES[action - BID0]})"
    return NAMED_ACTIONS[action]


RESULT_NAMES = {
    R_CUT3: "third nine cut",
    R_OFFER: "nines offered",
    R_NINES_GAME: "nines game",
    R_FOUR: "four nines",
    R_SIX_SHOWN: "six shown",
    R_CONTRACT: "contract",
    R_DECLARE: "declaration",
    R_LAST_TRICK: "last trick",
}
"""The automatic results (``SX_LAST_TEXT``) that award board points, by name."""


def _result_text(s) -> str:
    """The last automatic result, e.g. "declaration: team 1 +3"."""
    code, a, b = int(s[SX_LAST_TEXT]), int(s[SX_LAST_A]), int(s[SX_LAST_B])
    what = RESULT_NAMES.get(code)
    if code == R_REDEAL:
        return f"seat {a} asked for a redeal"
    return f"{what}: {TEAM_NAMES[a]} +{b}" if what else ""


def result_note(s) -> str:
    """What the scores are and how the game was decided (``GameSpec.result_note``, §12.5–6):
    board points, the award that ended it (with the deal's card points when the cards
    decided it), and in a match its outcome (shuba, klin, cross klin)."""
    notes = ["in board points"]
    code, team = int(s[SX_LAST_TEXT]), int(s[SX_LAST_A])
    if code == R_DECLARE and total(s, team) < 66:  # the opponents' claim was false
        notes.append(
            f"the last award, a false declaration by {TEAM_NAMES[1 - team]}: "
            f"{TEAM_NAMES[team]} +{int(s[SX_LAST_B])}"
        )
    elif code in RESULT_NAMES:
        notes.append(f"the last award, {_result_text(s)}")
    if code in (R_DECLARE, R_LAST_TRICK):
        totals = ", ".join(f"{TEAM_NAMES[t]} {int(total(s, t))}" for t in range(2))
        notes.append(f"the deal's card points: {totals}")
    if s[SX_WINNER] >= 0:
        k = int(s[SX_OUTCOME])
        notes.append(f"a {OUTCOMES[k]}: {OUTCOME_WHY[k]}")
    return "; ".join(notes)


def public_record(s) -> str:
    """What automatic events showed (results, covers, the announced count, each team's
    nines game's catches once resolved) and the board: facts the action history alone does
    not tell."""
    out = [f"board={int(s[SX_BOARD])}:{int(s[SX_BOARD + 1])}"]
    for q in range(4):
        if s[SX_OFFER_TO + q] >= 0:
            out.append(
                f"offer{q}->{int(s[SX_OFFER_TO + q])}:"
                f"{'beaten' if s[SX_OFFER_BEATEN + q] else 'not_beaten'}"
            )
        if s[SX_COUNT + q] >= 0:
            out.append(f"count{q}={int(s[SX_COUNT + q])}")
    for t in range(2):  # kept for the whole deal: the history shows catches as "?"
        code = int(s[SX_TEAM_CATCH + t]) - 1
        if code >= 0:
            out.append(f"catch{t}={SUIT_CHARS[code // 4]}{SUIT_CHARS[code % 4]}")
    shown = [c for c in range(NUM_CARDS) if 0 <= s[LOC + c] < 4 and s[KNOWN + c] == 15]
    if shown:
        out.append("shown=" + cards.cards_to_str(shown))
    last = _result_text(s)
    if last:
        out.append(f"last=[{last}]")
    return " ".join(out)


def table_lines(s) -> list[str]:
    """The public position, as the lines after the hands in ``str(state)``."""
    trump = int(s[SX_TRUMP])
    lines = [
        f"  dealer: seat {int(s[SX_DEALER])}; phase: {PHASE_NAMES[int(s[SX_PHASE])]}; "
        f"trump: {SUIT_CHARS[trump] if trump >= 0 else '-'}"
        + ("; redealt deal" if s[SX_REDEALT] else "")
        + ("; no more extras (7:7)" if s[SX_NOX] else ""),
        f"  board: {TEAM_NAMES[0]} {int(s[SX_BOARD])}, {TEAM_NAMES[1]} {int(s[SX_BOARD + 1])}",
    ]
    if s[SX_BOTTOM] >= 0:
        lines.append(f"  bottom card: {cards.to_str(int(s[SX_BOTTOM]))}")
    if s[SX_BID] >= 0:
        lines.append(f"  highest bid: {BID_NAMES[int(s[SX_BID])]} by seat {int(s[SX_BIDDER])}")
    seq = [int(s[SX_SEQ + i]) for i in range(int(s[SX_NSEQ]))]
    if s[SX_PHASE] in (PH_PLAY, PH_CPLAY):
        lines.append(
            f"  trick: {cards.cards_to_str(seq) or '(empty)'}"
            + (f" (led by seat {int(s[SX_LEADER])})" if seq else "")
        )
    lines.append(
        "  taken: "
        + ", ".join(
            f"{TEAM_NAMES[t]} {int(s[SX_TRICKS + t])} tricks {int(s[SX_POINTS + t])} points"
            f" + marriages {int(s[SX_MARR + t])}"
            for t in range(2)
        )
    )
    extra = public_record(s).split(" ", 1)
    if len(extra) > 1:
        lines.append(f"  public: {extra[1]}")
    if s[SX_WINNER] >= 0:
        lines.append(f"  {TEAM_NAMES[int(s[SX_WINNER])]} wins: {OUTCOMES[int(s[SX_OUTCOME])]}")
    return lines


def chance_text(s) -> str:
    """What the chance node does, in words."""
    ph = int(s[SX_PHASE])
    return {PH_CUT: "cutting", PH_REVEAL: "revealing a card"}.get(ph, "dealing")


def title(s) -> str:
    """The game, its mode, stakes and extras, in words."""
    names = ["cut", "nines", "redeal", "contracts"]
    on = [n for n, i in zip(names, (P_CUT, P_NINES, P_REDEAL, P_CONTRACTS)) if param(s, i)]
    if param(s, P_NINES) and not param(s, P_NDECL):
        on.append("no nines to E")
    mode = "match to 8" if param(s, P_MODE) == MATCH else "one deal"
    stakes = "graded" if param(s, P_STAKES) == GRADED else "win"
    return f"Sixty-six for four, {mode}, {stakes} stakes" + (
        f", extras: {', '.join(on)}" if on else ""
    )
