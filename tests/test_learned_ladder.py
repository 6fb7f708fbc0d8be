"""experiments/strength/learned_ladder.py: a shipped model against ISMCTS up a ladder of budgets."""

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "experiments" / "strength" / "learned_ladder.py"


def _module():
    spec = importlib.util.spec_from_file_location("learned_ladder", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(*points):
    return [{"kind": "ladder", "iterations": n, "score": s} for n, s in points]


def test_the_crossing_is_log_linear_between_the_budgets_around_one_half():
    crossing = _module().crossing
    assert math.isclose(crossing(_rows((100, 0.7), (400, 0.6), (1600, 0.4))), 800.0)
    assert math.isclose(crossing(_rows((1600, 0.3), (100, 0.6), (400, 0.5))), 400.0)  # 0.5 ≥ 0.5
    assert crossing(_rows((100, 0.4), (400, 0.6))) == 0.0  # below from the first budget
    assert crossing(_rows((100, 0.9), (400, 0.6))) == math.inf
    assert crossing([]) is None


def _run(*args, check=True, cwd=ROOT):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        check=check,
    )


def test_a_ladder_stops_below_one_half_resumes_and_draws(tmp_path):
    out = tmp_path / "ladder.json"
    common = ["--games", "skip_pyatki", "--deals", "2", "--seed", "5", "--out", str(out)]
    first = ["--budgets", "1", "2", "300", "--seconds", "0.01", "--timed-positions", "2"]
    _run(*common, *first, cwd=tmp_path)  # the model is found from any working folder
    rows = json.loads(out.read_text())
    ladder = [r for r in rows if r["kind"] == "ladder"]
    assert [r["iterations"] for r in ladder] == [1, 2, 300][: len(ladder)]
    # each later budget is played only while the previous interval reached 0.5
    assert all(r["hi"] >= 0.5 for r in ladder[:-1])
    assert ladder[0]["b"] == "ismcts(iterations=1)" and ladder[0]["deals"] == 2
    assert ladder[0]["a"] == "learned(model=skip_pyatki)"
    assert all(0 <= r["lo"] <= r["score"] <= r["hi"] <= 1 for r in ladder)
    (timed,) = [r for r in rows if r["kind"] == "timed"]
    assert timed["median_iterations"] >= 1
    again = _run(*common, "--budgets", "1", "2", "300", "--seconds", "0.01")
    assert again.stdout == "" and json.loads(out.read_text()) == rows  # nothing played twice
    other = _run(*common[:-2], "--deals", "3", "--out", str(out), check=False)
    assert other.returncode == 2 and "holds rows of --deals 2 --seed 5" in other.stderr
    png = tmp_path / "ladder.png"
    _run("--out", str(out), "--png", str(png))
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_bad_arguments_are_one_clear_line(tmp_path):
    out = str(tmp_path / "x.json")
    bad = _run("--budgets", "400", "100", "--out", out, check=False)
    assert bad.returncode == 2 and "--budgets must increase" in bad.stderr
    missing = _run("--games", "skip_nonsense", "--out", out, check=False)
    assert missing.returncode == 2 and "no committed model" in missing.stderr
    rows = tmp_path / "rows.json"
    rows.write_text('[{"kind": "ladder", "game_name": "skip_pyatki", "iterations": 100}]')
    broken = _run("--out", str(rows), check=False)
    assert broken.returncode == 2 and "row 0: missing score, lo, hi, deals, seed" in broken.stderr
    rows.write_text('[{"kind": "timed", "game_name": "skip_pyatki", "median_iterations": NaN}]')
    nan = _run("--out", str(rows), check=False)
    assert nan.returncode == 2 and "row 0: a number is not finite" in nan.stderr
