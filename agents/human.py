"""A person at the terminal: ``"human"``.

On each turn it says, from the person's seat, what happened since their last move (as that
seat saw it), who they are and who their partner is, every seat's hand size, the public
table, their hand, and the legal moves numbered in aligned columns; the person answers with
a number or the move's text, or ``q`` to leave. Anything else asks again. A move the loop
plays for the person (his seat's only legal one) is said by :meth:`HumanBot.show_forced`. At
the end (:meth:`HumanBot.show_end`) it says the last moves and the result in words.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import TextIO

import pyspiel

from skip_ai import text, words
from skip_ai.kernel.state import CHANCE

QUIT = ("q", "quit", "exit")


class QuitGame(KeyboardInterrupt):
    """The person typed ``q``: the game stops as after Ctrl-C, saying so in one line."""


class HumanBot(pyspiel.Bot):
    """Asks a person for every move of whichever seat it is given."""

    def __init__(
        self, inp: TextIO | None = None, out: TextIO | None = None, width: int | None = None
    ):
        pyspiel.Bot.__init__(self)
        self._in = inp or sys.stdin
        self._out = out or sys.stdout
        self._width = width
        self._seen: dict[int, int] = {}  # seat -> history length at its last move

    def new_game(self, seed: int) -> None:
        """Ready for a new game (a person needs no seed)."""
        self._seen.clear()

    def restart_at(self, state: pyspiel.State) -> None:
        self._seen.clear()

    def _say(self, text: str = "") -> None:
        print(text, file=self._out, flush=True)

    def _columns(self) -> int:
        return self._width or shutil.get_terminal_size((100, 24)).columns

    def _wrap(self, text: str, indent: str = "  ") -> str:
        return textwrap.fill(
            text,
            self._columns(),
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )

    def _items(self, head: str, items: list[str], sep: str) -> str:
        """``head`` and ``items`` joined by ``sep``, wrapped between items only (an item
        such as "seat 2 (Black) 7c on Jc" is never split)."""
        lines, line = [], head
        for i, item in enumerate(items):
            piece = item + (sep.rstrip() if i < len(items) - 1 else "")
            if line.strip() and len(line) + len(piece) + 1 > self._columns():
                lines.append(line.rstrip())
                line = "  "
            line += piece + " "
        return "\n".join([*lines, line.rstrip()])

    def step(self, state: pyspiel.State) -> int:
        p = state.current_player()
        self._header(state, p)
        self._recent(state, p)
        self._table(state, p)
        legal = state.legal_actions()
        texts = [words.move_text(state, p, a) for a in legal]
        codes = [state.action_to_string(p, a) for a in legal]  # the text a script may send
        self._say("moves:")
        self._say(self.columns(texts))
        while True:
            self._out.write("your move (number or text; q to quit): ")
            self._out.flush()
            line = self._in.readline()
            if not line:
                raise EOFError("the human player's input ended")
            answer = line.strip()
            if answer.lower() in QUIT:
                raise QuitGame(f"seat {p} left the game")
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                choice = legal[int(answer) - 1]
                break
            if answer in texts or answer in codes:
                choice = legal[texts.index(answer) if answer in texts else codes.index(answer)]
                break
            self._say(
                f"{answer!r} is not one of the moves 1..{len(legal)}; answer with a "
                "number or a move's text, or q to quit"
            )
        self._seen[p] = len(state.history()) + 1
        return choice

    def show_forced(self, state: pyspiel.State, seat: int, action: int) -> None:
        """The moves since the person's last one, then ``action``, his seat's only legal move,
        played for him (``state`` is before it)."""
        self._recent(state, seat)
        self._say(
            f"move {decision_number(state)}: you {words.move_text(state, seat, action)} "
            "(forced: your only legal move)"
        )
        self._seen[seat] = len(state.history()) + 1

    def show_end(self, state: pyspiel.State, seat: int) -> None:
        """The moves since the person's last one, and the result in words from his seat."""
        self._recent(state, seat)
        self._say(f"\n*** {words.result_text(state, seat)} ***")

    # ----- what the person is shown -------------------------------------------------------
    def _recent(self, state: pyspiel.State, p: int) -> None:
        """What happened since ``p``'s last move, as ``p`` saw it (the deal is his hand)."""
        history = words.history_words(state, p)
        start = self._seen.get(p, 0)
        recent = [
            (actor, text)
            for actor, text in history[start:]
            if not (p not in self._seen and actor == CHANCE)
        ]
        if recent:
            said = [
                f"{'chance' if actor == CHANCE else words.seat_label(state, actor, p)} "
                f"{_seen(text)}"
                for actor, text in recent
            ]
            self._say(self._items("since your last move: ", said, "; "))

    def _header(self, state: pyspiel.State, p: int) -> None:
        """The game, the move, and who the person is (said once, not per line)."""
        spec, s = state.get_game().spec, state.kernel_state()
        self._say()
        self._say(
            self._wrap(
                f"=== {spec.title(s)} · move {decision_number(state)} · "
                f"{words.turn_text(state, p)}",
                "    ",
            )
        )
        who = words.seat_label(state, p, p).replace("(you, ", "(").replace(" (you)", "")
        mates = words.partners(state, p)
        if mates:
            who += f"; your partner{'s are' if len(mates) > 1 else ' is'} " + " and ".join(
                f"seat {q}" for q in mates
            )
        self._say(f"you are {who}")

    def _table(self, state: pyspiel.State, p: int) -> None:
        spec, s = state.get_game().spec, state.kernel_state()
        sizes = [
            f"{_short(state, q, p)} {len(text.hand_cards(s, q))}"
            for q in range(state.num_players())
        ]
        self._say(self._items("hand sizes: ", sizes, " · "))
        for line in [*spec.table_lines(s), *spec.private_lines(s, p)]:
            self._say(self._wrap(line.rstrip(), " " * 6))
        self._say(self._wrap(f"your hand: {text.hand_text(s, p)}", " " * 8))

    def columns(self, texts: list[str]) -> str:
        """Numbered moves in aligned columns that fit the terminal, never split in a word."""
        cells = [f"{i + 1:>{len(str(len(texts)))}}) {t}" for i, t in enumerate(texts)]
        width = max(map(len, cells)) + 3
        per_row = max(1, (self._columns() - 2) // width)
        rows = [cells[i : i + per_row] for i in range(0, len(cells), per_row)]
        return "\n".join("  " + "".join(c.ljust(width) for c in row).rstrip() for row in rows)


def decision_number(state: pyspiel.State) -> int:
    """The number of the decision to be made, from 1: the players' moves so far, plus one
    (the deal and other chance events are not moves)."""
    return 1 + sum(1 for item in state.full_history() if item.player >= 0)


def _seen(text: str) -> str:
    """``?02`` (a card seen only by seats 0 and 2) in words."""
    if not text.startswith("?"):
        return text
    return "a hidden card" + (f" (seen by seat {', '.join(text[1:])})" if text[1:] else "")


def _short(state: pyspiel.State, seat: int, viewer: int) -> str:
    role = words.role(state, seat, viewer)
    return f"seat {seat}" + (f" ({role})" if role in ("you", "partner") else "")


def make_human(game: pyspiel.Game, seed: int = 0) -> HumanBot:
    return HumanBot()
