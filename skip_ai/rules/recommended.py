"""The recommended variant of each game: the fairest variant its levers (RULES §0.7) gave in
the balance study's search (``skip-ai balance`` with ``[search]``), shipped as
``recommended.toml`` beside the rules pages and offered by the start page of ``skip-ai serve``
("Play the recommended variant").

The file holds one table per game, named by the game's short name::

    [skip_columns]
    variant = "skip_columns(players=4,first_seat=1)"
    why = "Black wins 96% under the rules ...; with ..., 51.0% [48.1, 53.9] ..."

Every entry is checked where it is read: the game exists, its ``variant`` loads with pyspiel
and is a variant of that game, its ``why`` is a sentence. A bad entry is a ``ValueError`` of
one line naming the file and the game.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pyspiel

from skip_ai.pyspiel_wrapper import REGISTRY, load, spec_of

FILE = "recommended.toml"
KEYS = ("variant", "why")


@dataclass(frozen=True)
class Recommendation:
    """One game's recommended variant."""

    game: str
    """The game's short name (``skip_columns``)."""
    variant: str
    """The variant as the file writes it: a whole game string of that game."""
    params: dict[str, Any]
    """Every parameter of the variant, defaults filled in (``GameSpec.resolve``)."""
    why: str
    """Why this variant, in a sentence or two for a person."""

    @property
    def game_string(self) -> str:
        """The variant as pyspiel names it once loaded (levers at their defaults left out)."""
        return str(load(self.variant))


def recommended() -> dict[str, Recommendation]:
    """The shipped recommendations (``skip_ai/rules/recommended.toml``), by game short name."""
    shipped = resources.files(__package__).joinpath(FILE)
    with resources.as_file(shipped) as path:
        return read(path)


def read(path: str | Path) -> dict[str, Recommendation]:
    """The recommendations of the file ``path``, every entry checked (a ``ValueError`` of one
    line naming the file and the game)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{path}: cannot read the recommended variants: {_line(e)}") from None
    return {game: _entry(path, game, entry) for game, entry in data.items()}


def _entry(path: Path, game: str, entry: Any) -> Recommendation:
    where = f"{path}: [{game}]"
    if game not in REGISTRY:
        raise ValueError(f"{where}: no such game (known: {', '.join(REGISTRY)})")
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: must be a table with {' and '.join(KEYS)}")
    unknown = sorted(set(entry) - set(KEYS))
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(KEYS)})")
    variant, why = entry.get("variant"), entry.get("why")
    if not isinstance(variant, str) or not variant.strip():
        raise ValueError(f"{where}: variant must be a game string such as {game}(players=4)")
    if not isinstance(why, str) or not why.strip():
        raise ValueError(f"{where}: why must be a non-empty string saying why this variant")
    try:
        name = spec_of(variant).short_name
    except ValueError as e:
        raise ValueError(f"{where}: variant {variant!r}: {_line(e)}") from None
    if name != game:
        raise ValueError(f"{where}: variant {variant!r} is a variant of {name}, not of {game}")
    try:
        # the parameters checked by the spec first: its messages name the game and the
        # allowed values (pyspiel's own would also print to stderr)
        given = dict(pyspiel.game_parameters_from_string(variant))
        given.pop("name")
        REGISTRY[game].resolve(given)
        loaded = load(variant)
    except (ValueError, pyspiel.SpielError) as e:
        raise ValueError(f"{where}: variant {variant!r} does not load: {_line(e)}") from None
    params = REGISTRY[game].resolve(dict(loaded.get_parameters()))
    return Recommendation(game=game, variant=variant, params=params, why=" ".join(why.split()))


def _line(e: Exception) -> str:
    """An error's text on one line."""
    return " ".join(str(e).split())[:300]
