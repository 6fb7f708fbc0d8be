"""A balance study's configuration: the TOML file read, checked and spelled out.

```toml
name = "columns-study"     # the batch's name, written into every record
seed = 1                   # the batch seed (default 0)
deals = 200                # self-play deals per variant and rung (not with [precision])
trace_deals = 100          # duplicate deals per step of the ladder (rung k+1 against rung k)
mirror = true              # self-play plays each deal and its mirror, as a pair (default false)
workers = 2                # processes (default 1, at most 256; --workers overrides)
games_per_task = 20        # games per task and per shard (default 20)
out = "runs/columns-study" # output folder (default runs/NAME)

[precision]                # optional: deal sequentially to a stated precision (defaults shown)
target = 0.03              # stop once team 0's score (each seat's) is known to ± this
margin = 0.03              # ... or lies this far beyond fair
first = 50                 # deals at the first look; each next look × growth
growth = 1.5
cap_games = 4000           # per variant and rung, mirrored games included
cap_seconds = inf          # per variant and rung: recorded game-seconds (machine-dependent)

[[games]]                  # the variants; the first is the default the others are tested against
game = "skip_columns(players=4)"
[[games]]
game = "skip_columns(players=2)"
agents = ["random", "heuristic", "ismcts-250"]  # optional: this variant's own ladder

[[agents]]                 # the rungs, weakest first (every variant's unless it names its own)
name = "random"
spec = "random"
[[agents]]
name = "heuristic"
spec = "heuristic"
[[agents]]
name = "ismcts-250"
spec = "ismcts(iterations=250)"
cap_games = 400            # optional, with [precision]: this rung's own caps

[measures]                 # the per-decision measures' evaluator and thresholds (defaults shown)
evaluator = "ismcts(iterations=400)"  # the one fixed evaluator, the same for every rung
evaluated_games = 20       # self-play games per variant and rung it reads (0: none)
decided_threshold = 0.8    # a game is decided once the winner's chance stays above this
meaningful_spread = 0.1    # a choice is meaningful when best − second-best value ≥ this
band = 0.1                 # the lead changes only when team 0's chance leaves ½ ± band/2
settle_tolerance = 0.03    # team 0's score has settled when the top two rungs differ by less

[objective]                # the designer's ranking of variants: weights of penalties (≥ 0)
fairness = 1.0             # |team 0's score − ½| at the top rung
skill_depth = 0.05         # minus the number of ladder steps that skill clearly wins
length = 0.0               # |mean moves − length_target| / length_target
length_target = 0.0        # the number of moves the designer wants (needed if length > 0)
drama = 0.0                # minus the mean drama

[halving]                  # optional: spend the deals on the variants still in contention
rounds = 3                 # round k of R plays up to ⌈deals / 2^(R−k)⌉ deals (trace_deals alike)
rung = "ismcts-250"        # the rung whose self-play decides contention (default: the top one)
```

With ``[precision]`` each variant's self-play rungs deal sequentially
(:mod:`skip_ai.balance.sequential`) until the headline is as precise as asked, far enough
from fair, or capped. A variant's own ``agents`` list (names from ``[[agents]]``) lets one
variant climb a rung the others lack — a model trained for that variant only; the agents are
checked only on the variants whose ladders hold them.

With ``[halving]`` the study plays in rounds (:mod:`skip_ai.balance.halving`): after each
round but the last, a variant whose objective's interval lies entirely above (worse than) the
best variant's of its game stops receiving deals. Without it every variant gets every deal,
and the study's identity (what its records depend on) is the one it always had.

Every mistake is a :class:`~skip_ai.tournament.config.ConfigError` naming the file and the
field; every number is checked for its range and for being finite. Games and agents are
checked as a tournament's are (the same functions), so a study fails before any game is
played.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from agents import agent_name, make_agent
from skip_ai.balance.evaluator import DEFAULT_EVALUATOR, check_evaluator
from skip_ai.pyspiel_wrapper import load
from skip_ai.tournament.config import (
    Agent,
    ConfigError,
    _agents,
    _field,
    _games,
    _positive,
    _tables,
    agent_entry,
    batch_head,
    batch_out,
    batch_workers,
    read_toml,
    spec_files,
)

_TOP = {
    "name",
    "mirror",
    "precision",
    "seed",
    "deals",
    "trace_deals",
    "workers",
    "games_per_task",
    "out",
    "games",
    "agents",
    "measures",
    "objective",
    "halving",
}


@dataclass(frozen=True)
class Measures:
    decided_threshold: float = 0.8
    meaningful_spread: float = 0.1
    settle_tolerance: float = 0.03
    band: float = 0.1  # no lead change while team 0's chance stays within ½ ± band/2
    evaluated_games: int = 20  # per variant and rung, read by the evaluator (0: none)
    evaluator: str = DEFAULT_EVALUATOR  # the one fixed evaluator of the per-decision measures


@dataclass(frozen=True)
class Objective:
    fairness: float = 1.0
    skill_depth: float = 0.05
    length: float = 0.0
    length_target: float = 0.0
    drama: float = 0.0


@dataclass(frozen=True)
class Precision:
    """The sequential rule (:mod:`skip_ai.balance.sequential`): per variant and self-play rung,
    deal until the headline's confidence sequence is ``target`` narrow (its half-width), or
    lies ``margin`` or more beyond fair, or the rung's cap is reached."""

    target: float = 0.03
    margin: float = 0.03
    first: int = 50  # deals at the first look
    growth: float = 1.5  # each look plays this many times the deals of the one before
    cap_games: int = 4000  # per variant and rung, mirrored games included
    cap_seconds: float = math.inf  # per variant and rung: the recorded game-seconds


@dataclass(frozen=True)
class Halving:
    rounds: int
    rung: int  # the index of the rung that decides contention


# (lowest, highest) allowed for every number of the two tables
_RANGES = {
    "decided_threshold": (0.5, 1.0),
    "meaningful_spread": (0.0, 1.0),
    "settle_tolerance": (0.0, 0.5),
    "band": (0.0, 0.5),
    "evaluated_games": (0, 100_000),
    "fairness": (0.0, math.inf),
    "skill_depth": (0.0, math.inf),
    "length": (0.0, math.inf),
    "length_target": (0.0, math.inf),
    "drama": (0.0, math.inf),
    "target": (0.001, 0.5),
    "margin": (0.0, 0.5),
    "first": (2, 1_000_000),
    "growth": (1.05, 10.0),
    "cap_games": (2, 10_000_000),
    "cap_seconds": (1.0, math.inf),
}
_INTEGERS = {"first", "cap_games", "evaluated_games"}


@dataclass(frozen=True)
class BalanceConfig:
    name: str
    seed: int
    deals: int
    trace_deals: int
    workers: int
    games_per_task: int
    out: Path
    games: tuple[str, ...]  # the variants, full game strings; games[0] the default
    agents: tuple[Agent, ...]  # every rung of every ladder
    measures: Measures = field(default_factory=Measures)
    objective: Objective = field(default_factory=Objective)
    halving: Halving | None = None
    precision: Precision | None = None
    mirror: bool = False  # self-play plays each deal and its mirror (games that have one)
    ladders: tuple[tuple[int, ...], ...] = ()  # per variant, its rungs (indices into agents)
    caps: tuple[tuple[int, float, float], ...] = ()  # per agent: cap_games, cap_seconds, margin

    def rungs(self, v: int) -> tuple[Agent, ...]:
        """Variant ``v``'s ladder, weakest first (every agent unless its game names them)."""
        if not self.ladders:
            return self.agents
        return tuple(self.agents[a] for a in self.ladders[v])

    def names(self, v: int) -> list[str]:
        return [a.name for a in self.rungs(v)]

    def cap(self, v: int, rung: int) -> tuple[int, float, float]:
        """The games and game-seconds variant ``v``'s rung ``rung`` may spend, and the margin
        beyond fair that stops it (``[precision]``, or its agent's own)."""
        a = self.ladders[v][rung] if self.ladders else rung
        return self.caps[a]

    def identity(self) -> dict[str, Any]:
        """What the records depend on (the measures and the objective only read them)."""
        identity = {
            "kind": "balance",
            "name": self.name,
            "seed": self.seed,
            "deals": self.deals,
            "trace_deals": self.trace_deals,
            "games": list(self.games),
            "agents": [{"name": a.name, "spec": agent_name(a.spec)} for a in self.agents],
        }
        files = spec_files(a.spec for a in self.agents if isinstance(a.spec, str))
        if files:
            identity["files"] = files
        if self.halving is not None:  # which games are played depends on it
            identity["halving"] = {"rounds": self.halving.rounds, "rung": self.halving.rung}
        # the fields below are absent at their defaults, so studies begun before them resume
        if self.precision is not None:
            identity["precision"] = {
                k: _finite(v) for k, v in dataclasses.asdict(self.precision).items()
            }
            identity["caps"] = [[g, _finite(s), m] for g, s, m in self.caps]
        if self.mirror:
            identity["mirror"] = True
        if self.ladders:
            identity["ladders"] = [list(x) for x in self.ladders]
        return identity


def _finite(x: float) -> float | None:
    """``x``, or None for an absent (infinite) cap: JSON has no infinity."""
    return x if math.isfinite(x) else None


def load_balance_config(path: str | Path) -> BalanceConfig:
    """Read and check a balance study's config file."""
    return parse_balance_config(read_toml(path), source=str(path))


def parse_balance_config(raw: dict[str, Any], source: str = "config") -> BalanceConfig:
    """Check a parsed balance config (a dict as TOML gives it)."""

    def fail(msg: str) -> ConfigError:
        return ConfigError(f"{source}: {msg}")

    name, seed = batch_head(raw, _TOP, fail)
    if "precision" in raw:  # the sequential rule decides the self-play deals
        if "deals" in raw:
            raise fail("'deals' is decided by [precision] (its looks and caps): leave it out")
        deals = 0
        trace_deals = _positive(raw, "trace_deals", fail)
    else:
        deals = _positive(raw, "deals", fail)
        trace_deals = _positive(raw, "trace_deals", fail, default=deals)
    workers = batch_workers(raw, fail)
    per_task = _positive(raw, "games_per_task", fail, default=20)
    out = batch_out(raw, name, fail)
    game_tables = _tables(raw, "games", fail)
    games = _games([{"game": t.get("game")} for t in game_tables], fail)
    agent_tables = _tables(raw, "agents", fail)
    ladders = _ladders(game_tables, agent_tables, fail)
    agents = _ladder_agents(agent_tables, games, ladders, fail)
    measures = _measures(raw, games, fail)
    objective = Objective(**_numbers(raw, "objective", Objective, fail))
    if objective.length > 0 and objective.length_target <= 0:
        raise fail(
            "[objective] 'length' > 0 needs 'length_target' > 0 (the number of moves wanted)"
        )
    halving = _halving(raw, agents, deals, fail)
    precision = (
        Precision(**_numbers(raw, "precision", Precision, fail)) if "precision" in raw else None
    )
    mirror = _field(raw, "mirror", bool, fail, default=False)
    if halving is not None and (precision is not None or ladders):
        raise fail(
            "[halving] plays fixed deal counts on one ladder: it cannot be combined "
            "with [precision] or with a variant's own 'agents'"
        )
    caps = _caps(agent_tables, precision or Precision(), fail)
    if precision is None:
        if any(set(t) & {"cap_games", "cap_seconds", "margin"} for t in agent_tables):
            raise fail("an agent's 'cap_games', 'cap_seconds' or 'margin' needs [precision]")
        caps = ()
    return BalanceConfig(
        name,
        seed,
        deals,
        trace_deals,
        workers,
        per_task,
        out,
        games,
        agents,
        measures,
        objective,
        halving,
        precision,
        mirror,
        ladders,
        caps,
    )


_AGENT_FIELDS = {"name", "spec", "cap_games", "cap_seconds", "margin"}


def _ladders(game_tables: list[dict], agent_tables: list[dict], fail) -> tuple:
    """Per variant, the indices of its rungs: a ``[[games]]`` table may name its own ladder
    (``agents = ["random", "heuristic", "learned-brook"]``, weakest first, names from
    ``[[agents]]``), e.g. to add the rung of a model trained for that variant only; empty
    when no variant does (every variant plays every agent)."""
    names = [t.get("name") for t in agent_tables]
    ladders, own = [], False
    for i, t in enumerate(game_tables):
        where = f"[[games]] #{i + 1}"
        unknown = set(t) - {"game", "agents"}
        if unknown:
            raise fail(f"{where}: unknown field {sorted(unknown)[0]!r}; fields are game, agents")
        if "agents" not in t:
            ladders.append(tuple(range(len(names))))
            continue
        own = True
        rungs = t["agents"]
        if (
            not isinstance(rungs, list)
            or len(rungs) < 2
            or not all(isinstance(n, str) for n in rungs)
        ):
            raise fail(f"{where}: 'agents' must list at least two agent names (got {rungs!r})")
        for n in rungs:
            if n not in names:
                known = ", ".join(map(str, names))
                raise fail(f"{where}: agent {n!r} is not one of the [[agents]] ({known})")
        if len(set(rungs)) != len(rungs):
            raise fail(f"{where}: 'agents' names an agent twice ({rungs!r})")
        ladders.append(tuple(names.index(n) for n in rungs))
    return tuple(ladders) if own else ()


def _ladder_agents(tables: list[dict], games: tuple[str, ...], ladders: tuple, fail):
    """The ``[[agents]]``, each checked on the variants whose ladder holds it (a model trained
    for one variant refuses the others)."""
    for i, t in enumerate(tables):
        unknown = set(t) - _AGENT_FIELDS
        if unknown:
            raise fail(
                f"[[agents]] #{i + 1}: unknown field {sorted(unknown)[0]!r}; fields are "
                f"{', '.join(sorted(_AGENT_FIELDS))}"
            )
    plain = [{k: v for k, v in t.items() if k in ("name", "spec")} for t in tables]
    if not ladders:
        return _agents(plain, games, fail)
    agents: list[Agent] = []
    for i, t in enumerate(plain):
        where = f"[[agents]] #{i + 1}"
        mine = tuple(g for g, ladder in zip(games, ladders) if i in ladder)
        if not mine:
            raise fail(f"{where} ({t.get('name')!r}) is on no variant's ladder")
        agent = agent_entry(t, where, mine, fail)
        if any(a.name == agent.name for a in agents):
            raise fail(f"{where}: agent name {agent.name!r} is used twice")
        agents.append(agent)
    return tuple(agents)


def _caps(tables: list[dict], precision: Precision, fail) -> tuple[tuple[int, float, float], ...]:
    """Per agent, the games and game-seconds one variant's rung may spend and the margin that
    stops it: the agent's own ``cap_games`` / ``cap_seconds`` / ``margin`` where given (a cheap
    rung may go to the target however unfair the game, with ``margin = 0.5``), else
    ``[precision]``'s."""
    caps = []
    for t in tables:
        given = {k: t[k] for k in ("cap_games", "cap_seconds", "margin") if k in t}
        values = _numbers({"agents": given}, "agents", Precision, fail)
        caps.append(
            (
                int(values.get("cap_games", precision.cap_games)),
                float(values.get("cap_seconds", precision.cap_seconds)),
                float(values.get("margin", precision.margin)),
            )
        )
    return tuple(caps)


def _halving(raw: dict, agents: tuple[Agent, ...], deals: int, fail) -> Halving | None:
    """The optional ``[halving]`` table: its rounds leave the first round at least 2 deals (an
    interval needs two), its rung is one of the ladder's names."""
    if "halving" not in raw:
        return None
    table = raw["halving"]
    if not isinstance(table, dict):
        raise fail(f"[halving] must be a table (got {table!r})")
    unknown = set(table) - {"rounds", "rung"}
    if unknown:
        raise fail(f"[halving] unknown field {sorted(unknown)[0]!r}; fields are rounds, rung")
    rounds = _positive(table, "rounds", lambda msg: fail(f"[halving] {msg}"))
    if rounds > 30 or deals <= 2 ** (rounds - 1):  # ⌈deals / 2^(rounds−1)⌉ < 2
        raise fail(
            f"[halving] rounds = {rounds} leaves round 1 fewer than 2 of the {deals} deals "
            "(round k of R plays ⌈deals / 2^(R−k)⌉): fewer rounds or more deals"
        )
    names = [a.name for a in agents]
    rung = table.get("rung", names[-1])
    if not isinstance(rung, str) or rung not in names:
        raise fail(f"[halving] rung {rung!r} is not a rung of the ladder ({', '.join(names)})")
    return Halving(rounds, names.index(rung))


def _measures(raw: dict, games: tuple[str, ...], fail) -> Measures:
    """The ``[measures]`` table: its numbers, and the evaluator's spec (an ISMCTS), built on
    every variant so that a bad option (an iteration budget beyond its bound) stops the study
    here rather than failing each evaluation."""
    table = raw.get("measures", {})
    if not isinstance(table, dict):
        raise fail(f"[measures] must be a table (got {table!r})")
    table = dict(table)
    spec = table.pop("evaluator", DEFAULT_EVALUATOR)
    if not isinstance(spec, str):
        raise fail(f"[measures] field 'evaluator' must be an agent spec string (got {spec!r})")
    try:
        check_evaluator(spec)
    except ValueError as e:
        raise fail(f"[measures] field 'evaluator': {e}") from None
    for game in games:
        try:
            make_agent(spec, load(game), seed=0)
        except (ValueError, pyspiel.SpielError) as e:
            raise fail(f"[measures] field 'evaluator' on {game}: {e}") from None
    return Measures(**_numbers({"measures": table}, "measures", Measures, fail), evaluator=spec)


def _numbers(raw: dict, table: str, kind: type, fail) -> dict[str, float]:
    """The numbers of an optional table, each known, finite and in its range."""
    values = raw.get(table, {})
    if not isinstance(values, dict):
        raise fail(f"[{table}] must be a table (got {values!r})")
    known = kind.__dataclass_fields__
    out = {}
    for key, value in values.items():
        if key not in known:
            raise fail(f"[{table}] unknown field {key!r}; fields are {', '.join(known)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise fail(f"[{table}] field {key!r} must be a number (got {value!r})")
        lo, hi = _RANGES[key]
        try:
            finite = math.isfinite(value)
        except OverflowError:  # an integer too large for a float
            finite = False
        if not finite or not lo <= value <= hi:
            shown = repr(value) if finite or isinstance(value, float) else "a larger integer"
            raise fail(
                f"[{table}] field {key!r} must be a finite number in [{lo}, {hi}] (got {shown})"
            )
        if key in _INTEGERS and value != int(value):
            raise fail(f"[{table}] field {key!r} must be a whole number (got {value!r})")
        out[key] = int(value) if key in _INTEGERS else float(value)
    return out
