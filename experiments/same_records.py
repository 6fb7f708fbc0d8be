"""Do a refactor's batches give the same records? Run a fixed set of batches, then compare two runs.

    python experiments/same_records.py run BEFORE      # at the old commit
    python experiments/same_records.py run AFTER       # at the new one
    python experiments/same_records.py compare BEFORE AFTER

The batches: kernel simulations of every default game (random and heuristic), kernel matches
(``skip-ai match``), a tournament of agents that read files (``heuristic(weights=…)``,
``ismcts(tuned=…)``, ``learned(model=…)``), a small round robin with the search, the quick balance
study, and a short deep Monte-Carlo training run (decisions, not minutes, so it is the same
work). ``compare`` reads every Parquet, CSV, JSON, npz and text file the runs wrote and reports
each difference, ignoring only what is a time or a version (columns and keys named in
``IGNORED``, and the lines of a match's printout that give thinking times). Exit status 1 if
anything differs. The file inputs are copied into the run folder first, found where the
commit under test keeps them (``INPUTS``), so the batches name the same bytes either way.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

GAMES = [
    "skip_brook",
    "skip_chains",
    "skip_columns",
    "skip_domino",
    "skip_fours",
    "skip_guess",
    "skip_harvest",
    "skip_little_country",
    "skip_pyatki",
    "skip_pyatki_pairs",
    "skip_two_captains",
    "classic_sixty_six_4p",
    "classic_rummy",
]
INPUTS = {
    "brook.npz": ["skip_ai/models/skip_brook.npz", "results/models/skip_brook.npz"],
    "brook-weights.json": [
        "results/training/brook-weights.json",
        "results/training/data/brook-weights.json",
        "results/tuning/brook-weights.json",
    ],
    "brook-search.json": [
        "results/training/brook-search.json",
        "results/training/data/brook-search.json",
        "results/tuning/brook-search.json",
    ],
}
IGNORED = {
    "created",
    "s / game",
    "seconds",
    "code_version",
    "cpu_seconds",
    "elapsed",
    "wall_seconds",
    "started",
    "finished",
    "time",
    "updated",
    "cpu_s",
    "CPU s",
    "version",
    "commit",
}

TIME_FILES = {"cpu.json"}
"""Files that hold only times (a training run's CPU seconds per snapshot)."""

AGENTS_TOML = """name = "agents-with-files"
seed = 11
deals = 12
workers = 2
games_per_task = 6
out = "agents"

[[games]]
game = "skip_brook"

[[agents]]
name = "weights"
spec = "heuristic(weights=inputs/brook-weights.json)"

[[agents]]
name = "tuned"
spec = "ismcts(tuned=inputs/brook-search.json,iterations=40)"

[[agents]]
name = "model"
spec = "learned(model=inputs/brook.npz)"
"""

SMALL_TOML = """name = "small"
seed = 7
deals = 10
workers = 2
games_per_task = 5
out = "small"

[[games]]
game = "skip_columns(players=4)"

[[games]]
game = "skip_pyatki(players=2)"

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "heuristic"
spec = "heuristic"

[[agents]]
name = "ismcts50"
spec = "ismcts(iterations=50)"
"""

TRAIN_TOML = """name = "tiny"
game = "skip_columns"
seed = 3
decisions = 20_000
hidden = [32]
batch = 256
chunk = 5_000
eps_decisions = 10_000
eval_every = 10_000
eval_deals = 4
eval_seed = 1_000
references = ["heuristic"]
actors = 1
out = "train"
"""


def _skip_ai(*args: str, out: Path, log: str) -> None:
    """``skip-ai ARGS`` run in ``out``: the configs name their inputs and outputs relative to
    it, so two runs' batch identities do not differ by where they were made."""
    exe = Path(sys.executable).with_name("skip-ai")
    with open(out / log, "w") as f:
        subprocess.run([str(exe), *args], check=True, cwd=out, stdout=f, stderr=subprocess.DEVNULL)


def run(out: Path) -> None:
    """Every batch into ``out`` (from the repository's root, which holds the inputs)."""
    out = out.resolve()
    (out / "inputs").mkdir(parents=True, exist_ok=True)
    for name, places in INPUTS.items():
        found = next((Path(p) for p in places if Path(p).is_file()), None)
        if found is None:
            raise SystemExit(f"no input {name}: looked at {', '.join(places)}")
        shutil.copy(found, out / "inputs" / name)
    for game in GAMES:
        for policy in ("random", "heuristic"):
            name = f"simulate-{game}-{policy}"
            args = ("-n", "60", "--seed", "5", "--policy", policy, "--out", f"{name}.parquet")
            _skip_ai("simulate", game, *args, out=out, log=f"{name}.txt")
    for game in ("skip_brook", "skip_chains", "classic_sixty_six_4p"):
        args = ("heuristic", "random", "-n", "20", "--seed", "3")
        _skip_ai("match", game, *args, out=out, log=f"match-{game}.txt")
    for name, text in (("agents", AGENTS_TOML), ("small", SMALL_TOML), ("train", TRAIN_TOML)):
        (out / f"{name}.toml").write_text(text)
    _skip_ai("tournament", "agents.toml", out=out, log="agents.txt")
    _skip_ai("tournament", "small.toml", out=out, log="small.txt")
    _skip_ai("balance", "--out", "balance", out=out, log="balance.txt")
    _skip_ai("train", "train.toml", out=out, log="train.txt")


def _frame(path: Path) -> pd.DataFrame:
    df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    if "measure" in df.columns:  # a study's long table: a row of seconds is a time
        df = df[df["measure"] != "seconds"]
    return df.drop(columns=[c for c in df.columns if c in IGNORED])


def _arrays(z) -> dict[str, np.ndarray]:
    """A training checkpoint's arrays, its CPU seconds aside (``floats`` = [cpu, loss])."""
    arrays = {k: z[k] for k in z.files}
    if "floats" in arrays:
        arrays["floats"] = arrays["floats"][1:]
    return arrays


def _json(value):
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items() if k not in IGNORED}
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value


def _text(path: Path) -> list[str]:
    lines = path.read_text().splitlines()
    return [ln for ln in lines if "thinking time" not in ln and " s " not in ln]


def differs(a: Path, b: Path) -> str | None:
    """Why two files of a run differ (None: the same, times and versions aside)."""
    if a.suffix in (".parquet", ".csv"):
        fa, fb = _frame(a), _frame(b)
        if list(fa.columns) != list(fb.columns):
            return f"columns {list(fa.columns)} != {list(fb.columns)}"
        if len(fa) != len(fb):
            return f"{len(fa)} rows != {len(fb)}"
        for col in fa.columns:
            if fa[col].map(repr).tolist() != fb[col].map(repr).tolist():
                return f"column {col} differs"
        return None
    if a.suffix == ".json":
        same = _json(json.loads(a.read_text())) == _json(json.loads(b.read_text()))
        return None if same else "contents differ"
    if a.suffix == ".npz":
        with np.load(a, allow_pickle=False) as za, np.load(b, allow_pickle=False) as zb:
            if sorted(za.files) != sorted(zb.files):
                return f"keys {sorted(za.files)} != {sorted(zb.files)}"
            aa, ab = _arrays(za), _arrays(zb)
            bad = [k for k in aa if not np.array_equal(aa[k], ab[k])]
            return f"arrays {bad} differ" if bad else None
    if a.suffix == ".txt":  # a match's printout
        return None if _text(a) == _text(b) else "printout differs"
    return None


def compare(before: Path, after: Path) -> int:
    kinds = {".parquet", ".csv", ".json", ".npz"}
    files = sorted(p.relative_to(before) for p in before.rglob("*") if p.suffix in kinds)
    files += sorted(p.relative_to(before) for p in before.glob("match-*.txt"))
    problems = 0
    for rel in files:
        if "inputs" in rel.parts or "figures" in rel.parts or rel.name in TIME_FILES:
            continue
        if not (after / rel).exists():
            print(f"MISSING  {rel}")
            problems += 1
            continue
        why = differs(before / rel, after / rel)
        print(f"{'DIFFERS' if why else 'same':8} {rel}" + (f": {why}" if why else ""))
        problems += bool(why)
    extra = sorted(
        p.relative_to(after)
        for p in after.rglob("*")
        if p.suffix in kinds and not (before / p.relative_to(after)).exists()
    )
    for rel in extra:
        print(f"NEW      {rel}")
    print(f"{len(files)} files compared, {problems} differ or are missing, {len(extra)} new")
    return 1 if problems else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play every batch into OUT")
    r.add_argument("out", type=Path)
    c = sub.add_parser("compare", help="compare two runs' records")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.cmd == "run":
        run(args.out)
    else:
        sys.exit(compare(args.before, args.after))


if __name__ == "__main__":
    main()
