"""The lever search (skip_ai.balance.levers, search_methods, search): the space, the two
methods on data with a known truth, the config's checks, and a small search end to end."""

import math
import re
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skip_ai.balance import levers, search, search_config, search_methods
from skip_ai.balance.progress import recorded
from skip_ai.tournament.config import ConfigError

# --- the space ---------------------------------------------------------------------------------


def test_the_space_is_every_lever_setting_with_the_rules_first():
    space = levers.space("skip_columns(players=4)")
    assert space[0] == "skip_columns(deck=52,players=4)"
    assert len(space) == len(set(space)) == 4 * 2 * 13 * 3  # first_seat < 4, seating, komi, tie
    assert "skip_columns(deck=52,first_seat=1,players=4)" in space
    assert all("players=4" in g for g in space)


def test_a_named_space_keeps_the_other_levers_as_the_base_has_them():
    space = levers.space("skip_columns(players=4,seating=alternate)", {"komi": [0, 2]})
    assert space == [
        "skip_columns(deck=52,players=4,seating=alternate)",
        "skip_columns(deck=52,komi=2,players=4,seating=alternate)",
    ]


@pytest.mark.parametrize(
    "given,message",
    [({"deck": [36]}, "'deck' is not a lever"), ({"komi": [99]}, "komi=99 is not allowed")],
)
def test_a_bad_space_is_refused(given, message):
    with pytest.raises(ValueError, match=message):
        levers.space("skip_columns", given)


def test_a_variant_is_described_by_its_changes():
    assert levers.describe("skip_columns") == "the rules as written"
    assert levers.describe("skip_columns(first_seat=1,komi=-2)") == "first_seat=1, komi=-2"


# --- the methods, on data with a known truth ---------------------------------------------------


def _answer(truth: np.ndarray, rng: np.random.Generator):
    """Per request, draws of each candidate's true team-0 share (a unit: 0, ½ or 1)."""

    def answer(request):
        return [
            rng.binomial(2, truth[c], size=len(deals)).reshape(-1, 1) / 2 for c, deals in request
        ]

    return answer


def _run(method, answer) -> tuple[list[int], int]:
    asked = 0
    try:
        request = next(method)
        while True:
            asked += sum(len(d) for _, d in request)
            request = method.send(answer(request))
    except StopIteration as stop:
        return stop.value, asked


def _grid_truth() -> tuple[list[tuple[int, int]], np.ndarray]:
    """A 6 × 5 grid of variants, the share additive in the levers; fairest: (3, 2), the
    next 3 points from fair."""
    points = [(a, b) for a in range(6) for b in range(5)]
    truth = np.array([0.5 + 0.1 * (a - 3) + 0.035 * (b - 2) for a, b in points])
    return points, np.clip(truth, 0.02, 0.98)


def test_halving_finds_the_fair_variant_and_keeps_to_its_budget():
    points, truth = _grid_truth()
    best = int(np.argmin(np.abs(truth - 0.5)))
    picks = []
    for seed in range(20):
        method = search_methods.halving(len(points), 6000, 0.5)
        ranking, asked = _run(method, _answer(truth, np.random.default_rng(seed)))
        assert asked <= 6000 and sorted(ranking) == list(range(len(points)))
        picks.append(abs(truth[ranking[0]] - 0.5))
    assert np.mean(np.isclose(picks, 0.0)) >= 0.7  # the fairest, 3 points ahead of the next
    assert max(picks) <= 0.035 + 1e-9  # else one of the next fairest
    assert best == points.index((3, 2))


def test_ntbea_finds_the_fair_variant_and_keeps_to_its_budget():
    points, truth = _grid_truth()
    picks = []
    for seed in range(20):
        method = search_methods.ntbea(points, 6000, 0.5, np.random.default_rng(seed))
        ranking, asked = _run(method, _answer(truth, np.random.default_rng(100 + seed)))
        assert asked <= 6000
        picks.append(abs(truth[ranking[0]] - 0.5))
    assert np.mean(np.array(picks) <= 0.035 + 1e-9) >= 0.7  # the fairest or the next
    assert max(picks) <= 0.07 + 1e-9


def test_every_candidate_is_asked_for_the_same_deals_from_zero():
    points, truth = _grid_truth()
    for method in (
        search_methods.halving(len(points), 600, 0.5),
        search_methods.ntbea(points, 600, 0.5, np.random.default_rng(0)),
    ):
        asked: dict[int, list[int]] = {}
        rng = np.random.default_rng(1)
        try:
            request = next(method)
            while True:
                for c, deals in request:
                    asked.setdefault(c, []).extend(deals)
                request = method.send(_answer(truth, rng)(request))
        except StopIteration:
            pass
        for deals in asked.values():
            assert deals == list(range(len(deals)))


def test_a_budget_too_small_is_refused():
    with pytest.raises(ValueError, match="cannot give each"):
        next(search_methods.halving(30, 50, 0.5))
    with pytest.raises(ValueError, match="less than one generation"):
        next(search_methods.ntbea([(0,), (1,)], 5, 0.5, np.random.default_rng(0)))


def test_the_distance_is_the_farthest_side():
    assert search_methods.distance(np.array([[0.2, 0.5, 0.3]]), 1 / 3) == pytest.approx(1 / 6)
    assert math.isnan(search_methods.distance(np.zeros((0, 1)), 0.5))


# --- the config --------------------------------------------------------------------------------

SMALL = """
name = "tiny-levers"
seed = 4545
deals = 20
trace_deals = 10
workers = 2
games_per_task = 25
out = "{out}"
mirror = true

[measures]
evaluated_games = 0

[search]
game = "skip_columns(players=4)"
method = "{method}"
rung = "heuristic"
weaker = "random"
seed = 45
budget = 600
finalists = 2
final_deals = 30
depth_deals = 10

[search.levers]
first_seat = [0, 1, 3]
komi = [0, 2, 4]

[search.ntbea]
block = 10
population = 3

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "heuristic"
spec = "heuristic"
"""


def _config(tmp_path: Path, method: str = "halving", **changes) -> search_config.SearchConfig:
    raw = tomllib.loads(SMALL.format(out=tmp_path / "out", method=method))
    for key, value in changes.items():
        if value is None:
            raw["search"].pop(key)
        else:
            raw["search"][key] = value
    return search_config.parse_search_config(raw, "small.toml")


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"seed": 4545}, "fresh deals"),
        ({"rung": "ismcts"}, "'rung' must name one of the"),
        ({"method": "grid"}, "'method' must be one of"),
        ({"budget": 10}, "cannot give each"),
        ({"length_factor": math.inf}, "'length_factor' must be a finite number"),
        ({"colour": 1}, "unknown field 'colour'"),
        ({"levers": {"deck": [36]}}, "'deck' is not a lever"),
        ({"game": "skip_fours_x"}, "unknown game"),
    ],
)
def test_a_bad_search_config_is_refused_in_one_line(tmp_path, changes, message):
    with pytest.raises(ConfigError, match=message) as e:
        _config(tmp_path, **changes)
    assert "\n" not in str(e.value) and str(e.value).startswith("small.toml: ")


def test_the_config_reads_the_space_and_the_ladder(tmp_path):
    config = _config(tmp_path)
    assert len(config.candidates) == 9 and config.candidates[0] == "skip_columns(deck=52,players=4)"
    batch = search_config.search_batch(config)
    assert [a.name for a in batch.agents] == ["random", "heuristic"]
    assert batch.seed == 45 and batch.out == tmp_path / "out" / "search"
    assert search_config.per_deal(config) == 2


# --- a small search end to end -----------------------------------------------------------------


@pytest.mark.parametrize("method", ["halving", "ntbea"])
def test_a_small_search_runs_resumes_and_re_measures_on_fresh_deals(tmp_path, method):
    config = _config(tmp_path, method)
    summary_path, report, remeasure = search.run(config, workers=2, progress=False)
    table = pd.read_csv(config.out / "finalists.csv")
    assert table.candidate.iloc[0] == 0 and len(table) == 3  # the rules and 2 finalists
    assert table.winner.sum() == 1
    winner = table[table.winner].iloc[0]
    assert winner.distance == table[table.admissible].distance.min()
    rules = table.iloc[0]
    assert rules.headline < 0.25  # Black wins Columns at the rules, heuristic against itself
    # the re-measure: the rules first, the winner next, on the study's own seed
    assert remeasure.games[0] == config.candidates[0] and remeasure.games[1] == winner.game
    assert remeasure.seed == 4545 and report.exists()
    text = summary_path.read_text()
    assert f"method **{method}**" in text and "Winner:" in text
    before = len(recorded(config.out))
    # run again: nothing more is played, the same answer
    summary_path2, _, again = search.run(config, workers=1, progress=False)
    assert len(recorded(config.out)) == before and again.games == remeasure.games
    seconds = re.compile(r"\d+ s this run")
    assert seconds.sub("", summary_path2.read_text()) == seconds.sub("", text)


def test_a_study_config_becomes_a_search_of_one_game():
    config = search_config.load_search_config(
        "experiments/balance/all-games.toml", "skip_brook(players=4)"
    )
    assert config.candidates[0] == "skip_brook(deck=52,players=4,remove4=False)"
    names = [a.name for a in config.study.agents]
    assert names == ["random", "heuristic", "ismcts-1000"]  # the learned agents left out
    assert names[config.search.rung] == "heuristic" and names[config.search.weaker] == "random"
    assert config.study.name == "all-games-skip_brook-levers"
    assert config.study.out == Path("runs/all-games-skip_brook-levers")  # not the study's
    assert search_config.is_search_file("experiments/balance/columns-levers.toml")
    assert not search_config.is_search_file("experiments/balance/all-games.toml")
