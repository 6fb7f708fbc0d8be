"""The table's words (issue 48): replays in the third person, recorded games listed in team
order with self-play said in words, banners that name a tiebreak and Sixty-six's board
points, Chains' moves in words (browser and terminal), and every parameter labelled."""

from __future__ import annotations

import json
import re

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pyspiel
import pytest
from test_serve import Client, running

from skip_ai import cards, words
from skip_ai.cli import main
from skip_ai.games.chains.layout import CH_CELL
from skip_ai.pyspiel_wrapper import REGISTRY
from skip_ai.record_schema import SCHEMA
from skip_ai.records import read_records
from skip_ai.serve.views import table_view
from skip_ai.spec import PARAM_LABELS
from skip_ai.tournament import load_config, run_tournament

SECOND_PERSON = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)


def random_game(name: str, seed: int, stop=None) -> pyspiel.State:
    """A game played at random to its end, or to the first state where ``stop`` holds."""
    rng = np.random.default_rng(seed)
    state = pyspiel.load_game(name).new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# ----- replays and watching in the third person -----------------------------------------


@pytest.mark.parametrize("name", ["skip_columns(players=4,deck=36)", "skip_pyatki(players=3)"])
def test_a_view_from_a_seat_without_a_person_never_says_you(name):
    middle = random_game(name, 1, stop=lambda s: s.is_player_node() and len(s.history()) > 40)
    end = random_game(name, 1)
    for state in (middle, end):
        for seat in range(state.num_players()):
            replay = table_view(state, seat, seated=False)
            said = json.dumps(replay, ensure_ascii=False)
            assert not SECOND_PERSON.search(said), SECOND_PERSON.search(said)
            assert replay["person"] is None and replay["viewer"] == seat
            # the seat's cards are still its own view: the same cards as the seated view
            seated = table_view(state, seat)
            assert replay["seats"] == [
                s | {"label": r["label"], "role": ""}
                for s, r in zip(seated["seats"], replay["seats"])
            ]
    live = table_view(middle, middle.current_player())
    assert live["turn"] == "your move" and live["person"] == middle.current_player()
    assert table_view(middle, middle.current_player(), seated=False)["turn"].startswith("seat ")


def test_the_results_third_person_names_the_team():
    end = random_game("skip_columns(players=4,deck=36)", 1)
    won = 0 if end.returns()[0] > 0 else 1
    a, b = end.scores()[won], end.scores()[1 - won]
    team = end.get_game().spec.team_names[won]
    assert words.result_text(end, None) == f"{team} wins {a:g}–{b:g}"
    assert words.result_text(end, 2 if won == 0 else 0).endswith(": your team lost")


# ----- recorded games: listed in team order, self-play in words -------------------------


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """A tiny tournament's folder (random against heuristic, Columns for four), and a copy
    of its records as a balance study writes self-play: both sides the same agent."""
    tmp = tmp_path_factory.mktemp("words")
    config = tmp / "t.toml"
    config.write_text(
        f'name = "w"\nseed = 3\ndeals = 1\nout = "{tmp / "out"}"\n'
        '[[games]]\ngame = "skip_columns(players=4,deck=36)"\n'
        '[[agents]]\nname = "rnd"\nspec = "random"\n'
        '[[agents]]\nname = "heur"\nspec = "heuristic"\n'
    )
    run_tournament(load_config(config), workers=1)
    df = read_records(tmp / "out" / "records")
    df["agent_a"] = df["agent_b"] = "random"
    df["agents"] = [["random"] * len(a) for a in df.agents]
    (tmp / "self" / "records").mkdir(parents=True)
    pq.write_table(
        pa.Table.from_pandas(df, schema=SCHEMA, preserve_index=False),
        tmp / "self" / "records" / "shard.parquet",
    )
    return tmp / "out", tmp / "self"


def _client_of(folder):
    server = running(folder)
    return server, Client(server)


def test_self_play_records_are_said_in_words(folders):
    server, client = _client_of(folders[1])
    try:
        _, page = client.get("/api/records")
        assert page["total"] == 2
        for row in page["rows"]:
            won = row["winner"]
            team = ("Red", "Black")[won]
            a, b = row["scores"][won], row["scores"][1 - won]
            assert row["players"] == "self-play, random"
            assert row["outcome"] == f"self-play, random: {team} won {a:g}–{b:g}"
            assert [s["name"] for s in row["sides"]] == ["Red", "Black"]
            assert [s["score"] for s in row["sides"]] == row["scores"]  # team order
            assert "A wins" not in row["outcome"] and " vs " not in row["outcome"]
    finally:
        server.shutdown()
        server.server_close()


def test_records_name_who_played_which_team_in_team_order(folders):
    server, client = _client_of(folders[0])
    try:
        _, games = client.get("/api/games")
        assert set(games["records"]["result_words"]) == set(games["records"]["results"])
        _, page = client.get("/api/records")
        rows = page["rows"]
        assert {r["players"] for r in rows} == {"rnd vs heur"}
        for row in rows:
            red, black = row["sides"]
            assert (red["name"], black["name"]) == ("Red", "Black")
            assert [red["score"], black["score"]] == row["scores"]
            seats = row["agents"]  # Columns for four: seats 0, 1 Red, 2, 3 Black
            assert red["agents"] == seats[0] == seats[1] and black["agents"] == seats[2]
            winner, loser = (red, black) if row["winner"] == 0 else (black, red)
            assert row["outcome"] == (
                f"{winner['agents']} ({winner['name']}) beat {loser['agents']} "
                f"({loser['name']}) {winner['score']:g}–{loser['score']:g}"
            )
        # a replay from a seat's view: its cards, and never "you"
        index = rows[0]["index"]
        _, first = client.get(f"/api/records/{index}?pos=0&seat=open")
        n = first["positions"]
        for pos in (0, n // 2, n - 1):
            status, view = client.get(f"/api/records/{index}?pos={pos}&seat=2")
            assert status == 200 and view["viewer"] == 2 and view["person"] is None
            said = json.dumps({k: v for k, v in view.items() if k != "record"})
            assert not SECOND_PERSON.search(said), (pos, SECOND_PERSON.search(said))
        assert view["result"] and view["result"][0] in "RB"  # "Red wins …" / "Black wins …"
    finally:
        server.shutdown()
        server.server_close()


# ----- banners: the tiebreak, Sixty-six's board points -----------------------------------


def _first_end(name: str, holds, seeds=range(60)) -> pyspiel.State:
    for seed in seeds:
        end = random_game(name, seed)
        if holds(end):
            return end
    raise AssertionError(f"{name}: no random game ended as wanted")


def test_little_countrys_level_piles_name_the_tiebreak():
    end = _first_end(
        "skip_little_country", lambda s: s.scores()[0] == s.scores()[1] and s.returns()[0] != 0
    )
    piles = int(end.scores()[0])
    won = 0 if end.returns()[0] > 0 else 1
    team = ("Red", "Black")[won]
    banner = table_view(end, None)["result"]
    assert banner.startswith(f"{team} wins {piles}–{piles} on the tiebreak (")
    assert f"{piles} piles each; the tiebreak is the piles' total value: Red " in banner
    values = [int(v) for v in re.findall(r"(?:Red|Black) (\d+)", banner.split("value:")[1])]
    assert values[won] > values[1 - won]  # the higher value won
    assert "on the tiebreak" not in words.result_text(
        _first_end("skip_little_country", lambda s: s.scores()[0] != s.scores()[1])
    )


def test_guess_names_its_tiebreak_or_that_it_has_none():
    for tiebreak, said in (
        ("values", "the tiebreak is their total value"),
        ("draw", "no tiebreak"),
    ):
        end = _first_end(
            f"skip_guess(tiebreak={tiebreak})",
            lambda s: s.scores()[0] == s.scores()[1],
            seeds=range(400),
        )
        assert said in words.result_text(end)


def test_sixty_six_says_its_score_is_board_points_beside_the_card_points():
    from skip_ai.games.sixty_six.layout import R_LAST_TRICK, SX_LAST_TEXT

    end = _first_end(
        "classic_sixty_six_4p(mode=deal)",
        lambda s: s.kernel_state()[SX_LAST_TEXT] == R_LAST_TRICK,
    )
    won = 0 if end.scores()[0] > end.scores()[1] else 1
    a, b = end.scores()[won], end.scores()[1 - won]
    banner = table_view(end, None)["result"]
    assert banner.startswith(f"team {won} wins {a:g}–{b:g} (in board points; ")
    assert f"the last award, last trick: team {won} +{a - b:g}" in banner
    assert re.search(r"the deal's card points: team 0 \d+, team 1 \d+\)$", banner)
    match = _first_end("classic_sixty_six_4p", lambda s: True)
    assert re.search(r"a (shuba|klin|cross klin): ", words.result_text(match))


def test_every_games_note_follows_its_score_in_brackets():
    for name in sorted(REGISTRY):
        for seed in range(3):
            end = random_game(name, seed)
            note = end.get_game().spec.result_note(end.kernel_state())
            banner = words.result_text(end)
            assert banner.endswith(f" ({note})") if note else "(" not in banner, banner


# ----- Chains' moves in words -------------------------------------------------------------


def _placed(state: pyspiel.State) -> int:
    return int(np.sum(state.kernel_state()[CH_CELL : CH_CELL + 54] >= 0))


def test_chains_moves_are_said_in_words_in_the_log_and_the_moves():
    state = random_game("skip_chains", 4, stop=lambda s: s.is_player_node() and _placed(s) > 20)
    p = state.current_player()
    view = table_view(state, p, moves=True)
    labels = [m["label"] for m in view["moves"]]
    assert len(set(labels)) == len(labels) == len(state.legal_actions())  # one cell each
    assert all(re.fullmatch(r"\S\S (to the (right|left) of|above|below) \S\S", x) for x in labels)
    moves = [e["text"] for e in view["log"] if e["seat"] >= 0]
    assert moves[0].endswith(" starts the table") and len(moves) == 21
    assert not any("@" in m for m in moves)
    assert "@" in state.action_to_string(p, view["moves"][0]["a"])  # pyspiel's text stays


def test_a_chains_card_beside_the_first_is_said_where_it_goes():
    state = random_game("skip_chains", 4, stop=lambda s: s.is_player_node() and _placed(s) == 1)
    spec, s, p = state.get_game().spec, state.kernel_state(), state.current_player()
    first = cards.to_str(int(np.flatnonzero(s[CH_CELL : CH_CELL + 54] >= 0)[0]))
    n = 13  # 52 cards: the table is 4 × 13, cells -12..12 from the first card
    card = next(c for c in range(52) if state.location(c) == p)
    w = 2 * n - 1
    for dr, dc, side in ((0, 1, "to the right of"), (0, -1, "to the left of"), (1, 0, "below")):
        action = card * w * w + (dr + n - 1) * w + (dc + n - 1)
        assert action in state.legal_actions()
        assert spec.move_text(s, p, action) == f"{cards.to_str(card)} {side} {first}"


def test_the_terminal_transcript_says_chains_moves_in_words(capsys):
    assert (
        main(["play", "skip_chains(players=4,deck=36)", "--seed", "1", "--others", "random"]) == 0
    )
    out = capsys.readouterr().out
    moves = re.findall(r"^ +\d+\. seat \d: (.*)$", out, re.MULTILINE)
    assert len(moves) == 36 and moves[0].endswith(" starts the table")
    assert not any("@" in m for m in moves), moves[:3]


# ----- parameter labels -------------------------------------------------------------------


def test_every_parameter_of_every_game_has_a_label():
    for spec in REGISTRY.values():
        for p in spec.params:
            assert p.name in PARAM_LABELS, (spec.short_name, p.name)
            assert p.label and p.label[0].isupper() and "_" not in p.label, p.label
    used = {p.name for spec in REGISTRY.values() for p in spec.params}
    assert set(PARAM_LABELS) == used  # no label left for a parameter that is gone


def test_skip_ai_games_shows_the_labels(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "max_exchanges   Exchanges before the game stops: default 200" in out
    assert "remove4         Four cards put aside unseen: default false" in out
