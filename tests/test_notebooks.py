"""The notebooks run top to bottom on what the README's commands make and show the reports'
numbers: ``balance.ipynb`` on a tiny balance study (the report's verdicts, every rung on its
own as ``answers.csv`` and ``selfplay.csv`` hold it, the report's skill trace),
``tournament.ipynb`` on a tiny tournament's records (as ``skip-ai report``'s functions give
them). Each runs as Jupyter runs it, in a kernel, from a folder laid out like the repository,
so the default folders are found from the root and from ``notebooks/``."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from analysis_records import played_records, study_selfplay, write_records

from skip_ai import analysis
from skip_ai.balance.config import load_balance_config
from skip_ai.balance.metrics import sides
from skip_ai.balance.report import study_tables, verdict_table
from skip_ai.balance.study import run_study

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

# the quick study's shape in seconds: Columns for four, sequential, each deal with its mirror
STUDY = """name = "tiny"
seed = 4
trace_deals = 3
games_per_task = 6
out = "{out}"
mirror = true

[measures]
evaluated_games = 0

[precision]
target = 0.05
first = 8
growth = 2.0
cap_games = 48

[[games]]
game = "skip_columns(players=4)"

[[agents]]
name = "random"
spec = "random"
[[agents]]
name = "heuristic"
spec = "heuristic"
[[agents]]
name = "ismcts-8"
spec = "ismcts(iterations=8)"
cap_games = 16
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    """A folder laid out as the repository after the quick start and the small tournament:
    ``pyproject.toml``, ``notebooks/``, ``runs/quick-balance`` (a tiny study) and
    ``runs/small`` (tiny tournament records, with self-play games of two agents)."""
    root = tmp_path_factory.mktemp("repo")
    (root / "pyproject.toml").write_text("")
    (root / "notebooks").mkdir()
    config = root / "tiny.toml"
    config.write_text(STUDY.format(out=root / "runs" / "quick-balance"))
    run_study(load_balance_config(config), workers=1, progress=False)
    cross = played_records(deals=2)
    columns = cross[0]["game"]
    selfplay = [
        row | {"match_id": f"9/{agent}/{row['match_id']}"}
        for agent, winners in (("rnd", [(0,), (1,), (0,), (1,)]), ("heur", [(1,), (1,), (0,)]))
        for row in study_selfplay(columns, winners, agent)
    ]
    write_records(cross + selfplay, root / "runs" / "small")
    return root


def execute(name: str, cwd: Path, dump: str) -> tuple[dict, list]:
    """Run notebook ``name`` in a kernel started in ``cwd``, then a cell printing ``dump`` (a
    JSON of what the notebook's variables hold); returns that JSON and every output."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(f"import json\nprint(json.dumps({dump}))"))
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    )
    client.execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)
    return json.loads(outputs[-1]["text"]), outputs


def shown(outputs: list) -> str:
    """The text of every table and line the notebook displayed."""
    return "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)


def test_balance_notebook_shows_the_reports_numbers_rung_by_rung(repo, monkeypatch):
    monkeypatch.delenv("SKIP_AI_STUDY", raising=False)  # the default: runs/quick-balance
    monkeypatch.setenv("SKIP_AI_CONFIG", "tiny.toml")  # from the root, not from notebooks/
    got, outputs = execute(
        "balance.ipynb",
        repo / "notebooks",
        '{"study": str(STUDY), "verdicts": verdicts.to_dict("records"), '
        '"answers": answers.astype(str).to_dict("records"), "skill": skill.to_dict("records")}',
    )
    out = repo / "runs" / "quick-balance"
    assert Path(got["study"]) == out
    config = load_balance_config(repo / "tiny.toml")
    tables = study_tables(config)
    verdicts = pd.DataFrame(got["verdicts"])
    pd.testing.assert_frame_equal(verdicts, verdict_table(config, tables), check_dtype=False)
    text = shown(outputs)
    assert all(line in text for line in verdicts.sentence)

    # every rung on its own, as the report's answers.csv and selfplay.csv: never pooled
    answers = pd.DataFrame(got["answers"])
    assert answers.equals(pd.read_csv(out / "answers.csv", dtype=str)[answers.columns])
    report = pd.read_csv(out / "selfplay.csv")
    team0 = report[report.measure == "team0_score"].reset_index(drop=True)
    assert len(answers) == len(team0) == 3
    red = answers.favoured == sides(config.games[0]).names[0]
    for column, x, y in (("share %", "value", "value"), ("lo %", "lo", "hi"), ("hi %", "hi", "lo")):
        share = (100 * team0[x]).where(red, 100 * (1 - team0[y])).round(2)
        assert list(answers[column].astype(float)) == list(share)
    assert list(answers.deals.astype(int)) == list(team0.n)
    assert answers["share %"].nunique() == 3  # the rungs differ: one pooled rate would hide it

    # the skill trace is the report's (study_tables, as report.md prints it)
    trace = tables["trace"]
    skill = pd.DataFrame(got["skill"])
    assert list(skill.stronger) == ["heuristic", "ISMCTS at 8 iterations"]
    assert list(skill.deals) == list(trace.deals)
    assert list(skill["score %"]) == list((100 * trace.stronger_score).round(1))
    assert list(skill["lo %"]) == list((100 * trace.lo).round(1))
    assert list(skill.verdict) == list(trace.verdict)


def test_balance_notebook_without_a_study_says_what_to_run(tmp_path, monkeypatch):
    monkeypatch.setenv("SKIP_AI_STUDY", str(tmp_path / "nothing"))
    with pytest.raises(nbclient.exceptions.CellExecutionError) as e:
        execute("balance.ipynb", tmp_path, "None")
    missing = tmp_path / "nothing"
    assert f"no balance study at {missing}: run `skip-ai balance` first" in str(e.value)


def test_tournament_notebook_shows_the_reports_numbers(repo, monkeypatch):
    monkeypatch.delenv("SKIP_AI_RECORDS", raising=False)  # the default: runs/small
    monkeypatch.setenv("SKIP_AI_BOOTSTRAP", "10")
    got, outputs = execute(
        "tournament.ipynb",
        repo,
        '{"scores": scores.to_dict("records"), "ratings": ratings.to_dict("records"), '
        '"fairness": {a: t.to_dict("records") for a, t in fairness.items()}}',
    )
    # the report's functions on the same records, as skip-ai report --bootstrap 10 calls them
    df = analysis.load_records(repo / "runs" / "small")
    cross, selfplay = df[df.agent_a != df.agent_b], df[df.agent_a == df.agent_b]
    expect = analysis.pair_scores(cross)
    assert pd.DataFrame(got["scores"]).equals(expect)
    ratings = pd.DataFrame(got["ratings"])
    pd.testing.assert_frame_equal(ratings, analysis.elo_ratings(cross, n_boot=10))
    # self-play one agent at a time: each agent's team 0 win rate is its own
    assert set(got["fairness"]) == {"rnd", "heur"}
    for agent, games in selfplay.groupby("agent_a"):
        table = analysis.balance_table(games, n_boot=10)
        table = table[table.metric.isin(analysis.SIDE_METRICS)].reset_index(drop=True)
        mine = pd.DataFrame(got["fairness"][agent]).reset_index(drop=True)
        pd.testing.assert_frame_equal(mine[table.columns], table, check_dtype=False)
    assert f"{len(df)} finished games: {len(cross)} between different agents" in shown(outputs)
