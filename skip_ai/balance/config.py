"""A balance study's configuration: the TOML file read, checked and spelled out.

```toml
name = "columns-study"     # the batch's name, written into every record
seed = 1                   # the batch seed (default 0)
deals = 200                # self-play deals per variant and rung
trace_deals = 100          # duplicate deals per step of the ladder (rung k+1 against rung k)
workers = 2                # processes (default 1; --workers overrides)
games_per_task = 20        # games per task and per shard (default 20)
out = "runs/columns-study" # output folder (default runs/NAME)

[[games]]                  # the variants; the first is the default the others are tested against
game = "skip_columns(players=4)"
[[games]]
game = "skip_columns(players=2)"

[[agents]]                 # the ladder's rungs, weakest first
name = "random"
spec = "random"
[[agents]]
name = "ismcts-250"
spec = "ismcts(iterations=250)"

[measures]                 # how the per-decision measures read the searches (defaults shown)
decided_threshold = 0.8    # a game is decided once the winner's estimate stays above this
meaningful_spread = 0.1    # a choice is meaningful when best − worst root value ≥ this
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

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents import agent_name
from skip_ai.tournament.config import (
    Agent,
    ConfigError,
    _agents,
    _field,
    _games,
    _positive,
    _tables,
    batch_head,
    read_toml,
    spec_files,
)

_TOP = {
    "name",
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


@dataclass(frozen=True)
class Objective:
    fairness: float = 1.0
    skill_depth: float = 0.05
    length: float = 0.0
    length_target: float = 0.0
    drama: float = 0.0


@dataclass(frozen=True)
class Halving:
    rounds: int
    rung: int  # the index of the rung that decides contention


# (lowest, highest) allowed for every number of the two tables
_RANGES = {
    "decided_threshold": (0.5, 1.0),
    "meaningful_spread": (0.0, 1.0),
    "settle_tolerance": (0.0, 0.5),
    "fairness": (0.0, math.inf),
    "skill_depth": (0.0, math.inf),
    "length": (0.0, math.inf),
    "length_target": (0.0, math.inf),
    "drama": (0.0, math.inf),
}


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
    agents: tuple[Agent, ...]  # the rungs, weakest first
    measures: Measures = field(default_factory=Measures)
    objective: Objective = field(default_factory=Objective)
    halving: Halving | None = None

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
        return identity


def load_balance_config(path: str | Path) -> BalanceConfig:
    """Read and check a balance study's config file."""
    return parse_balance_config(read_toml(path), source=str(path))


def parse_balance_config(raw: dict[str, Any], source: str = "config") -> BalanceConfig:
    """Check a parsed balance config (a dict as TOML gives it)."""

    def fail(msg: str) -> ConfigError:
        return ConfigError(f"{source}: {msg}")

    name, seed = batch_head(raw, _TOP, fail)
    deals = _positive(raw, "deals", fail)
    trace_deals = _positive(raw, "trace_deals", fail, default=deals)
    workers = _positive(raw, "workers", fail, default=1)
    per_task = _positive(raw, "games_per_task", fail, default=20)
    out = Path(_field(raw, "out", str, fail, default=f"runs/{name}"))
    games = _games(_tables(raw, "games", fail), fail)
    agents = _agents(_tables(raw, "agents", fail), games, fail)
    measures = Measures(**_numbers(raw, "measures", Measures, fail))
    objective = Objective(**_numbers(raw, "objective", Objective, fail))
    if objective.length > 0 and objective.length_target <= 0:
        raise fail(
            "[objective] 'length' > 0 needs 'length_target' > 0 (the number of moves wanted)"
        )
    halving = _halving(raw, agents, deals, fail)
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
    )


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
        if not math.isfinite(value) or not lo <= value <= hi:
            raise fail(
                f"[{table}] field {key!r} must be a finite number in [{lo}, {hi}] (got {value!r})"
            )
        out[key] = float(value)
    return out
