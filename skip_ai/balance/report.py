"""A balance study's report: the verdicts first — a line per variant in plain words, the
strongest players measured, a figure of the advantage by rung — then the answer table at a
glance and the evidence (per variant: margins, the game-or-bot question, the skill trace, the
per-decision measures), then every number, the definitions of what is shown and who played.

Every number names who played (the rung) and how many deals, in percent with its 95% interval
and the interval's method. The same verdicts open the terminal's printout (:func:`printout`)
and are one table for a notebook (:func:`verdict_table`)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from skip_ai.analysis.plots import save
from skip_ai.balance import halving, sequential
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.decisions import decision_table, decisions_sentence
from skip_ai.balance.findings import (
    answer_rung,
    answer_table,
    compared_variants,
    findings,
    objective_text,
    partial_text,
)
from skip_ai.balance.metrics import (
    doublings,
    fairness_tests,
    mirror_efficiency,
    selfplay_table,
    settlements,
    sides,
    skill_depth,
    split,
    trace_table,
)
from skip_ai.balance.naming import first_movers, players_text, variant_name, who_played
from skip_ai.balance.plots import advantage_plot, trace_plot, variant_plot
from skip_ai.balance.progress import completeness, recorded
from skip_ai.balance.sections import (
    decisions_section,
    definitions,
    glance,
    halving_section,
    progress_section,
    selfplay_section,
    trace_section,
    variants_section,
)
from skip_ai.balance.variants import compare_to_default, penalty_interval, rank_variants
from skip_ai.balance.verdicts import verdict_lines, verdict_rows
from skip_ai.tournament.store import write_atomic


def study_tables(config: BalanceConfig) -> dict:
    """The study's measures: ``selfplay`` (long), ``trace``, ``fairness`` (every rung's test
    of fair, Holm over the study), ``efficiency`` (the mirror's, per variant and rung),
    ``summary`` (one row per variant at its answering rung — the highest that reached the
    target: :func:`~skip_ai.balance.findings.answer_rung` — ranked), ``tests`` (each variant against
    the default), ``settled`` (per variant, the verdict and the settlement of each side),
    ``plans`` (the sequential rule's, if any), ``progress``, ``rounds`` (successive
    halving's, if any), ``decisions_text``, ``records`` (the finished games) and ``first``
    (per game, the side that moved first in every recorded game:
    :func:`~skip_ai.balance.naming.first_movers`)."""
    every = recorded(config.out)
    df = every[every.status == "ok"].reset_index(drop=True)
    selfplay, steps = split(df)  # either may be empty: a study stopped early still reports
    seq = config.precision is not None
    plans = sequential.plan(config, every) if seq else []
    table = selfplay_table(selfplay, sequential=seq)
    trace = trace_table(steps)
    specs = {a.name: a.spec for a in config.agents}
    trace["doublings"] = [
        doublings(str(specs.get(x.stronger, "")), str(specs.get(x.weaker, "")))
        for x in trace.itertuples()
    ]
    efficiency = {
        (game, rung): mirror_efficiency(selfplay, game, rung)
        for game, rung in table[["game", "rung"]].drop_duplicates().itertuples(index=False)
    }
    rows, settled = [], {}
    for v, game in enumerate(config.games):
        s = sides(game)
        top = len(config.rungs(v)) - 1
        played = sorted(set(table.rung[(table.game == game) & (table.measure == s.headline)]))
        if top not in played:
            continue
        if top >= 1:
            settled[game] = settlements(selfplay, game, top + 1, config.measures.settle_tolerance)
        answer = answer_rung(config, {"plans": plans}, v, played)
        at_top = table[(table.game == game) & (table.rung == answer)].set_index("measure")
        h = at_top.loc[s.headline]
        depth = skill_depth(trace, game)
        value, lo, hi = penalty_interval(
            config.objective,
            s.fair,
            (h.value, h.lo, h.hi),
            tuple(at_top.loc["moves", ["value", "lo", "hi"]]),
            (0.0, 0.0, 0.0),
            depth,
        )
        rows.append(
            {
                "game": game,
                "rung": config.names(v)[answer],
                "headline": h.value,
                "lo": h.lo,
                "hi": h.hi,
                "fair": s.fair,
                "games": int(h.games),
                "skill_depth": depth,
                "steps": int((trace.game == game).sum()),
                "moves": at_top.value.get("moves", math.nan),
                "penalty": value,
                "penalty_lo": lo,
                "penalty_hi": hi,
            }
        )
    summary = rank_variants(pd.DataFrame(rows, columns=SUMMARY_COLUMNS))
    decisions = decision_table(config, selfplay)
    said = {
        game: decisions_sentence(
            decisions, game, len(config.rungs(v)) - 1, players_text(config.rungs(v)[-1].spec)
        )
        for v, game in enumerate(config.games)
    }
    return {
        "selfplay": table,
        "trace": trace,
        "fairness": fairness_tests(selfplay, table, seq),
        "efficiency": efficiency,
        "summary": summary,
        "tests": compare_to_default(selfplay, config),
        "settled": settled,
        "plans": plans,
        "progress": completeness(config, every),
        "rounds": halving.plan(config, every) if config.halving else [],
        "decisions": decisions,
        "decisions_text": said,
        "records": df,
        "first": first_movers(df),
    }


SUMMARY_COLUMNS = [
    "game",
    "rung",
    "headline",
    "lo",
    "hi",
    "fair",
    "games",
    "skill_depth",
    "steps",
    "moves",
    "penalty",
    "penalty_lo",
    "penalty_hi",
]
"""The summary's columns (one row per variant whose top rung has self-play recorded)."""


def verdict_table(config: BalanceConfig, tables: dict | None = None) -> pd.DataFrame:
    """The verdicts the report and the terminal print first, one row per variant
    (:data:`~skip_ai.balance.verdicts.VERDICT_COLUMNS`: the answering rung, the verdict, the
    favoured side's share with its 95% interval in percent, the strongest rung measured and
    the two sentences); ``tables``: the study's (:func:`study_tables`) if already computed."""
    return verdict_rows(config, study_tables(config) if tables is None else tables)


def title(config: BalanceConfig) -> str:
    """The report's question: "Is Columns for four fair?" for one variant."""
    if len(config.games) == 1:
        return f"Is {variant_name(config.games[0])} fair?"
    return f"Balance study {config.name}: is each game fair?"


def head(config: BalanceConfig, t: dict, verdicts: pd.DataFrame) -> list[str]:
    """What the report and the printout open with: the question, a partial study said as
    such, then the verdicts."""
    partial = partial_text(t["progress"], config)
    return [
        f"# {title(config)}",
        "",
        *([partial, ""] if partial else []),
        "## Verdict",
        "",
        *verdict_lines(verdicts),
    ]


def at_a_glance(config: BalanceConfig, answers: pd.DataFrame, markdown: bool) -> list[str]:
    """Every rung's answer, one row each (the answer table, ``answers.csv``)."""
    if answers.empty:
        return []
    table = glance(config, answers)
    return [
        "## At a glance: every rung",
        "",
        "Each rung's players against themselves: the share of games of the side ahead (named) "
        "with its 95% interval, the advantage in points ± the interval's half-width, the "
        "verdict and what it cost.",
        "",
        table.to_markdown(index=False) if markdown else table.to_string(index=False),
        "",
    ]


def write_balance_report(
    config: BalanceConfig, to: Path | None = None, tables: dict | None = None
) -> Path:
    """Write ``report.md``, ``selfplay.csv``, ``answers.csv`` and ``figures/*.png`` of the games
    recorded so far in the study's folder (or in the folder ``to``); returns the report.
    ``tables``: the study's (:func:`study_tables`) if already computed. Every file is written
    whole or not at all (a temporary file renamed)."""
    t = study_tables(config) if tables is None else tables
    out = config.out if to is None else to
    out.mkdir(parents=True, exist_ok=True)
    answers = answer_table(config, t)
    verdicts = verdict_rows(config, t)
    compared = compared_variants(t["summary"])

    def figure(fig, name: str) -> str:
        return f"![{name}]({save(fig, out / 'figures' / f'{name}.png').relative_to(out)})"

    lines = head(config, t, verdicts)
    if len(verdicts):
        lines += [figure(advantage_plot(t["selfplay"], config, verdicts), "advantage"), ""]
    lines += at_a_glance(config, answers, markdown=True)
    lines += ["## Evidence", "", *findings(config, t), who_played(config, t["records"]), ""]
    trace = "" if t["trace"].empty else figure(trace_plot(t["trace"], config), "trace")
    lines += trace_section(config, t["trace"], trace)
    if len(compared):
        plot = figure(variant_plot(verdicts[verdicts.game.isin(compared.game)]), "variants")
        lines += variants_section(config, t, objective_text(config), plot)
    lines += halving_section(t["rounds"])
    lines += decisions_section(config, t["decisions"])
    lines += selfplay_section(config, t["selfplay"])
    lines += definitions(config, t, len(compared) > 0)
    lines += progress_section(t["progress"])
    _write(out / "selfplay.csv", t["selfplay"].round(6).to_csv(index=False))
    _write(out / "answers.csv", answers.to_csv(index=False))
    return _write(out / "report.md", "\n".join(lines))


def printout(config: BalanceConfig, tables: dict | None = None) -> str:
    """The report's opening for the terminal, as plain text: the verdicts, every rung at a
    glance, the evidence and who played (``tables``: the study's, if already computed)."""
    t = study_tables(config) if tables is None else tables
    lines = head(config, t, verdict_rows(config, t))
    lines += at_a_glance(config, answer_table(config, t), markdown=False)
    lines += ["## Evidence", "", *findings(config, t), who_played(config, t["records"]), ""]
    text = "\n".join(x.lstrip("#").lstrip() if x.startswith("#") else x for x in lines)
    return text.replace("**", "").replace("`", "")


def _write(path: Path, text: str) -> Path:
    """``text`` into ``path`` whole (:func:`~skip_ai.tournament.store.write_atomic`)."""
    write_atomic(path, text.encode())
    return path
