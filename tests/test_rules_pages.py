"""The rules pages (``skip_ai/rules/``) kept honest against the games themselves: every
registered game has a page; its parameter table names every parameter of the registry with its
default and exactly its allowed values (so a new parameter must be documented); it states the
game's ``num_distinct_actions``; its worked example is what ``skip-ai play`` really prints; and
``skip-ai rules`` prints the pages."""

import re
import shlex

import pyspiel
import pytest

from skip_ai import rules
from skip_ai.cli import main
from skip_ai.pyspiel_wrapper import REGISTRY

GAMES = sorted(REGISTRY)


def _section(page: str, title: str) -> str:
    """The text under the ``## title`` heading, up to the next ``## `` heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def _parameter_rows(page: str) -> dict[str, list[str]]:
    """Parameter name → its table cells after the name (default, allowed, what it does)."""
    rows = {}
    for line in _section(page, "Parameters").splitlines():
        match = re.match(r"\|\s*`(\w+)`\s*\|(.*)\|\s*$", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return rows


def _text(value) -> str:
    return str(value).lower()  # as parameters are written: false, true, 36, clockwise


@pytest.mark.parametrize("name", GAMES)
def test_page_titles_the_game_with_its_original_name(name):
    spec = REGISTRY[name]
    title = rules.page(name).splitlines()[0]
    assert title.startswith("# ") and spec.long_name in title
    assert f"«{spec.original_name}»" in title
    assert f"RULES {spec.rules_section}" in rules.page(name)


@pytest.mark.parametrize("name", GAMES)
def test_every_parameter_has_a_row_with_its_default_and_allowed_values(name):
    rows = _parameter_rows(rules.page(name))
    for p in REGISTRY[name].params:
        assert p.name in rows, f"{name}: parameter {p.name} is not on the page"
        default, allowed, what = rows[p.name]
        assert re.match(rf"{re.escape(_text(p.default))}\b", default), (
            f"{name}: {p.name}'s default should read {_text(p.default)}, not {default!r}"
        )
        assert {v.strip() for v in allowed.split(",")} == {_text(c) for c in p.choices}, (
            f"{name}: {p.name} allows {[_text(c) for c in p.choices]}, the page says {allowed!r}"
        )
        assert what


@pytest.mark.parametrize("name", GAMES)
def test_the_page_states_num_distinct_actions(name):
    n = pyspiel.load_game(name).num_distinct_actions()
    assert re.search(rf"num_distinct_actions`? = {n}\b", _section(rules.page(name), "Actions")), (
        f"{name}: the Actions section should state num_distinct_actions = {n} (defaults)"
    )


@pytest.mark.parametrize("name", GAMES)
def test_the_worked_example_is_what_skip_ai_play_prints(name, capsys):
    """The example's first code block: a ``$ skip-ai play ...`` command, then lines quoted from
    its output in order, ``...`` where lines are left out."""
    block = re.search(r"```text\n(.*?)```", _section(rules.page(name), "Worked example"), re.S)
    command, *quoted = block.group(1).splitlines()
    assert command.startswith("$ skip-ai play ")
    argv = shlex.split(command[2:])[1:]
    assert argv[1].split("(")[0] == name
    assert main(argv) == 0
    printed = iter(line.rstrip() for line in capsys.readouterr().out.splitlines())
    quoted = [line.rstrip() for line in quoted if line.strip() != "..."]
    assert len(quoted) >= 5
    for line in quoted:  # each in order: `in` on an iterator consumes it up to the match
        assert line in printed, f"{name}: {line!r} is not printed (in this order) by {command}"


def test_the_index_links_every_page():
    index = rules.index()
    for name, spec in REGISTRY.items():
        assert f"| `{name}` | «{spec.original_name}»" in index
        assert f"]({name}.md)" in index


def test_skip_ai_rules_prints_a_page(capsys):
    assert main(["rules", "skip_little_country"]) == 0
    assert capsys.readouterr().out == rules.page("skip_little_country")
    assert main(["rules", "skip_columns(players=4)"]) == 0
    assert capsys.readouterr().out.startswith("# Columns")
    assert main(["rules"]) == 0
    assert capsys.readouterr().out == rules.index()


def test_skip_ai_rules_names_the_known_games_for_an_unknown_one(capsys):
    assert main(["rules", "skip_colums"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert "unknown game 'skip_colums'" in line and all(name in line for name in REGISTRY)


def test_skip_ai_games_points_to_the_pages_not_to_the_contract(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "skip-ai rules GAME" in out and "RULES" not in out
