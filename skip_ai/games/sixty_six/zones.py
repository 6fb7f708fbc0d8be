"""Sixty-six's table in a browser (``GameSpec.layout``, :mod:`skip_ai.layout`): the trick in
play, the bottom card, each team's tricks and total; the trump and the dealer."""

from skip_ai import cards
from skip_ai.kernel.state import LOC, NUM_CARDS
from skip_ai.kernel.tricks import LOC_TAKEN
from skip_ai.layout import Layout

from .layout import (
    PH_CPLAY,
    PH_PLAY,
    SX_BOTTOM,
    SX_DEALER,
    SX_LEADER,
    SX_NSEQ,
    SX_PHASE,
    SX_SEQ,
    SX_TRICKS,
    SX_TRUMP,
)
from .scoring import total
from .text import TEAM_NAMES


def layout(s) -> Layout:
    seq = [int(s[SX_SEQ + i]) for i in range(int(s[SX_NSEQ]))]
    zones = []
    if int(s[SX_PHASE]) in (PH_PLAY, PH_CPLAY):
        title = f"trick, led by seat {int(s[SX_LEADER])}" if seq else "trick"
        zones.append({"kind": "row", "title": title, "cards": seq})
    bottom = int(s[SX_BOTTOM])
    if bottom >= 0:
        zones.append({"kind": "row", "title": "bottom card", "cards": [bottom]})
    for team in range(2):
        taken = [c for c in range(NUM_CARDS) if s[LOC + c] == LOC_TAKEN + team]
        zones.append(
            {
                "kind": "row",
                "title": f"taken by {TEAM_NAMES[team]}",
                "note": f"{int(s[SX_TRICKS + team])} tricks, total {int(total(s, team))}",
                "cards": taken,
                "small": True,
                "team": team,
            }
        )
    trump = int(s[SX_TRUMP])
    facts = [
        f"trump {cards.SUIT_SYMBOLS[trump]}" if trump >= 0 else "trump not named yet",
        f"dealer: seat {int(s[SX_DEALER])}",
    ]  # the board is the game's score
    return {"zones": zones, "facts": facts}
