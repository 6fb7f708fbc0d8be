"""A person at the terminal: ``"human"``.

On each turn it prints what happened since the player's last move (as that player saw it),
their view of the table and hand (the game's observation string), and the legal moves
numbered in card text; the player answers with a number or the move's text. Anything else
asks again.
"""

from __future__ import annotations

import sys
from typing import TextIO

import pyspiel

from agents.factory import agent_kind
from skip_ai.kernel.state import CHANCE


class HumanBot(pyspiel.Bot):
    """Asks a person for every move of whichever seat it is given."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None):
        pyspiel.Bot.__init__(self)
        self._in = inp or sys.stdin
        self._out = out or sys.stdout
        self._seen: dict[int, int] = {}  # seat -> history length at its last move

    def restart_at(self, state: pyspiel.State) -> None:
        self._seen.clear()

    def _say(self, text: str = "") -> None:
        print(text, file=self._out, flush=True)

    def step(self, state: pyspiel.State) -> int:
        p = state.current_player()
        history = state.history_seen_by(p)
        recent = history[self._seen.get(p, 0):]
        self._say(f"\n--- seat {p}, your move ---")
        if p not in self._seen:  # the deal: the hand below shows what the player got
            recent = [(actor, text) for actor, text in recent if actor != CHANCE]
        if recent:
            self._say("since your last move: " + ", ".join(
                f"{'chance' if actor == CHANCE else f'seat {actor}'} {text}"
                for actor, text in recent))
        self._say(state.observation_string(p))
        legal = state.legal_actions()
        texts = [state.action_to_string(p, a) for a in legal]
        self._say("moves: " + "   ".join(f"{i + 1}) {t}" for i, t in enumerate(texts)))
        while True:
            self._out.write("your move (number or text): ")
            self._out.flush()
            line = self._in.readline()
            if not line:
                raise EOFError("the human player's input ended")
            answer = line.strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                choice = legal[int(answer) - 1]
                break
            if answer in texts:
                choice = legal[texts.index(answer)]
                break
            self._say(f"{answer!r} is not one of the moves 1..{len(legal)}; try again")
        self._seen[p] = len(history) + 1
        return choice


@agent_kind("human")
def make_human(game: pyspiel.Game, seed: int = 0) -> HumanBot:
    return HumanBot()
