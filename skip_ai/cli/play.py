"""``skip-ai play``: one game move by move, bots or a person at any seat.

A person's forced moves (his seat's only legal one) are played for him with a line that says
so (``--no-auto-forced`` asks anyway). While a bot thinks, a terminal shows "seat 2 thinking…"
on a line of its own that the next line overwrites; output to a file or a pipe gets no such
line, so a transcript stays one line per event.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

import pyspiel

from skip_ai.cli.output import score_names
from skip_ai.play import forced_action

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
    play.add_argument(
        "--no-auto-forced",
        dest="auto_forced",
        action="store_false",
        help="ask a person even for a move that is his only legal one (by default such a "
        "move is played for him, with a line that says so)",
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
    thinking = Thinking(specs, humans)

    def turn(state: pyspiel.State, player: int) -> None:
        if printer is not None:
            printer.turn(state, player)
        thinking.start(player)

    def decision(d: Decision) -> None:
        thinking.stop()
        if printer is not None:
            printer.decision(d)
        elif d.forced:
            bots[d.player].show_forced(d.state, d.player, d.action)

    state = play(
        game.new_initial_state(),
        bots,
        make_rng(args.seed),
        on_turn=turn,
        on_decision=decision,
        on_chance=printer.chance if printer is not None else None,
        auto_forced=humans if args.auto_forced else (),
    )
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
        move = d.state.get_game().spec.move_text(d.state.kernel_state(), d.player, d.action)
        forced = " (forced)" if forced_action(d.state) is not None else ""
        print(f"{self.moves:4d}. seat {d.player}: {move}{forced}")
        self.before = d.state.scores()

    def scores(self, state: pyspiel.State) -> None:
        """The change of the scores by the last move, seen at the next event (before anyone
        thinks again) or at the end."""
        if self.before is not None and state.scores() != self.before:
            now = ", ".join(f"{n} {v:g}" for n, v in zip(self.names, state.scores()))
            print(f"      scores: {now}")
        self.before = None


class Thinking:
    """A "seat P (SPEC) thinking…" line while a bot chooses, on a terminal only: written without
    a newline and wiped before the next line, so it never stays in the scrollback."""

    def __init__(self, specs: list[str], humans: set[int], out: TextIO | None = None):
        self.specs = specs
        self.humans = humans
        self.out = out or sys.stdout
        self.shown = False

    def start(self, player: int) -> None:
        if player in self.humans or not self.out.isatty():
            return
        self.out.write(f"  seat {player} ({self.specs[player]}) thinking…")
        self.out.flush()
        self.shown = True

    def stop(self) -> None:
        if self.shown:
            self.out.write("\r\033[K")  # back to the line's start, and clear it
            self.out.flush()
            self.shown = False


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
