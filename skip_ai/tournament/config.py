"""A tournament's configuration: the TOML file read, checked and spelled out.

```toml
name = "balance-study"      # the batch's name, written into every record
seed = 11                   # the batch seed (default 0)
deals = 200                 # deals per (game, pair of agents), each played in every seating
workers = 2                 # processes (default 1, at most 256; `--workers` overrides)
games_per_task = 50         # games per shard (default 100); each game is a task
out = "runs/balance-study"  # output folder, relative to the working directory

[[games]]
game = "skip_guess(players=4)"

[[agents]]
name = "rnd"
spec = "random"
```

Every mistake is a :class:`ConfigError` naming the file and the field. Games are loaded and
agents built once here, so an unknown game, parameter or agent spec stops the batch before any
game is played. A config built in Python may also give an agent as a bot factory
(:data:`agents.BotFactory`, plain data such as :class:`agents.ismcts.ISMCTSAgent`) instead of a
spec string.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pyspiel

from agents import Agent as AgentSpec
from agents import agent_name, make_agent, parse_spec
from agents.shipped import model_file
from skip_ai.pyspiel_wrapper import load

_TOP = {"name", "seed", "deals", "workers", "games_per_task", "out", "games", "agents"}
MAX_WORKERS = 256
"""The most processes a batch may run (as a training run's ``actors``): 100 000 forked some 30
processes a second and played nothing. A fixed cap rather than one by this machine's CPUs, so
that a config runs, or is refused, alike everywhere."""
INT64_MAX = (1 << 63) - 1
"""Every integer field fits an int64 (TOML's own limit; Python's reader takes any size)."""


class ConfigError(ValueError):
    """A tournament config that cannot be run, with the reason."""


@dataclass(frozen=True)
class Agent:
    name: str
    spec: AgentSpec  # a spec string, or a bot factory


class BatchConfig(Protocol):
    """What the runner and the record store need of a batch's config (a tournament's, a
    balance study's)."""

    name: str
    out: Path
    workers: int
    games_per_task: int

    def identity(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class TournamentConfig:
    name: str
    seed: int
    deals: int
    workers: int
    games_per_task: int
    out: Path
    games: tuple[str, ...]  # full game strings, every parameter spelled out
    agents: tuple[Agent, ...]

    def identity(self) -> dict[str, Any]:
        """What the records depend on: a batch resumed with a different identity would mix
        two experiments. (``workers``, ``games_per_task`` and ``out`` only say how it runs.)
        The files the agents' specs name (weights, tuned searches, models) count by their
        content: editing one between two runs changes the experiment as much as the spec."""
        identity = {
            "name": self.name,
            "seed": self.seed,
            "deals": self.deals,
            "games": list(self.games),
            "agents": [{"name": a.name, "spec": agent_name(a.spec)} for a in self.agents],
        }
        files = spec_files(a.spec for a in self.agents if isinstance(a.spec, str))
        if files:  # absent otherwise, so batches begun before files counted still resume
            identity["files"] = files
        return identity


def spec_files(specs: Iterable[str]) -> dict[str, str]:
    """The SHA-256 of every file an agent spec names (any argument that is a file's path, and
    a shipped model named by its game, :mod:`agents.shipped`), by the argument as written."""
    files = {}
    for spec in specs:
        for key, value in parse_spec(spec)[1].items():
            if not isinstance(value, str):
                continue
            path = Path(value)
            if key == "model" and not path.is_file():
                try:
                    path = Path(model_file(value))
                except ValueError:  # no such model: building the agent says so
                    continue
            if path.is_file():
                files[value] = hashlib.sha256(path.read_bytes()).hexdigest()
    return dict(sorted(files.items()))


def load_config(path: str | Path) -> TournamentConfig:
    """Read and check a tournament config file."""
    return parse_config(read_toml(path), source=str(path))


def read_toml(path: str | Path) -> dict[str, Any]:
    """A config file's TOML, or a :class:`ConfigError` of one line saying why not."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path} is a folder, not a config file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read it ({e})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path} is not valid TOML: {e}") from None


def parse_config(raw: dict[str, Any], source: str = "config") -> TournamentConfig:
    """Check a parsed config (a dict as TOML gives it)."""

    def fail(msg: str) -> ConfigError:
        return ConfigError(f"{source}: {msg}")

    name, seed = batch_head(raw, _TOP, fail)
    deals = _positive(raw, "deals", fail)
    workers = batch_workers(raw, fail)
    per_task = _positive(raw, "games_per_task", fail, default=100)
    out = batch_out(raw, name, fail)
    games = _games(_tables(raw, "games", fail), fail)
    agents = _agents(_tables(raw, "agents", fail), games, fail)
    return TournamentConfig(name, seed, deals, workers, per_task, out, games, agents)


def batch_head(raw: dict[str, Any], known: set[str], fail) -> tuple[str, int]:
    """What every batch config (tournament, balance study) starts with: no unknown field, a
    non-empty ``name`` and a ``seed`` ≥ 0 (default 0)."""
    unknown = sorted(set(raw) - known)
    if unknown:
        raise fail(f"unknown field {unknown[0]!r}; fields are {', '.join(sorted(known))}")
    name = _field(raw, "name", str, fail)
    if not name.strip():
        raise fail("field 'name' must not be empty")
    seed = _field(raw, "seed", int, fail, default=0)
    if seed < 0:
        raise fail(f"field 'seed' must be ≥ 0 (got {seed})")
    return name, seed


def batch_workers(raw: dict[str, Any], fail) -> int:
    """A batch config's ``workers``: 1 to :data:`MAX_WORKERS` (default 1)."""
    workers = _positive(raw, "workers", fail, default=1)
    if workers > MAX_WORKERS:
        raise fail(f"field 'workers' must be at most {MAX_WORKERS} (got {workers})")
    return workers


def check_workers(workers: int, what: str = "--workers") -> int:
    """``workers`` given elsewhere than a config (``--workers``): 1 to :data:`MAX_WORKERS`."""
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise ValueError(f"{what} must be a whole number (got {workers!r})")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"{what} must be in 1..{MAX_WORKERS} (got {workers})")
    return workers


def batch_out(raw: dict[str, Any], name: str, fail) -> Path:
    """A batch config's ``out`` (default ``runs/NAME``): a path, not empty (an empty one was
    the current folder)."""
    out = _field(raw, "out", str, fail, default=f"runs/{name}")
    if not out.strip():
        raise fail("field 'out' must be a folder's path, not empty (that was the current folder)")
    return Path(out)


_KINDS = {int: "an integer", bool: "true or false"}


def _field(raw: dict, key: str, kind: type, fail, default: Any = None) -> Any:
    if key not in raw:
        if default is None:
            raise fail(f"missing field {key!r}")
        return default
    value = raw[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise fail(f"field {key!r} must be {_KINDS.get(kind, 'a string')} (got {value!r})")
    if kind is int and not -INT64_MAX - 1 <= value <= INT64_MAX:
        raise fail(
            f"field {key!r} must fit a 64-bit integer (got one of {value.bit_length()} bits)"
        )
    return value


def _positive(raw: dict, key: str, fail, default: int | None = None) -> int:
    value = _field(raw, key, int, fail, default)
    if value < 1:
        raise fail(f"field {key!r} must be ≥ 1 (got {value})")
    return value


def _tables(raw: dict, key: str, fail) -> list[dict]:
    items = raw.get(key)
    if not isinstance(items, list) or not items or not all(isinstance(t, dict) for t in items):
        raise fail(f"needs at least one [[{key}]] table")
    return items


def _games(tables: list[dict], fail) -> tuple[str, ...]:
    games = []
    for i, t in enumerate(tables):
        where = f"[[games]] #{i + 1}"
        if set(t) != {"game"} or not isinstance(t["game"], str):
            raise fail(f"{where} must hold exactly one string field 'game' (got {t!r})")
        try:
            full = str(load(t["game"]))
        except (ValueError, pyspiel.SpielError) as e:
            raise fail(f"{where}: game {t['game']!r}: {e}") from None
        if full in games:
            raise fail(f"{where}: game {t['game']!r} is listed twice (as {full})")
        games.append(full)
    return tuple(games)


def _agents(tables: list[dict], games: tuple[str, ...], fail) -> tuple[Agent, ...]:
    agents: list[Agent] = []
    for i, t in enumerate(tables):
        agent = agent_entry(t, f"[[agents]] #{i + 1}", games, fail)
        if any(a.name == agent.name for a in agents):
            raise fail(f"[[agents]] #{i + 1}: agent name {agent.name!r} is used twice")
        agents.append(agent)
    if len(agents) < 2:
        raise fail("a tournament needs at least two [[agents]]")
    return tuple(agents)


def agent_entry(t: dict, where: str, games: tuple[str, ...], fail) -> Agent:
    """One ``[[agents]]`` table (``name``, ``spec``) checked, its agent built on ``games``."""
    if set(t) != {"name", "spec"} or not all(isinstance(v, str) for v in t.values()):
        raise fail(f"{where} must hold exactly the string fields 'name' and 'spec' (got {t!r})")
    if not t["name"].strip():
        raise fail(f"{where}: field 'name' must not be empty")
    try:
        kind = parse_spec(t["spec"])[0]
    except ValueError as e:
        raise fail(f"{where} ({t['name']!r}): {e}") from None
    if kind == "human":
        raise fail(f"{where}: the human agent cannot play in a batch")
    for game in games:  # an agent may refuse a game (e.g. a heuristic it lacks)
        try:
            make_agent(t["spec"], load(game), seed=0)
        except (ValueError, pyspiel.SpielError) as e:
            raise fail(f"{where} ({t['name']!r}) on {game}: {e}") from None
    return Agent(t["name"], t["spec"])
