"""A training run's configuration (``skip-ai train CONFIG.toml``).

```toml
name = "brook"                          # the run's name
game = "skip_brook(players=4)"
seed = 0                                # the run's seed (default 0)
generations = 4                         # models trained: gen1 .. genN
games = 60                              # self-play games per generation
search = "ismcts(iterations=300)"       # the expert; from gen 2 on it uses the last model
hidden = []                             # hidden layer widths ([] = softmax-linear)
epochs = 30                             # fitting passes over the samples
lr = 0.01                               # Adam step
l2 = 0.0001                             # weight decay
window = 2                              # generations of samples each fit uses
eval_deals = 20                         # duplicate deals per evaluation match
eval_search = "ismcts(iterations=300)"  # both sides of the evaluation matches
out = "runs/train-brook"                # relative to the working directory
```

Every mistake is a :class:`TrainConfigError` naming the file and the field.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from agents import make_agent, parse_spec
from skip_ai.paths import output_folder
from skip_ai.pyspiel_wrapper import load

_DEFAULTS = {
    "seed": 0,
    "hidden": [],
    "epochs": 30,
    "lr": 0.01,
    "l2": 1e-4,
    "window": 2,
    "eval_deals": 20,
}
_REQUIRED = {"name", "game", "generations", "games", "search", "eval_search"}


class TrainConfigError(ValueError):
    """A training config that cannot be run, with the reason."""


@dataclass(frozen=True)
class TrainConfig:
    name: str
    game: str  # the full game string
    seed: int
    generations: int
    games: int
    search: str
    hidden: tuple[int, ...]
    epochs: int
    lr: float
    l2: float
    window: int
    eval_deals: int
    eval_search: str
    out: Path

    def identity(self) -> dict:
        """What a resumed run must share with the run that wrote the folder."""
        return {
            "name": self.name,
            "game": self.game,
            "seed": self.seed,
            "games": self.games,
            "search": self.search,
            "hidden": list(self.hidden),
            "epochs": self.epochs,
            "lr": self.lr,
            "l2": self.l2,
            "window": self.window,
            "eval_deals": self.eval_deals,
            "eval_search": self.eval_search,
        }


def with_model(spec: str, model: Path | None) -> str:
    """``spec`` (an ISMCTS spec) with ``model=PATH`` added, or unchanged for no model."""
    if model is None:
        return spec
    name, kwargs = parse_spec(spec)
    kwargs["model"] = str(model)
    return f"{name}({','.join(f'{k}={v}' for k, v in kwargs.items())})"


def load_train_config(path: str | Path) -> TrainConfig:
    path = Path(path)
    if not path.is_file():
        raise TrainConfigError(f"no training config at {path}")
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise TrainConfigError(f"{path}: not valid TOML: {e}") from None
    known = _REQUIRED | set(_DEFAULTS) | {"out"}
    unknown = set(raw) - known
    if unknown:
        raise TrainConfigError(
            f"{path}: unknown field(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known))}"
        )
    missing = _REQUIRED - set(raw)
    if missing:
        raise TrainConfigError(f"{path}: missing field(s) {', '.join(sorted(missing))}")
    c = {**_DEFAULTS, **raw}
    for key in ("generations", "games", "epochs", "window", "eval_deals"):
        if not isinstance(c[key], int) or isinstance(c[key], bool) or c[key] < 1:
            raise TrainConfigError(f"{path}: {key} must be a positive integer (got {c[key]!r})")
    for key in ("lr", "l2"):
        if (
            isinstance(c[key], bool)
            or not isinstance(c[key], (int, float))
            or not math.isfinite(c[key])
            or c[key] < 0
        ):
            raise TrainConfigError(f"{path}: {key} must be a finite number ≥ 0 (got {c[key]!r})")
    if "out" in raw and not isinstance(raw["out"], str):
        raise TrainConfigError(f"{path}: out must be a folder's path (got {raw['out']!r})")
    if not isinstance(c["hidden"], list) or not all(
        isinstance(h, int) and h > 0 for h in c["hidden"]
    ):
        raise TrainConfigError(f"{path}: hidden must be a list of positive integers")
    try:
        game = load(c["game"])
    except Exception as e:
        raise TrainConfigError(f"{path}: game {c['game']!r}: {e}") from None
    for key in ("search", "eval_search"):
        if parse_spec(c[key])[0] != "ismcts":
            raise TrainConfigError(f"{path}: {key} must be an ismcts spec (got {c[key]!r})")
        try:
            make_agent(c[key], game)
        except ValueError as e:
            raise TrainConfigError(f"{path}: {key}: {e}") from None
    out = Path(c.get("out", f"runs/{c['name']}"))
    try:
        output_folder(out, "out")
    except ValueError as e:
        raise TrainConfigError(f"{path}: {e}") from None
    return TrainConfig(
        str(c["name"]),
        str(game),
        int(c["seed"]),
        c["generations"],
        c["games"],
        c["search"],
        tuple(c["hidden"]),
        c["epochs"],
        float(c["lr"]),
        float(c["l2"]),
        c["window"],
        c["eval_deals"],
        c["eval_search"],
        out,
    )
