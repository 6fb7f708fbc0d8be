"""``skip-ai games`` (every game with its parameters) and ``skip-ai rules`` (a game's rules)."""

from __future__ import annotations

import argparse


def add_parsers(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("games", help="list every game with its parameters and defaults").set_defaults(
        run=list_games
    )
    rulp = sub.add_parser("rules", help="print a game's rules (without GAME: the list of games)")
    rulp.add_argument(
        "game",
        nargs="?",
        help="a game, e.g. skip_little_country (a game "
        'string such as "skip_columns(players=4)" works too)',
    )
    rulp.set_defaults(run=print_rules)


def list_games(args: argparse.Namespace) -> int:
    from skip_ai.pyspiel_wrapper import REGISTRY

    for spec in sorted(REGISTRY.values(), key=lambda s: int(s.rules_section.strip("§"))):
        print(f"{spec.short_name:22s} {spec.long_name} «{spec.original_name}»")
        for p in spec.params:
            if p is (spec.levers or (None,))[0]:
                print("    levers (changes of the rules to try; the default is the rules):")
            default = _fmt(p.default) + (f", {p.auto_doc}" if p.auto_doc else "")
            choices = ", ".join(_fmt(c) for c in p.choices)
            print(
                f"    {p.name:15s} {p.label}: default {default}  (one of {choices})"
                + (f" — {p.doc}" if p.doc else "")
            )
    print("\nThe rules of a game, every parameter and lever explained: skip-ai rules GAME")
    return 0


def _fmt(v: object) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def print_rules(args: argparse.Namespace) -> int:
    from skip_ai import rules

    print(rules.page(args.game) if args.game else rules.index(), end="")
    return 0
