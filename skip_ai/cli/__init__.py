"""The ``skip-ai`` command line: list games, print a game's rules, watch or play one, match two
agents, simulate a batch, run a tournament, report on its records."""

from __future__ import annotations

import argparse
import os
import sys

import pyspiel

from skip_ai.cli import (
    balance,
    catalogue,
    match,
    play,
    report,
    serve,
    simulate,
    tournament,
    train,
    tune,
)
from skip_ai.cli.parsing import Parser

COMMANDS = (catalogue, play, match, simulate, tournament, balance, train, tune, serve, report)
"""The modules of the commands, in the order ``skip-ai --help`` lists them; each adds its
parsers (``add_parsers``) with the function that runs the command as their ``run`` default."""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="skip-ai", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
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
