"""``skip-ai serve`` prepares the games in a background process (:mod:`skip_ai.serve.warm`):
it plays each named game through the table's own code and says when every game is ready, or
in one line why it could not (tables then compile as they open)."""

from __future__ import annotations

from skip_ai.cli import build_parser
from skip_ai.serve.warm import Warmer, game_names, main


def test_warming_a_game_plays_it_through_the_tables_code(capsys):
    assert main(["skip_columns"]) == 0
    assert capsys.readouterr().out.startswith("skip_columns: ready in ")


def test_the_process_says_when_the_games_are_ready_or_why_not():
    said: list[str] = []
    Warmer(said.append, ["skip_columns"]).start().thread.join(timeout=600)
    assert len(said) == 1 and said[0].startswith("every game is ready"), said
    said.clear()
    Warmer(said.append, ["no_such_game"]).start().thread.join(timeout=600)
    assert len(said) == 1 and said[0].startswith("preparing the games failed ("), said
    assert "tables compile as they open" in said[0]


def test_every_game_of_the_page_is_warmed_unless_told_not_to():
    assert len(game_names()) == 13 and game_names()[0] == "skip_pyatki"
    parser = build_parser()
    assert parser.parse_args(["serve"]).warm is True
    assert parser.parse_args(["serve", "--no-warm"]).warm is False
