"""A balance study's report answers first (issue 48): a verdict line per variant in plain words
and game names, percent throughout, only the sections that apply, the advantage by rung as a
figure, and a rung called stronger only where the skill trace shows it.

The verdicts and sentences on hand-made records; the report's sections on a tiny study of one
team game, played."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from skip_ai.balance.config import load_balance_config, parse_balance_config
from skip_ai.balance.findings import answer_table, game_or_bot
from skip_ai.balance.metrics import fairness_tests, selfplay_table
from skip_ai.balance.naming import (
    first_movers,
    rung_label,
    side_name,
    side_with_role,
    variant_name,
)
from skip_ai.balance.report import printout, study_tables, verdict_table
from skip_ai.balance.study import run_study
from skip_ai.balance.verdicts import VERDICT_COLUMNS, verdict_rows

TEAM4 = "skip_columns(deck=52,players=4)"
PYATKI = "skip_pyatki(deck=36,max_exchanges=200,places=False,players=3)"
AGENTS = [
    {"name": "r", "spec": "random"},
    {"name": "h", "spec": "heuristic"},
    {"name": "s", "spec": "ismcts(iterations=1000)"},
    {"name": "d", "spec": "ismcts(iterations=2000)"},
]


def records(winners, game: str = TEAM4, rung: int = 0) -> pd.DataFrame:
    """Hand-made self-play records of one rung, one game a winner, seat 0 moving first."""
    n = len(winners)
    return pd.DataFrame(
        {
            "match_id": [f"0/self/{rung}/{d}/0" for d in range(n)],
            "game": game,
            "rung": rung,
            "agent_a": AGENTS[rung]["name"],
            "deal": np.arange(n),
            "mirrored": False,
            "winner": winners,
            "scores": [[1.0, 0.0]] * n,
            "num_moves": 10,
            "seconds": 0.5,
            "movers": [np.array([0, 1, 2])] * n,
        }
    )


def config(game: str = TEAM4, rungs: int = 2, target: float | None = None):
    raw = {
        "name": "s",
        "games": [{"game": game}],
        "agents": AGENTS[:rungs],
        "trace_deals": 1,
    }
    if target is None:
        raw["deals"] = 40
    else:
        raw["precision"] = {"target": target}
    return parse_balance_config(raw)


def tables(rungs: list[pd.DataFrame], trace: list[str] | None = None, stops=None) -> dict:
    """The study's tables from hand-made records (a rung each) and a skill trace's verdicts
    (step 1 up); ``stops``: the sequential rule's stop per rung."""
    df = pd.concat(rungs, ignore_index=True)
    table = selfplay_table(df)
    game = df.game.iloc[0]
    steps = trace or []
    return {
        "selfplay": table,
        "fairness": fairness_tests(df, table, False),
        "plans": [
            SimpleNamespace(variant=0, rung=r, stop=stop) for r, stop in enumerate(stops or [])
        ],
        "efficiency": {},
        "first": first_movers(df),
        "trace": pd.DataFrame(
            {
                "game": game,
                "step": range(1, len(steps) + 1),
                "stronger": [AGENTS[k + 1]["name"] for k in range(len(steps))],
                "weaker": [AGENTS[k]["name"] for k in range(len(steps))],
                "deals": 30,
                "stronger_score": [0.9 if v == "stronger" else 0.48 for v in steps],
                "lo": [0.7 if v == "stronger" else 0.40 for v in steps],
                "hi": [1.0 if v == "stronger" else 0.58 for v in steps],
                "stronger_margin": [0.4 if v == "stronger" else -0.1 for v in steps],
                "margin_lo": [0.2 if v == "stronger" else -0.3 for v in steps],
                "margin_hi": [0.6 if v == "stronger" else 0.05 for v in steps],
                "verdict": steps,
            }
        ),
    }


def sentence(cfg, t) -> str:
    row = verdict_rows(cfg, t)
    assert list(row.columns) == VERDICT_COLUMNS and len(row) == 1
    return row.sentence.iloc[0]


# --- the verdict line ----------------------------------------------------------------------


def test_a_favoured_side_is_named_with_its_share_not_the_other_sides():
    black = [1] * 38 + [0] * 2
    t = tables([records([0, 1] * 20), records(black, rung=1)], ["stronger"])
    said = sentence(config(), t)
    share = verdict_rows(config(), t).iloc[0]
    assert said.startswith(
        "Columns for four is not fair: Black, the team that moves second, wins 95.0% of games "
        "between equal heuristic players (95% interval "
    )
    assert share.favoured == "Black" and share["share %"] == 95.0 and share["lo %"] > 50
    assert "team 1" not in said and "seats" not in said and "skip_columns" not in said


def test_a_fair_game_is_fair_to_within_the_intervals_reach():
    t = tables([records([0, 1] * 60)])
    cfg = config(target=0.3)
    said = sentence(cfg, t)
    x = t["selfplay"].set_index("measure").loc["team0_score"]
    reach = 100 * max(x.hi - 0.5, 0.5 - x.lo)
    assert said == (
        f"Columns for four is fair to within {reach:.1f} points: Red, the team that moves first, "
        f"wins 50.0% of games between equal random players (95% interval {100 * x.lo:.1f}% "
        f"to {100 * x.hi:.1f}%)."
    )


def test_an_unresolved_and_a_capped_rung_say_the_interval_holds_an_even_game():
    few = tables([records([0, 1, 1, 0, 1, 1])])
    said = sentence(config(), few)
    assert said.startswith("Columns for four is undecided: Black, the team that moves second,")
    assert said.endswith("which holds an even game; 6 deals).")
    capped = sentence(
        config(target=0.03),
        {**few, "plans": tables([records([0])], stops=["capped"])["plans"]},
    )
    assert "is undecided" in capped and "the rung's cap stopped it first; ±3 points would" in capped


def test_a_seat_of_a_game_played_each_for_themselves_is_named_by_its_seat():
    # 30% / 20% / 28% wins and 22% undecided, in a random order (as deals come)
    winners = np.random.default_rng(7).permutation([0] * 600 + [1] * 400 + [2] * 560 + [-1] * 440)
    rows = records(winners.tolist(), PYATKI).assign(movers=[np.array([k % 3]) for k in range(2000)])
    t = tables([rows])
    said = sentence(config(PYATKI), t)
    # the first mover varied: no "who moves first"; the draws split: "scores"
    assert said.startswith(
        "Pyatki for three is not fair: the player in seat 0 scores 37.3% of games between "
        "equal random players, where a fair share is 33.3% (95% interval "
    )
    assert said.endswith(", simultaneous over the seats).")


def test_sides_are_named_as_their_players_know_them():
    assert side_name(TEAM4, 1) == "Black"
    assert side_name("skip_brook(players=4)", 1) == "the second team (seats 2 and 3)"
    assert side_name("classic_sixty_six_4p", 0) == "the first team (seats 0 and 2)"
    assert side_name("skip_brook(players=2)", 0) == "the first player (seat 0)"
    assert side_name(PYATKI, 2) == "the player in seat 2"
    first = {"skip_brook(players=4)": 0}
    assert side_with_role("skip_brook(players=4)", 1, first).endswith(", which moves second,")
    assert side_with_role("skip_brook(players=4)", 1, {}) == "the second team (seats 2 and 3)"
    assert rung_label("ismcts(iterations=1000)") == "ISMCTS at 1000 iterations"
    assert rung_label("learned(model=skip_brook)") == "learned-model"
    assert variant_name(TEAM4) == "Columns for four"


# --- percent, one side per row -------------------------------------------------------------


@pytest.mark.parametrize("p", [0.1, 0.45, 0.55, 0.9])
def test_the_answer_table_shows_the_favoured_sides_share_in_percent(p):
    rng = np.random.default_rng(int(100 * p))
    t = tables([records(np.where(rng.random(200) < p, 0, 1).tolist())])
    row = answer_table(config(), t).iloc[0]
    side = row["advantage, points"].split(" ")[0]
    assert row["headline, %"].startswith(f"{side} ") and row.favoured == side
    share = float(row["headline, %"].split(" ")[1])
    assert share >= 50 and share == pytest.approx(row["share %"], abs=0.05)
    assert re.fullmatch(r"(Red|Black) \d+\.\d \[\d+\.\d, \d+\.\d\]", row["headline, %"])


# --- stronger only where the trace shows it ------------------------------------------------


def test_a_rung_is_stronger_only_where_the_trace_shows_it():
    cfg = config(rungs=3)
    black = [records([1] * 40, rung=r) for r in range(3)]
    flat = tables(black, ["stronger", "not told apart"])
    row = verdict_rows(cfg, flat).iloc[0]
    assert row.strongest == "heuristic"
    assert row.strength.startswith("Strongest players measured: the heuristic players, shown")
    assert "The ISMCTS players at 1000 iterations were not shown stronger" in row.strength
    told = game_or_bot(cfg, flat, 0)
    assert "confirms" not in told and "the strongest players measured are the heuristic" in told
    # shown stronger at the top: the strongest, and the only case that says "confirms"
    up = tables(black, ["stronger", "stronger"])
    assert verdict_rows(cfg, up).iloc[0].strongest == "ISMCTS at 1000 iterations"
    assert game_or_bot(cfg, up, 0).endswith("stronger play confirms it.")
    none = verdict_rows(cfg, tables(black, ["not told apart", "weaker"])).iloc[0]
    assert none.strongest == "" and "shows no rung stronger" in none.strength
    # a rung that beats one shown weaker than the best was never measured against the best
    four = [records([1] * 40, rung=r) for r in range(4)]
    row = verdict_rows(config(rungs=4), tables(four, ["stronger", "weaker", "stronger"])).iloc[0]
    assert row.strongest == "heuristic"
    assert (
        "The ISMCTS players at 2000 iterations were shown stronger than the ISMCTS players at "
        "1000 iterations but not measured against the heuristic players" in row.strength
    )


# --- the report of a one-variant team study -------------------------------------------------


STUDY = """name = "one"
seed = 5
deals = 4
trace_deals = 2
games_per_task = 4
out = "{out}"
[measures]
evaluated_games = 0
[[games]]
game = "skip_columns(players=4)"
[[agents]]
name = "random"
spec = "random"
[[agents]]
name = "heuristic"
spec = "heuristic"
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> tuple:
    folder = tmp_path_factory.mktemp("one")
    path = folder / "s.toml"
    path.write_text(STUDY.format(out=folder / "out"))
    cfg = load_balance_config(path)
    _, report = run_study(cfg, workers=1, progress=False)
    return cfg, report.read_text(), report.parent


def test_the_report_opens_with_its_verdict_in_words(study):
    cfg, text, out = study
    assert text.startswith("# Is Columns for four fair?\n\n## Verdict\n\n- **Columns for four ")
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[:3] == ["Verdict", "At a glance: every rung", "Evidence"]
    assert "![advantage](figures/advantage.png)" in text
    assert (out / "figures" / "advantage.png").stat().st_size > 1000
    # the code names only in the one "who played" line that reproduces the study
    who = [line for line in text.splitlines() if line.startswith("Who played:")]
    assert len(who) == 1 and "`skip_columns(deck=52,players=4)`" in who[0]
    rest = text.replace(who[0], "")
    for code in ("skip_columns(", "team 0", "team0", "team 1", "seats 0, 1", "seat0"):
        assert code not in rest, code
    # the notebook's table is the report's
    verdicts = verdict_table(cfg)
    assert f"- **{verdicts.sentence.iloc[0].partition(': ')[0]}**" in text


def test_a_one_variant_team_study_has_only_the_sections_that_apply(study):
    _, text, _ = study
    for absent in (
        "## Variants",
        "Penalty",
        "rank",
        "each for themselves",
        "seat's share",
        "Successive halving",
        "Mirror ×",
        "mirror ×",
        "## Per-decision",
    ):
        assert absent not in text, absent
    assert "**Share of games**" in text and "**Skill trace**" in text


def test_every_share_in_the_report_is_in_percent(study):
    _, text, _ = study
    # no bare fraction with an interval ("0.044 [0.025, 0.071]") anywhere
    assert not re.search(r"(?<![\d.])[01]\.\d{2,} \[", text)
    glance = text.split("## At a glance")[1].split("## Evidence")[0]
    rows = [r for r in glance.splitlines() if r.startswith("| random") or r.startswith("| heur")]
    assert len(rows) == 2
    for r in rows:
        cells = [c.strip() for c in r.strip("|").split("|")]
        side = cells[2].split(" ")[0]  # the advantage's side names the share beside it
        assert cells[1].startswith(side + " ") and side in ("Red", "Black")


def test_the_printout_opens_with_the_same_verdict(study):
    cfg, text, out = study
    said = printout(cfg, study_tables(cfg))
    assert said.startswith("Is Columns for four fair?\n\nVerdict\n\n- Columns for four ")
    first = text.split("## Verdict\n\n")[1].splitlines()[0].replace("**", "")
    assert first in said and "**" not in said and "`" not in said
    answers = pd.read_csv(out / "answers.csv")
    assert list(answers.columns[:11]) == [
        "variant",
        "rung",
        "headline, %",
        "advantage, points",
        "verdict",
        "deals",
        "games",
        "CPU s",
        "s / game",
        "stopped",
        "mirror ×",
    ]
    assert Path(out / "selfplay.csv").read_text().startswith("game,rung,agent,measure,value,lo,hi")
