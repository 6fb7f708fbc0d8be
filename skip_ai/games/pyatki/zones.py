"""Pyatki's table in a browser (``GameSpec.layout``, :mod:`skip_ai.layout`): the attack with its
covers, the discard; the trump."""

from skip_ai import cards
from skip_ai.kernel import attack
from skip_ai.kernel.state import LOC, LOC_OUT, NUM_CARDS
from skip_ai.layout import Layout

from .layout import PLAY, PY_EXCHANGES, PY_STAGE, PY_TRUMP_CARD


def layout(s) -> Layout:
    zones, facts = [], []
    trump = int(s[PY_TRUMP_CARD])
    if trump >= 0:
        facts.append(f"trump {cards.SUIT_SYMBOLS[trump // 13]}")
    if int(s[PY_STAGE]) >= PLAY and int(s[attack.AT_ATTACKER]) >= 0:
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
                "note": f"exchange {int(s[PY_EXCHANGES]) + 1}",
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
