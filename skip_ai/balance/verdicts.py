"""A balance study's verdicts: one line per variant, in a designer's words, that the report
and the terminal print first — "Columns for four is not fair: Black, the team that moves
second, wins 95.6% of games between equal heuristic players (95% interval 92.9% to 97.5%)."
— and beside it which players were the strongest measured.

:func:`verdict_rows` holds them with their numbers (the notebook reads the same table); each
verdict is read at the variant's answering rung (:func:`~skip_ai.balance.findings.answer_rung`:
the highest that reached the precision target), its words from the answer table's verdict
(:func:`~skip_ai.balance.findings.verdict`), so the two never disagree. A rung is called
stronger only where the skill trace shows it stronger than the one below.
"""

from __future__ import annotations

import pandas as pd

from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.findings import (
    answer_rung,
    more_cost,
    rung_answer,
    strongest,
    verdict,
    wins,
)
from skip_ai.balance.metrics import sides
from skip_ai.balance.naming import (
    players_text,
    rung_labels,
    short_name,
    side_with_role,
    variant_name,
)

VERDICT_COLUMNS = [
    "variant",
    "game",
    "rung",
    "agent",
    "verdict",
    "favoured",
    "share %",
    "lo %",
    "hi %",
    "fair %",
    "deals",
    "games",
    "method",
    "strongest",
    "sentence",
    "strength",
]
"""The verdict table's columns: per variant, its answering rung (``rung`` its label, ``agent``
the config's name), the verdict as the answer table says it, the favoured side (the one
ahead) and its share of the games with the 95% interval in percent, the fair share, the
deals and games, the interval's method, the strongest rung measured (its label; empty when
the trace shows none stronger than the one below), and the two sentences printed."""


def verdict_rows(config: BalanceConfig, t: dict) -> pd.DataFrame:
    """One row per variant with self-play recorded (:data:`VERDICT_COLUMNS`), from the
    study's tables ``t`` (:func:`~skip_ai.balance.report.study_tables`)."""
    rows = []
    target = config.precision.target if config.precision else None
    stops = {(p.variant, p.rung): p.stop for p in t["plans"]}
    first = t.get("first", {})
    for v, game in enumerate(config.games):
        s = sides(game)
        value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
        rungs = [r for r in range(len(config.rungs(v))) if (r, s.headline) in value.index]
        if not rungs:
            continue
        r = answer_rung(config, t, v, rungs)
        a = rung_answer(game, value, r, t["fairness"])
        said = verdict(a, game, target, stops.get((v, r)))
        cost = value.loc[(r, "seconds")].value
        strongest, strength = strength_sentence(config, t, v, r)
        share, lo, hi = (100 * x for x in a["share"])
        rows.append(
            {
                "variant": variant_name(game),
                "game": game,
                "rung": rung_labels(config, v)[r],
                "agent": config.names(v)[r],
                "verdict": said,
                "favoured": short_name(game, a["favoured"]),
                "share %": round(share, 2),
                "lo %": round(lo, 2),
                "hi %": round(hi, 2),
                "fair %": round(100 * s.fair, 2),
                "deals": a["n"],
                "games": a["games"],
                "method": a["method"],
                "strongest": strongest,
                "sentence": verdict_sentence(
                    game,
                    a,
                    said,
                    players_text(config.rungs(v)[r].spec),
                    first,
                    more_cost(a, target, cost) if target is not None else "",
                ),
                "strength": strength,
            }
        )
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def _interval(lo: float, hi: float) -> str:
    return f"95% interval {lo:.1f}% to {hi:.1f}%"


def verdict_sentence(
    game: str, a: dict, said: str, players: str, first: dict[str, int], cost: str = ""
) -> str:
    """The verdict of one variant at its answering rung in words: ``a`` the rung's answer
    (:func:`~skip_ai.balance.findings.rung_answer`), ``said`` its verdict, ``players`` who
    played it ("heuristic players"), ``first`` who moves first per game (absent: not said),
    ``cost`` what the precision target would still take (said of a capped rung)."""
    s = sides(game)
    name = variant_name(game)
    leaning = said.startswith(("favours", "leans"))
    if s.team_game:
        who = side_with_role(game, a["favoured"], first)
        draw = " (a draw counts half)" if a["draws"] > 0 else ""
        share, lo, hi = (100 * x for x in a["share"])
        body = f"{who} {wins(a)} {share:.1f}% of games{draw} between equal {players}"
        interval = _interval(lo, hi)
        holds = "which holds an even game"
    elif leaning:
        seat = (a["advantaged"] or [a["favoured"]])[0]
        x = a["rows"][seat]
        body = (
            f"{side_with_role(game, seat, first)} {wins(a)} {100 * x.value:.1f}% of games "
            f"between equal {players}, where a fair share is {100 * s.fair:.1f}%"
        )
        interval = f"{_interval(100 * x.lo, 100 * x.hi)}, simultaneous over the seats"
    else:
        each = [f"{100 * x.value:.1f}%" for x in a["rows"]]
        verb = "score" if a["draws"] > 0 else "win"
        body = (
            f"the seats {verb} {', '.join(each[:-1])} and {each[-1]} of games between equal "
            f"{players}"
        )
        interval = (
            f"seat 0 first; a game nobody won shared equally; a fair share is "
            f"{100 * s.fair:.1f}%; 95% intervals simultaneous over the seats"
        )
        holds = "each holding the fair share"
    if said.startswith("favours"):
        return f"{name} is not fair: {body} ({interval})."
    if leaning:
        return (
            f"{name} leans to {short_name(game, a['favoured'])}, not shown after correcting "
            f"for the study's many tests (Holm): {body} ({interval})."
        )
    if said.startswith("no side"):
        return f"{name} is fair to within {100 * a['reach']:.1f} points: {body} ({interval})."
    why = f"the rung's cap stopped it first; {cost}" if said == "capped" and cost else ""
    return f"{name} is undecided: {body} ({interval}, {holds}; {why or str(a['n']) + ' deals'})."


def strength_sentence(config: BalanceConfig, t: dict, v: int, answer: int) -> tuple[str, str]:
    """Which rung is the strongest measured (:func:`~skip_ai.balance.findings.strongest`) and
    why, as (its label, a sentence): each rung above it is said not to be shown stronger, with
    its score and margin against the one below; and where the verdict was read at another
    rung, what the strongest says."""
    game = config.games[v]
    names = rung_labels(config, v)
    players = [players_text(a.spec) for a in config.rungs(v)]
    steps = t["trace"][t["trace"].game == game].set_index("step")
    if steps.empty:
        return "", ""
    best, unmeasured = strongest(t, game, len(names))
    if not best:
        return "", f"The skill trace shows no rung stronger than the {players[0]}."
    said = [
        f"Strongest players measured: the {players[best]}, shown stronger than the "
        f"{players[best - 1]} by the skill trace"
    ]
    for r in (r for r in range(best + 1, len(names)) if r in steps.index):
        x = steps.loc[r]
        if r in unmeasured:
            said.append(
                f"The {players[r]} were shown stronger than the {players[r - 1]} but not "
                f"measured against the {players[best]}"
            )
            continue
        said.append(
            f"The {players[r]} were not shown stronger than the {players[r - 1]}: "
            + ("shown weaker" if x.verdict == "weaker" else "not told apart")
            + f", score {100 * x.stronger_score:.1f}% [{100 * x.lo:.1f}, {100 * x.hi:.1f}] "
            f"and margin {100 * x.stronger_margin:+.1f}% [{100 * x.margin_lo:+.1f}, "
            f"{100 * x.margin_hi:+.1f}] of the points on {x.deals} duplicate deals (97.5% "
            "intervals)"
        )
    value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
    if best != answer and (best, sides(game).headline) in value.index:
        a = rung_answer(game, value, best, t["fairness"])
        target = config.precision.target if config.precision else None
        stop = {(p.variant, p.rung): p.stop for p in t["plans"]}.get((v, best))
        verdict_ = verdict(a, game, target, stop)
        verdict_ = UNDECIDED.get(verdict_, verdict_)
        said.append(f"Between equal {players[best]} the verdict is {verdict_}: {_shares(game, a)}")
    return names[best], ". ".join(said) + "."


UNDECIDED = {"capped": "undecided (stopped at its cap)", "unresolved": "undecided"}
"""The answer table's verdicts that say no answer yet, in a sentence."""


def _shares(game: str, a: dict) -> str:
    """A rung's shares in a parenthesis: the side ahead's, or every seat's."""
    if sides(game).team_game:
        share, lo, hi = (100 * y for y in a["share"])
        return f"{short_name(game, a['favoured'])} {share:.1f}%, {_interval(lo, hi)}"
    each = ", ".join(f"seat {k} {100 * x.value:.1f}%" for k, x in enumerate(a["rows"]))
    return f"{each}; 95% intervals simultaneous over the seats"


def verdict_lines(table: pd.DataFrame) -> list[str]:
    """The verdicts as the report prints them first: a point per variant, its verdict in bold,
    the strongest players after it, then the intervals' methods."""
    if table.empty:
        return ["No self-play rung is recorded yet.", ""]
    lines = []
    for x in table.itertuples():
        head, _, rest = x.sentence.partition(": ")
        lines.append(f"- **{head}**: {rest} {x.strength}".rstrip())
    methods = "; ".join(sorted(set(table.method)))
    return [
        *lines,
        "",
        f"Every share is of the games between equal players (every seat the same player); its "
        f"95% interval by the {methods}. A side is said to be favoured only after Holm's "
        "correction over every rung and variant of the study.",
        "",
    ]
