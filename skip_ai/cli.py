"""The ``skip-ai`` command line: list games, print a game's rules, watch or play one, match two
agents, simulate a batch, run a tournament, report on its records."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import numpy as np
import pyspiel

if TYPE_CHECKING:
    from skip_ai.play import Decision


def _games(args: argparse.Namespace) -> int:
    from skip_ai.pyspiel_wrapper import REGISTRY

    for spec in sorted(REGISTRY.values(), key=lambda s: int(s.rules_section.strip("§"))):
        print(f"{spec.short_name:22s} {spec.long_name} «{spec.original_name}»")
        for p in spec.params:
            default = _fmt(p.default) + (f", {p.auto_doc}" if p.auto_doc else "")
            choices = ", ".join(_fmt(c) for c in p.choices)
            print(
                f"    {p.name:15s} default {default}  (one of {choices})"
                + (f" — {p.doc}" if p.doc else "")
            )
    print("\nThe rules of a game, every parameter explained: skip-ai rules GAME")
    return 0


def _fmt(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _rules(args: argparse.Namespace) -> int:
    from skip_ai import rules

    print(rules.page(args.game) if args.game else rules.index(), end="")
    return 0


def _play(args: argparse.Namespace) -> int:
    from agents import make_agent
    from skip_ai.games.words import result_text
    from skip_ai.kernel.rng import make_rng
    from skip_ai.play import play
    from skip_ai.pyspiel_wrapper import load

    game = load(args.game)
    specs = _seat_specs(args.seat, args.others, game.num_players())
    bots = [make_agent(spec, game, seed=args.seed + 1 + p) for p, spec in enumerate(specs)]
    humans = {p for p, spec in enumerate(specs) if spec.strip() == "human"}
    names = _score_names(game)
    print(f"{game}  (seed {args.seed})")
    # a person at the table must not see the others' hands: his bot tells him what his seat
    # saw, and there is no transcript
    printer = None if humans else _Transcript(names)
    callbacks = (
        {}
        if printer is None
        else dict(on_turn=printer.turn, on_decision=printer.decision, on_chance=printer.chance)
    )
    state = play(game.new_initial_state(), bots, make_rng(args.seed), **callbacks)
    if printer is not None:
        printer.scores(state)
    for p in sorted(humans):
        bots[p].show_end(state, p)
    print("\nFinal position:\n" + str(state))
    if humans:
        print("scores: " + ", ".join(f"{n} {v:g}" for n, v in zip(names, state.scores())))
    else:
        print(result_text(state))
        print(f"returns {state.returns()}  scores {state.scores()}")
    return 0


class _Transcript:
    """``skip-ai play``'s printout: the position after the deal, every move, every later chance
    event, and the scores whenever a move changed them."""

    def __init__(self, names: list[str]):
        self.names = names
        self.dealt = False
        self.moves = 0
        self.before: list[float] | None = None  # the scores before the last move

    def chance(self, state: pyspiel.State, outcome: int) -> None:
        self.scores(state)
        if self.dealt:
            print(f"      chance: {state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)}")

    def turn(self, state: pyspiel.State, player: int) -> None:
        self.scores(state)
        if not self.dealt:
            print("\nAfter the deal:\n" + str(state) + "\n")
            self.dealt = True

    def decision(self, d: Decision) -> None:
        self.moves += 1
        print(f"{self.moves:4d}. seat {d.player}: {d.state.action_to_string(d.player, d.action)}")
        self.before = d.state.scores()

    def scores(self, state: pyspiel.State) -> None:
        """The change of the scores by the last move, seen at the next event (before anyone
        thinks again) or at the end."""
        if self.before is not None and state.scores() != self.before:
            now = ", ".join(f"{n} {v:g}" for n, v in zip(self.names, state.scores()))
            print(f"      scores: {now}")
        self.before = None


def _seat_specs(seats: list[str], others: str, n: int) -> list[str]:
    """The agent spec of every seat from ``--seat P=SPEC`` options and ``--others``."""
    specs = [others] * n
    for item in seats:
        seat, sep, spec = item.partition("=")
        if not sep or not seat.strip().isdigit() or not spec.strip():
            raise ValueError(f"--seat expects SEAT=SPEC, e.g. 0=human (got {item!r})")
        if not 0 <= int(seat) < n:
            raise ValueError(f"--seat {item!r}: seats are 0..{n - 1}")
        specs[int(seat)] = spec.strip()
    return specs


def _match(args: argparse.Namespace) -> int:
    from skip_ai.match import match

    print(match(args.game, args.spec_a, args.spec_b, args.n, seed=args.seed, progress=True))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from skip_ai.paths import output_file
    from skip_ai.pyspiel_wrapper import load
    from skip_ai.sim import outcome_keys, simulate, summary

    if args.out:
        output_file(args.out, "--out")
    df = simulate(args.game, args.n, seed=args.seed, policy=args.policy, progress=True)
    s = summary(df)
    game = load(args.game)
    print(
        f"{df.game.iloc[0] if len(df) else args.game}: {s['games']} games, "
        f"policy {args.policy}, seed {args.seed}"
    )
    names = _score_names(game) + ["draw" if game.spec.team_game else "no winner"]
    width = max(8, *map(len, names))
    for (key, _), name in zip(outcome_keys(game), names):
        rate, lo, hi = s[key]
        print(f"  {name:>{width}s} {rate:7.2%}  [95% CI {lo:.2%} – {hi:.2%}]")
    m, lo, hi = s["moves"]
    print(
        f"  mean length {m:.1f} moves  [95% CI {lo:.1f} – {hi:.1f}]"
        f"  ({s['length'][0]:.1f} actions with the chance nodes)"
    )
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        df.to_parquet(out, index=False)
        print(f"  wrote {len(df)} rows to {out}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from skip_ai.analysis import write_report
    from skip_ai.paths import output_folder

    if args.to:  # the batch folder itself is read first: a missing one is reported as such
        output_folder(args.to, "--to")
    print(f"wrote {write_report(args.out, n_boot=args.bootstrap, dest=args.to)}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from skip_ai.tournament import load_config, run_tournament

    config = load_config(args.config)
    try:
        s = run_tournament(config, workers=args.workers, backend=args.backend, address=args.address)
    except KeyboardInterrupt:
        print(
            f"\nskip-ai: interrupted; the finished games are kept in {config.out}: run the "
            "same command again to resume",
            file=sys.stderr,
        )
        return 130
    print(
        f"{config.name}: {s.before + s.played} of {s.total} games recorded in {s.records} "
        f"({s.played} played now in {s.seconds:.0f} s)"
    )
    if s.failed:
        print(
            f"  {s.failed} games failed: their records have status 'failed' and the reason "
            "in 'error'"
        )
    return 0


def _balance(args: argparse.Namespace) -> int:
    from skip_ai.balance import study

    config = study.load(args.config)
    if args.out:
        config = dataclasses.replace(config, out=Path(args.out))
    try:
        s, report = study.run_study(
            config, workers=args.workers, backend=args.backend, address=args.address
        )
    except KeyboardInterrupt:
        print(
            f"\nskip-ai: interrupted; the finished games are kept in {config.out}: run the "
            "same command again to resume",
            file=sys.stderr,
        )
        return 130
    print(
        f"{config.name}: {s.before + s.played} of {s.total} games recorded in {s.records} "
        f"({s.played} played now in {s.seconds:.0f} s)\n"
    )
    print(study.findings_text(config))
    print(f"report: {report}")
    return 0


def _train(args: argparse.Namespace) -> int:
    from skip_ai.training import load_train_config, run_training

    config = load_train_config(args.config)
    try:
        curve = run_training(config)
    except KeyboardInterrupt:
        print(
            f"\nskip-ai: interrupted; the last checkpoint is kept in {config.out}: run the "
            "same command again to resume",
            file=sys.stderr,
        )
        return 130
    last = max(r["decisions"] for r in curve)
    for r in curve:
        if r["decisions"] == last:
            print(
                f"after {last} decisions: vs {r['reference']} {r['score']:.3f} "
                f"[{r['lo']:.3f}, {r['hi']:.3f}]"
            )
    print(f"model: {config.out / 'model.npz'}; curve: {config.out / 'curve.png'}")
    return 0


def _positions(args: argparse.Namespace) -> int:
    from skip_ai.paths import output_file
    from skip_ai.training import rollout_balancing

    output_file(args.out, "--out")
    pos = rollout_balancing.expert_positions(
        args.game, args.expert, args.games, args.per_game, seed=args.seed
    )
    rollout_balancing.save_positions(pos, args.out)
    print(
        f"{pos.game}: {len(pos.targets)} positions from {args.games} games of {pos.expert} "
        f"saved to {args.out} (use skip-ai tune GAME --balance {args.out})"
    )
    return 0


def _tune(args: argparse.Namespace) -> int:
    from skip_ai.training import rollout_balancing, tuning

    if args.search and args.balance:
        raise ValueError("--search and --balance are two tunings: give one")
    from skip_ai.paths import output_file

    output_file(args.out, "--out")
    # the defaults differ by tuning: heuristic / search / balance
    rounds = _given(args.rounds, 4 if args.search else 5)
    population = _given(args.population, 8 if args.search else 16)
    elite = _given(args.elite, 2 if args.search else 4)
    deals = _given(args.deals, 10 if args.search else 500)
    if args.balance:
        from skip_ai.pyspiel_wrapper import load

        game = load(args.game)
        positions = rollout_balancing.load_positions(args.balance, game)
        r = rollout_balancing.balance(
            game,
            positions,
            rounds=rounds,
            population=population,
            elite=elite,
            rollouts=args.rollouts,
            seed=args.seed,
        )
        rollout_balancing.save_balanced(r, args.out)
        s = r.config
        print(
            f"{r.game}: rollout_eps {s.rollout_eps:.3f}, weights "
            f"{dict(zip(r.names, np.round(s.weights, 3).tolist()))}\n"
            f"held-out squared bias of the rollouts: {r.default_error:.4f} (default) -> "
            f"{r.error:.4f}; saved to {args.out} (use ismcts(seconds=S,tuned={args.out}))"
        )
        return 0
    if args.search:
        r = tuning.tune_search(
            args.game,
            budget=args.search,
            rounds=rounds,
            population=population,
            elite=elite,
            deals=deals,
            seed=args.seed,
            eval_deals=args.eval_deals,
            tune=tuple(args.tune.split(",")) if args.tune else tuning.SEARCH_PARAMS,
        )
        tuning.save_search(r, args.out)
        s = r.config
        print(
            f"{r.game}: uct_c {s.uct_c:.3f}, rollout_eps {s.rollout_eps:.3f}, prior_c "
            f"{s.effective_prior_c:.3f}, weights "
            f"{dict(zip(r.names, np.round(s.weights, 3).tolist()))}\n"
            f"vs the untuned search ({r.budget}) on fresh deals: {r.score[0]:.3f} "
            f"[{r.score[1]:.3f}, {r.score[2]:.3f}]; saved to {args.out} (use "
            f"ismcts({r.budget},tuned={args.out}))"
        )
        return 0
    r = tuning.tune_heuristic(
        args.game, rounds=rounds, population=population, elite=elite, deals=deals, seed=args.seed
    )
    tuning.save_weights(r, args.out)
    print(
        f"{r.game}: tuned {dict(zip(r.names, r.best.round(3).tolist()))}\n"
        f"vs the defaults on fresh deals: {r.score[0]:.3f} [{r.score[1]:.3f}, "
        f"{r.score[2]:.3f}]; saved to {args.out} (use heuristic(weights={args.out}))"
    )
    return 0


def _given(value: int | None, default: int) -> int:
    """An option's value, or its default when it was not given (0 is a value, refused by
    the option's type, never a silent default)."""
    return default if value is None else value


def _at_least(low: int):
    """An option's type: a whole number ≥ ``low``."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low} (got {value})")
        return value

    return whole


_positive, _natural = _at_least(1), _at_least(0)


class _Parser(argparse.ArgumentParser):
    """Bad options are one line (argparse's usage block buries it), with where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _serve(args: argparse.Namespace) -> int:
    from skip_ai.serve.server import make_server

    if args.port > 65535:
        raise ValueError(f"--port {args.port}: ports go up to 65535")
    if args.records and not Path(args.records).exists():
        raise ValueError(f"--records {args.records}: no such folder")
    try:
        server = make_server(args.host, args.port, args.records)
    except OSError as e:
        raise ValueError(
            f"cannot listen on {args.host}:{args.port} ({e.strerror}); choose another --port"
        ) from None
    print(f"skip-ai serve: the table is at {server.url}  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nskip-ai serve: stopped")
    finally:
        server.server_close()
    return 0


def _score_names(game) -> list[str]:
    """Who each number of ``scores()`` belongs to: the teams, or the seats."""
    if game.spec.team_game:
        return list(game.spec.team_names)
    return [f"seat {q}" for q in range(game.num_players())]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="skip-ai", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("games", help="list every game with its parameters and defaults")
    rulp = sub.add_parser("rules", help="print a game's rules (without GAME: the list of games)")
    rulp.add_argument(
        "game",
        nargs="?",
        help="a game, e.g. skip_little_country (a game "
        'string such as "skip_columns(players=4)" works too)',
    )
    play = sub.add_parser("play", help="print one game move by move")
    play.add_argument("game", help='a game string, e.g. "skip_columns(players=4)"')
    play.add_argument("--seed", type=int, default=0)
    play.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="SEAT=SPEC",
        help="the agent at one seat, e.g. 0=human (repeatable)",
    )
    play.add_argument(
        "--others",
        "--agent",
        default="random",
        metavar="SPEC",
        help='agent spec for every other seat, e.g. "ismcts(seconds=1)"',
    )
    mat = sub.add_parser("match", help="duplicate deals between two agents: A's score")
    mat.add_argument("game")
    mat.add_argument("spec_a", help='agent A, e.g. "ismcts(iterations=1000)"')
    mat.add_argument("spec_b", help="agent B")
    mat.add_argument(
        "-n", type=_positive, default=100, help="number of deals (each played in every seating)"
    )
    mat.add_argument("--seed", type=int, default=0)
    simp = sub.add_parser("simulate", help="play a batch inside the kernel and summarise it")
    simp.add_argument("game")
    simp.add_argument("-n", type=_positive, default=10000, help="number of games")
    simp.add_argument("--seed", type=int, default=0)
    simp.add_argument("--policy", default="random")
    simp.add_argument("--out", help="write one row per game to this Parquet file")
    tour = sub.add_parser(
        "tournament",
        help="a round robin of agents on duplicate deals, "
        "recorded as Parquet shards (run again to resume)",
    )
    tour.add_argument("config", help="the batch's TOML config")
    tour.add_argument("--workers", type=_positive, help="processes (default: the config's workers)")
    tour.add_argument(
        "--backend",
        default="local",
        choices=["local", "ray"],
        help="local: a process pool here; ray: Ray tasks (pip install 'skip-ai[ray]')",
    )
    tour.add_argument(
        "--address",
        help="the Ray cluster to run on, e.g. auto or HEAD:6379 "
        "(default: start a local Ray with --workers CPUs)",
    )
    bal = sub.add_parser(
        "balance",
        help="a balance study: self-play skill ladders per "
        "variant, the skill trace, variants compared; OUT/report.md (run "
        "again to resume)",
    )
    bal.add_argument(
        "config",
        nargs="?",
        help="the study's TOML config (default: the "
        "embedded quick study of Columns, about two minutes on two cores)",
    )
    bal.add_argument("--workers", type=int, help="processes (default: the config's workers)")
    bal.add_argument(
        "--backend",
        default="local",
        choices=["local", "ray"],
        help="local: a process pool here; ray: Ray tasks",
    )
    bal.add_argument("--address", help="the Ray cluster to run on (as for tournament)")
    bal.add_argument("--out", help="output folder (default: the config's out)")
    train = sub.add_parser(
        "train",
        help="deep Monte-Carlo: self-play in Numba, fit a Q model, evaluate (rerun resumes)",
    )
    train.add_argument("config", help="a training config (TOML)")
    tune = sub.add_parser(
        "tune",
        help="tune a heuristic's weights (or, with --search, an "
        "ISMCTS search) by the cross-entropy method over duplicate deals",
    )
    tune.add_argument("game")
    tune.add_argument("--out", required=True, help="weights or tuned-search file to write (JSON)")
    tune.add_argument(
        "--search",
        metavar="BUDGET",
        help="tune ISMCTS at this budget instead "
        "(e.g. seconds=0.02): uct_c, rollout_eps, the heuristic prior's prior_c and "
        "the heuristic's weights",
    )
    tune.add_argument(
        "--balance",
        metavar="POSITIONS",
        help="tune ISMCTS's rollouts instead "
        "(rollout_eps and the heuristic's weights) by simulation balancing: their "
        "mean outcome should match the expert's in these positions (skip-ai "
        "positions)",
    )
    tune.add_argument(
        "--rollouts",
        type=_positive,
        default=16,
        help="with --balance: playouts per position (default 16)",
    )
    tune.add_argument(
        "--rounds", type=_positive, help="default 5 (heuristic, balance) / 4 (search)"
    )
    tune.add_argument("--population", type=_positive, help="default 16 / 8")
    tune.add_argument("--elite", type=_positive, help="default 4 / 2")
    tune.add_argument("--deals", type=_positive, help="deals per candidate: default 500 / 10")
    tune.add_argument(
        "--tune",
        metavar="P,Q",
        help="with --search: the parameters to tune, "
        "among uct_c, rollout_eps, prior_c, weights (default all four)",
    )
    tune.add_argument(
        "--eval-deals",
        type=_natural,
        default=0,
        help="with --search: also score "
        "each generation against the untuned search on this many fresh deals",
    )
    tune.add_argument("--seed", type=int, default=0)
    posp = sub.add_parser(
        "positions",
        help="expert positions for simulation balancing: "
        "self-play games, a few decisions kept per game with the final return",
    )
    posp.add_argument("game")
    posp.add_argument(
        "--expert",
        default="ismcts(iterations=1000)",
        help="the self-playing agent (default ismcts(iterations=1000))",
    )
    posp.add_argument("--games", type=_positive, default=250)
    posp.add_argument("--per-game", type=_positive, default=8, help="decisions kept per game")
    posp.add_argument("--seed", type=int, default=0)
    posp.add_argument("--out", required=True, help="positions file to write (.npz)")
    srv = sub.add_parser(
        "serve",
        help="the table in a browser: play against the bots, watch "
        "recorded games, see why a bot moved",
    )
    srv.add_argument(
        "--port", type=_at_least(0), default=8000, help="default 8000 (0: any free port)"
    )
    srv.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only)",
    )
    srv.add_argument(
        "--records",
        metavar="OUT",
        help="a tournament's output folder (or its records/) whose games the page can replay",
    )
    rep = sub.add_parser(
        "report", help="analyse a batch's records: OUT/report.md and OUT/figures/*.png"
    )
    rep.add_argument("out", help="the batch folder (holding records/) or a records folder")
    rep.add_argument(
        "--bootstrap",
        type=_positive,
        default=200,
        metavar="N",
        help="bootstrap samples for the intervals (default 200)",
    )
    rep.add_argument(
        "--to",
        metavar="DIR",
        help="write the report here instead of OUT (e.g. results/small-study)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import skip_ai  # noqa: F401  (registers the games)

    handler = {
        "games": _games,
        "rules": _rules,
        "play": _play,
        "match": _match,
        "simulate": _simulate,
        "tournament": _tournament,
        "balance": _balance,
        "train": _train,
        "tune": _tune,
        "positions": _positions,
        "report": _report,
        "serve": _serve,
    }[args.command]
    try:
        return handler(args)
    except (ValueError, pyspiel.SpielError) as e:
        print(f"skip-ai: error: {e}", file=sys.stderr)
        return 2
    except EOFError as e:
        print(f"skip-ai: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:  # Ctrl-C, or a person who typed q (agents.human.QuitGame)
        print(f"\nskip-ai: {e.args[0] if e.args else 'interrupted'}", file=sys.stderr)
        return 0 if e.args else 130
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
