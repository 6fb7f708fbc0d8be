"""``skip-ai play``: one game move by move, bots or a person at any seat."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import pyspiel

from skip_ai.cli.output import score_names

if TYPE_CHECKING:
    from skip_ai.play import Decision


def add_parsers(sub: argparse._SubParsersAction) -> None:
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
    play.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from agents import make_agent
    from skip_ai.kernel.rng import make_rng
    from skip_ai.play import play
    from skip_ai.pyspiel_wrapper import load
    from skip_ai.words import result_text

    game = load(args.game)
    specs = seat_specs(args.seat, args.others, game.num_players())
    bots = [make_agent(spec, game, seed=args.seed + 1 + p) for p, spec in enumerate(specs)]
    humans = {p for p, spec in enumerate(specs) if spec.strip() == "human"}
    names = score_names(game)
    print(f"{game}  (seed {args.seed})")
    # a person at the table must not see the others' hands: his bot tells him what his seat
    # saw, and there is no transcript
    printer = None if humans else Transcript(names)
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


class Transcript:
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


def seat_specs(seats: list[str], others: str, n: int) -> list[str]:
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
