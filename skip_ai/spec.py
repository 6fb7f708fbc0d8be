"""What a game declares: its names, parameters, sizes, kernel, text rendering and table layout.

A game module builds one :class:`GameSpec` and passes it to
:func:`skip_ai.pyspiel_wrapper.register`; the generic wrapper does the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from skip_ai import text
from skip_ai.kernel import no_action_features
from skip_ai.kernel.state import CHANCE, NUM_PARAMS

TURN_CAPS = (1, 2, 3, 5, 10, 20, 50, 100, 200, 300, 500, 1000)
"""The choices of a game's cap on its length (turns or exchanges before a dead hand)."""

ParamValue = int | bool | str
Remap = Callable[[np.ndarray, np.ndarray, int, int, np.ndarray], int]
"""``GameSpec.remap``: ``(world, before, actor, action, sigma) -> action``."""


def remap_chance(
    world: np.ndarray, before: np.ndarray, actor: int, action: int, sigma: np.ndarray
) -> int:
    """The default ``GameSpec.remap``: a chance outcome is a card id, and the re-deal's
    ``sigma`` says which card plays its part; a player's action stays as it was."""
    return int(sigma[action]) if actor == CHANCE else action


@dataclass(frozen=True)
class Param:
    """One game parameter: its default, the values it may take, and a line of help.

    ``auto`` gives a default that depends on the other parameters (e.g. Domino's deck is 36
    when players = 2): it maps the parameters given so far to the value. ``default`` is then
    what it gives for the other parameters' defaults, and what pyspiel itself registers.
    """

    name: str
    default: ParamValue
    choices: tuple[ParamValue, ...]
    doc: str = ""
    auto: Callable[[dict], ParamValue] | None = None
    auto_doc: str = ""
    """How ``auto`` decides, for listings (e.g. "36 when players=2")."""
    variant_values: tuple[ParamValue, ...] | None = None
    """The values :func:`~skip_ai.pyspiel_wrapper.variants` (and so the generic tests) go
    through, when not every choice is worth a variant (e.g. a cap on the game's length);
    default: every choice."""
    lever: bool = False
    """A designer's lever (RULES §0.7): a change of the rules a designer tries, whose default
    is the rule as written. At its default a lever is left out of the game string (so default
    games, their records and files read as before); :func:`~skip_ai.pyspiel_wrapper.variants`
    goes through each lever's settings one at a time rather than in the product, and the
    balance study's search (:mod:`skip_ai.balance.levers`) through their product."""

    @property
    def label(self) -> str:
        """The parameter in words for a person choosing a variant (:data:`PARAM_LABELS`)."""
        return PARAM_LABELS[self.name]

    def check(self, value: Any, game: str) -> ParamValue:
        """The value if allowed, else a ``ValueError`` that names the game and parameter."""
        if value not in self.choices or type(value) is not type(self.default):
            allowed = ", ".join(_fmt(c) for c in self.choices)
            raise ValueError(
                f"{game}: parameter {self.name}={_fmt(value)} is not allowed (allowed: {allowed})"
            )
        return value

    def encode(self, value: ParamValue) -> int:
        """The integer the kernel sees: the index for text choices, else the number."""
        if isinstance(value, str):
            return self.choices.index(value)
        return int(value)


PARAM_LABELS = {
    "players": "Players",
    "deck": "Cards in the deck",
    "remove4": "Four cards put aside unseen",
    "voluntary_pass": "Passing by choice",
    "jokers": "Both jokers in the deck",
    "pelicans": "Pelicans in the deck",
    "lead_order": "Who leads again after a 2:2",
    "trick_lead": "Who leads a new trick",
    "tiebreak": "On equal cards taken",
    "places": "Play on for the other places",
    "max_exchanges": "Exchanges before the game stops",
    "max_turns": "Turns before a dead hand",
    "mode": "A match to 8 or one deal",
    "stakes": "Stakes",
    "cut": "The cut",
    "nines": "Offers of nines",
    "nines_declarer": "Nines offered to the elder hand",
    "redeal": "A redeal for a weak hand",
    "contracts": "Contracts",
    "first_seat": "The seat that moves first",
    "seating": "Partners side by side or alternately",
    "komi": "Compensation points to the first team",
    "hand_size": "Cards in hand",
    "opener": "Who attacks first",
    "trump_card": "The dealt card that shows the trump",
    "end": "When the game ends",
    "tie": "Who wins on equal scores",
}
"""Every game parameter's label, by name (a name means the same in every game that takes it):
what the start page of ``skip-ai serve`` and ``skip-ai games`` show instead of the code name;
``doc`` says more."""

PLAYERS_2_4_6 = Param("players", 4, (2, 4, 6), "2 (1v1), 4 (2v2) or 6 (3v3)")
PLAYERS_4_6 = Param("players", 4, (4, 6), "4 (2v2) or 6 (3v3)")
DECK_36_52 = Param("deck", 52, (36, 52), "36 or 52 cards")
DECK_36_FOR_1V1 = Param(
    "deck",
    52,
    (36, 52),
    "36 or 52 cards",
    auto=lambda p: 36 if p["players"] == 2 else 52,
    auto_doc="36 when players=2",
)
"""The seeds advise 36 cards for 1-vs-1 (Domino, Brook, Harvest)."""
REMOVE4 = Param(
    "remove4",
    False,
    (False, True),
    "4 cards removed unseen before the deal",
    auto=lambda p: p["players"] == 2,
    auto_doc="true when players=2",
)
"""Domino and Brook: four cards nobody sees, by default in 1-vs-1."""


SEATING = Param(
    "seating",
    "side_by_side",
    ("side_by_side", "alternate"),
    "partners side by side (the rules: team 0 = seats 0..k-1) or alternately (team 0 = the "
    "even seats), so that the turn passes from team to team",
    lever=True,
)
"""Seating as a lever (RULES §0.2 seats partners side by side); a kernel reads it with
:func:`skip_ai.kernel.state.seat_teams`."""


def first_seat(doc: str = "the seat that moves first (the rules: seat 0)") -> Param:
    """Which seat moves first, as a lever (most games: seat 0 starts, RULES §0.2)."""
    return Param("first_seat", 0, (0, 1, 2, 3, 4, 5), doc, lever=True)


TIE = Param(
    "tie",
    "draw",
    ("draw", "first", "second"),
    "equal scores are a draw, or won by the first team (team 0, Red), or by the second",
    lever=True,
)
"""A tie rule as a lever, for a game whose ties only a komi makes (Columns): with an integer
komi and equal scores won by one side, the komi acts as half a point more or less."""
TIE_DRAW, TIE_FIRST, TIE_SECOND = 0, 1, 2


def check_first_seat(game: str, params: dict) -> None:
    """Refuse a ``first_seat`` that is not one of the table's seats (a ``ValueError`` naming
    the game)."""
    players = params.get("players", 4)
    if params["first_seat"] >= players:
        raise ValueError(
            f"{game}: first_seat={params['first_seat']} is not a seat of {players} players"
        )


def komi(choices: tuple[int, ...], unit: str, tested: tuple[int, ...] | None = None) -> Param:
    """A compensation in the score as a lever: ``komi`` points (in the game's ``unit``) added
    to the first team's (team 0's, Red's) score before the scores are compared; a negative
    komi gives them to the second team. ``scores()`` includes it (the quantity the rules
    compare). 0 (the rules) changes nothing. ``tested``: the ``variant_values`` (default:
    the extremes)."""
    return Param(
        "komi",
        0,
        choices,
        f"{unit} added to the first team's score before comparing (negative: to the second team's)",
        variant_values=tested or (min(choices), max(choices)),
        lever=True,
    )


def _fmt(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


@dataclass(frozen=True)
class Mirror:
    """A team game's mirror (:mod:`skip_ai.mirror`): the same deal with the teams' hands
    swapped, each seat's hand to the seat with the same role in the other team; with
    ``swap_colours``, every card also turned into the card of the same rank in the suit of the
    other colour (♠↔♦, ♣↔♥, black joker ↔ red joker), for games where each team owns a
    colour: Red must still hold the red cards."""

    swap_colours: bool


@dataclass(frozen=True)
class GameSpec:
    """Everything the generic pyspiel wrapper needs to present a kernel as a game.

    Size callables take the resolved parameter dict. Rendering callables take the kernel
    state array (parameters live in its header).
    """

    short_name: str
    long_name: str
    original_name: str
    rules_section: str
    kernel: Any
    params: tuple[Param, ...]
    num_players: Callable[[dict], int]
    num_distinct_actions: Callable[[dict], int]
    max_chance_outcomes: Callable[[dict], int]
    max_game_length: Callable[[dict], int]
    observation_size: Callable[[dict], int]
    action_to_string: Callable[[np.ndarray, int, int], str]
    title: Callable[[np.ndarray], str]
    """The game and its variant in words, e.g. "Brook, 4 players, 52 cards"."""
    table_lines: Callable[[np.ndarray], list[str]]
    """The public part of the position as text lines (table, fields, cards taken, ...)."""
    min_utility: float = -1.0
    max_utility: float = 1.0
    team_names: tuple[str, str] = ("team 0", "team 1")
    team_game: bool = True
    """Team games (RULES §0.5) compare one score per team and have a winning team; games
    played each for themselves (Pyatki) have one score per seat."""
    check: Callable[[dict], None] = field(default=lambda params: None)
    """Cross-parameter validation; raises ValueError naming the problem."""
    private_lines: Callable[[np.ndarray, int], list[str]] = field(default=lambda s, p: [])
    """What only player ``p`` knows beyond his hand (e.g. Chains' cards drawn blind)."""
    seat_note: Callable[[np.ndarray, int], str] = field(default=lambda s, q: "")
    """A public note after a seat's hand (e.g. Pyatki's "out: place 1")."""
    chance_text: Callable[[np.ndarray], str] = field(default=lambda s: "dealing")
    """What happens at the current chance node, in words."""
    kernel_params: Callable[[dict], list[int]] | None = None
    """The kernel's parameter slots, when they are not simply the declared parameters in
    order (e.g. two games sharing one kernel with a variant flag)."""
    public_record: Callable[[np.ndarray], str] | None = None
    """Public facts that automatic events revealed and the action history does not show (e.g.
    Fours' follow-plays: who put down which card), rendered from the state; appended to the
    information state string so that it stays perfect recall."""
    remap: Remap = remap_chance
    """How :meth:`~skip_ai.pyspiel_wrapper.KernelState.replay` rewrites one action of the
    history so that it leads to a world that the kernel's ``resample`` re-dealt:
    ``remap(world, before, actor, action, sigma) -> action``. ``world`` is the kernel state
    ``resample`` drew (``replay`` without one passes the state being replayed), ``before``
    the replayed state just before the action (its ``H_MOVES`` is the action's index in the
    history), ``sigma`` the card permutation of the re-deal (``kernel.resample``). The
    default, :func:`remap_chance`, rewrites chance outcomes (card ids) and leaves players'
    actions, which only ever show public cards. A game overrides it when its ``resample``
    re-deals only part of the history (the rest replays as played), when players' actions can
    name hidden cards, or when ``resample`` also redraws hidden choices, which a card
    permutation cannot express (Sixty-six does all three)."""
    observation_version: int = 1
    """The version of what the kernel's ``observation(s, p, out)`` writes (the features a
    learned model reads): raised whenever its layout or meaning changes, so that a model
    trained on the old features is refused (:mod:`agents.model`)."""
    action_parts: Callable[[dict], np.ndarray] | None = None
    """The action ids as sums of parts, for a model's factored policy head (:mod:`agents.model`):
    ``action_parts(params)`` gives an int64 array ``(num_distinct_actions, k)``, the k parts of
    each action id (e.g. its kind, its card with that kind, the pile it goes on), numbered
    densely from 0; a model's output for an action is the sum of its parts' outputs, so that a
    game with thousands of action ids needs hundreds of output rows. None: one output per id."""
    action_parts_version: int = 1
    """Raised whenever ``action_parts`` changes, so that a model fitted to the old parts is
    refused."""
    action_features: ModuleType = no_action_features
    """The game's action-features module (:mod:`skip_ai.kernel.no_action_features` says what
    one holds): a small vector per legal move, from what the mover knows, that a model reads
    beside the observation. The default has none."""
    layout: Callable[[np.ndarray], dict] | None = None
    """The table in a browser (:mod:`skip_ai.serve`): the game's public places as zones of card
    ids and public facts (:mod:`skip_ai.layout` says what they hold), read from the state's
    public slots; the view still decides which cards the viewer may see. None: the public
    cards grouped by place."""
    move_target: Callable[[np.ndarray, int], str | None] | None = None
    """Where a move ``move_target(s, action)`` lands on that table (a pile's ``key``, a grid's
    ``cell:r,c``), None for a move that names no place; None for a game whose moves never do."""
    move_words: Callable[[np.ndarray, int, int], str] | None = None
    """A move in words for a person (the browser's log and moves, the terminal's transcript):
    ``move_words(s, player, action)`` with ``s`` the state the move is made in, naming only
    what the move's own text shows and the public table (e.g. Chains' "Qs to the right of
    Js" for ``Qs@0,1``). Card tokens stay in their text form (``Qs``), which the page draws as
    symbols. None: ``action_to_string``, which stays the checked text of pyspiel."""
    result_note: Callable[[np.ndarray], str] = field(default=lambda s: "")
    """How a finished game was decided beyond its score, in words for the banner (a tiebreak
    and its numbers, what the scores count when they are not what was played for, a cap that
    stopped the game, a special ending), e.g. "equal piles; the piles' value: Red 41, Black
    37"; "" when the score says it all. Given the terminal kernel state."""
    mirror: Mirror | None = None
    """How a deal is mirrored for balance studies (:mod:`skip_ai.mirror`); None: no mirror,
    and ``no_mirror`` says why. A variant whose deal treats the two teams unalike has none
    either (:func:`skip_ai.mirror.no_mirror_reason` finds it)."""
    no_mirror: str = ""
    """Why the game has no mirror, in one line (exactly when ``mirror`` is None)."""

    def __post_init__(self) -> None:
        if (self.mirror is None) != bool(self.no_mirror):
            raise ValueError(f"{self.short_name}: declare a mirror, or why there is none")

    @property
    def seat_teams(self) -> text.TeamNames:
        """The team names to label seats with; None in a game played each for themselves."""
        return self.team_names if self.team_game else None

    def render(self, s: np.ndarray) -> str:
        """``str(state)``: the whole position, every hand included."""
        teams = self.seat_teams
        return "\n".join(
            [
                text.move_line(s, self.title(s), teams, self.chance_text(s)),
                *text.hands_lines(s, teams, self.seat_note),
                *self.table_lines(s),
            ]
        )

    def render_observation(self, s: np.ndarray, p: int) -> str:
        """The observation string of player ``p``: his hand, what he alone knows, the public
        position."""
        teams = self.seat_teams
        return "\n".join(
            [
                f"{text.seat_name(s, p, teams)} sees: {text.status(s, teams, self.chance_text(s))}",
                f"  hand: {text.hand_text(s, p)}",
                *self.private_lines(s, p),
                f"  hand sizes: {text.sizes_text(s)}",
                *self.table_lines(s),
            ]
        )

    def move_text(self, s: np.ndarray, player: int, action: int) -> str:
        """A move for a person: ``move_words`` if the game has them, else its checked text."""
        if self.move_words is not None and player >= 0:
            return self.move_words(s, player, action)
        return self.action_to_string(s, player, action)

    def num_scores(self, params: dict) -> int:
        """How many numbers ``scores()`` gives: one per team, or one per seat."""
        return 2 if self.team_game else self.num_players(params)

    def resolve(self, given: dict) -> dict:
        """Validated parameters with defaults filled in (unknown names are an error)."""
        known = {p.name for p in self.params}
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(
                f"{self.short_name}: unknown parameter(s) {', '.join(unknown)} "
                f"(known: {', '.join(sorted(known)) or 'none'})"
            )
        resolved = self.fill_defaults(given)
        for p in self.params:
            p.check(resolved[p.name], self.short_name)
        self.check(resolved)
        return resolved

    def shown(self, params: dict) -> dict:
        """``params`` as a game string names them: without the levers left at their defaults,
        so that a default game's string, records and files are what they were before the
        game had levers."""
        by_name = {p.name: p for p in self.params}
        return {
            k: v for k, v in params.items() if not (by_name[k].lever and v == by_name[k].default)
        }

    @property
    def levers(self) -> tuple[Param, ...]:
        """The game's levers (RULES §0.7), in declaration order."""
        return tuple(p for p in self.params if p.lever)

    def fill_defaults(self, given: dict) -> dict:
        """``given`` plus every missing parameter's default (dependent ones computed)."""
        out = dict(given)
        for p in self.params:
            if p.name not in out and p.auto is None:
                out[p.name] = p.default
        for p in self.params:
            if p.name not in out:
                out[p.name] = p.auto(out)
        return {p.name: out[p.name] for p in self.params}

    def encode(self, params: dict) -> np.ndarray:
        """The int64 parameter array the kernel's ``init`` takes."""
        if self.kernel_params is not None:
            values = self.kernel_params(params)
        else:
            values = [p.encode(params[p.name]) for p in self.params]
        assert len(values) <= NUM_PARAMS
        return np.array(values, dtype=np.int64)
