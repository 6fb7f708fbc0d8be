"""Duplicate matches between agents, OpenSpiel's ISMCTS as an agent, ``skip-ai match``."""

import numpy as np
import pyspiel
import pytest

from agents import PreparedAgent, make_agent
from agents.model import PolicyValueNet
from skip_ai.cli import main
from skip_ai.duplicate import seatings
from skip_ai.kernel.rng import base_seed, derive
from skip_ai.match import match, play_seating
from skip_ai.pyspiel_wrapper import load


def test_seatings_swap_teams_or_rotate_seats():
    team = pyspiel.load_game("skip_guess(players=6)")
    assert [list(m) for m in seatings(team)] == [[True] * 3 + [False] * 3, [False] * 3 + [True] * 3]
    solo = pyspiel.load_game("skip_pyatki(players=3)")
    layouts = seatings(solo)
    assert len(layouts) == 3 and all(m.sum() == 2 for m in layouts)
    assert np.array(layouts).sum(axis=0).tolist() == [2, 2, 2]


def test_both_games_of_a_deal_start_from_the_same_cards():
    game = pyspiel.load_game("skip_domino(players=4)")
    deals = []
    for a_seats in seatings(game):
        state = play_seating(game, 12345, a_seats, "random", "random")["state"]
        history = state.full_history()
        first_move = next(i for i, item in enumerate(history) if item.player >= 0)
        deals.append([item.action for item in history[:first_move]])
    assert deals[0] == deals[1] and len(deals[0]) >= 24


def test_match_is_reproducible_and_scores_a():
    a = match("skip_columns(players=2,deck=36)", "ismcts(iterations=40)", "random", 4, seed=3)
    b = match("skip_columns(players=2,deck=36)", "ismcts(iterations=40)", "random", 4, seed=3)
    cols = ["deal", "seating", "seed", "score_a", "return_0", "return_1", "num_actions"]
    assert a.games[cols].equals(b.games[cols])
    assert len(a.games) == 8 and a.deals == 4
    assert a.lo <= a.score <= a.hi
    assert np.allclose(
        a.games.score_a,
        (1 + np.where(a.games.seating == 0, a.games.return_0, a.games.return_1)) / 2,
    )


@pytest.mark.parametrize(
    "game, a, b",
    [
        ("skip_columns(players=4,deck=36)", "ismcts(iterations=15)", "heuristic"),
        ("skip_columns", "learned(model=skip_columns)", "random"),
    ],
)
def test_a_match_plays_as_bots_built_for_every_game(game, a, b):
    # a match builds each side's bot once and sets it up per game; every game must be the one
    # bots built for it alone play (as every match did before)
    g = load(game)
    r = match(g, a, b, 2, seed=9)
    rows = r.games.set_index(["deal", "seating"])
    for deal in range(2):
        deal_seed = int(derive(np.uint64(base_seed(9)), deal))
        for k, a_seats in enumerate(seatings(g)):
            alone = play_seating(g, deal_seed, a_seats, a, b)
            row = rows.loc[(deal, k)]
            assert row.num_actions == alone["num_actions"] and row.moves_a == alone["moves_a"]
            assert [row[f"return_{p}"] for p in range(g.num_players())] == list(alone["returns"])


def test_a_match_reads_its_model_once(monkeypatch):
    reads = []
    load_model = PolicyValueNet.load

    def counted(path, game=None):
        reads.append(path)
        return load_model(path, game)

    monkeypatch.setattr(PolicyValueNet, "load", staticmethod(counted))
    r = match("skip_columns", "learned(model=skip_columns)", "random", 3)
    assert len(r.games) == 3 * len(seatings(load("skip_columns"))) and len(reads) == 1


def test_each_side_of_a_game_has_its_own_prepared_agent():
    game = load("skip_columns(players=2,deck=36)")
    side = PreparedAgent("random", game)
    with pytest.raises(ValueError, match="a prepared agent each"):
        play_seating(game, 1, seatings(game)[0], side, side)
    with pytest.raises(ValueError, match="prepared for"):
        play_seating(load("skip_columns"), 1, seatings(game)[0], side, "random")


def test_match_errors_name_the_problem():
    with pytest.raises(ValueError, match="unknown agent 'genius'"):
        match("skip_columns", "genius", "random", 2)
    with pytest.raises(ValueError, match="at least one deal"):
        match("skip_columns", "random", "random", 0)


def test_openspiel_ismcts_agent_plays_legal_moves_within_its_budget():
    game = pyspiel.load_game("skip_columns(players=2,deck=36)")
    bot = make_agent("openspiel_ismcts(iterations=20)", game, seed=1)
    timed = make_agent("openspiel_ismcts(seconds=0.05)", game, seed=1)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    moves = 0
    while not state.is_terminal() and moves < 12:
        if state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
            continue
        assert bot.step(state) in state.legal_actions()
        action = timed.step(state)
        assert action in state.legal_actions() and timed.last_iterations >= 2
        state.apply_action(action)
        moves += 1
    with pytest.raises(ValueError, match="exactly one budget"):
        make_agent("openspiel_ismcts", game)


def test_cli_match(capsys):
    assert (
        main(
            [
                "match",
                "skip_columns(players=2,deck=36)",
                "ismcts(iterations=30)",
                "random",
                "-n",
                "2",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "A's score" in out and "over 2 deals (4 games" in out
    assert main(["match", "skip_columns", "random", "nobody(x=1)", "-n", "2"]) == 2


def test_thinking_time_per_move_is_each_sides_own():
    """Each side's time is divided by its own number of moves (they differ in Pyatki, where a
    side that is losing takes more turns)."""
    r = match("skip_columns(players=2,deck=36)", "random", "random", 2, seed=1)
    r.games[["seconds_a", "seconds_b", "moves_a", "moves_b"]] = [[1.0, 1.0, 10, 40]] * 4
    assert "forced ones included: A 100.0 ms, B 25.0 ms" in str(r)


def test_thinking_time_per_move_with_a_choice_leaves_forced_moves_out():
    """The equal-time comparison's number: a side's time over its moves with more than one
    legal action. Pyatki's forced moves (a single legal action) are counted apart; the
    counts are the decisions with a choice, replayed through pyspiel."""
    r = match("skip_pyatki(players=2)", "random", "heuristic", 1, seed=3)
    g = r.games
    assert (g.choices_a <= g.moves_a).all() and (g.choices_b <= g.moves_b).all()
    assert (g.choices_a + g.choices_b < g.moves_a + g.moves_b).any()  # some moves are forced
    g[["choice_seconds_a", "choice_seconds_b"]] = [[1.0, 3.0]] * len(g)
    a, b = g.choices_a.sum(), g.choices_b.sum()
    assert r.ms_per_move("a", True) == pytest.approx(1e3 * len(g) / a)
    assert (
        f"with a choice: A {1e3 * len(g) / a:.1f} ms ({a} moves), B {3e3 * len(g) / b:.1f}"
        in str(r)
    )
