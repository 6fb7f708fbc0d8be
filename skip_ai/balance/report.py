"""A balance study's report: findings in sentences first, then definitions, tables, figures.

Every number names who played (the rung's agent and spec), how many deals, and its 95%
interval."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from skip_ai.analysis.plots import save
from skip_ai.balance import halving
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.findings import findings, glance, num, objective_text, who_played
from skip_ai.balance.metrics import (
    DECISION_MEASURES,
    selfplay_table,
    settlements,
    sides,
    skill_depth,
    split,
    trace_table,
)
from skip_ai.balance.plots import rung_plot, trace_plot, variant_plot
from skip_ai.balance.progress import completeness, recorded
from skip_ai.balance.variants import compare_to_default, rank_variants


def study_tables(config: BalanceConfig) -> dict:
    """The study's measures: ``selfplay`` (long), ``trace``, ``summary`` (one row per variant at
    the top rung, ranked), ``tests`` (each variant against the default), ``settled`` (per
    variant, the settlement of each side), ``progress`` (what is recorded, per variant and
    rung), ``rounds`` (successive halving's, if any) and ``records`` (the finished games)."""
    every = recorded(config.out)
    df = every[every.status == "ok"].reset_index(drop=True)
    if df.empty:
        raise ValueError(f"no finished games in {config.out / 'records'} yet: nothing to report")
    selfplay, steps = split(df)
    table = selfplay_table(selfplay, config.measures)
    trace = trace_table(steps)
    top = len(config.agents) - 1
    rows, settled = [], {}
    for game in config.games:
        s = sides(game)
        at_top = table[(table.game == game) & (table.rung == top)].set_index("measure")
        if s.headline not in at_top.index:
            continue
        tolerance = config.measures.settle_tolerance
        verdict, settled[game] = settlements(selfplay, game, len(config.agents), tolerance)
        h, first = at_top.loc[s.headline], settled[game][0]
        rows.append(
            {
                "game": game,
                "headline": h.value,
                "lo": h.lo,
                "hi": h.hi,
                "fair": s.fair,
                "games": int(h.n),
                "skill_depth": skill_depth(trace, game),
                "steps": int((trace.game == game).sum()),
                "moves": at_top.value.get("moves", math.nan),
                "drama": at_top.value.get("drama", math.nan),
                "verdict": verdict,
                "change": first.change,
                "change_lo": first.lo,
                "change_hi": first.hi,
            }
        )
    summary = rank_variants(pd.DataFrame(rows), config.objective) if rows else pd.DataFrame()
    return {
        "selfplay": table,
        "trace": trace,
        "summary": summary,
        "tests": compare_to_default(selfplay, list(config.games), top),
        "settled": settled,
        "progress": completeness(config, every),
        "rounds": halving.plan(config, every) if config.halving else [],
        "records": df,
    }


DEFINITIONS = """\
- **Self-play rung**: every seat played by the same agent; one game per deal. Deal *d* has the
  same cards for every rung (and every variant that deals alike).
- **team0_score**: team 0's wins plus half its draws, per game; ½ is fair. Team 0 holds the
  first half of the seats and moves first (Red in Two Captains, Little Country, Columns,
  Harvest and Chains). **team0_win_rate**, **team1_win_rate**, **draw_rate**: shares of games.
  Games played each for themselves (Pyatki): **seatK_win_rate** per seat, fair = 1/seats.
  **games**: the games each row's rates are measured on (one per deal).
- **Advantaged**: a team whose interval of its score lies entirely above ½, a seat whose
  interval of its win rate lies entirely above 1/seats. *Stronger play confirms* an
  advantage when the side is advantaged at the highest rung played.
- **moves**: the players' decisions per game.
- **Skill trace**: rung *k+1* against rung *k* on duplicate deals (each deal played with the
  teams swapped, or with the seats rotated); **stronger_score** is the higher rung's mean
  score per deal (1 = wins every game). **skill_depth**: the number of steps, from the bottom,
  the higher rung wins with its 95% interval above ½ (Ludii's SkillTrace, TAG's SkillLadder).
- **headline**: the number a designer quotes — team0_score in team games, seat0_win_rate in
  games played each for themselves; **fair**: its value in a fair game (½, 1/seats).
- **change** (`change_lo`–`change_hi`): the headline at the top rung minus at the rung below,
  paired by deal. **verdict**: *settled* when that interval lies within ± the tolerance
  (`settle_tolerance`), *moving* when it excludes 0, otherwise *unresolved* (more deals). In
  games played each for themselves every seat's change is measured: *moving* if any seat
  moves, *settled* if every seat has settled.
- **penalty**, **rank**: the designer's objective (below), smaller is better, and the rank
  among the variants of one game. **Successive halving** (optional `[halving]`): the study
  plays in rounds whose deal counts double up to the study's; after each round, a variant
  whose penalty's 95% interval (each term's interval carried through) lies entirely above
  the best variant's of its game plays no more deals.
- Per-decision measures, from the searching agents' own estimates *v* of their result
  (ISMCTS root value of the chosen move: 0 loss, ½ draw, 1 win; forced moves have none):
  **lead_changes**: crossings of ½ by team 0's estimated chance (CardStock's lead changes);
  **drama** (Browne & Maire 2010): mean of √(½ − p) over the decisions at which the eventual
  winner's chance *p* was below ½, 0 if never; **comeback_rate**: share of won games whose
  winner was behind at some point; **decided_at** (Browne & Maire's decisiveness): share of
  the decisions before the winner's estimate rises above the threshold for good;
  **uncertainty** (Browne 2008; CardStock): mean of 1 − |2v − 1|; **meaningful_choice_rate**
  (CardStock's meaningful moves): share of decisions whose best and worst moves differ by at
  least the spread threshold in the mover's estimate.
- Intervals are 95%: `skip_ai.stats.score_interval` (Wilson over the effective sample size)
  for rates and scores, normal intervals for other means and for differences. Variant tests
  are paired by deal (fairness: a bootstrap over deals of the change in |headline − fair|),
  with Holm's correction for the number of comparisons.
"""


def wide(table: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """The self-play table as one row per (variant, rung), one column per measure."""

    def cell(r) -> str:
        return num(r.value, r.lo, r.hi, 1 if r.measure in ("moves", "lead_changes") else 3)

    t = table.assign(
        cell=[cell(r) for r in table.itertuples()], agent=[names[r] for r in table.rung]
    )
    w = t.pivot_table(
        index=["game", "rung", "agent"], columns="measure", values="cell", aggfunc="first"
    )
    order = [
        m
        for m in [
            "team0_score",
            "team0_win_rate",
            "team1_win_rate",
            "draw_rate",
            *[f"seat{k}_win_rate" for k in range(8)],
            "moves",
            *DECISION_MEASURES,
        ]
        if m in w.columns
    ]
    games = table.groupby(["game", "rung"]).n.max().rename("games")
    return w[order].fillna("—").join(games, on=["game", "rung"]).reset_index()


def write_balance_report(
    config: BalanceConfig, to: Path | None = None, tables: dict | None = None
) -> Path:
    """Write ``report.md``, ``selfplay.csv`` and ``figures/*.png`` of the games recorded so
    far in the study's folder (or in the folder ``to``); returns the report. ``tables``: the
    study's (:func:`study_tables`) if already computed."""
    t = study_tables(config) if tables is None else tables
    out = config.out if to is None else to
    out.mkdir(parents=True, exist_ok=True)
    names = [a.name for a in config.agents]
    df = t["records"]

    def figure(fig, name: str) -> str:
        return f"![{name}]({save(fig, out / 'figures' / f'{name}.png').relative_to(out)})"

    lines = [
        f"# Balance study: {config.name}",
        "",
        who_played(config, df),
        "",
        "## Findings",
        "",
        "At a glance: team 0's score (in games played each for themselves, seat 0's win "
        "rate), in percent with its 95% interval, between equal players of each rung; the "
        "sides advantaged (interval above the fair value) between the strongest players, "
        "those advantaged only at a lower rung (not confirmed by stronger play), the verdict "
        "on the top two rungs and the skill depth. The sentences below give every seat and "
        "every number.",
        "",
        glance(config, t).to_markdown(index=False),
        "",
        *findings(config, t),
        "## Definitions",
        "",
        DEFINITIONS,
        "## Self-play by rung",
        "",
        figure(rung_plot(t["selfplay"], names, list(config.games)), "rungs"),
        "",
        wide(t["selfplay"], names).to_markdown(index=False),
        "",
        "## Skill trace",
        "",
        figure(trace_plot(t["trace"], list(config.games)), "trace"),
        "",
        t["trace"].round(3).to_markdown(index=False),
        "",
    ]
    if not t["summary"].empty:
        lines += [
            f"## Variants (self-play at the top rung, {names[-1]})",
            "",
            f"Objective: {objective_text(config)}.",
            "",
            figure(variant_plot(t["summary"], names[-1]), "variants"),
            "",
            t["summary"].round(3).to_markdown(index=False),
            "",
        ]
    lines += halving_section(t["rounds"])
    if not t["tests"].empty:
        lines += [
            "Each variant against its game's default, paired by deal (fairness: the change in "
            "|headline − fair|, negative when the variant is fairer, bootstrap over deals; "
            "moves: decisions per game):",
            "",
            t["tests"].round(4).to_markdown(index=False),
            "",
        ]
    lines += progress_section(t["progress"], names)
    t["selfplay"].assign(agent=[names[r] for r in t["selfplay"].rung]).round(5).to_csv(
        out / "selfplay.csv", index=False
    )
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


def halving_section(rounds: list[halving.Round]) -> list[str]:
    """The verdicts of successive halving, round by round (none without it)."""
    verdicts = [r.verdicts for r in rounds if not r.verdicts.empty]
    if not verdicts:
        return []
    table = pd.concat(verdicts, ignore_index=True)
    return [
        "## Successive halving",
        "",
        "After each round, each variant still in contention: its penalty with a 95% interval "
        "on the deals played so far, the best variant of its game, and whether it was dropped "
        "(its interval entirely above the best's).",
        "",
        table.round(4).to_markdown(index=False),
        "",
    ]


def progress_section(progress: pd.DataFrame, names: list[str]) -> list[str]:
    """The games recorded against those expected; per variant, kind and rung where some are
    missing."""
    missing = progress[progress.recorded < progress.expected]
    lines = [
        "## Games recorded",
        "",
        f"{progress.recorded.sum()} of {progress.expected.sum()} expected games"
        + (":" if len(missing) else "; every variant and rung complete."),
        "",
    ]
    if len(missing):
        table = missing.assign(agent=[names[r] for r in missing.rung])
        columns = ["game", "kind", "rung", "agent", "expected", "recorded"]
        lines += [table[columns].to_markdown(index=False), ""]
    return lines
