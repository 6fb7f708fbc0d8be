"""Every game made ready before a person asks for it: ``skip-ai serve`` starts a process that
plays one short game of each registered game through the table's own code, with the bots the
page offers (a small ISMCTS, the heuristic, random), so that Numba compiles each game's
kernels and writes them to its cache on disk. A table opened afterwards loads them from the
cache in well under a second instead of compiling them (up to tens of seconds a game).

Why a process and not a thread of the server: compiling holds the interpreter's lock for long
stretches, which a thread would take from the server's answers; a process uses another core,
shares nothing with the server, and leaves no compiled code of games nobody plays in the
server's memory. The server answers from its first second; a table of a game not yet warmed
compiles what it needs itself, as without warming.

``python -m skip_ai.serve.warm [GAME ...]`` warms the games named (default: every game, in
the page's order), printing one line a game.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable

WARM_AGENTS = (("ismcts(iterations=20)", "heuristic"), ("random",))
"""Each game is played once per row, seats cycling through its specs: every kind of kernel
a table's bots run (a search, with its heuristic rollouts; the heuristic; random)."""


def warm_game(name: str) -> float:
    """Play the warming games of ``name`` (its default variant); the seconds it took (wall
    clock, ``time.perf_counter``)."""
    import pyspiel

    from skip_ai.serve.tables import Tables

    start = time.perf_counter()
    n = pyspiel.load_game(name).num_players()
    tables = Tables()
    for specs in WARM_AGENTS:
        agents = [specs[p % len(specs)] for p in range(n)]
        table = tables.open({"game": name, "seat": None, "pace": 0, "agents": agents, "seed": 1})
        table.thread.join()
        if table.error:
            raise RuntimeError(f"{name}: {table.error}")
        table.view()  # the page's view of a finished game: layout, log, result
    tables.close_all()
    return time.perf_counter() - start


def game_names() -> list[str]:
    """Every registered game, in the page's order (its first is the page's first choice)."""
    from skip_ai.serve.server import games_listing

    return [g["name"] for g in games_listing()]


class Warmer:
    """The warming process of a server, watched by a thread that says when it is done."""

    def __init__(self, say: Callable[[str], None], games: list[str] | None = None):
        self.say = say
        self.games = games or []  # none named: every game
        self.process: subprocess.Popen | None = None
        self.thread = threading.Thread(target=self._watch, name="skip-ai-warm", daemon=True)

    def start(self) -> Warmer:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "skip_ai.serve.warm", *self.games],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.started = time.perf_counter()
        self.thread.start()
        return self

    def _watch(self) -> None:
        assert self.process is not None
        _, err = self.process.communicate()
        took = time.perf_counter() - self.started
        if self.process.returncode == 0:
            self.say(f"every game is ready ({took:.0f} s wall clock to compile or load)")
        elif self.process.returncode > 0:  # not stopped by us: say why, in one line
            last = (err.strip().splitlines() or ["no message"])[-1]
            self.say(f"preparing the games failed ({last}); tables compile as they open")

    def stop(self) -> None:
        """Stop the warming process if it still runs (the server stops)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or game_names()
    for name in names:
        print(f"{name}: ready in {warm_game(name):.1f} s (wall clock)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
