"""One generic pyspiel wrapper for every kernel game.

``register(spec)`` turns a :class:`~skip_ai.spec.GameSpec` into a registered pyspiel game:
a ``pyspiel.Game`` subclass and a ``pyspiel.State`` subclass that hold the kernel state array
and do no rule logic — they convert, render text and call the kernel.

Why some pyspiel methods are also defined here in Python: C++ algorithms reach the state
through pybind11 trampolines (``current_player``, ``_legal_actions``, ``_apply_action``, …),
while Python callers hit these Python methods directly and skip two or three crossings of the
language boundary per call. Both routes end in the same kernel functions.

The instance ``__dict__`` holds only plain data (the kernel array, the current player and a
log of who saw each action), because pyspiel clones by deep-copying it.

**Serialisation** is plain text that is parsed and checked, never a pickle
(:mod:`skip_ai.state_text`, which this module calls): ``state.serialize()``,
``game.deserialize_state(text)``, pickling a state, and — installed by ``import skip_ai``
(:func:`install_load_game`) — ``pyspiel.serialize_game_and_state`` /
``pyspiel.deserialize_game_and_state`` for our games.
"""

from __future__ import annotations

import functools
import itertools
import threading
from types import SimpleNamespace

import numpy as np
import pyspiel

from skip_ai import state_text
from skip_ai.kernel.engine import engine
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import (
    CHANCE,
    H_CUR,
    H_PLAYERS,
    LOC,
    MAX_CARDS,
    TERMINAL,
    team_of,
)
from skip_ai.spec import GameSpec

REGISTRY: dict[str, GameSpec] = {}
"""Every registered game by short name, in registration order."""

SCRATCH_SIZE = 1 << 16
"""Entries of a kernel call's output buffer (legal actions, chance outcomes)."""

_local = threading.local()
"""Each thread's own output buffer for kernel calls, ``_local.scratch``: a buffer shared by
threads gave one thread's legal moves to another (the server plays each table in its own
thread), the GIL being free to pass between the kernel's write and the copy out."""

_resample_seeds = itertools.count(0x5EED)


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to (the state is unchanged)."""


def _new_scratch() -> np.ndarray:
    """This thread's output buffer for kernel calls, made at its first call."""
    _local.scratch = out = np.empty(SCRATCH_SIZE, dtype=np.int64)
    return out


def _scratch() -> np.ndarray:
    """This thread's output buffer for kernel calls (see :data:`_local`)."""
    try:
        return _local.scratch
    except AttributeError:
        return _new_scratch()


def register(spec: GameSpec) -> None:
    """Register ``spec`` with pyspiel under its short name."""
    if spec.short_name in REGISTRY:
        raise ValueError(f"game {spec.short_name} is registered twice")
    module = spec.kernel.__name__
    cls_name = "".join(w.capitalize() for w in spec.short_name.split("_"))
    ops = engine(spec.kernel)
    state_cls = type(
        f"{cls_name}State", (KernelState,), {"spec": spec, "ops": ops, "__module__": module}
    )
    game_cls = type(
        f"{cls_name}Game",
        (KernelGame,),
        {"spec": spec, "ops": ops, "state_cls": state_cls, "__module__": module},
    )
    # pickle finds classes by module and name
    setattr(spec.kernel, state_cls.__name__, state_cls)
    setattr(spec.kernel, game_cls.__name__, game_cls)
    REGISTRY[spec.short_name] = spec
    pyspiel.register_game(game_type(spec), game_cls)


def game_type(spec: GameSpec) -> pyspiel.GameType:
    counts = [
        spec.num_players(spec.resolve({p.name: c}))
        for p in spec.params
        if p.name == "players"
        for c in p.choices
    ] or [spec.num_players(spec.resolve({}))]
    return pyspiel.GameType(
        short_name=spec.short_name,
        long_name=f"{spec.long_name} ({spec.original_name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={p.name: p.default for p in spec.params},
    )


class KernelGame(pyspiel.Game):
    """A pyspiel game backed by a kernel module; subclassed per game by :func:`register`."""

    spec: GameSpec
    ops: SimpleNamespace
    state_cls: type

    def __init__(self, params: dict | None = None):
        spec = self.spec
        self.resolved = spec.resolve(dict(params or {}))
        p = self.resolved
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_distinct_actions(p),
            max_chance_outcomes=spec.max_chance_outcomes(p),
            num_players=spec.num_players(p),
            min_utility=spec.min_utility,
            max_utility=spec.max_utility,
            utility_sum=0.0,
            max_game_length=spec.max_game_length(p),
        )
        super().__init__(game_type(spec), info, spec.shown(p))
        self.initial = spec.kernel.init(spec.encode(p))
        self.obs_size = spec.observation_size(p)
        self.num_scores = spec.num_scores(p)

    def new_initial_state(self) -> KernelState:
        return self.state_cls(self)

    def deserialize_state(self, text: str) -> KernelState:
        """The state ``state.serialize()`` wrote (:func:`skip_ai.state_text.deserialize_state`:
        checked, a one-line ``ValueError`` if it is not a state of this game)."""
        return state_text.deserialize_state(self, text)

    def teams(self) -> np.ndarray:
        """The team (0 or 1) of every seat, as the kernel seats them (``team_of``)."""
        return np.array([team_of(self.initial, q) for q in range(self.num_players())], np.int64)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(
                f"{self.spec.short_name}: observer parameters are not supported (got {params})"
            )
        if iig_obs_type is not None and not (
            iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{self.spec.short_name}: only the default observation and the "
                f"information state are provided (asked for {iig_obs_type})"
            )
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self, perfect_recall)


class _Observer:
    """pyspiel's Python observer protocol: strings and tensors for C++ callers."""

    def __init__(self, game: KernelGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor, self.dict = None, {}
        else:
            self.tensor = np.zeros(game.obs_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: KernelState, player: int) -> None:
        if self.tensor is not None:
            state.write_observation(player, self.tensor)

    def string_from(self, state: KernelState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


class KernelState(pyspiel.State):
    """A pyspiel state holding a kernel state array; subclassed per game by :func:`register`.

    Instance attributes (all plain data): ``_s`` the kernel array, ``_cur`` the cached current
    player, ``_log`` one int per applied action: ``(visibility << 3) | (actor + 1)``.
    """

    spec: GameSpec
    ops: SimpleNamespace

    def __init__(self, game: KernelGame):
        super().__init__(game)
        self._s = game.initial.copy()
        self._cur = int(self._s[H_CUR])
        self._log: list[int] = []

    # ----- the pyspiel core -------------------------------------------------------------
    def current_player(self) -> int:
        return self._cur

    def is_terminal(self) -> bool:
        return self._cur == TERMINAL

    def is_chance_node(self) -> bool:
        return self._cur == CHANCE

    def is_player_node(self) -> bool:
        return self._cur >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None and player != self._cur:
            return []
        try:
            out = _local.scratch
        except AttributeError:
            out = _new_scratch()
        n = self.ops.actions(self._s, out)
        return out[:n].tolist()

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._cur != CHANCE:
            return []
        out = _scratch()
        n = self.spec.kernel.chance_outcomes(self._s, out)
        p = 1.0 / n
        return [(a, p) for a in out[:n].tolist()]

    def _apply_action(self, action: int) -> None:
        actor = self._cur
        try:
            out = _local.scratch
        except AttributeError:
            out = _new_scratch()
        vis = self.ops.checked_apply(self._s, action, out)
        if vis < 0:
            raise IllegalActionError(self._illegal_message(actor, action))
        self._log.append((vis << 3) | (actor + 1))
        self._cur = int(self._s[H_CUR])

    def _illegal_message(self, actor: int, action: int) -> str:
        name = self.spec.short_name
        if actor == TERMINAL:
            return f"{name}: the game is over; no action can be applied (got {action})"
        who = "chance" if actor == CHANCE else f"player {actor}"
        try:
            text = self.spec.action_to_string(self._s, actor, action)
        except Exception:  # an id outside the action space has no text
            text = "no such action"
        legal = self.legal_actions()
        return (
            f"{name}: action {action} ({text}) is not legal for {who} here; "
            f"legal: {legal[:20]}{' ...' if len(legal) > 20 else ''}"
        )

    def returns(self) -> list[float]:
        out = np.zeros(int(self._s[H_PLAYERS]), np.float64)
        if self._cur == TERMINAL:
            self.spec.kernel.returns(self._s, out)
        return out.tolist()

    def scores(self) -> list[float]:
        """The quantity the rules compare, at any state: per team (team 0 first), or per
        seat in games played each for themselves (``GameSpec.team_game``)."""
        out = np.zeros(self.get_game().num_scores, np.float64)
        self.spec.kernel.scores(self._s, out)
        return out.tolist()

    # ----- text ---------------------------------------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        return self.spec.action_to_string(self._s, player, action)

    def __str__(self) -> str:
        return self.spec.render(self._s)

    def information_state_string(self, player: int | None = None) -> str:
        """Perfect recall: the player's seat, own hand, and every action of the history as
        that player saw it (a card seen only by others shows as ``?`` plus who saw it), then
        the game's ``public_record`` if it has one."""
        p = self._check_player(player)
        spec, s = self.spec, self._s
        out = [f"p{p}"]
        for actor, text in self.history_seen_by(p):
            out.append(f"{'c' if actor == CHANCE else actor}:{text}")
        if spec.public_record is not None:
            out.append(spec.public_record(s))
        return " ".join(out)

    def history_seen_by(self, player: int) -> list[tuple[int, str]]:
        """Every action so far as ``player`` saw it: (actor, text), where a card seen only by
        others shows as ``?`` plus the seats that saw it."""
        spec, s = self.spec, self._s
        out = []
        for action, entry in zip(self.history(), self._log):
            actor, vis = (entry & 7) - 1, entry >> 3
            if (vis >> player) & 1:
                out.append((actor, spec.action_to_string(s, actor, action)))
            else:
                seen_by = "".join(str(q) for q in range(int(s[H_PLAYERS])) if (vis >> q) & 1)
                out.append((actor, f"?{seen_by}"))
        return out

    def location(self, card: int) -> int:
        """Where ``card`` is now: a seat, or one of the kernel's ``LOC_*`` places."""
        return int(self._s[LOC + card])

    def seen_by(self) -> list[int]:
        """For each action applied so far, the bitmask of the seats that saw it in full (bit q:
        seat q; every seat for a public event, none for a card put away unseen)."""
        return [entry >> 3 for entry in self._log]

    def observation_string(self, player: int | None = None) -> str:
        return self.spec.render_observation(self._s, self._check_player(player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        out = np.zeros(self.get_game().obs_size, np.float32)
        self.write_observation(self._check_player(player), out)
        return out.tolist()

    def write_observation(self, player: int, out: np.ndarray) -> None:
        """The observation tensor of ``player`` written into ``out`` (layout: game module)."""
        out.fill(0.0)
        self.spec.kernel.observation(self._s, player, out)

    def write_action_features(self, legal: np.ndarray, out: np.ndarray) -> None:
        """The action features (``GameSpec.action_features``) of the legal moves ``legal``
        of the player to move, into ``out[: len(legal)]``."""
        features = self.spec.action_features
        if out.ndim != 2 or out.shape[0] < len(legal) or out.shape[1] < features.SIZE:
            raise ValueError(
                f"{out.shape} cannot hold {features.SIZE} features of {len(legal)} moves"
            )
        features.write(self._s, self._cur, np.asarray(legal, np.int64), len(legal), out)

    def _check_player(self, player: int | None) -> int:
        p = self._cur if player is None else int(player)
        n = int(self._s[H_PLAYERS])
        if not 0 <= p < n:
            raise ValueError(f"{self.spec.short_name}: no player {player} (players are 0..{n - 1})")
        return p

    # ----- resampling ---------------------------------------------------------------------
    def resample_from_infostate(
        self, player_id: int, probability_sampler=None, *, rng: np.ndarray | None = None
    ) -> KernelState:
        """A real state of this game that gives ``player_id`` the same information state,
        with everything hidden from that player re-dealt consistently with public events.

        Built by replaying this history from a new initial state with the hidden cards
        relabelled (and the hidden choices the game's ``resample`` redrew), so the result's
        history (new chance outcomes included) is legal by construction and its state is the
        kernel's resampled world. Randomness: ``rng`` (a kernel generator) if given, else a fresh
        seed mixed from ``probability_sampler`` (as OpenSpiel's ISMCTS passes it) and a counter.
        """
        p = self._check_player(player_id)
        if rng is None:
            draw = probability_sampler() if probability_sampler is not None else 0.0
            rng = make_rng(int(draw * (1 << 52)) ^ (next(_resample_seeds) * 0x9E3779B97F4A7C15))
        world = self._s.copy()
        sigma = np.empty(MAX_CARDS, np.int64)
        self.spec.kernel.resample(world, p, rng, sigma)
        return self.replay(sigma, world)

    def replay(
        self, sigma: np.ndarray | None = None, world: np.ndarray | None = None
    ) -> KernelState:
        """A new state built by replaying this history; with the card permutation ``sigma``,
        each action rewritten by ``GameSpec.remap`` towards ``world``, the kernel state that
        ``resample`` drew with ``sigma`` (without one, this state: only cards are relabelled)."""
        new = self.get_game().new_initial_state()
        target = self._s if world is None else world
        for item in self.full_history():
            a = item.action
            if sigma is not None:
                a = self.spec.remap(target, new._s, item.player, a, sigma)
            new.apply_action(a)
        return new

    def kernel_state(self) -> np.ndarray:
        """A copy of the kernel state array (for the text form, tests, tools and kernel-level
        agents)."""
        return self._s.copy()

    # ----- serialisation ------------------------------------------------------------------
    def serialize(self) -> str:
        """This state as text (:func:`skip_ai.state_text.serialize_state`), read back by
        ``game.deserialize_state``."""
        return state_text.serialize_state(self)

    def __reduce__(self):
        # pickle: the game string and the text form, read back with every check (pyspiel's
        # own pickling of a state went through the pickled ``__dict__``)
        return _unpickle_state, (str(self.get_game()), state_text.serialize_state(self))


def _unpickle_state(game_string: str, text: str) -> KernelState:
    """A pickled state (``KernelState.__reduce__``): the game loaded, the text checked."""
    return state_text.deserialize_state(load(game_string), text)


def spec_of(game_string: str) -> GameSpec:
    """The spec of one of our games, from its short name or a whole game string such as
    ``skip_columns(players=4)``; a clear error for games that are not ours."""
    name = game_string.split("(", 1)[0].strip()
    if name not in REGISTRY:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def same_game(recorded: str, game: pyspiel.Game | str) -> bool:
    """Is the game string ``recorded`` in a file (weights, a tuned search, a model, positions)
    the variant ``game``? Compared after loading, so a file written before a game gained a
    parameter (Little Country's ``pelicans``) names the variant it always meant, the new
    parameter at its default."""
    if recorded == str(game):
        return True
    try:
        return str(load(recorded)) == str(game)
    except (ValueError, pyspiel.SpielError):
        return False


def load(game_string: str) -> KernelGame:
    """Our game ``game_string`` (dependent defaults filled in: :func:`load_game`), with a clear
    error for games that are not ours."""
    spec_of(game_string)
    return load_game(game_string)


_pyspiel_load_game = pyspiel.load_game


def load_game(game, params=None):
    """``pyspiel.load_game``, plus parameters whose default depends on other parameters.

    pyspiel fills a missing parameter with one fixed default before our game sees it, so a
    game cannot tell "not given" from "given as the default". For our games with such
    parameters (e.g. Domino: ``deck`` 36 and ``remove4`` true when players = 2), this fills
    them in from what was given and loads the fully spelled-out game; anything else passes
    through unchanged. ``import skip_ai`` installs it as ``pyspiel.load_game``
    (:func:`install_load_game`), so OpenSpiel's tools load our variants as we do.

    Why a patch of pyspiel, not a sentinel default resolved inside the game (e.g. ``deck=0``
    meaning "by players"): pyspiel checks every given parameter against the type of the
    registered default ("Wrong type for parameter ... Expected type: kString, got kBool"), and
    ``remove4`` is a bool whose default depends on ``players``: given false and not given are
    both false by the time the game sees them, and a third value needs another type, which
    would refuse every game string already written with ``remove4=true``/``False`` (RULES.md,
    ``str(game)`` itself, tuned files in ``results/training``, records). A sentinel ``deck=0``
    would also change what ``get_type().parameter_specification`` declares. The patch reaches
    Python callers only; C++ code calling ``LoadGame`` with a partial string gets the fixed
    defaults (``str(game)``, which pyspiel's own serialisation uses, always spells them out).

    For our games it also refuses a parameter given twice (``skip_columns(players=4,players=2)``,
    or in both the string and ``params``) with one line: pyspiel parses the string into a map
    that keeps the last value silently, before any game sees it. C++ callers of ``LoadGame``
    still get pyspiel's behaviour.
    """
    if isinstance(game, str):
        given = dict(pyspiel.game_parameters_from_string(game))
        name = given.pop("name")
        spec = REGISTRY.get(name)
        if spec is not None:
            _refuse_repeated_parameters(game, name, params)
        given.update(params or {})
        if spec is not None and any(p.auto and p.name not in given for p in spec.params):
            known = {p.name for p in spec.params}
            if set(given) <= known:  # unknown names: let pyspiel report them
                return _pyspiel_load_game(name, spec.fill_defaults(given))
    return _pyspiel_load_game(game) if params is None else _pyspiel_load_game(game, params)


def _refuse_repeated_parameters(game_string: str, name: str, params: dict | None) -> None:
    """A ``ValueError`` of one line if ``game_string`` names a parameter twice at its top
    level, or one that ``params`` gives too (names compared as pyspiel reads them: exactly,
    spaces included)."""
    seen = set(params or {})
    for key in _parameter_names(game_string):
        if key in seen:
            where = state_text.excerpt(game_string, 100)
            raise ValueError(
                f"{name}: parameter {key!r} is given twice in {where}"
                + (" and its parameters" if key in (params or {}) else "")
            )
        seen.add(key)


def _parameter_names(game_string: str) -> list[str]:
    """The parameter names of a game string ``name(k=v,...)`` at its top level (a value may
    itself be a game string in parentheses), in order, repeats kept."""
    start = game_string.find("(")
    if start < 0:
        return []
    names, depth, item = [], 0, []
    for ch in game_string[start + 1 :]:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            names.append("".join(item))
            item = []
            continue
        item.append(ch)
    names.append("".join(item))
    return [x.split("=", 1)[0] for x in names if x]


def install_load_game() -> None:
    """Make :func:`load_game` pyspiel's ``load_game``, and
    :func:`skip_ai.state_text.serialize_game_and_state` /
    :func:`~skip_ai.state_text.deserialize_game_and_state` (given the names in :data:`REGISTRY`
    and :func:`load`) pyspiel's (our games' states as checked text, never a pickle): what
    ``import skip_ai`` does, once, next to registering the games. Python callers only: C++ code
    calling pyspiel's functions directly gets pyspiel's."""
    pyspiel.load_game = load_game
    pyspiel.serialize_game_and_state = state_text.serialize_game_and_state
    pyspiel.deserialize_game_and_state = functools.partial(
        state_text.deserialize_game_and_state, games=REGISTRY.keys(), load=load
    )


def variants(spec: GameSpec) -> list[str]:
    """Every valid combination of a game's rule parameters, as game strings (each parameter
    over its ``variant_values`` where it declares them, else over all its choices), the levers
    at their defaults; then each lever's other settings one at a time, the rest at the
    defaults (levers multiply: their product is the balance search's, not the tests')."""
    rules = [p for p in spec.params if not p.lever]
    values_of = [p.choices if p.variant_values is None else p.variant_values for p in rules]
    combos = [dict(zip([p.name for p in rules], v)) for v in itertools.product(*values_of)]
    for lever in spec.levers:
        values = lever.choices if lever.variant_values is None else lever.variant_values
        combos += [{lever.name: v} for v in values if v != lever.default]
    out = []
    for params in combos:
        try:
            spec.resolve(params)
        except ValueError:
            continue
        out.append(game_string(spec, params))
    return out


def game_string(spec: GameSpec, params: dict) -> str:
    """The game string of ``params`` (levers at their defaults left out)."""
    body = ",".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in spec.shown(params).items()
    )
    return f"{spec.short_name}({body})"
