"""Live games: a person at one seat (or nobody: bots watched with every card open), the
other seats' agents, chance drawn from the table's own generator.

Each :class:`Table` has a thread that plays chance and the bots. A bot thinks on a copy of
the state, outside the table's lock, so a page asking for the view is answered at once
while a bot searches; the view waits on a condition for a newer version (long polling)
instead of polling in a loop. Every bot move with search statistics (``bot.last_search``)
is kept with the state it was made in, so the page can show why the bot moved.
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from agents import make_agent
from skip_ai.kernel.rng import below, make_rng
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.serve import views

HUMAN = "human"
MAX_TABLES = 32
"""Tables kept in memory; opening another closes the oldest."""
WAIT = 15.0
"""Longest wait of a long poll, seconds."""


class BadRequest(ValueError):
    """A request the table cannot honour; its message is said to the page as is."""


@dataclass
class BotMove:
    """A searching bot's move: the state it moved in, its statistics, the action."""

    seat: int
    before: pyspiel.State
    stats: Any
    action: int


@dataclass
class Table:
    """One live game. ``human`` is the person's seat, None when bots play alone."""

    id: str
    game: KernelGame
    specs: list[str]
    human: int | None
    seed: int
    pace: float
    state: pyspiel.State = field(init=False)
    version: int = 0
    error: str | None = None
    searches: dict[int, BotMove] = field(default_factory=dict)
    closed: bool = False

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state()
        self.rng = make_rng(self.seed)
        self.bots = [
            None if p == self.human else make_agent(spec, self.game, seed=self.seed + 1 + p)
            for p, spec in enumerate(self.specs)
        ]
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._run, name=f"table-{self.id}", daemon=True)
        self.thread.start()

    # ----- what the page sees -----------------------------------------------------------
    @property
    def open(self) -> bool:
        """Every card shown: bots watched with no person at the table, or the game over."""
        return self.human is None or self.state.is_terminal()

    def view(self, after: int | None = None) -> dict:
        """The person's view (every card open when bots play alone), once the table's
        version is past ``after`` or after :data:`WAIT` seconds."""
        with self.cond:
            if after is not None:
                self.cond.wait_for(lambda: self.version > after or self.closed, timeout=WAIT)
            last = max(self.searches) if self.searches else None
            view = views.table_view(
                self.state,
                self.human,
                agents=self.specs,
                moves=True,
                search=self._search(last) if last is not None else None,
            )
            if self.state.is_terminal() and self.human is not None:
                view["open"] = views.table_view(self.state, None, agents=self.specs)["seats"]
            why = set(self.searches)
            for entry in view["log"]:
                entry["why"] = entry["i"] in why
            return {
                **view,
                "id": self.id,
                "version": self.version,
                "error": self.error,
                "human": self.human,
                "pace": self.pace,
            }

    def search(self, index: int) -> dict:
        """Why the bot made the move at history index ``index``."""
        with self.cond:
            if index not in self.searches:
                raise BadRequest(f"no searching bot's move at history index {index}")
            return self._search(index)

    def _search(self, index: int) -> dict:
        move = self.searches[index]
        seen = self.state.history_seen_by(self.human)[index][1] if not self.open else ""
        return views.search_view(
            move.before, move.seat, move.stats, move.action, seen, full=self.open
        ) | {"i": index}

    # ----- the person's move ------------------------------------------------------------
    def play(self, action: Any) -> None:
        """Apply the person's move; a move out of turn or not legal is a :class:`BadRequest`."""
        with self.cond:
            if self.human is None:
                raise BadRequest("nobody plays at this table: the bots play alone")
            if self.state.is_terminal():
                raise BadRequest("the game is over")
            if self.state.current_player() != self.human:
                raise BadRequest(f"it is not your move ({self.state.current_player()} is to play)")
            if not isinstance(action, int) or isinstance(action, bool):
                raise BadRequest(f"a move is an action id, an integer (got {action!r})")
            if action not in self.state.legal_actions():
                raise BadRequest(f"{action} is not one of your legal moves")
            self.state.apply_action(action)
            self._changed()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    # ----- chance and the bots, on the table's thread -----------------------------------
    def _changed(self) -> None:
        self.version += 1
        self.cond.notify_all()

    def _run(self) -> None:
        try:
            while True:
                with self.cond:
                    self.cond.wait_for(
                        lambda: (
                            self.closed
                            or self.state.is_terminal()
                            or self.state.current_player() != self.human
                        )
                    )
                    if self.closed or self.state.is_terminal():
                        return
                    if self.state.is_chance_node():
                        outcomes = self.state.chance_outcomes()
                        self.state.apply_action(outcomes[below(self.rng, len(outcomes))][0])
                        self._changed()
                        continue
                    seat = self.state.current_player()
                    before = self.state.clone()
                if self.pace:
                    time.sleep(self.pace)
                bot = self.bots[seat]
                action = bot.step(before.clone())
                stats = getattr(bot, "last_search", None)
                with self.cond:
                    if self.closed:
                        return
                    index = len(self.state.history())
                    self.state.apply_action(action)
                    if stats is not None and len(stats.actions) > 1:
                        self.searches[index] = BotMove(seat, before, stats, action)
                    self._changed()
        except Exception as e:  # a bot that fails stops the table and says why
            with self.cond:
                self.error = f"{type(e).__name__}: {e}"
                self._changed()


class Tables:
    """Every live table of a server, by id."""

    def __init__(self) -> None:
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._seeds = itertools.count(secrets.randbelow(1 << 30))

    def open(self, request: dict) -> Table:
        """A new table from the page's form: ``game``, ``seat`` (the person's, or null to
        watch), ``agents`` (a spec per seat; the person's seat is ignored), optional
        ``seed`` and ``pace`` (seconds before each bot move)."""
        game = _load(request.get("game"))
        n = game.num_players()
        seat = request.get("seat")
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < n):
            raise BadRequest(f"seat must be one of 0..{n - 1}, or null to watch (got {seat!r})")
        agents = request.get("agents")
        if not isinstance(agents, list) or len(agents) != n:
            raise BadRequest(f"agents must list one agent spec per seat ({n} seats)")
        specs = [HUMAN if p == seat else str(spec).strip() for p, spec in enumerate(agents)]
        for p, spec in enumerate(specs):
            if p != seat and spec == HUMAN:
                raise BadRequest(
                    f"seat {p}: a person can only sit at your seat; give an "
                    "agent spec such as random, heuristic or ismcts(seconds=1)"
                )
        seed = request.get("seed")
        seed = next(self._seeds) if seed is None else seed
        pace = request.get("pace", 0.4)
        if not isinstance(seed, int) or not isinstance(pace, (int, float)) or not 0 <= pace <= 10:
            raise BadRequest("seed must be an integer and pace a number of seconds (0..10)")
        for p, spec in enumerate(specs):
            if p != seat:
                try:
                    make_agent(spec, game)
                except (ValueError, pyspiel.SpielError, OSError) as e:
                    raise BadRequest(f"seat {p}: {e}") from None
        table = Table(secrets.token_hex(6), game, specs, seat, seed, float(pace))
        with self._lock:
            if len(self._tables) >= MAX_TABLES:
                oldest = next(iter(self._tables))
                self._tables.pop(oldest).close()
            self._tables[table.id] = table
        return table

    def get(self, table_id: str) -> Table:
        with self._lock:
            table = self._tables.get(table_id)
        if table is None:
            raise KeyError(f"no table {table_id!r} (closed, or the server was restarted)")
        return table

    def close_all(self) -> None:
        with self._lock:
            for table in self._tables.values():
                table.close()
            self._tables.clear()


def _load(game: Any) -> KernelGame:
    if not isinstance(game, str) or not game.strip():
        raise BadRequest("game must be a game string, e.g. skip_columns(players=4)")
    try:
        return load(game)
    except (ValueError, pyspiel.SpielError) as e:
        raise BadRequest(str(e)) from None
