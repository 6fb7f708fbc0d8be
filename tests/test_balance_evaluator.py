"""The fixed evaluator of a balance study: recorded games replayed and read by one seeded
ISMCTS, and the per-game measures of its estimates on hand-made value sequences."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from agents import make_agent
from agents.ismcts import SearchStats
from skip_ai.balance.evaluator import (
    DECISION_COLUMNS,
    check_evaluator,
    evaluate,
    evaluate_record,
    game_measures,
    lead_changes,
    position_seed,
    root_estimates,
    sample,
)
from skip_ai.kernel.rng import derive
from skip_ai.match import play_seating
from skip_ai.pyspiel_wrapper import load
from skip_ai.sim import winners

GAME = "skip_brook(players=4,deck=36)"  # a team game: seats 0, 1 against 2, 3
SPEC = "ismcts(iterations=30)"
TEAM4 = "skip_columns(players=4)"  # seats 0, 1 are team 0; 2, 3 team 1 (hand-made measures)
PYATKI = "skip_pyatki(players=3)"  # each for themselves


def play_records(game: str, deals: int, spec: str = "heuristic") -> pd.DataFrame:
    """Self-play records of ``deals`` deals with the columns the evaluator reads."""
    g = load(game)
    rows = []
    for deal in range(deals):
        seed = int(derive(np.uint64(5), deal))
        r = play_seating(g, seed, np.ones(g.num_players(), bool), spec, spec)
        rows.append(
            {
                "match_id": f"0/self/1/{deal}/0",
                "game": str(g),
                "agent_a": spec,
                "agent_b": spec,
                "deal": deal,
                "seating": 0,
                "seed": seed,
                "status": "ok",
                "returns": r["returns"].tolist(),
                "winner": int(winners(r["returns"][None, :], g.spec.team_game)[0]),
                "num_moves": r["moves_a"] + r["moves_b"],
                "movers": r["movers"],
                "actions": r["state"].history(),
            }
        )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def records() -> pd.DataFrame:
    return play_records(GAME, 3)


@pytest.fixture(scope="module")
def decisions(records) -> pd.DataFrame:
    return evaluate(records, SPEC, games=2, seed=0)


# --- replaying and evaluating records ------------------------------------------------------


def choice_points(game: str, actions) -> list[tuple[int, int, int, int]]:
    """(decision number, mover, legal moves, action played) at every choice point of a
    replay, found independently of the evaluator."""
    state = load(game).new_initial_state()
    out, move = [], 0
    for a in actions:
        if state.is_player_node():
            legal = state.legal_actions()
            if len(legal) > 1:
                out.append((move, state.current_player(), len(legal), int(a)))
            move += 1
        state.apply_action(int(a))
    return out


def test_replay_reproduces_the_recorded_game_and_skips_forced_moves(records, decisions):
    assert decisions.columns.tolist() == DECISION_COLUMNS
    assert decisions.match_id.unique().tolist() == records.match_id[:2].tolist()
    for r in records.head(2).itertuples():
        d = decisions[decisions.match_id == r.match_id]
        expected = choice_points(r.game, r.actions)
        assert list(zip(d.move, d.mover, d.legal, d.action)) == expected
        assert all(r.movers[m] == p for m, p, _, _ in expected)  # the recorded movers
        assert 0 < len(d) < r.num_moves  # forced moves are left out...
        assert (d.legal >= 2).all()  # ... and the decision numbers still count them
    assert decisions.value.between(0, 1).all() and (decisions.spread >= 0).all()
    assert (decisions.evaluator == SPEC).all()


def test_a_replay_that_does_not_give_the_recorded_result_is_refused(records):
    record = records.iloc[0].to_dict() | {"returns": [9.0, 9.0, 9.0, 9.0]}
    with pytest.raises(ValueError, match="replaying its actions does not give the recorded"):
        evaluate_record(record, SPEC)


def test_the_same_seed_gives_the_same_evaluations_in_any_process_or_order(records, decisions):
    pd.testing.assert_frame_equal(evaluate(records, SPEC, games=2, seed=0), decisions)
    pd.testing.assert_frame_equal(evaluate(records, SPEC, games=2, seed=0, workers=2), decisions)
    # a record alone (the second deal, evaluated first here) gets the same rows
    alone = evaluate(records.iloc[[1]], SPEC, games=1, seed=0)
    pd.testing.assert_frame_equal(alone, decisions[decisions.deal == 1].reset_index(drop=True))
    other = evaluate(records, SPEC, games=2, seed=1)
    assert (other.move.tolist(), other.action.tolist()) == (
        decisions.move.tolist(),
        decisions.action.tolist(),
    )
    assert not np.array_equal(other.value, decisions.value)  # a second, independent opinion


def test_values_are_converted_to_team_0s_chance(records, decisions):
    game = load(GAME)
    teams = game.teams()
    row = decisions[teams[decisions.mover] == 1].iloc[3]
    record = records[records.match_id == row.match_id].iloc[0]
    # replay to that position by hand and search it as the evaluator does
    state, move = game.new_initial_state(), 0
    for a in record.actions:
        if state.is_player_node():
            if move == row.move:
                break
            move += 1
        state.apply_action(int(a))
    assert state.current_player() == row.mover and teams[row.mover] == 1
    bot = make_agent(SPEC, game, seed=position_seed(int(record.seed), int(row.move), 0))
    best, value, played, spread = root_estimates(bot.search(state), int(row.action))
    assert (best, value, played, spread) == (
        row.best_action,
        row.value,
        row.played_value,
        row.spread,
    )
    assert row.team0_value == pytest.approx(1 - value)
    mine = decisions[teams[decisions.mover] == 0]
    assert np.array_equal(mine.team0_value, mine.value)


def test_the_sample_takes_the_lowest_finished_deals_per_game_and_agent():
    records = pd.DataFrame(
        {
            "match_id": [f"m{i}" for i in range(6)],
            "game": ["g"] * 6,
            "agent_a": ["a", "a", "a", "a", "b", "b"],
            "deal": [3, 0, 1, 2, 5, 4],
            "seating": 0,
            "status": ["ok", "failed", "ok", "ok", "ok", "ok"],
        }
    )
    assert sample(records, 2).match_id.tolist() == ["m2", "m3", "m5", "m4"]


def test_a_non_ismcts_evaluator_is_refused_in_one_line(records):
    for spec in ("random", "heuristic"):
        with pytest.raises(ValueError) as e:
            evaluate(records, spec, games=1, seed=0)
        assert "must be an ismcts agent spec" in str(e.value) and "\n" not in str(e.value)
    check_evaluator("ismcts(iterations=5,rollout=random)")


def test_a_record_without_actions_is_refused(records):
    old = records.copy()
    old.loc[1, "actions"] = None
    with pytest.raises(ValueError, match=r"record 0/self/1/1/0 has no action history"):
        evaluate(old, SPEC, games=2, seed=0)


# --- the root of one search ----------------------------------------------------------------


def stats(visits: list[int], values: list[float]) -> SearchStats:
    n = len(visits)
    return SearchStats(
        sum(visits), 0.0, n, np.arange(10, 10 + n), np.array(visits), np.array(values)
    )


def test_root_estimates_count_well_visited_moves_only():
    # move 12 has a lucky value on 3 visits: not the best, and not the second best either
    s = stats([50, 30, 3, 2], [0.6, 0.45, 0.9, 0.1])
    assert root_estimates(s, 11, k=2, min_visits=10) == (10, 0.6, 0.45, pytest.approx(0.15))
    assert root_estimates(s, 12, k=2, min_visits=1) == (12, 0.9, 0.9, pytest.approx(0.3))
    # fewer than k counted moves: the k-th best comes from the other visited moves
    assert root_estimates(s, 10, k=3, min_visits=10)[3] == 0.0  # 0.9 > 0.6: clipped at 0
    assert root_estimates(stats([50, 30, 3], [0.6, 0.45, 0.1]), 10, k=3)[3] == pytest.approx(0.5)
    # k beyond the moves: the worst
    assert root_estimates(stats([20, 15], [0.7, 0.3]), 10, k=5)[3] == pytest.approx(0.4)
    # no move reaches min_visits: the most visited counts alone; a move never searched has
    # no value
    best, _, played, spread = root_estimates(stats([8, 4], [0.3, 0.7]), 99)
    assert (best, math.isnan(played), spread) == (10, True, 0.0)


# --- the measures of a game on hand-made sequences -----------------------------------------


def hand_made(game: str, movers: list[int], values: list[float], spreads=None) -> pd.DataFrame:
    """A game's choice points as :func:`evaluate` gives them, from the movers' values."""
    teams = load(game).teams() if load(game).spec.team_game else None
    v = np.array(values)
    team0 = np.where(teams[movers] == 0, v, 1 - v) if teams is not None else np.nan
    n = len(movers)
    return pd.DataFrame(
        {
            "match_id": "x",
            "game": str(load(game)),
            "agent_a": "a",
            "agent_b": "a",
            "deal": 0,
            "seating": 0,
            "evaluator": SPEC,
            "move": np.arange(n) * 2,  # forced moves between: the measures count choice points
            "mover": movers,
            "value": v,
            "team0_value": team0,
            "spread": spreads if spreads is not None else np.zeros(n),
        }
    )


def measures(game: str, movers, values, winner: int, spreads=None, **kwargs) -> pd.Series:
    d = hand_made(game, movers, values, spreads)
    return game_measures(d, pd.DataFrame({"match_id": ["x"], "winner": [winner]}), **kwargs).iloc[0]


def test_the_band_keeps_oscillations_around_half_from_counting_as_lead_changes():
    wobble = np.array([0.48, 0.53, 0.49, 0.52, 0.47])
    assert lead_changes(wobble, band=0.1) == 0
    assert lead_changes(wobble, band=0.0) == 4  # without a band every crossing counts
    # inside the band the lead stays with the side that held it: 0 → 1 → 0 is two changes
    assert lead_changes(np.array([0.6, 0.5, 0.4, 0.52, 0.56, 0.7]), band=0.1) == 2
    assert lead_changes(np.array([0.6, 0.5, 0.54, 0.7]), band=0.1) == 0
    # through a game: team 1 (seats 2, 3) reports 1 − team 0's chance
    m = measures(TEAM4, [0, 2, 1, 3], [0.6, 0.6, 0.3, 0.48], 1)
    assert m.lead_changes == 1  # team 0's chance .6 .4 .3 .52


def test_decided_at_comeback_and_drama_of_a_team_game():
    # team 0's chance .6 .4 .3 .7 .9 .95 .85, team 0 wins: above .8 for good from index 4
    movers = [0, 2, 1, 3, 0, 2, 1]
    values = [0.6, 0.6, 0.3, 0.3, 0.9, 0.05, 0.85]
    spreads = [0.2, 0.05, 0.3, 0.0, 0.1, 0.0, 0.5]
    m = measures(TEAM4, movers, values, 0, spreads)
    assert (m.choices, m.decided_at, m.comeback) == (7, pytest.approx(4 / 7), 1)
    assert m.drama == pytest.approx((math.sqrt(0.1) + math.sqrt(0.2)) / 2)
    assert m.meaningful_choice_rate == pytest.approx(4 / 7)
    v = np.array(values)
    assert m.uncertainty == pytest.approx(np.mean(1 - np.abs(2 * v - 1)))
    assert m.lead_changes == 2
    # the same game won by team 1: its chance ended at .15, below the threshold
    lost = measures(TEAM4, movers, values, 1)
    assert (lost.decided_at, lost.comeback) == (1, 1)
    assert lost.drama == pytest.approx(
        np.mean(np.sqrt(0.5 - (1 - np.array([0.6, 0.7, 0.9, 0.95, 0.85]))))
    )
    # never behind, nor below the threshold: decided from the start, no comeback, no drama
    sure = measures(TEAM4, [0, 2], [0.9, 0.1], 0)
    assert (sure.decided_at, sure.comeback, sure.drama) == (0, 0, 0)
    # behind only inside the band: drama, but no comeback
    close = measures(TEAM4, [0, 2], [0.48, 0.1], 0)
    assert (close.comeback, close.drama) == (0, pytest.approx(math.sqrt(0.02)))
    drawn = measures(TEAM4, [0, 2], [0.5, 0.5], -1)
    assert drawn.lead_changes == 0
    assert all(math.isnan(drawn[c]) for c in ("decided_at", "comeback", "drama"))


def test_a_game_each_for_themselves_reads_the_winners_own_view():
    # seat 2 wins; its own chance was .3 at choice point 2 and .9 at choice point 5
    m = measures(PYATKI, [0, 1, 2, 0, 1, 2], [0.5, 0.5, 0.3, 0.5, 0.5, 0.9], 2)
    assert math.isnan(m.lead_changes)
    assert (m.decided_at, m.comeback) == (pytest.approx(5 / 6), 1)
    assert m.drama == pytest.approx(math.sqrt(0.2))
    never = measures(PYATKI, [0, 1, 0], [0.5, 0.5, 0.5], 2)  # the winner had no choice
    assert all(math.isnan(never[c]) for c in ("decided_at", "comeback", "drama"))


def test_measures_of_evaluated_games(records, decisions):
    per_game = game_measures(decisions, records)
    assert per_game.match_id.tolist() == records.match_id[:2].tolist()
    assert per_game.choices.tolist() == decisions.groupby("match_id", sort=False).size().tolist()
    for c in ("meaningful_choice_rate", "decided_at", "uncertainty"):
        assert per_game[c].between(0, 1).all() or per_game[c].isna().equals(per_game.winner < 0)
    assert (per_game.lead_changes >= 0).all() and (per_game.evaluator == SPEC).all()
