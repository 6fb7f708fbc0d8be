"""The rules of every game for people: one Markdown page per registered game
(``<short name>.md``) and an index (``README.md``), shipped inside the package so that
``skip-ai rules GAME`` works from any installation."""

from __future__ import annotations

from importlib import resources

from skip_ai.pyspiel_wrapper import spec_of


def page(game: str) -> str:
    """The rules page of ``game``: a short name or a whole game string such as
    ``skip_columns(players=4)``; an unknown game is a ``ValueError`` naming the known ones."""
    return _read(f"{spec_of(game).short_name}.md")


def index() -> str:
    """The index of the pages: every game with its original name and a line about it."""
    return _read("README.md")


def _read(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
