"""A balance study's sides and players in a designer's words: "Black, the team that moves
second", "the second team (seats 2 and 3)", "ISMCTS at 1000 iterations" — never ``team 1`` or
``ismcts(iterations=1000)`` in what a reader reads (the specs stay in the report's
"who played" line, to reproduce it).

Who moves first is read from the games played (each record's first mover), not assumed: in
most games seat 0 starts, but in Pyatki the first player depends on the deal, and a side is
called "the team that moves first" only where every recorded game began with it.
"""

from __future__ import annotations

import math

import pandas as pd

from agents.factory import parse_spec
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.metrics import sides

ORDINALS = ("first", "second")
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def variant_name(game: str) -> str:
    """A variant as a designer says it: "Columns for four", with the parameters that are not
    the game's defaults after it ("Domino for two (deck=36, remove4=true)")."""
    import skip_ai  # noqa: F401  (registers the games)
    from skip_ai.pyspiel_wrapper import load, spec_of

    spec = spec_of(game)
    params = load(game).resolved
    base = spec.fill_defaults({"players": params["players"]} if "players" in params else {})
    name = spec.long_name
    if any(len(p.choices) > 1 for p in spec.params if p.name == "players"):
        name += f" for {WORDS.get(params['players'], params['players'])}"
    changed = [
        f"{k}={str(v).lower() if isinstance(v, bool) else v}"
        for k, v in params.items()
        if k != "players" and base.get(k, v) != v
    ]
    return name + (f" ({', '.join(changed)})" if changed else "")


def game_name(game: str) -> str:
    """The game of a variant: "Columns"."""
    from skip_ai.pyspiel_wrapper import spec_of

    return spec_of(game).long_name


def first_movers(records: pd.DataFrame) -> dict[str, int]:
    """Per game string, the side whose seat made the first move of every recorded game (the
    team in a team game, else the seat); a game whose first mover varied is left out."""
    out: dict[str, int] = {}
    if records.empty:
        return out
    for game, g in records.groupby("game", sort=False):
        s = sides(game)
        first = {int(m[0]) for m in g.movers if len(m)}
        side = {int(s.teams[k]) for k in first} if s.team_game else first
        if len(side) == 1:
            out[str(game)] = side.pop()
    return out


def _seats(seats: list[int]) -> str:
    words = [str(k) for k in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def side_name(game: str, side: int) -> str:
    """A side as its players know it: "Red"/"Black" where the game has colours, "the first
    team (seats 0 and 1)" where it does not (Sixty-six's partners sit alternately: seats 0 and
    2), "the first player (seat 0)" one against one, "the player in seat 2" in a game played
    each for themselves."""
    s = sides(game)
    if not s.team_game:
        return f"the player in seat {side}"
    if s.colours:
        return s.names[side]
    seats = [int(k) for k in range(s.players) if s.teams[k] == side]
    kind = "player" if len(seats) == 1 else "team"
    return f"the {ORDINALS[side]} {kind} ({'seat' if len(seats) == 1 else 'seats'} {_seats(seats)})"


def short_name(game: str, side: int) -> str:
    """A side in a table cell: "Black", "second team", "seat 2"."""
    s = sides(game)
    if not s.team_game:
        return f"seat {side}"
    if s.colours:
        return s.names[side]
    return f"{ORDINALS[side]} {'player' if s.players == 2 else 'team'}"


def side_with_role(game: str, side: int, first: dict[str, int]) -> str:
    """The side named, with when it moves where the records show it: "Black, the team that
    moves second," (the trailing comma included, for the middle of a sentence)."""
    name = side_name(game, side)
    s = sides(game)
    if game not in first or (not s.team_game and side != first[game]):
        return name
    when = "first" if first[game] == side else "second"
    if not s.team_game or s.players == 2:
        return f"{name}, who moves {when},"
    return f"{name}, the team that moves {when}," if s.colours else f"{name}, which moves {when},"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- players -------------------------------------------------------------------------------


def player_words(spec: str) -> tuple[str, str]:
    """A player spec as (kind, qualifier): ("ISMCTS", "at 1000 iterations"), ("heuristic", "");
    arguments not put in words follow in parentheses; an unreadable spec is itself."""
    try:
        kind, args = parse_spec(spec)
    except ValueError:
        return spec, ""
    said = []
    if kind in ("ismcts", "openspiel_ismcts"):
        word = "ISMCTS" if kind == "ismcts" else "OpenSpiel's ISMCTS"
        if "iterations" in args:
            said.append(f"at {args.pop('iterations')} iterations")
        elif "seconds" in args:
            said.append(f"at {args.pop('seconds')} s a move")
    elif kind == "learned":
        word = "learned-model"
        args.pop("model", None)  # the model is named in the "who played" line
    else:
        word = kind
    rest = ", ".join(f"{k}={v}" for k, v in args.items())
    return word, " ".join(said + ([f"({rest})"] if rest else []))


def rung_label(spec: str) -> str:
    """A rung in a table or a sentence: "heuristic", "ISMCTS at 1000 iterations"."""
    kind, qualifier = player_words(spec)
    return f"{kind} {qualifier}".strip()


def players_text(spec: str) -> str:
    """The players of a rung, for "between equal … players": "heuristic players", "ISMCTS
    players at 1000 iterations"."""
    kind, qualifier = player_words(spec)
    return f"{kind} players {qualifier}".strip()


def labels(names: list[str], specs: list[str]) -> list[str]:
    """The rungs of a ladder as labels; the config's own names where two labels would read
    alike (two heuristics with different weights files, say)."""
    said = [rung_label(s) for s in specs]
    return said if len(set(said)) == len(said) else list(names)


def rung_labels(config: BalanceConfig, v: int) -> list[str]:
    """Variant ``v``'s ladder as labels, weakest first."""
    return labels(config.names(v), [a.spec for a in config.rungs(v)])


def label_map(config: BalanceConfig, v: int) -> dict[str, str]:
    """Variant ``v``'s agent names (as the records and the trace hold them) to labels."""
    return dict(zip(config.names(v), rung_labels(config, v)))


# --- who played, to reproduce the study ----------------------------------------------------


def who_played(config: BalanceConfig, df: pd.DataFrame) -> str:
    """Who played, on how many deals, by which rule — with the specs and game strings that
    reproduce the study (the one place they are printed)."""
    played = "; ".join(f"{a.name} = `{a.spec}`" for a in config.agents)
    games = "; ".join(f"{variant_name(g)} = `{g}`" for g in config.games)
    own = ""
    if config.ladders:
        own = (
            " Ladders: "
            + "; ".join(
                f"{variant_name(g)}: {' → '.join(rung_labels(config, v))}"
                for v, g in enumerate(config.games)
            )
            + "."
        )
    trace = config.trace_deals
    if config.precision is None:
        deals = f"Self-play: {config.deals} deal{'s' * (config.deals != 1)} per variant and rung"
    else:
        p = config.precision
        each = any(not sides(g).team_game for g in config.games)
        deals = (
            "Self-play dealt sequentially per variant and rung until the teams' shares"
            + (" (each seat's, in games played each for themselves)" if each else "")
            + f" are known to ±{100 * p.target:g} points"
            + clear_text(config)
            + ", by the betting confidence sequence (Waudby-Smith & Ramdas 2023, anytime-"
            f"valid), looking at {p.first} deals and then ×{p.growth:g}; caps per rung: "
            + caps_text(config)
        )
    mirror = (
        "; each deal played with its mirror (the teams' hands swapped, colours too where the "
        "game has them) where the game has one"
        if config.mirror
        else ""
    )
    code = f"; code {', '.join(sorted(df.code_version.unique()))}" if len(df) else ""
    return (
        f"Who played: {played}. Games: {games}.{own} {deals}{mirror}; skill trace: {trace} "
        f"duplicate deal{'s' * (trace != 1)} per step; {len(df)} finished games; batch seed "
        f"{config.seed}{code}."
    )


def clear_text(config: BalanceConfig) -> str:
    """Which rungs also stop once clear of fair, and by how much (a margin of 0.5: never)."""
    margins: dict[float, list[str]] = {}
    for agent, (_, _, margin) in zip(config.agents, config.caps):
        if margin < 0.5:
            margins.setdefault(margin, []).append(agent.name)
    return "".join(
        f" ({', '.join(names)}: or once it lies {100 * m:g} points beyond fair)"
        for m, names in margins.items()
    )


def caps_text(config: BalanceConfig) -> str:
    """Each agent's cap in games (and game-seconds), grouped."""
    caps: dict[str, list[str]] = {}
    for agent, (games, seconds, _) in zip(config.agents, config.caps):
        cap = f"{games} games" + (f" or {seconds:g} game-seconds" if math.isfinite(seconds) else "")
        caps.setdefault(cap, []).append(agent.name)
    return "; ".join(f"{', '.join(names)} {cap}" for cap, names in caps.items())
