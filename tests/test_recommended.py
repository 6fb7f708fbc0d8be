"""The recommended variants (``skip_ai/rules/recommended.toml``, :mod:`skip_ai.rules.recommended`):
the shipped file reads and is shipped, every entry's variant loads and plays, a bad entry is
refused with one line naming the file and the game, and the server offers each
recommendation with the games and opens a table in it."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pyspiel
import pytest

from skip_ai.pyspiel_wrapper import REGISTRY, spec_of
from skip_ai.rules.recommended import FILE, read, recommended

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_file_reads():
    recs = recommended()
    assert recs, "no recommended variant shipped"
    assert recs["skip_columns"].variant == "skip_columns(players=4,komi=5)"
    # every parameter, the ones the string leaves out at their defaults
    params = REGISTRY["skip_columns"].resolve({"players": 4, "komi": 5})
    assert recs["skip_columns"].params == params and params["deck"] == 52
    assert "55.8%" in recs["skip_columns"].why
    assert {"skip_columns", "skip_harvest", "skip_brook"} <= set(recs)
    for game, rec in recs.items():
        assert rec.game == game and game in REGISTRY


@pytest.mark.parametrize("game", sorted(recommended()))
def test_every_entrys_variant_loads_and_plays(game):
    rec = recommended()[game]
    loaded = pyspiel.load_game(rec.variant)
    assert spec_of(str(loaded)).short_name == game
    assert str(pyspiel.load_game(rec.game_string)) == rec.game_string == str(loaded)
    assert REGISTRY[game].resolve(dict(loaded.get_parameters())) == rec.params
    state = loaded.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions()


def test_the_file_is_shipped_with_the_package():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["skip_ai.rules"]
    assert any(fnmatch.fnmatch(FILE, p) for p in patterns), patterns
    assert (ROOT / "skip_ai" / "rules" / FILE).is_file()


GOOD = 'variant = "skip_columns(players=4,first_seat=1)"\nwhy = "fairer"\n'


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[skip_colums]\n" + GOOD, "[skip_colums]: no such game"),
        ('[skip_columns]\nvariant = "skip_fours"\nwhy = "x"\n', "is a variant of skip_fours"),
        ('[skip_columns]\nvariant = "nope(x=1)"\nwhy = "x"\n', "unknown game 'nope'"),
        ('[skip_columns]\nvariant = "skip_columns(foo=1)"\nwhy = "x"\n', "unknown parameter"),
        (
            '[skip_columns]\nvariant = "skip_columns(first_seat=9)"\nwhy = "x"\n',
            "first_seat=9 is not allowed",
        ),
        (
            '[skip_columns]\nvariant = "skip_columns(players=2,first_seat=3)"\nwhy = "x"\n',
            "first_seat=3 is not a seat of 2 players",
        ),
        ('[skip_columns]\nvariant = "skip_columns(players=4"\nwhy = "x"\n', "does not load"),
        ('[skip_columns]\nvariant = ""\nwhy = "x"\n', "variant must be a game string"),
        ('[skip_columns]\nvariant = 4\nwhy = "x"\n', "variant must be a game string"),
        ('[skip_columns]\nwhy = "x"\n', "variant must be a game string"),
        ('[skip_columns]\nvariant = "skip_columns"\nwhy = "  "\n', "why must be a non-empty"),
        ('[skip_columns]\nvariant = "skip_columns"\n', "why must be a non-empty"),
        ('[skip_columns]\nvariant = "skip_columns"\nwhy = ["x"]\n', "why must be a non-empty"),
        ("[skip_columns]\n" + GOOD + "note = 1\n", "unknown key(s) note"),
        ('skip_columns = "skip_columns(first_seat=1)"\n', "must be a table"),
        ("[skip_columns\n" + GOOD, "cannot read the recommended variants"),
    ],
)
def test_a_bad_entry_is_refused_in_one_line(tmp_path, body, message):
    path = tmp_path / "recommended.toml"
    path.write_text(body)
    with pytest.raises(ValueError) as e:
        read(path)
    text = str(e.value)
    assert message in text and "\n" not in text
    assert text.startswith(f"{path}: ")
    if "cannot read" not in message:
        assert "[skip_colum" in text  # the game named


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="cannot read the recommended variants"):
        read(tmp_path / "none.toml")


def test_a_good_file_reads_every_entry(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(
        "[skip_columns]\n" + GOOD + '[skip_domino]\nvariant = "skip_domino(players=2,komi=1)"\n'
        'why = "a test"\n'
    )
    recs = read(path)
    assert set(recs) == {"skip_columns", "skip_domino"}
    # an automatic default is filled in from the other parameters (36 cards for 1v1)
    assert recs["skip_domino"].params["deck"] == 36 and recs["skip_domino"].params["komi"] == 1


# ----- the server ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client():
    from test_serve import Client, running

    server = running()
    yield Client(server)
    server.shutdown()
    server.server_close()


def test_the_games_list_serves_each_recommendation_and_marks_the_levers(client):
    status, data = client.get("/api/games")
    assert status == 200
    games = {g["name"]: g for g in data["games"]}
    recs = recommended()
    for name, g in games.items():
        rec = recs.get(name)
        if rec is None:
            assert g["recommended"] is None, name
            continue
        assert g["recommended"] == {
            "variant": rec.game_string,
            "params": rec.params,
            "why": rec.why,
        }
        assert set(g["recommended"]["params"]) == {p["name"] for p in g["params"]}
    levers = {p["name"] for p in games["skip_columns"]["params"] if p["lever"]}
    assert levers == {p.name for p in REGISTRY["skip_columns"].levers} >= {"first_seat", "komi"}
    assert not any(p["lever"] for p in games["classic_rummy"]["params"])


def test_a_table_opened_with_the_recommended_parameters_plays_that_variant(client):
    _, data = client.get("/api/games")
    rec = next(g for g in data["games"] if g["name"] == "skip_columns")["recommended"]
    # the game string as the page builds it: every field of the form, levers included
    game = "skip_columns(" + ",".join(f"{k}={v}" for k, v in rec["params"].items()) + ")"
    status, view = client.post(
        "/api/tables", {"game": game, "seat": None, "agents": ["random"] * 4, "pace": 0}
    )
    assert status == 200, view
    assert view["game"] == rec["variant"] == "skip_columns(deck=52,komi=5,players=4)"
    assert view["title"].endswith("komi +5")
    client.raw("DELETE", f"/api/tables/{view['id']}")
