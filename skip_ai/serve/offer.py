"""The bots a page may seat: the server offers them, a request only chooses.

A page sends an agent spec per seat (``ismcts(iterations=200)``), parsed as everywhere else
(:func:`agents.parse_spec`), then vetted against what this server offers (:data:`KINDS`):

- a kind the server offers, and only that kind's listed options;
- a search's budget within the caps per move (:data:`CAPS`: iterations and seconds), so no
  request makes a bot think for hours;
- no file: ``model=``, ``weights=`` and ``tuned=`` take a *name* the server offers — the
  shipped models (``learned(model=skip_columns)``) and the files given on the command line
  (``skip-ai serve --weights FILE``, offered by the file's stem). Anything else, a path
  included, is refused with one line that says nothing of the file system: the server never
  looks at it.

:meth:`Offer.listing` is ``GET /api/agents``: the kinds, their options and caps, the named
files, a few presets, and each game's default opponent (:func:`default_agent`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from agents import AGENTS, parse_spec
from agents.shipped import models_folder, shipped_models
from skip_ai.serve.errors import BadRequest

MAX_SPEC = 200
"""The longest agent spec a request may send, characters."""
ITERATIONS = 100_000
"""The most iterations of our ISMCTS per move."""
OPENSPIEL_ITERATIONS = 10_000
"""The most iterations of OpenSpiel's (Python) ISMCTS per move: each is some 50 times slower."""
SECONDS = 10.0
"""The longest search per move, seconds."""
ROLLOUTS = 10
"""The most rollouts per iteration of OpenSpiel's ISMCTS."""
FILES = ("models", "weights", "tuned")
"""The catalogues of named files: ``model=``, ``weights=`` and ``tuned=`` choose from them."""
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A file's offered name: its stem, or the name given with ``NAME=PATH``."""


@dataclass(frozen=True)
class Option:
    """One option of a kind: ``number`` (``lo``..``hi``, ``whole`` for integers), ``file``
    (a name from the catalogue ``files``), or ``any`` (checked by the agent itself)."""

    kind: str = "any"
    lo: float | None = None
    hi: float | None = None
    whole: bool = False
    files: str = ""
    above: bool = False
    """``lo`` excluded (seconds > 0)."""

    def describe(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "number":
            out |= {"min": self.lo, "max": self.hi, "whole": self.whole, "above_min": self.above}
        if self.kind == "file":
            out["from"] = self.files
        return out


def _budget(iterations: int) -> dict[str, Option]:
    return {
        "iterations": Option("number", 1, iterations, whole=True),
        "seconds": Option("number", 0, SECONDS, above=True),
    }


KINDS: dict[str, dict[str, Option]] = {
    "random": {},
    "heuristic": {"weights": Option("file", files="weights")},
    "ismcts": {
        **_budget(ITERATIONS),
        **{
            name: Option()
            for name in (
                "uct_c",
                "rollout",
                "rollout_eps",
                "heuristic_prior",
                "prior_c",
                "temperature",
                "value_after",
                "prior_depth",
                "final",
            )
        },
        "model": Option("file", files="models"),
        "weights": Option("file", files="weights"),
        "tuned": Option("file", files="tuned"),
    },
    "openspiel_ismcts": {
        **_budget(OPENSPIEL_ITERATIONS),
        "uct_c": Option(),
        "rollouts": Option("number", 1, ROLLOUTS, whole=True),
    },
    "learned": {"model": Option("file", files="models")},
}
"""The kinds of bot a page may seat, each with the options a spec may give it."""
CAPS = {
    "ismcts": {"iterations": ITERATIONS, "seconds": SECONDS},
    "openspiel_ismcts": {"iterations": OPENSPIEL_ITERATIONS, "seconds": SECONDS},
}
DEFAULT_SEARCH = "ismcts(seconds=0.3)"
"""The default opponent where a search is the stronger: it thinks within the page's default
pace (0.4 s a bot move, thinking included), so it adds no wait."""
SEARCH_BEATS_HEURISTIC = frozenset(
    {
        "skip_brook",
        "skip_chains",
        "skip_domino",
        "skip_guess",
        "skip_harvest",
        "skip_little_country",
        "skip_pyatki",
        "skip_pyatki_pairs",
        "skip_two_captains",
    }
)
"""The games where ``ismcts(seconds=0.1)`` beat the heuristic, its 95% interval above 0.5
(``results/learned/ceiling.json``, 30 duplicate deals of family 555 on the default variant;
``results/learned.md``, "The search's own margin over the heuristic"). Not in it: Columns
(0.483 [0.428, 0.539]) and Fours (0.592 [0.476, 0.698]), where the heuristic is level with the
search and moves at once, and the classic games (Sixty-six, Rummy), not measured. The shipped
models alone lose to the 0.1 s search in every game but Chains (0.567 [0.515, 0.617], held out)
and hold only for the default variant, so none is a default."""
DEFAULT_RULE = (
    f"each game's default opponent: {DEFAULT_SEARCH} where a 0.1 s search measured stronger "
    "than the heuristic (results/learned/ceiling.json), else the heuristic"
)


def default_agent(game_name: str) -> str:
    """The default opponent at a table of ``game_name`` (any variant): the strongest bot
    measured that answers within the default pace."""
    return DEFAULT_SEARCH if game_name in SEARCH_BEATS_HEURISTIC else "heuristic"


PRESETS = [
    "random",
    "heuristic",
    "ismcts(iterations=200)",
    "ismcts(iterations=2000)",
    DEFAULT_SEARCH,
    "ismcts(seconds=1)",
    "openspiel_ismcts(iterations=200)",
]


@dataclass(frozen=True)
class Vetted:
    """An offered bot: its kind, its options with named files resolved to their paths, and
    its spec as the page shows it."""

    kind: str
    kwargs: dict[str, Any]
    spec: str


def named_files(items: list[str] | None, what: str) -> dict[str, str]:
    """``--weights``-style command-line items (``PATH`` or ``NAME=PATH``) as name → path; a
    missing file, or a name given twice, is a ``ValueError`` of one line."""
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, path = item.partition("=")
        if not sep:
            name, path = Path(item).stem, item
        if not NAME.fullmatch(name):
            raise ValueError(
                f"--{what} {item}: the name {name!r} is not a plain name "
                "(letters, digits, _ . -): give NAME=PATH"
            )
        if not Path(path).is_file():
            raise ValueError(f"--{what} {item}: no such file")
        if name in out:
            raise ValueError(f"--{what}: the name {name!r} is given twice; give NAME=PATH")
        out[name] = str(Path(path).resolve())
    return out


@dataclass
class Offer:
    """What a server offers: the kinds of :data:`KINDS` and the named files, the shipped
    models among them (``models``, ``weights``, ``tuned``: name → path, from the command
    line)."""

    models: dict[str, str] = field(default_factory=dict)
    weights: dict[str, str] = field(default_factory=dict)
    tuned: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        shipped = {name: str(models_folder() / f"{name}.npz") for name in shipped_models()}
        clash = sorted(set(shipped) & set(self.models))
        if clash:
            raise ValueError(
                f"--model: {', '.join(clash)} is the name of a shipped model: give NAME=PATH "
                "with another name"
            )
        self.files = {
            "models": {**shipped, **self.models},
            "weights": dict(self.weights),
            "tuned": dict(self.tuned),
        }
        self._shipped_folder = str(models_folder())

    def listing(self, game_names: list[str] | None = None) -> dict:
        """``GET /api/agents``: the kinds, their options and caps, the named files, presets
        (``learned(model=G)`` for each game ``G`` with a model of its name), and each game's
        default opponent (``defaults``, by :data:`DEFAULT_RULE`)."""
        presets = list(PRESETS)
        presets += [f"heuristic(weights={n})" for n in self.files["weights"]]
        presets += [f"ismcts(seconds=1,tuned={n})" for n in self.files["tuned"]]
        return {
            "kinds": [
                {
                    "name": kind,
                    "options": {k: o.describe() for k, o in options.items()},
                    "caps": CAPS.get(kind, {}),
                }
                for kind, options in KINDS.items()
            ],
            "files": {what: sorted(names) for what, names in self.files.items()},
            "presets": presets,
            "learned": {
                g: f"learned(model={g})" for g in (game_names or []) if g in self.files["models"]
            },
            "defaults": {g: default_agent(g) for g in game_names or []},
            "default_rule": DEFAULT_RULE,
            "caps": (
                f"a search thinks at most {ITERATIONS:,} iterations (OpenSpiel's ISMCTS "
                f"{OPENSPIEL_ITERATIONS:,}) or {SECONDS:g} seconds per move; model=, weights= "
                "and tuned= take the names offered here, never a file's path"
            ),
        }

    def vet(self, spec: Any, seat: int) -> Vetted:
        """``spec`` for ``seat`` if this server offers it, else a :class:`BadRequest` of one
        line (that names no file)."""
        where = f"seat {seat}"
        if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
            raise BadRequest(
                f"{where}: an agent spec is a string of at most {MAX_SPEC} characters, such "
                "as random, heuristic or ismcts(iterations=200)"
            )
        spec = spec.strip()
        try:
            kind, kwargs = parse_spec(spec)
        except ValueError as e:
            raise BadRequest(f"{where}: {e}") from None
        if kind not in KINDS:
            raise BadRequest(
                f"{where}: unknown agent {kind!r}; this server offers {', '.join(KINDS)}"
            )
        options = KINDS[kind]
        resolved = {}
        for key, value in kwargs.items():
            option = options.get(key)
            if option is None:
                listed = ", ".join(options) or "none"
                raise BadRequest(
                    f"{where}: {kind} takes no option {key!r} here (its options: {listed})"
                )
            resolved[key] = self._check(where, kind, key, option, value)
        return Vetted(kind, resolved, spec)

    def _check(self, where: str, kind: str, key: str, option: Option, value: Any) -> Any:
        if option.kind == "file":
            names = self.files[option.files]
            if not isinstance(value, str) or value not in names:
                flag = {"models": "--model", "weights": "--weights", "tuned": "--tuned"}
                offered = ", ".join(sorted(names)) or (
                    f"none (start the server with {flag[option.files]} FILE)"
                )
                raise BadRequest(
                    f"{where}: {key}= takes the name of a file this server offers, never a "
                    f"path; offered: {offered}"
                )
            return names[value]
        if option.kind == "number":
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            ok = (
                number
                and math.isfinite(value)
                and (value > option.lo if option.above else value >= option.lo)
                and value <= option.hi
                and (not option.whole or value == int(value))
            )
            if not ok:
                what = "a whole number" if option.whole else "a number"
                lo = f"above {option.lo:g}" if option.above else f"from {option.lo:g}"
                raise BadRequest(
                    f"{where}: {kind}: {key} must be {what} {lo} up to {option.hi:g} "
                    "(this server's cap per move)"
                )
            return int(value) if option.whole else value
        return value

    def build(self, vetted: Vetted, game: pyspiel.Game, seed: int, seat: int) -> pyspiel.Bot:
        """The bot of an offered spec; its errors said with each file's offered name, never
        its path."""
        try:
            return AGENTS[vetted.kind](game, seed, **vetted.kwargs)
        except TypeError as e:
            raise BadRequest(
                f"seat {seat}: bad arguments in agent spec {vetted.spec!r}: {e}"
            ) from None
        except (ValueError, KeyError, IndexError, OSError, pyspiel.SpielError) as e:
            raise BadRequest(f"seat {seat}: {self._named(str(e), vetted)}") from None

    def _named(self, message: str, vetted: Vetted) -> str:
        for names in self.files.values():
            for name, path in names.items():
                message = message.replace(path, name)
        return message.replace(self._shipped_folder, "")
