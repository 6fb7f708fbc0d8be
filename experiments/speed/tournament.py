"""Tournament benchmark (issue 7's targets) and the run-time estimate of a config.

1. games/s of one batch with 1 worker and with 2 (target: 2 workers ≥ 1.8×);
2. recording overhead: the same games played in a bare loop of ``play_seating`` (no record,
   no file) against the whole batch with its records and shards (target ≤ 5% of wall time);
3. a 100,000-game random batch of one game with 2 workers, printing the resident memory of
   the runner and its workers as it goes (target: flat);
4. ``--only ray``: games/s of a batch of ISMCTS games on a local Ray with 2 CPUs against the
   local pool with 2 workers (target ≥ 0.9×), with Ray's start-up counted and without it;
5. ``--estimate CONFIG``: plays ``--sample`` deals of every (game, pair of agents) of a config
   in this process, measures each game's CPU time (what it costs a free core, even on a busy
   machine) and extrapolates the whole batch's wall time on ``--workers`` processes at the
   ``--efficiency`` measured in section 1.

Usage: ``python experiments/speed/tournament.py [--only speedup overhead memory]
[--estimate experiments/tournaments/overnight.toml]``. Everything but the estimate takes about
5 minutes on this 2-core machine.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import tempfile
import threading
import time
from pathlib import Path


def config(
    out: Path, games: list[str], agents: dict[str, str], deals: int, games_per_task: int = 100
):
    from skip_ai.tournament.config import parse_config

    return parse_config(
        {
            "name": out.name,
            "seed": 1,
            "deals": deals,
            "out": str(out),
            "games_per_task": games_per_task,
            "games": [{"game": g} for g in games],
            "agents": [{"name": n, "spec": s} for n, s in agents.items()],
        }
    )


def speedup(tmp: Path) -> None:
    from skip_ai.tournament import run_tournament

    games = ["skip_columns(players=4)", "skip_guess(players=4)"]
    agents = {"heur": "heuristic", "mcts": "ismcts(iterations=100)"}
    run_tournament(config(tmp / "warm", games, agents, 2), workers=1, progress=False)
    rates, cpu = {}, {}
    for workers in (1, 2):
        c = config(tmp / f"speed{workers}", games, agents, 400, games_per_task=25)
        kids0, own0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time()
        s = run_tournament(c, workers=workers, progress=False)
        kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the pool's workers, reaped
        cpu[workers] = (
            time.process_time() - own0,
            kids1.ru_utime + kids1.ru_stime - kids0.ru_utime - kids0.ru_stime,
        )
        rates[workers] = s.played / s.seconds
        print(
            f"  {workers} worker(s): {s.played} games in {s.seconds:.1f} s = "
            f"{rates[workers]:.1f} games/s; CPU: runner {cpu[workers][0]:.1f} s, "
            f"pool workers {cpu[workers][1]:.1f} s"
        )
    print(f"  speed-up with 2 workers: {rates[2] / rates[1]:.2f}× (target ≥ 1.8×)")
    # On a machine shared with other jobs the wall clock says little; from CPU times, two
    # free cores would take max(the workers' CPU / 2, the runner's CPU) for the same games.
    free = cpu[1][0] / max(cpu[2][1] / 2, cpu[2][0])
    print(f"  speed-up on two free cores, from CPU times: {free:.2f}×")


def overhead(tmp: Path) -> None:
    from agents import PreparedAgent
    from skip_ai.duplicate import seatings
    from skip_ai.match import play_seating
    from skip_ai.pyspiel_wrapper import load
    from skip_ai.tournament import run_tournament
    from skip_ai.tournament.schedule import schedule

    for agents, deals in (
        ({"rnd": "random", "heur": "heuristic"}, 2500),
        ({"heur": "heuristic", "mcts": "ismcts(iterations=100)"}, 250),
    ):
        c = config(tmp / f"over-{deals}", ["skip_columns(players=4)"], agents, deals)
        game = load(c.games[0])
        layouts = seatings(game)
        run_tournament(config(tmp / f"warm-{deals}", c.games, agents, 1), progress=False)
        sides = [PreparedAgent(spec, game) for spec in agents.values()]  # once, as a task does
        bare, rec = [], []  # (wall, cpu) per repetition; alternate them, keep the best
        for rep in range(3):
            w0, c0 = time.perf_counter(), time.process_time()
            for s in schedule(c):
                play_seating(game, s.seed, layouts[s.seating], *sides)
            bare.append((time.perf_counter() - w0, time.process_time() - c0))
            c = config(tmp / f"over-{deals}-{rep}", c.games, agents, deals)
            w0, c0 = time.perf_counter(), time.process_time()
            run_tournament(c, workers=1, progress=False)
            rec.append((time.perf_counter() - w0, time.process_time() - c0))
        n = deals * len(layouts)
        (bw, bc), (rw, rc) = [tuple(map(min, zip(*x))) for x in (bare, rec)]
        print(
            f"  {' vs '.join(agents.values())}, {n} games: bare {bw:.2f} s "
            f"({n / bw:.0f} games/s), recorded {rw:.2f} s: overhead {(rw - bw) / rw:.1%} "
            f"of the wall time, {(rc - bc) / rc:.1%} of the CPU time (target ≤ 5%)"
        )


def ray_vs_pool(tmp: Path) -> None:
    import ray

    from skip_ai.tournament import run_tournament

    games = ["skip_columns(players=4)", "skip_guess(players=4)"]
    agents = {"heur": "heuristic", "mcts": "ismcts(iterations=300)"}
    run_tournament(config(tmp / "warm-ray", games, agents, 2), workers=1, progress=False)
    rates = {}
    for name in ("pool", "ray (its start-up counted)", "ray (already started)"):
        if name == "ray (already started)":
            ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
        c = config(tmp / f"ray-{len(rates)}", games, agents, 500, games_per_task=25)
        s = run_tournament(
            c, workers=2, backend="local" if name == "pool" else "ray", progress=False
        )
        rates[name] = s.played / s.seconds
        print(
            f"  {name:28s} {s.played} games in {s.seconds:6.1f} s = {rates[name]:6.1f} "
            f"games/s = {rates[name] / rates['pool']:.2f}× the pool (target ≥ 0.9×); "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    ray.shutdown()


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            line = next(x for x in f if x.startswith("VmRSS:"))
        return int(line.split()[1]) / 1024
    except (OSError, StopIteration):
        return 0.0


def children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids += [int(k) for k in (task / "children").read_text().split()]
    return kids


def memory(tmp: Path, n_games: int) -> None:
    from skip_ai.tournament import run_tournament

    game = "skip_columns(players=2,deck=36)"
    c = config(
        tmp / "memory",
        [game],
        {"rnd1": "random", "rnd2": "random"},
        n_games // 2,
        games_per_task=500,
    )
    done = threading.Event()
    records = c.out / "records"
    t0 = time.perf_counter()

    def sample() -> None:
        print(f"  {'s':>6s} {'games':>7s} {'runner MB':>10s} {'workers MB':>11s}")
        while not done.wait(10):
            shards = len(list(records.glob("*.parquet"))) if records.exists() else 0
            kids = " + ".join(f"{rss_mb(k):.0f}" for k in children(os.getpid()))
            print(
                f"  {time.perf_counter() - t0:6.0f} {shards * 500:7d} "
                f"{rss_mb(os.getpid()):10.0f} {kids:>11s}",
                flush=True,
            )

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    s = run_tournament(c, workers=2, progress=False)
    done.set()
    watcher.join()
    print(
        f"  {s.played} games of {game}, random vs random, 2 workers: {s.seconds:.0f} s = "
        f"{s.played / s.seconds:.0f} games/s; final runner RSS {rss_mb(os.getpid()):.0f} MB; "
        f"{len(list(records.glob('*.parquet')))} shards, "
        f"{sum(p.stat().st_size for p in records.glob('*.parquet')) / 2**20:.1f} MB"
    )


def estimate(path: str, sample: int, workers: int, efficiency: float) -> None:
    """Play ``sample`` deals of every (game, pair) and scale up to the whole batch."""
    from skip_ai.duplicate import seatings
    from skip_ai.pyspiel_wrapper import load
    from skip_ai.tournament import load_config
    from skip_ai.tournament.schedule import schedule
    from skip_ai.tournament.worker import play_games

    c = load_config(path)
    n_pairs = len(c.agents) * (len(c.agents) - 1) // 2
    total_s = 0.0
    print(f"  {'game':58s} {'pair':28s} {'s/game':>7s} {'batch min':>9s}")
    by_match = itertools.groupby(schedule(c), key=lambda s: s.match_id.split("/")[:2])
    for _, games in by_match:
        games = [g for g in games if g.deal < sample]
        play_games("estimate", "", games[:1])  # compiles what the pair needs on this game
        t0 = time.process_time()  # CPU time: what a game costs a free core, whatever else runs
        rows = play_games("estimate", "", games)
        per_game = (time.process_time() - t0) / len(rows)
        batch = per_game * c.deals * len(seatings(load(games[0].game)))
        total_s += batch
        print(
            f"  {games[0].game:58s} {games[0].agent_a.name + ' v ' + games[0].agent_b.name:28s}"
            f" {per_game:7.3f} {batch / 60:9.1f}",
            flush=True,
        )
    hours = total_s / 3600 / (workers * efficiency)
    print(
        f"  {c.name}: {len(c.games)} games × {n_pairs} pairs × {c.deals} deals; "
        f"one core would take {total_s / 3600:.2f} h; on {workers} workers at "
        f"{efficiency:.0%} efficiency ≈ {hours:.2f} h (plus compiling ISMCTS per game and worker)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        nargs="+",
        choices=["speedup", "overhead", "memory", "ray"],
        default=["speedup", "overhead", "memory"],
    )
    parser.add_argument("--games", type=int, default=100_000, help="games in the memory run")
    parser.add_argument(
        "--estimate",
        metavar="CONFIG",
        help="estimate this config's run time instead of benchmarking",
    )
    parser.add_argument(
        "--sample", type=int, default=1, help="deals per (game, pair) played for the estimate"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--efficiency",
        type=float,
        default=0.9,
        help="measured speed-up per worker (section 1's speed-up / 2)",
    )
    args = parser.parse_args(argv)
    import skip_ai  # noqa: F401

    if args.estimate:
        estimate(args.estimate, args.sample, args.workers, args.efficiency)
        return 0
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only:
            print(f"\n{name}:")
            if name == "memory":
                memory(Path(tmp), args.games)
            else:
                {"speedup": speedup, "overhead": overhead, "ray": ray_vs_pool}[name](Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
