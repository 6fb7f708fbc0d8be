"""Resuming a batch honestly: the time left counts only this run's games, an interrupt keeps
every finished game (the journal, and what a kill can leave of it), the interleaved order."""

from __future__ import annotations

import pytest
from test_tournament import records, write_config

from agents.factory import AGENTS
from agents.random_agent import RandomBot
from skip_ai.records import read_records
from skip_ai.tournament import load_config, run_tournament
from skip_ai.tournament import runner as runner_module
from skip_ai.tournament import worker as worker_module
from skip_ai.tournament.config import parse_config
from skip_ai.tournament.progress import WINDOW, Progress
from skip_ai.tournament.schedule import schedule
from skip_ai.tournament.store import RecordStore


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_time_left_counts_only_this_runs_games_from_its_first():
    clock = Clock()
    bar = Progress("t", total=1000, before=800, show=False, clock=clock)
    assert bar.rate() is None and bar.time_left() is None
    assert bar.describe() == "this run: rate not measured yet"
    clock.now += 300  # the run's start: imports, kernels compiled
    bar.update()
    assert bar.rate() is None  # one game is no rate
    clock.now += 10
    bar.update(20)  # 20 games in 10 s; the 800 recorded before are not fast games
    assert bar.rate() == 2.0
    assert bar.time_left() == (1000 - 800 - 21) / 2.0  # not 179 / (821 / 310)
    assert bar.describe() == "this run: 2.00 games/s over its last 20 games, 1:30 left at that rate"
    clock.now += 3590
    bar.update(9)  # 29 games in an hour since the first: 170 left take 5 h 52 min
    assert bar.describe().endswith("5:51:43 left at that rate")
    bar.close()


def test_the_rate_forgets_the_slow_start_after_a_window_of_games():
    clock = Clock()
    bar = Progress("t", total=10 * WINDOW, before=0, show=False, clock=clock)
    for _ in range(WINDOW // 4):  # the first deals, slow while kernels compile
        clock.now += 2.0
        bar.update()
    for _ in range(2 * WINDOW):  # then 10 games a second
        clock.now += 0.1
        bar.update()
    assert bar.rate() == pytest.approx(10.0)
    left = 10 * WINDOW - WINDOW // 4 - 2 * WINDOW
    assert bar.time_left() == pytest.approx(left / 10.0)


def test_a_resumed_run_rates_its_own_games_and_ctrl_c_kept_the_finished_ones(tmp_path, monkeypatch):
    cfg = load_config(write_config(tmp_path, deals=4, extra="games_per_task = 3"))
    play, finished = worker_module._play, []

    def interrupted_after_five(batch, version, s, prepared):
        if len(finished) == 5:
            raise KeyboardInterrupt
        finished.append(s.match_id)
        return play(batch, version, s, prepared)

    monkeypatch.setattr(worker_module, "_play", interrupted_after_five)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(cfg, progress=False)
    # the 3 of the whole shard and the 2 that were only in the journal
    assert sorted(read_records(cfg.out / "records").match_id) == sorted(finished)
    assert not list((cfg.out / "records").glob(".*"))

    monkeypatch.setattr(worker_module, "_play", play)
    bars = []

    def progress(*args, **kwargs):
        bars.append(Progress(*args, **kwargs))
        return bars[-1]

    monkeypatch.setattr(runner_module, "Progress", progress)
    s = run_tournament(cfg, progress=False)
    assert (s.before, s.played) == (5, 3)
    assert (bars[0].total, bars[0].before, bars[0].played) == (8, 5, 3)
    whole = load_config(write_config(tmp_path / "w", deals=4))
    run_tournament(whole, progress=False)
    assert records(cfg.out).equals(records(whole.out))


def _store_with_journal(tmp_path, games: int):
    """A batch whose run was killed with ``games`` finished games in its journal only."""
    cfg = load_config(write_config(tmp_path, deals=4, extra="games_per_task = 100"))
    rows = worker_module.play_games(cfg.name, "v", list(schedule(cfg))[:games])
    store = RecordStore(cfg.out)
    store.open(cfg, "v")
    for row in rows:
        store.keep(row)
    journal = store.journal.read_bytes()
    store.close()  # a run that ends writes its journal as a shard; a kill would not have
    for shard in store.shards():
        shard.unlink()
    store.journal.write_bytes(journal)
    return cfg, rows, store.journal


def test_a_journal_cut_short_by_a_kill_keeps_its_whole_frames(tmp_path):
    cfg, rows, journal = _store_with_journal(tmp_path, 3)
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) - 10])  # the last frame cut short
    store = RecordStore(cfg.out)
    store.open(cfg, "v")
    store.close()
    assert not journal.exists()
    assert store.done_ids() == {r["match_id"] for r in rows[:2]}
    assert run_tournament(cfg, progress=False).played == 6  # the cut game played again


def test_a_kill_between_a_shard_and_the_journal_records_each_game_once(tmp_path):
    cfg, rows, journal = _store_with_journal(tmp_path, 3)
    kept = journal.read_bytes()
    store = RecordStore(cfg.out)
    store.open(cfg, "v")  # the journal's 3 games become a shard
    store.close()
    journal.write_bytes(kept)  # as if killed before the journal was shortened
    s = run_tournament(cfg, progress=False)
    assert (s.before, s.played) == (3, 5)
    assert read_records(cfg.out / "records").match_id.is_unique


def test_the_runner_plays_deals_interleaved_across_games_and_pairs(tmp_path):
    games = ["skip_columns(players=2,deck=36)", "skip_guess(players=4)"]
    cfg = load_config(write_config(tmp_path, games=games, deals=3))
    plain, mixed = list(schedule(cfg)), list(schedule(cfg, interleaved=True))
    assert sorted(plain, key=lambda s: s.match_id) == sorted(mixed, key=lambda s: s.match_id)
    assert [s.deal for s in mixed[:4]] == [0, 0, 0, 0]  # deal 0 of both games first
    assert {s.game for s in mixed[:4]} == set(cfg.games)


def test_a_runs_single_game_tasks_build_each_bot_once_and_play_as_one_task(monkeypatch):
    built = []
    monkeypatch.setitem(AGENTS, "counted", lambda game, seed: built.append(seed) or RandomBot(seed))
    cfg = parse_config(
        {
            "name": "t",
            "deals": 3,
            "games": [{"game": "skip_columns(players=2,deck=36)"}],
            "agents": [{"name": "h", "spec": "heuristic"}, {"name": "c", "spec": "counted"}],
        }
    )
    built.clear()  # parsing the config built each agent once to check it
    games = list(schedule(cfg))
    alone = [row for g in games for row in worker_module.play_games("t", "v", [g], "run 1")]
    assert len(built) == 1  # once for the run, not once per game
    together = worker_module.play_games("t", "v", games)
    untimed = [
        [{k: v for k, v in r.items() if k != "seconds"} for r in rows] for rows in (alone, together)
    ]
    assert untimed[0] == untimed[1]
    worker_module.play_games("t", "v", games[:1], "run 2")  # another run builds its own
    assert len(built) == 3
    worker_module.forget_bots()
