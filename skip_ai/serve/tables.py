"""Live games: a person at one seat (or nobody: bots watched with every card open), the
other seats' bots (offered by the server, :mod:`skip_ai.serve.offer`), chance drawn from the
table's own generator.

Each :class:`Table` has a thread that plays chance and the bots. A bot thinks on a copy of
the state, outside the table's lock, so a page asking for the view is answered at once
while a bot searches; a page waits for a newer version (long polling) on the table's
condition, or, in the server's event loop, on a future the table settles
(:meth:`Table.wait_past`). The last :data:`SEARCHES_KEPT` moves of a searching bot are kept
with the state each was made in, so the page can show why the bot moved: a summary of the
search's root (a copy of its few rows, never the bot's arrays, whose slices hold a whole
tree's worth of rows), so a table's memory is bounded whatever its bots' budgets.

The person's forced moves (his seat's only legal one, :func:`skip_ai.play.forced_action`) are
played by the table's thread, after the pace like a bot's move, unless the table was opened
with ``auto_forced`` false; the log marks them "(forced)". The pace is the least time a bot's
move takes, its thinking included: a bot that thinks within the pace adds no wait.

A table whose game is over keeps its state and search summaries, not its bots.

A table's bots stop with it: closing a table sets its cancel flag, which its thread reads
between moves and a search between chunks of its iterations (:func:`stoppable`), so a
search ends within a few milliseconds of its table, and is bounded per move anyway.

The slots are bounded (``max_tables``). A table whose game is over (or failed) goes first to
make room, then one nobody has asked about for ``idle`` seconds; a game in play is never
closed: when every slot holds one, a new table is refused (503). A closed table's id says
why it was closed (410).
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from agents.openspiel_bots import OpenSpielISMCTS
from skip_ai.kernel.rng import below, make_rng
from skip_ai.kernel.state import MAX_CARDS, hidden_from
from skip_ai.play import forced_action
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.serve import views
from skip_ai.serve.errors import BadRequest, Full, Gone, NotFound
from skip_ai.serve.offer import Offer

__all__ = ["BadRequest", "Table", "Tables"]

HUMAN = "human"
MAX_TABLES = 32
"""Tables kept in memory."""
IDLE = 600.0
"""Seconds without a request about a table before it may be closed to make room."""
WAIT = 15.0
"""Longest wait of a long poll, seconds."""
CHUNK = 256
"""Iterations of a search between two looks at its table's cancel flag."""
TABLE_ID = 12
"""Hex digits of a table's id."""
REMEMBERED = 4096
"""Closed tables whose ids still say why they were closed."""
MAX_GAME = 200
"""The longest game string a request may send."""
SEEDS = 1 << 63
SEARCHES_KEPT = 80
"""A searching bot's last moves whose search a table keeps: as many as its log shows."""


class Cancelled(Exception):
    """A bot's search stopped because its table was closed."""


class _StoppableKernel:
    """An ISMCTS search kernel whose ``run`` does its iterations in chunks of :data:`CHUNK`,
    looking at ``cancel`` before each: the same search (a run is a sequence of iterations on
    the tree it is given), stopped within a chunk of its table's closing."""

    def __init__(self, kernel: Any, cancel: threading.Event):
        self._kernel = kernel
        self._cancel = cancel

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kernel, name)

    def run(self, root, rng, iterations, tree, stats, meta, settings):
        done = 0
        while done < iterations:
            if self._cancel.is_set():
                raise Cancelled
            want = min(CHUNK, iterations - done)
            ran = self._kernel.run(root, rng, want, tree, stats, meta, settings)
            done += ran
            if ran < want:  # the tree is nearly full: the caller grows it
                break
        return done


def stoppable(bot: pyspiel.Bot, cancel: threading.Event) -> pyspiel.Bot:
    """``bot`` made to stop its search when ``cancel`` is set: our ISMCTS between chunks of
    iterations, OpenSpiel's before each iteration; a bot that does not search moves at once."""
    kernel = getattr(bot, "kernel", None)
    if kernel is not None and hasattr(kernel, "run"):
        bot.kernel = _StoppableKernel(kernel, cancel)
    elif isinstance(bot, OpenSpielISMCTS):
        sample = bot.sample_root_state

        def sample_unless_cancelled(state):
            if cancel.is_set():
                raise Cancelled
            return sample(state)

        bot.sample_root_state = sample_unless_cancelled
    return bot


@dataclass(frozen=True)
class Summary:
    """What the page shows of a search: its size and time, and per root move its visits and
    mean value, in arrays of their own (a bot's ``last_search`` may be slices of arrays as
    long as its tree)."""

    iterations: int
    seconds: float
    actions: np.ndarray
    visits: np.ndarray
    values: np.ndarray

    @classmethod
    def of(cls, stats: Any) -> Summary:
        return cls(
            int(stats.iterations),
            float(stats.seconds),
            np.array(stats.actions, np.int64),
            np.array(stats.visits, np.int64),
            np.array(stats.values, np.float64),
        )

    @property
    def nbytes(self) -> int:
        return self.actions.nbytes + self.visits.nbytes + self.values.nbytes


@dataclass
class BotMove:
    """A searching bot's move: the state it moved in, its search's summary, the action."""

    seat: int
    before: pyspiel.State
    stats: Summary
    action: int


def knows_more(state: pyspiel.State, seat: int, viewer: int) -> bool:
    """Whether ``seat`` knows where some card is that ``viewer`` does not: then what it
    computes (a search's moves, visits, values) tells ``viewer`` something of that card."""
    s = state.kernel_state()
    return any(hidden_from(s, c, viewer) and not hidden_from(s, c, seat) for c in range(MAX_CARDS))


@dataclass
class Table:
    """One live game. ``human`` is the person's seat, None when bots play alone. ``bots``:
    a bot per seat (None at the person's)."""

    id: str
    game: KernelGame
    specs: list[str]
    human: int | None
    seed: int
    pace: float
    bots: list[pyspiel.Bot | None]
    auto_forced: bool = True
    state: pyspiel.State = field(init=False)
    version: int = 0
    error: str | None = None
    searches: dict[int, BotMove] = field(default_factory=dict)
    forced: set[int] = field(default_factory=set)
    """History indices of the person's moves played for him (his only legal one)."""
    closed: bool = False
    closed_because: str = ""

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state()
        self.rng = make_rng(self.seed)
        self.cancel = threading.Event()
        self.bots = [None if b is None else stoppable(b, self.cancel) for b in self.bots]
        self.last_seen = time.monotonic()
        self.cond = threading.Condition()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []
        self.thread = threading.Thread(target=self._run, name=f"table-{self.id}", daemon=True)
        self.thread.start()

    # ----- what the page sees -----------------------------------------------------------
    @property
    def open(self) -> bool:
        """Every card shown: bots watched with no person at the table, or the game over."""
        return self.human is None or self.state.is_terminal()

    @property
    def in_play(self) -> bool:
        """The game goes on: not over, not failed, not closed."""
        return not (self.closed or self.error or self.state.is_terminal())

    def touch(self) -> None:
        """A request about this table came: it is not idle."""
        self.last_seen = time.monotonic()

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
            if self._for_the_person() is not None:  # the table plays it: nothing to click
                view["moves"] = []
                view["turn"] = "your only legal move: played for you"
            if self.state.is_terminal() and self.human is not None:
                view["open"] = views.table_view(self.state, None, agents=self.specs)["seats"]
            why = set(self.searches)
            for entry in view["log"]:
                entry["why"] = entry["i"] in why
                entry["forced"] = entry["i"] in self.forced
                if entry["forced"]:
                    entry["text"] += " (forced)"
            return {
                **view,
                "id": self.id,
                "version": self.version,
                "error": self.error,
                "human": self.human,
                "pace": self.pace,
                "auto_forced": self.auto_forced,
            }

    async def wait_past(self, after: int, timeout: float = WAIT) -> None:
        """Wait, in an event loop, until the version is past ``after``, the table is closed,
        or ``timeout`` seconds have passed; no thread waits meanwhile."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        with self.cond:
            if self.version > after or self.closed:
                return
            self._waiters.append((loop, done))
        try:
            await asyncio.wait_for(done, timeout)
        except TimeoutError:
            pass
        finally:
            with self.cond:
                if (loop, done) in self._waiters:
                    self._waiters.remove((loop, done))

    def search(self, index: int) -> dict:
        """Why the bot made the move at history index ``index``."""
        with self.cond:
            if index not in self.searches:
                raise BadRequest(f"no searching bot's move at history index {index}")
            return self._search(index)

    def _search(self, index: int) -> dict:
        """A bot's search as the viewer may see it: everything when every card is open, or
        when the bot knew nothing the person did not; else only the move, as the person saw
        it (its number of moves, visits and values come from cards the person cannot see)."""
        move = self.searches[index]
        full = self.open or not knows_more(move.before, move.seat, self.human)
        seen = "" if full else self.state.history_seen_by(self.human)[index][1]
        return views.search_view(
            move.before, move.seat, move.stats, move.action, seen, full=full
        ) | {"i": index}

    # ----- the person's move ------------------------------------------------------------
    def play(self, action: Any) -> None:
        """Apply the person's move; a move out of turn or not legal is a :class:`BadRequest`."""
        with self.cond:
            if self.closed:
                raise Gone(self.closed_because)
            if self.human is None:
                raise BadRequest("nobody plays at this table: the bots play alone")
            if self.state.is_terminal():
                raise BadRequest("the game is over")
            if self.state.current_player() != self.human:
                raise BadRequest(f"it is not your move ({self.state.current_player()} is to play)")
            if not isinstance(action, int) or isinstance(action, bool):
                raise BadRequest(f"a move is an action id, an integer (got {action!r:.40})")
            if action not in self.state.legal_actions():
                raise BadRequest(f"{action} is not one of your legal moves")
            self.state.apply_action(action)
            self._changed()

    def close(self, because: str = "closed") -> None:
        """Close the table: its thread and any search stop; waiting pages are answered."""
        with self.cond:
            if not self.closed:
                self.closed, self.closed_because = True, f"this table was closed: {because}"
            self.cancel.set()
            self._changed()

    # ----- chance and the bots, on the table's thread -----------------------------------
    def _changed(self) -> None:
        self.version += 1
        self.cond.notify_all()
        for loop, done in self._waiters:
            loop.call_soon_threadsafe(_settle, done)
        self._waiters.clear()

    def _for_the_person(self) -> int | None:
        """The person's move the table plays for him: his seat's only legal one, when
        ``auto_forced``."""
        if not self.auto_forced or self.state.current_player() != self.human:
            return None
        return forced_action(self.state)

    def _run(self) -> None:
        try:
            self._play()
        except Cancelled:
            pass
        except Exception as e:  # a bot that fails stops the table and says why
            with self.cond:
                self.error = f"{type(e).__name__}: {e}"
                self._changed()
        finally:
            self.bots = []  # a finished table keeps what the page shows, not its bots

    def _play(self) -> None:
        while True:
            with self.cond:
                self.cond.wait_for(
                    lambda: (
                        self.closed
                        or self.state.is_terminal()
                        or self.state.current_player() != self.human
                        or self._for_the_person() is not None
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
            start = time.monotonic()
            stats = None
            if seat == self.human:  # a forced move: the person could only make this one
                action = forced_action(before)
            else:
                bot = self.bots[seat]
                action = bot.step(before.clone())
                stats = getattr(bot, "last_search", None)
            # the pace counts the thinking: a move shows no sooner than the pace after its turn
            wait = self.pace - (time.monotonic() - start)
            if wait > 0 and self.cancel.wait(wait):
                return
            with self.cond:
                if self.closed:
                    return
                index = len(self.state.history())
                if index != len(before.history()):  # the person made his forced move himself
                    continue
                self.state.apply_action(action)
                if seat == self.human:
                    self.forced.add(index)
                elif stats is not None:  # forced moves too: which were is the bot's secret
                    self.searches[index] = BotMove(seat, before, Summary.of(stats), action)
                    while len(self.searches) > SEARCHES_KEPT:
                        del self.searches[min(self.searches)]
                self._changed()

    def retained(self) -> dict[str, int]:
        """What this table holds beyond its game's state: its searches kept, their summaries'
        bytes, the person's forced moves noted, and its bots (none once the game is over)."""
        with self.cond:
            return {
                "searches": len(self.searches),
                "search_bytes": sum(m.stats.nbytes for m in self.searches.values()),
                "forced": len(self.forced),
                "bots": sum(b is not None for b in self.bots),
            }


def _settle(done: asyncio.Future) -> None:
    if not done.done():
        done.set_result(None)


def _age(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes else f"{seconds:.0f} s"


class Tables:
    """Every live table of a server, by id; at most ``max_tables``."""

    def __init__(
        self, offer: Offer | None = None, max_tables: int = MAX_TABLES, idle: float = IDLE
    ) -> None:
        self.offer = offer or Offer()
        self.max_tables = max_tables
        self.idle = idle
        self._tables: dict[str, Table] = {}
        self._gone: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._seeds = itertools.count(secrets.randbelow(1 << 30))

    def open(self, request: dict) -> Table:
        """A new table from the page's form: ``game``, ``seat`` (the person's, or null to
        watch), ``agents`` (a spec per seat, offered by the server; the person's seat is
        ignored), optional ``seed``, ``pace`` (the least seconds a bot's move takes, its
        thinking included) and ``auto_forced`` (true by default: the person's forced moves
        are played for him)."""
        if not isinstance(request, dict):
            raise BadRequest("the request body must be a JSON object")
        with self._lock:
            self._make_room()  # refused before any work when every slot holds a live game
        game = _load(request.get("game"))
        n = game.num_players()
        seat = request.get("seat")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n
        ):
            raise BadRequest(f"seat must be one of 0..{n - 1}, or null to watch (got {seat!r:.20})")
        agents = request.get("agents")
        if not isinstance(agents, list) or len(agents) != n:
            raise BadRequest(f"agents must list one agent spec per seat ({n} seats)")
        seed = request.get("seed")
        seed = next(self._seeds) if seed is None else seed
        pace = request.get("pace", 0.4)
        if (
            not isinstance(seed, int)
            or isinstance(seed, bool)
            or not 0 <= seed < SEEDS
            or not isinstance(pace, (int, float))
            or isinstance(pace, bool)
            or not 0 <= pace <= 10
        ):
            raise BadRequest(
                "seed must be a whole number in 0..2^63-1 and pace a number of seconds (0..10)"
            )
        auto_forced = request.get("auto_forced", True)
        if not isinstance(auto_forced, bool):
            raise BadRequest(
                f"auto_forced must be true or false (got {auto_forced!r:.20}): whether your "
                "forced moves are played for you"
            )
        vetted = {}
        for p, spec in enumerate(agents):
            if p == seat:
                continue
            if isinstance(spec, str) and spec.strip() == HUMAN:
                raise BadRequest(
                    f"seat {p}: a person can only sit at your seat; give an "
                    "agent spec such as random, heuristic or ismcts(seconds=1)"
                )
            vetted[p] = self.offer.vet(spec, p)
        bots = [
            None if p == seat else self.offer.build(vetted[p], game, seed + 1 + p, p)
            for p in range(n)
        ]
        specs = [HUMAN if p == seat else vetted[p].spec for p in range(n)]
        with self._lock:
            self._make_room()
            table = Table(
                _new_id(self._tables), game, specs, seat, seed, float(pace), bots, auto_forced
            )
            self._tables[table.id] = table
        return table

    def _make_room(self) -> None:
        """A free slot, or one made by closing a finished table, else the longest idle; a
        :class:`Full` error when every slot holds a game in play."""
        if len(self._tables) < self.max_tables:
            return
        now = time.monotonic()
        done = [t for t in self._tables.values() if not t.in_play]
        if done:
            table = min(done, key=lambda t: t.last_seen)
            because = "its game was over" if not table.error else "its game failed"
            self._close(table, f"{because}, and its place was needed")
            return
        idle = [t for t in self._tables.values() if now - t.last_seen >= self.idle]
        if idle:
            table = min(idle, key=lambda t: t.last_seen)
            self._close(table, f"idle {_age(now - table.last_seen)}, and its place was needed")
            return
        raise Full(
            f"every one of the {self.max_tables} tables holds a game in play: try again "
            f"when one ends (a table nobody has looked at for {_age(self.idle)} makes room)"
        )

    def _close(self, table: Table, because: str) -> None:
        self._tables.pop(table.id, None)
        table.close(because)
        self._gone[table.id] = table.closed_because
        while len(self._gone) > REMEMBERED:
            self._gone.popitem(last=False)

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` (and it is not idle); 410 for a closed one, 404 else."""
        with self._lock:
            table = self._tables.get(table_id)
            gone = self._gone.get(table_id)
        if table is None:
            if gone is not None:
                raise Gone(gone)
            raise NotFound(f"no table {table_id[:TABLE_ID]!r} (or the server was restarted)")
        table.touch()
        return table

    def close(self, table_id: str, because: str = "its page closed it") -> None:
        """Close one table (its page left it)."""
        table = self.get(table_id)
        with self._lock:
            if self._tables.get(table_id) is table:
                self._close(table, because)

    def __len__(self) -> int:
        return len(self._tables)

    def close_all(self) -> None:
        with self._lock:
            for table in list(self._tables.values()):
                self._close(table, "the server stopped")


def _new_id(taken: dict) -> str:
    while True:
        table_id = secrets.token_hex(TABLE_ID // 2)
        if table_id not in taken:
            return table_id


def _load(game: Any) -> KernelGame:
    if not isinstance(game, str) or not game.strip() or len(game) > MAX_GAME:
        raise BadRequest(
            f"game must be a game string of at most {MAX_GAME} characters, "
            "e.g. skip_columns(players=4)"
        )
    try:
        return load(game)
    except (ValueError, pyspiel.SpielError) as e:
        raise BadRequest(str(e)) from None
    except Exception:  # noqa: BLE001 (whatever else a mangled string makes pyspiel raise)
        raise BadRequest(f"game: {game!r:.60} is not a game string this server loads") from None
