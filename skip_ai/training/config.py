"""A training run's configuration (``skip-ai train CONFIG.toml``): deep Monte-Carlo, or
policy gradient from a model (the methods: :mod:`skip_ai.training.methods`).

```toml
name = "columns"                       # the run's name
game = "skip_columns"                  # the full game string (parameters allowed)
seed = 0                               # self-play deals, initial weights, batch order
decisions = 4_000_000                  # stop after learning this many samples, and/or
cpu_minutes = 25                       # after this much CPU (learner + actor), at a chunk's end
hidden = [256, 128]                    # hidden layer widths
action_parts = false                   # a factored policy head: one output row per part of
                                       #   an action (GameSpec.action_parts: its kind, card,
                                       #   pile, ...) instead of one per action id
lr = 0.0005                            # Adam step
batch = 512                            # samples per gradient step
chunk = 20_000                         # samples per self-play batch (each learned once)
eps_start = 0.2                        # exploration: uniformly random moves, decaying
eps_end = 0.02                         #   linearly from eps_start to eps_end
eps_decisions = 2_000_000              #   over this many samples
heuristic_share = 0.0                  # games where one side plays the model and the rest the
                                       #   game's heuristic (0: pure self-play)
imitation = 0                          # before self-play: imitate the teacher's moves in this
imitation_epochs = 4                   #   many samples of its self-play, this many passes,
imitation_lr = 0.001                   #   this Adam step
teacher = "heuristic"                  # whom imitation copies: the heuristic (its moves, played
                                       #   in the kernel) or an agent spec such as
                                       #   "ismcts(iterations=1000)" (its policy: a search's
                                       #   visit shares; played by 1 + actors processes)
teacher_power = 1.0                    # a search's shares raised to this power, renormalised,
                                       #   as the targets (above 1: nearer the move it plays)
eval_every = 500_000                   # samples between evaluations of the model
eval_deals = 40                        # duplicate deals per evaluation match (at most 10 000)
eval_seed = 1_000                      # their seed family (keep it apart from `seed`)
references = ["heuristic", "random", "ismcts(iterations=50)"]
actors = 1                             # processes on this machine that play the chunks'
                                       #   parts while the learner fits (0: the learner's)
parts = 1                              # each chunk is played as this many parts, each its
                                       #   own games, side by side (by actors, or Ray tasks:
                                       #   skip-ai train --backend ray); part of the
                                       #   run's identity, unlike actors and the backend
out = "runs/columns"                   # relative to the working directory
method = "dmc"                         # "dmc", or "reinforce": policy gradient (below)
```

**Policy gradient** (``method = "reinforce"``): the model ``start = "FILE.npz"`` (a model of
this game whose action outputs are read as logits, e.g. a student of the search, whichever kind
its file names; the run's models are ``policy_value``) plays one side against the
game's heuristic, drawing its moves from the softmax of its outputs / ``temperature``
(default 0.2), and learns from each chunk once by REINFORCE with its value head as the
baseline (:func:`skip_ai.training.optimiser.fit_reinforce`). ``self_play = p`` (default 0)
plays a share ``p`` of the games with the model in every seat instead, learning every seat's
moves, so the model also meets an opponent as strong as itself. ``action_features = true``
gives ``start`` the game's action features (``GameSpec.action_features``: a few numbers per
legal move, such as what a card adds to the chains at that cell in Chains) with zero weights,
if it has none, so the run learns what they are worth from the model's own play on, at their
own step ``features_lr`` (default ``lr``). ``lr``, ``batch``, ``chunk``, the budget, the
evaluation and ``actors`` mean what they mean above. Its layers come from ``start``, so
``hidden``, ``action_parts``, the exploration, the heuristic's share and imitation are refused
with it, as ``start`` and the fields above are with ``method = "dmc"``: a field of another
method is refused (each method's fields: :data:`skip_ai.training.methods.METHODS`). The run's
identity holds ``start``'s SHA-256: a changed file is refused on resume. In a ``games`` list,
``{game}`` in ``start`` stands for each game's name (``start = "skip_ai/models/{game}.npz"``:
each game's committed model).

**Parts and actors.** A chunk of ``parts = P`` parts is ``P`` sub-chunks of ``chunk // P``
samples, part ``j`` playing its own games (numbered from ``j · 2^40`` of the run's seed family,
so the parts never share a deal), learned in part order. The parts are what runs side by side:
on ``actors`` processes of this machine, or as Ray tasks on a cluster (``skip-ai train CONFIG
--backend ray [--address A]``). A run's models depend on ``parts``, which is part of its
identity (when not 1), and not on where the parts were played: the same bit for bit in one
process, on ``actors`` processes or on Ray, and a run may resume on another backend. No
committed model was trained in parts yet: they are the way forward for runs longer than one
machine affords (the targets left are blocked on compute: results/learned.md, "Where it
stands").

Every count has a stated upper bound (:data:`_MOST`, :data:`MAX_SAMPLES`, :data:`MAX_SEED`,
``hidden``: :data:`agents.model.MAX_LAYERS` widths of at most ``MAX_WIDTH``), and ``out`` may
not be empty. At least one of ``decisions`` and ``cpu_minutes`` is required. Every mistake is a
:class:`TrainConfigError` naming the file and the field (a field this module does not know,
such as one of an option since removed, is refused as unknown).

**Several games in one command**: ``games = ["skip_brook", "skip_columns", …]`` instead of
``game``. Each game is trained in turn, with the same fields and the same budget, into its own
folder ``OUT/<game>`` (the game string, characters other than letters, digits, ``_ . -`` as
``_``): each is an ordinary run there, resumed the same way, so rerunning the command skips the
games already finished and continues the one that was cut short
(``experiments/training/overnight.toml``).
"""

from __future__ import annotations

import hashlib
import math
import re
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents import make_agent
from agents.model import MAX_LAYERS, MAX_WIDTH, PolicyValueNet, factored_head
from skip_ai.paths import output_folder
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.training.methods import METHODS

_DEFAULTS: dict[str, Any] = {
    "seed": 0,
    "decisions": None,
    "cpu_minutes": None,
    "hidden": [256, 128],
    "action_parts": False,
    "lr": 5e-4,
    "batch": 512,
    "chunk": 20_000,
    "eps_start": 0.2,
    "eps_end": 0.02,
    "eps_decisions": 2_000_000,
    "heuristic_share": 0.0,
    "imitation": 0,
    "imitation_epochs": 4,
    "imitation_lr": 1e-3,
    "teacher": "heuristic",
    "teacher_power": 1.0,
    "eval_every": 500_000,
    "eval_deals": 40,
    "eval_seed": 1_000,
    "references": ["heuristic", "random"],
    "actors": 1,
    "parts": 1,
    "method": "dmc",
    "start": None,
    "temperature": 0.2,
    "self_play": 0.0,
    "action_features": False,
    "features_lr": None,
}
_REQUIRED = {"name", "game"}
MAX_IMITATION = 4_000_000
MAX_ACTORS = 256
MAX_PARTS = 256
"""Part ``j``'s games are numbered from ``j << PART_SHIFT``: 256 parts stay below the
imitation's games (``1 << 48``)."""
PART_SHIFT = 40
_POSITIVE = ("batch", "chunk", "eps_decisions", "eval_every", "eval_deals", "imitation_epochs")
MAX_SAMPLES = 10**12
"""The most samples a count may name (``decisions``, ``eps_decisions``, ``eval_every``): beyond
any run, and within int64 with room to add."""
MAX_SEED = (1 << 62) - 1
"""The largest ``seed`` / ``eval_seed``: an int64 with room for the offsets added to it."""
_MOST = {
    "batch": 1 << 16,  # samples per gradient step
    "chunk": MAX_IMITATION,  # samples per self-play batch, held in memory at once
    "eps_decisions": MAX_SAMPLES,
    "eval_every": MAX_SAMPLES,
    "eval_deals": 10_000,  # duplicate deals per evaluation match, at every evaluation
    "imitation_epochs": 1_000,
}
"""The upper bound of each positive count (``eval_deals = 10**15`` ran silently for minutes)."""
_UNIT = ("eps_start", "eps_end", "heuristic_share")


class TrainConfigError(ValueError):
    """A training config that cannot be run, with the reason."""


@dataclass(frozen=True)
class TrainConfig:
    name: str
    game: str  # the full game string
    seed: int
    decisions: int | None
    cpu_minutes: float | None
    hidden: tuple[int, ...]
    action_parts: bool
    lr: float
    batch: int
    chunk: int
    eps_start: float
    eps_end: float
    eps_decisions: int
    heuristic_share: float
    imitation: int
    imitation_epochs: int
    imitation_lr: float
    teacher: str
    teacher_power: float
    eval_every: int
    eval_deals: int
    eval_seed: int
    references: tuple[str, ...]
    actors: int
    out: Path
    parts: int = 1
    """Each chunk's parts, each its own games (played side by side by the actors or Ray)."""
    method: str = "dmc"
    start: str | None = None
    """Policy gradient: the model it starts from."""
    start_sha256: str | None = None
    temperature: float = 0.2
    self_play: float = 0.0
    """Policy gradient: the share of games with the model in every seat."""
    action_features: bool = False
    """Policy gradient: ``start`` gains the game's action features (zero weights) if it has
    none."""
    features_lr: float | None = None
    """Policy gradient: the Adam step of the action features' own weights ``c`` (None:
    ``lr``)."""

    def identity(self) -> dict:
        """What a resumed run must share with the run that wrote the folder (the budget may
        change: a run can be extended)."""
        ident = asdict(self)
        for key in ("decisions", "cpu_minutes", "actors", "out"):
            del ident[key]
        if self.method == _DEFAULTS["method"]:  # so runs from before the methods still resume
            del ident["method"], ident["start"], ident["start_sha256"], ident["temperature"]
        if self.self_play == 0:  # so the folders of runs from before it still resume
            del ident["self_play"]
        if self.parts == 1:  # likewise
            del ident["parts"]
        if not self.action_features:  # likewise
            del ident["action_features"]
        if self.features_lr is None:  # likewise
            del ident["features_lr"]
        ident["hidden"] = list(self.hidden)
        ident["references"] = list(self.references)
        for key in ("heuristic_share", "imitation", "action_parts"):
            if ident[key] == 0:  # so the folders of runs from before them still resume
                del ident[key]
        if self.imitation == 0:
            del ident["imitation_epochs"], ident["imitation_lr"]
        if self.imitation == 0 or self.teacher == "heuristic":
            del ident["teacher"], ident["teacher_power"]
        return ident

    def eps(self, decisions: int) -> float:
        """The exploration rate after ``decisions`` samples."""
        f = min(decisions / self.eps_decisions, 1.0)
        return self.eps_start + f * (self.eps_end - self.eps_start)


def load_train_config(path: str | Path) -> TrainConfig:
    """The config of one game in the TOML file ``path``, checked field by field."""
    configs = load_train_configs(path)
    if len(configs) != 1:
        raise TrainConfigError(f"{path}: names {len(configs)} games; expected one (game = …)")
    return configs[0]


def load_train_configs(path: str | Path) -> list[TrainConfig]:
    """The configs in the TOML file ``path``: one, or one per game of its ``games`` list (each
    into its own folder under ``out``), checked field by field."""
    path = Path(path)
    if not path.is_file():
        raise TrainConfigError(f"no training config at {path}")
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise TrainConfigError(f"{path}: not valid TOML: {e}") from None
    known = _REQUIRED | set(_DEFAULTS) | {"out", "games"}
    unknown = set(raw) - known
    if unknown:
        raise TrainConfigError(
            f"{path}: unknown field(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known))}"
        )
    if "games" not in raw:
        return [_load_one(path, raw)]
    if "game" in raw:
        raise TrainConfigError(f"{path}: give game or games, not both")
    games = raw.pop("games")
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise TrainConfigError(f"{path}: games must be a non-empty list of game strings")
    folders = [re.sub(r"[^A-Za-z0-9_.-]", "_", g) for g in games]
    if len(set(folders)) != len(folders):
        raise TrainConfigError(f"{path}: games names a game twice ({games!r})")
    out = raw.pop("out", f"runs/{raw.get('name', '')}")
    if not isinstance(out, str) or not out.strip():
        raise TrainConfigError(f"{path}: out must be a folder's path, not empty (got {out!r})")
    return [
        _load_one(path, {**raw, **_start_of(raw, g), "game": g, "out": str(Path(out) / f)})
        for g, f in zip(games, folders, strict=True)
    ]


def _start_of(raw: dict, game: str) -> dict:
    """``start`` for one game of a ``games`` list: ``{game}`` replaced by the game's name (the
    game string without its parameters), so that one file names each game's model."""
    start = raw.get("start")
    if not isinstance(start, str):
        return {}
    return {"start": start.replace("{game}", game.split("(", 1)[0].strip())}


def _load_one(path: Path, raw: dict) -> TrainConfig:
    missing = _REQUIRED - set(raw)
    if missing:
        raise TrainConfigError(f"{path}: missing field(s) {', '.join(sorted(missing))}")
    c = {**_DEFAULTS, **raw}
    try:
        _check_numbers(c)
        game = _check_game(c)
        _check_references(c, game)
        _check_teacher(c, game)
        _check_action_parts(c, game)
        digest = _check_method(c, raw, game)
        if not isinstance(c.get("out", ""), str) or not c.get("out", "runs").strip():
            raise ValueError(f"out must be a folder's path, not empty (got {c['out']!r})")
        out = Path(c.get("out", f"runs/{c['name']}"))
        output_folder(out, "out")
    except ValueError as e:
        raise TrainConfigError(f"{path}: {e}") from None
    return TrainConfig(
        name=str(c["name"]),
        game=str(game),
        seed=c["seed"],
        decisions=c["decisions"],
        cpu_minutes=None if c["cpu_minutes"] is None else float(c["cpu_minutes"]),
        hidden=tuple(c["hidden"]),
        action_parts=c["action_parts"],
        lr=float(c["lr"]),
        batch=c["batch"],
        chunk=c["chunk"],
        eps_start=float(c["eps_start"]),
        eps_end=float(c["eps_end"]),
        eps_decisions=c["eps_decisions"],
        heuristic_share=float(c["heuristic_share"]),
        imitation=c["imitation"],
        imitation_epochs=c["imitation_epochs"],
        imitation_lr=float(c["imitation_lr"]),
        teacher=c["teacher"],
        teacher_power=float(c["teacher_power"]),
        eval_every=c["eval_every"],
        eval_deals=c["eval_deals"],
        eval_seed=c["eval_seed"],
        references=tuple(c["references"]),
        actors=c["actors"],
        out=out,
        parts=c["parts"],
        method=c["method"],
        start=c["start"],
        start_sha256=digest,
        temperature=float(c["temperature"]),
        self_play=float(c["self_play"]),
        action_features=c["action_features"],
        features_lr=None if c["features_lr"] is None else float(c["features_lr"]),
    )


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return False
    try:
        return math.isfinite(x)
    except OverflowError:  # an integer too large for a float
        return False


def _shown(x: Any) -> str:
    """``repr(x)`` cut for a one-line message (a TOML integer may have any number of digits)."""
    if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 64:
        return f"an integer of {x.bit_length()} bits"
    text = repr(x)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _check_numbers(c: dict) -> None:
    if not isinstance(c["name"], str) or not c["name"]:
        raise ValueError(f"name must be a non-empty string (got {c['name']!r})")
    for key in _POSITIVE:
        if not _is_int(c[key]) or c[key] < 1:
            raise ValueError(f"{key} must be a positive integer (got {_shown(c[key])})")
        if c[key] > _MOST[key]:
            raise ValueError(f"{key} must be at most {_MOST[key]:_} (got {_shown(c[key])})")
    for key in ("seed", "eval_seed", "imitation"):
        if not _is_int(c[key]) or c[key] < 0:
            raise ValueError(f"{key} must be an integer ≥ 0 (got {_shown(c[key])})")
    for key in ("seed", "eval_seed"):
        if c[key] > MAX_SEED:
            raise ValueError(f"{key} must be at most {MAX_SEED:_} (got {_shown(c[key])})")
    if c["imitation"] > MAX_IMITATION:  # held in memory at once, as observations
        raise ValueError(
            f"imitation must be at most {MAX_IMITATION:,} samples (got {c['imitation']})"
        )
    if not _is_int(c["actors"]) or not 0 <= c["actors"] <= MAX_ACTORS:
        raise ValueError(f"actors must be an integer in 0..{MAX_ACTORS} (got {c['actors']!r})")
    if not _is_int(c["parts"]) or not 1 <= c["parts"] <= MAX_PARTS:
        raise ValueError(f"parts must be an integer in 1..{MAX_PARTS} (got {c['parts']!r})")
    if c["chunk"] < c["parts"]:
        raise ValueError(f"chunk ({c['chunk']}) must hold at least one sample per part")
    if c["decisions"] is None and c["cpu_minutes"] is None:
        raise ValueError("give a budget: decisions, cpu_minutes or both")
    decisions = c["decisions"]
    if decisions is not None and (not _is_int(decisions) or not 1 <= decisions <= MAX_SAMPLES):
        raise ValueError(
            f"decisions must be a positive integer, at most {MAX_SAMPLES:_} "
            f"(got {_shown(decisions)})"
        )
    if c["cpu_minutes"] is not None and not (_is_number(c["cpu_minutes"]) and c["cpu_minutes"] > 0):
        raise ValueError(
            f"cpu_minutes must be a finite number > 0 (got {_shown(c['cpu_minutes'])})"
        )
    for key in ("lr", "imitation_lr"):
        if not (_is_number(c[key]) and 0 < c[key] <= 1):
            raise ValueError(f"{key} must be a finite number in (0, 1] (got {c[key]!r})")
    for key in _UNIT:
        if not (_is_number(c[key]) and 0 <= c[key] <= 1):
            raise ValueError(f"{key} must be a finite number in [0, 1] (got {c[key]!r})")
    hidden = c["hidden"]
    if (
        not isinstance(hidden, list)
        or not 1 <= len(hidden) <= MAX_LAYERS
        or not all(_is_int(h) and 1 <= h <= MAX_WIDTH for h in hidden)
    ):
        raise ValueError(
            f"hidden must be a list of 1 to {MAX_LAYERS} widths in 1..{MAX_WIDTH} "
            f"(got {_shown(hidden)})"
        )


def _check_game(c: dict) -> KernelGame:
    if not isinstance(c["game"], str):
        raise ValueError(f"game must be a game string (got {c['game']!r})")
    try:
        game = load(c["game"])
    except Exception as e:
        raise ValueError(f"game {c['game']!r}: {e}") from None
    if not isinstance(game, KernelGame):
        raise ValueError(f"game {c['game']!r} is not a skip_ai game")
    return game


def _check_action_parts(c: dict, game: KernelGame) -> None:
    if not isinstance(c["action_parts"], bool):
        raise ValueError(f"action_parts must be true or false (got {c['action_parts']!r})")
    if c["action_parts"]:
        try:
            factored_head(game)
        except ValueError as e:
            raise ValueError(f"action_parts: {e}") from None


def _check_method(c: dict, raw: dict, game: KernelGame) -> str | None:
    """Check the method and its fields, refusing another method's; policy gradient: the
    SHA-256 of its ``start`` model."""
    method = c["method"]
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)} (got {method!r})")
    for other, m in METHODS.items():
        given = [k for k in m.fields if k in raw] if other != method else []
        if given:
            raise ValueError(f'{given[0]} is for method = "{other}" only, not "{method}"')
    t = c["temperature"]
    if not (_is_number(t) and 0.01 <= t <= 10):
        raise ValueError(f"temperature must be a finite number in [0.01, 10] (got {t!r})")
    share = c["self_play"]
    if not (_is_number(share) and 0 <= share <= 1):
        raise ValueError(f"self_play must be a number in [0, 1] (got {share!r})")
    if not isinstance(c["action_features"], bool):
        raise ValueError(f"action_features must be true or false (got {c['action_features']!r})")
    if c["action_features"] and not game.spec.action_features.SIZE:
        raise ValueError(f"action_features: {game} has none (GameSpec.action_features)")
    f_lr = c["features_lr"]
    if f_lr is not None and not (_is_number(f_lr) and 0 < f_lr <= 1):
        raise ValueError(f"features_lr must be a finite number in (0, 1] (got {f_lr!r})")
    if "start" not in METHODS[method].fields:
        return None
    start = c["start"]
    if not isinstance(start, str) or not start:
        raise ValueError(f'method = "{method}" needs start = "MODEL.npz" to start from')
    try:
        PolicyValueNet.load(start, game)
    except (OSError, ValueError) as e:
        raise ValueError(f"start: {e}") from None
    return hashlib.sha256(Path(start).read_bytes()).hexdigest()


def _check_references(c: dict, game: KernelGame) -> None:
    refs = c["references"]
    if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
        raise ValueError(f"references must be a non-empty list of agent specs (got {refs!r})")
    for ref in refs:
        try:
            make_agent(ref, game)
        except ValueError as e:
            raise ValueError(f"references: {e}") from None


def _check_teacher(c: dict, game: KernelGame) -> None:
    teacher = c["teacher"]
    if not isinstance(teacher, str):
        raise ValueError(f"teacher must be an agent spec (got {teacher!r})")
    try:
        make_agent(teacher, game)
    except ValueError as e:
        raise ValueError(f"teacher: {e}") from None
    power = c["teacher_power"]
    if not (_is_number(power) and 1 <= power <= 100):
        raise ValueError(f"teacher_power must be a finite number in [1, 100] (got {power!r})")
    if teacher != "heuristic" and c["imitation"] == 0:
        raise ValueError(f"teacher {teacher!r} needs imitation = N samples to copy")
