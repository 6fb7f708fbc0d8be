"""Tournaments: config checks, the schedule, records independent of the worker count, resume
after kill -9, refusing a changed config, damaged shards, failed games."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
import pytest

from agents.factory import AGENTS
from agents.model import PolicyValueNet
from agents.random_agent import RandomBot
from skip_ai.cli import main
from skip_ai.duplicate import seatings
from skip_ai.match import play_seating
from skip_ai.pyspiel_wrapper import load
from skip_ai.record_schema import SCHEMA
from skip_ai.records import read_records
from skip_ai.tournament import ConfigError, StoreError, load_config, run_tournament
from skip_ai.tournament.config import parse_config
from skip_ai.tournament.schedule import schedule, schedule_size
from skip_ai.tournament.worker import play_games

ROOT = Path(__file__).resolve().parents[1]


def write_config(
    tmp_path: Path,
    *,
    name="t",
    seed=5,
    deals=3,
    games=None,
    agents=None,
    extra="",
    file="batch.toml",
) -> Path:
    games = games or ["skip_columns(players=2,deck=36)"]
    agents = agents or {"rnd": "random", "heur": "heuristic"}
    text = [
        f'name = "{name}"',
        f"seed = {seed}",
        f"deals = {deals}",
        f'out = "{tmp_path / "out"}"',
        extra,
    ]
    text += [f'[[games]]\ngame = "{g}"' for g in games]
    text += [f'[[agents]]\nname = "{n}"\nspec = "{s}"' for n, s in agents.items()]
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / file
    path.write_text("\n".join(text) + "\n")
    return path


def records(out: Path):
    """The records without their timing, in match order."""
    df = read_records(out / "records").drop(columns="seconds")
    return df.sort_values("match_id", ignore_index=True)


# --- the config -------------------------------------------------------------------------

GOOD = {
    "name": "t",
    "deals": 2,
    "games": [{"game": "skip_columns(players=2)"}],
    "agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "heuristic"}],
}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"name": None}, "missing field 'name'"),
        ({"deals": 0}, "field 'deals' must be ≥ 1"),
        ({"deals": "ten"}, "field 'deals' must be an integer"),
        ({"workers": True}, "field 'workers' must be an integer"),
        ({"deal": 3}, "unknown field 'deal'"),
        ({"games": []}, "needs at least one [[games]]"),
        ({"games": [{"game": "skip_nope"}]}, "[[games]] #1: game 'skip_nope': unknown game"),
        ({"games": [{"game": "skip_columns(players=5)"}]}, "[[games]] #1: game 'skip_columns"),
        (
            {
                "games": [
                    {"game": "skip_columns(players=2)"},
                    {"game": "skip_columns(players=2,deck=52)"},
                ]
            },
            "listed twice",
        ),
        ({"agents": [{"name": "a", "spec": "random"}]}, "at least two [[agents]]"),
        (
            {"agents": [{"name": "a", "spec": "random"}, {"name": "a", "spec": "heuristic"}]},
            "[[agents]] #2: agent name 'a' is used twice",
        ),
        (
            {"agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "wizard"}]},
            "[[agents]] #2 ('b') on skip_columns(deck=52,players=2): unknown agent 'wizard'",
        ),
        (
            {"agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "ismcts(iters=3)"}]},
            "bad arguments in agent spec 'ismcts(iters=3)'",
        ),
        (
            {"agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "ismcts(("}]},
            "malformed agent spec",
        ),
        (
            {"agents": [{"name": "a", "spec": "random"}, {"name": "b", "spec": "human"}]},
            "the human agent cannot play in a batch",
        ),
        (
            {"agents": [{"name": "a", "spec": "random"}, {"spec": "heuristic"}]},
            "[[agents]] #2 must hold exactly the string fields 'name' and 'spec'",
        ),
    ],
)
def test_config_errors_name_the_field(change, message):
    raw = {**GOOD, **change}
    raw = {k: v for k, v in raw.items() if v is not None}
    with pytest.raises(ConfigError) as e:
        parse_config(raw, source="my.toml")
    assert str(e.value).startswith("my.toml: ") and message in str(e.value)


def test_config_file_errors_and_defaults(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ndeals = \n')
    with pytest.raises(ConfigError, match=r"bad.toml is not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "missing.toml")
    assert main(["tournament", str(bad)]) == 2
    assert "skip-ai: error: " in capsys.readouterr().err and not (tmp_path / "out").exists()
    c = parse_config(GOOD)
    assert (c.seed, c.workers, c.games_per_task, str(c.out)) == (0, 1, 100, "runs/t")
    assert c.games == ("skip_columns(deck=52,players=2)",)  # every parameter spelled out


# --- the schedule -----------------------------------------------------------------------


def test_schedule_two_agents_two_team_games():
    c = parse_config(
        {
            **GOOD,
            "deals": 5,
            "games": [{"game": "skip_columns(players=2)"}, {"game": "skip_guess(players=4)"}],
        }
    )
    games = list(schedule(c))
    assert len(games) == schedule_size(c) == 2 * 5 * 2
    assert len({g.match_id for g in games}) == len(games)
    by_deal = {}
    for g in games:
        by_deal.setdefault((g.game, g.deal), []).append(g)
    assert all([s.seating for s in v] == [0, 1] for v in by_deal.values())
    assert all(len({s.seed for s in v}) == 1 for v in by_deal.values())  # same cards
    assert len({v[0].seed for v in by_deal.values()}) == 10  # a fresh deal every time


def test_schedule_rotates_seats_in_individual_games_and_pairs_every_agent():
    agents = [{"name": n, "spec": "random"} for n in "abc"]
    c = parse_config(
        {**GOOD, "deals": 2, "agents": agents, "games": [{"game": "skip_pyatki(players=3)"}]}
    )
    games = list(schedule(c))
    assert len(games) == schedule_size(c) == 3 * 2 * 3  # pairs × deals × rotations
    assert {(g.agent_a.name, g.agent_b.name) for g in games} == {("a", "b"), ("a", "c"), ("b", "c")}
    layouts = seatings(load(c.games[0]))
    assert sorted({g.seating for g in games}) == [0, 1, 2]
    assert np.array(layouts).sum(axis=0).tolist() == [2, 2, 2]  # A sits everywhere
    other = parse_config(
        {
            **GOOD,
            "deals": 2,
            "seed": 1,
            "agents": agents,
            "games": [{"game": "skip_pyatki(players=3)"}],
        }
    )
    assert {g.seed for g in schedule(other)}.isdisjoint({g.seed for g in games})


# --- running ----------------------------------------------------------------------------


def test_records_hold_the_schema_and_do_not_depend_on_the_worker_count(tmp_path):
    games = ["skip_columns(players=2,deck=36)", "skip_pyatki(players=3)"]
    cfg = load_config(write_config(tmp_path, games=games, deals=4, extra="games_per_task = 3"))
    s1 = run_tournament(cfg, workers=1, progress=False)
    one = records(cfg.out)
    assert (s1.total, s1.played, s1.failed) == (2 * 4 + 3 * 4, 20, 0)
    assert list(read_records(cfg.out / "records").columns) == SCHEMA.names
    assert one.match_id.is_unique and (one.status == "ok").all() and one.error.isna().all()
    assert (one.batch == "t").all() and one.code_version.str.startswith("0.").all()
    row = one.iloc[0]
    assert list(row.agents) == ["rnd", "heur"] and len(row.returns) == 2
    assert row.winner == 1 and row.score_a == 0.0 and row.num_moves > 0  # heuristic wins
    pyatki = one[one.game_name == "skip_pyatki"]
    assert (~pyatki.team_game).all() and pyatki.scores.map(len).eq(3).all()

    cfg2 = load_config(
        write_config(tmp_path / "w2", games=games, deals=4, extra="games_per_task = 2")
    )
    s2 = run_tournament(cfg2, workers=2, progress=False)
    assert s2.played == 20 and len(list((cfg2.out / "records").glob("*.parquet"))) == 10
    assert records(cfg2.out).equals(one)


class CrashBot(RandomBot):
    """Raises on its third move: a broken agent."""

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.moves = 0

    def new_game(self, seed: int) -> None:
        super().new_game(seed)
        self.moves = 0

    def step(self, state: pyspiel.State) -> int:
        self.moves += 1
        if self.moves == 3:
            raise RuntimeError("the crash agent gave up")
        return super().step(state)


def test_a_failing_game_is_recorded_as_failed(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(AGENTS, "crash_test", lambda game, seed: CrashBot(seed))
    path = write_config(
        tmp_path, agents={"rnd": "random", "heur": "heuristic", "crash": "crash_test"}
    )
    assert main(["tournament", str(path), "--workers", "1"]) == 0
    assert "12 games failed" in capsys.readouterr().out
    df = records(tmp_path / "out")
    assert len(df) == 3 * 3 * 2
    failed = df[df.status == "failed"]
    assert len(failed) == 2 * 3 * 2 and set(failed.agent_b) == {"crash"}
    assert failed.error.str.contains("RuntimeError: the crash agent gave up").all()
    assert failed.returns.isna().all() and failed.seed.notna().all()
    assert (df[df.status == "ok"].agent_b != "crash").all()


def test_a_task_builds_each_sides_bot_once_and_plays_as_bots_built_per_game(monkeypatch):
    built = []
    monkeypatch.setitem(AGENTS, "counted", lambda game, seed: built.append(seed) or RandomBot(seed))
    reads = []
    load_model = PolicyValueNet.load
    monkeypatch.setattr(
        PolicyValueNet,
        "load",
        staticmethod(lambda path, game=None: reads.append(path) or load_model(path, game)),
    )
    c = parse_config(
        {
            "name": "t",
            "deals": 3,
            "games": [{"game": "skip_columns"}],
            "agents": [
                {"name": "model", "spec": "learned(model=skip_columns)"},
                {"name": "rnd", "spec": "counted"},
            ],
        }
    )
    built.clear()  # parsing the config built each agent once to check it, and read the model
    reads.clear()
    games = list(schedule(c))
    rows = play_games("t", "v", games)
    assert len(rows) == len(games) == 6 and all(r["status"] == "ok" for r in rows)
    assert built == [0] and len(reads) == 1  # the spec parsed and its model read once a task
    layouts = seatings(load("skip_columns"))
    for s, row in zip(games, rows):
        alone = play_seating(
            load("skip_columns"),
            s.seed,
            layouts[s.seating],
            "learned(model=skip_columns)",
            "random",
        )
        assert row["actions"] == alone["state"].history()


def test_changed_config_is_refused_and_records_kept(tmp_path):
    path = write_config(tmp_path, deals=2)
    run_tournament(load_config(path), progress=False)
    before = records(tmp_path / "out")
    write_config(tmp_path, deals=3)
    with pytest.raises(StoreError, match=r"config changed .* \(different deals\)"):
        run_tournament(load_config(path), progress=False)
    write_config(tmp_path, deals=2, agents={"rnd": "random", "heur": "ismcts(iterations=5)"})
    with pytest.raises(StoreError, match=r"\(different agents\)"):
        run_tournament(load_config(path), progress=False)
    assert records(tmp_path / "out").equals(before)
    # how the batch runs is not part of its identity
    write_config(tmp_path, deals=2, extra="workers = 2\ngames_per_task = 1")
    assert run_tournament(load_config(path), progress=False).played == 0


def test_a_second_run_of_the_same_batch_is_refused_while_one_runs(tmp_path):
    from skip_ai.tournament.store import RecordStore

    cfg = load_config(write_config(tmp_path))
    running = RecordStore(cfg.out)
    running.open(cfg, "test")
    with pytest.raises(StoreError, match="another run of batch 't' is writing to"):
        run_tournament(cfg, progress=False)
    running.close()
    assert run_tournament(cfg, progress=False).played == 6


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_damaged_shard_is_named(tmp_path, damage):
    cfg = load_config(write_config(tmp_path, deals=4, extra="games_per_task = 2"))
    run_tournament(cfg, progress=False)
    shard = sorted((cfg.out / "records").glob("*.parquet"))[1]
    data = shard.read_bytes()
    shard.write_bytes(b"not parquet" if damage == "garbage" else data[: len(data) // 2])
    with pytest.raises(StoreError, match=f"damaged shard {shard}"):
        run_tournament(cfg, progress=False)
    assert shard.exists()  # nothing is deleted behind the user's back
    shard.rename(tmp_path / "damaged.parquet")  # as the message says: move it out, run again
    assert run_tournament(cfg, progress=False).played == 2
    assert len(records(cfg.out)) == 8


def _group_ends(pgid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
    return False


def test_resume_after_kill_9_gives_every_game_once(tmp_path):
    games = ["skip_columns(players=2,deck=36)", "skip_pyatki(players=2)"]
    killed = write_config(tmp_path / "k", games=games, deals=200, extra="games_per_task = 4")
    proc = subprocess.Popen(
        [sys.executable, "-m", "skip_ai.cli", "tournament", str(killed), "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    shards = tmp_path / "k" / "out" / "records"
    deadline = time.monotonic() + 120
    while len(list(shards.glob("*.parquet"))) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    assert _group_ends(proc.pid, within=15)  # the orphaned pool workers leave by themselves
    cfg = load_config(killed)
    total = 2 * 200 * 2
    partial = len(read_records(shards))
    assert 0 < partial < total  # the kill did land mid-batch

    s = run_tournament(cfg, workers=2, progress=False)
    # the shards' games, and those of the journal: the games finished since the last shard
    assert partial <= s.before and s.before + s.played == total
    assert not list(shards.glob(".*"))  # no partial shard or journal left behind
    resumed = records(cfg.out)
    assert resumed.match_id.is_unique and len(resumed) == total

    whole = load_config(write_config(tmp_path / "w", games=games, deals=200))
    run_tournament(whole, workers=1, progress=False)
    assert resumed.equals(records(whole.out))
