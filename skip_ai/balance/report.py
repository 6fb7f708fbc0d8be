"""A balance study's report: findings in sentences first, then definitions, tables, figures.

Every number names who played (the rung's agent and spec), how many deals, and its 95%
interval."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from skip_ai.analysis.frame import load_records
from skip_ai.analysis.plots import save
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.metrics import (
    DECISION_MEASURES,
    selfplay_table,
    settlement,
    sides,
    skill_depth,
    split,
    trace_table,
)
from skip_ai.balance.plots import rung_plot, trace_plot, variant_plot
from skip_ai.balance.variants import compare_to_default, rank_variants

VERDICT = {
    "settled": "has settled",
    "moving": "is still moving with skill: not settled at this budget",
    "unresolved": "cannot be told apart at this number of deals",
}


def pct(v: float, lo: float, hi: float) -> str:
    """A rate with its interval, in percent."""
    return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def num(v: float, lo: float, hi: float, digits: int = 2) -> str:
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def side_text(game: str, team: int) -> str:
    """Team ``team`` named as the designer knows it: colour, seats, who moves first."""
    s = sides(game)
    first = "; moves first" if team == 0 else ""
    colour = f"{s.names[team]}, " if s.colours else ""
    seats = s.team_seats(team)
    return f"team {team} ({colour}seat{'s' if ',' in seats else ''} {seats}{first})"


def study_tables(config: BalanceConfig) -> dict[str, pd.DataFrame]:
    """The study's measures: ``selfplay`` (long), ``trace``, ``summary`` (one row per variant at
    the top rung, ranked) and ``tests`` (each variant against the default)."""
    df = load_records(config.out)
    selfplay, steps = split(df)
    table = selfplay_table(selfplay, config.measures)
    trace = trace_table(steps)
    top = len(config.agents) - 1
    rows = []
    for game in config.games:
        s = sides(game)
        at_top = table[(table.game == game) & (table.rung == top)].set_index("measure")
        if s.headline not in at_top.index:
            continue
        settle = settlement(selfplay, game, len(config.agents), config.measures.settle_tolerance)
        h = at_top.loc[s.headline]
        rows.append(
            {
                "game": game,
                "headline": h.value,
                "lo": h.lo,
                "hi": h.hi,
                "fair": s.fair,
                "skill_depth": skill_depth(trace, game),
                "steps": int((trace.game == game).sum()),
                "moves": at_top.value.get("moves", math.nan),
                "drama": at_top.value.get("drama", math.nan),
                "verdict": settle.verdict,
                "change": settle.change,
                "change_lo": settle.lo,
                "change_hi": settle.hi,
            }
        )
    summary = rank_variants(pd.DataFrame(rows), config.objective) if rows else pd.DataFrame()
    tests = compare_to_default(selfplay, list(config.games), top)
    return {"selfplay": table, "trace": trace, "summary": summary, "tests": tests, "records": df}


def findings(config: BalanceConfig, t: dict[str, pd.DataFrame]) -> list[str]:
    """The report's first section: what the study found, in sentences."""
    table, trace, summary = t["selfplay"], t["trace"], t["summary"]
    names = [a.name for a in config.agents]
    top = len(names) - 1
    lines = []
    for game in config.games:
        s = sides(game)
        g = table[table.game == game]
        if g.empty:
            continue
        value = g.set_index(["rung", "measure"])
        head = [f"**{game}**"]
        rates = []
        for r, name in enumerate(names):
            if (r, s.headline) not in value.index:
                continue
            n = int(value.loc[(r, s.headline)].n)
            if s.team_game:
                favoured = 1 if value.loc[(r, "team0_score")].value < 0.5 else 0
                x = value.loc[(r, f"team{favoured}_win_rate")]
                rates.append(
                    f"between equal {name} players {side_text(game, favoured)} wins "
                    f"{pct(x.value, x.lo, x.hi)} of {n} games"
                )
            else:
                x = value.loc[(r, "seat0_win_rate")]
                rates.append(
                    f"between equal {name} players seat 0 wins "
                    f"{pct(x.value, x.lo, x.hi)} of {n} games (fair: "
                    f"{100 * s.fair:.1f}%)"
                )
        if rates:
            text = "; ".join(rates) + "."
            head.append(text[0].upper() + text[1:])
        row = summary[summary.game == game]
        if not row.empty and len(names) >= 2:
            row = row.iloc[0]
            what = "team 0's score" if s.team_game else "seat 0's win rate"
            head.append(
                f"From {names[top - 1]} to {names[top]}, {what} changed by "
                f"{100 * row.change:+.1f} points [{100 * row.change_lo:+.1f}, "
                f"{100 * row.change_hi:+.1f}] over {int(value.loc[(top, s.headline)].n)} "
                f"paired deals: it {VERDICT[row.verdict]}"
                + (
                    f"; the number to quote for competent play is "
                    f"{pct(row.headline, row.lo, row.hi)} ({names[top]})."
                    if row.verdict == "settled"
                    else "."
                )
            )
            steps = trace[trace.game == game].sort_values("step")
            said = ", ".join(
                f"{x.stronger} scores {num(x.stronger_score, x.lo, x.hi)} against {x.weaker}"
                for x in steps.itertuples()
            )
            head.append(
                f"Skill depth {row.skill_depth} of {row.steps} steps (duplicate deals: {said})."
            )
        if (top, "lead_changes") in value.index or (top, "drama") in value.index:
            bits = []
            for m, text in (
                ("lead_changes", "the lead changes {} times a game"),
                ("comeback_rate", "the winner was behind at some point in {} of the games"),
                ("decided_at", "the game is decided after {} of its decisions"),
                ("meaningful_choice_rate", "{} of the decisions are meaningful choices"),
            ):
                if (top, m) in value.index:
                    x = value.loc[(top, m)]
                    cell = (
                        pct(x.value, x.lo, x.hi)
                        if m != "lead_changes"
                        else num(x.value, x.lo, x.hi, 1)
                    )
                    bits.append(text.format(cell))
            head.append(
                f"Between equal {names[top]} players, by their own estimates: "
                + "; ".join(bits)
                + "."
            )
        lines += [" ".join(h for h in head if h), ""]
    for family, ranked in summary.groupby("family", sort=False):
        if len(ranked) < 2:
            continue
        order = ", ".join(f"{r.rank}. {r.game}" for r in ranked.itertuples())
        lines += [
            f"Variants of {family} ranked by the objective ({objective_text(config)}; "
            f"{names[top]} self-play): {order}.",
            "",
        ]
    tests = t["tests"]
    if not tests.empty:
        sig = tests[tests.p_holm < 0.05]
        if sig.empty:
            lines += [
                "No variant differs from its game's default in fairness or length at "
                f"the 5% level after Holm's correction over {len(tests)} comparisons.",
                "",
            ]
        for x in sig.itertuples():
            lines += [
                f"{x.game} differs from {x.default} in {x.measure} by "
                f"{num(x.difference, x.lo, x.hi, 3)} (Holm-adjusted p = "
                f"{x.p_holm:.3g}, {x.deals} paired deals).",
                "",
            ]
    return lines


def who_played(config: BalanceConfig, df: pd.DataFrame) -> str:
    """The sentence that says who played, on how many deals."""
    who = "; ".join(f"{a.name} = `{a.spec}`" for a in config.agents)
    deals, trace, games = config.deals, config.trace_deals, len(config.games)
    return (
        f"Who played: {who}. Self-play: {deals} deal{'s' * (deals != 1)} per variant and "
        f"rung; skill trace: {trace} duplicate deal{'s' * (trace != 1)} per step; "
        f"{games} variant{'s' * (games != 1)}; {len(df)} finished games; batch seed "
        f"{config.seed}; code {', '.join(sorted(df.code_version.unique()))}."
    )


def objective_text(config: BalanceConfig) -> str:
    """The objective's penalty as a formula, its terms of weight 0 left out."""
    o = config.objective
    terms = [
        (o.fairness, "+", "|headline − fair|"),
        (o.skill_depth, "−", "skill_depth"),
        (o.length, "+", f"|moves − {o.length_target:g}|/{o.length_target:g}"),
        (o.drama, "−", "drama"),
    ]
    text = " ".join(f"{sign} {w:g}·{what}" for w, sign, what in terms if w > 0)
    return f"penalty = {text.removeprefix('+ ') or '0'}, smaller is better"


DEFINITIONS = """\
- **Self-play rung**: every seat played by the same agent; one game per deal. Deal *d* has the
  same cards for every rung (and every variant that deals alike).
- **team0_score**: team 0's wins plus half its draws, per game; ½ is fair. Team 0 holds the
  first half of the seats and moves first (Red in Two Captains, Little Country, Columns,
  Harvest and Chains). **team0_win_rate**, **team1_win_rate**, **draw_rate**: shares of games.
  Games played each for themselves (Pyatki): **seatK_win_rate** per seat, fair = 1/seats.
- **moves**: the players' decisions per game.
- **Skill trace**: rung *k+1* against rung *k* on duplicate deals (each deal played with the
  teams swapped, or with the seats rotated); **stronger_score** is the higher rung's mean
  score per deal (1 = wins every game). **skill_depth**: the number of steps, from the bottom,
  the higher rung wins with its 95% interval above ½ (Ludii's SkillTrace, TAG's SkillLadder).
- **headline**: the number a designer quotes — team0_score in team games, seat0_win_rate in
  games played each for themselves; **fair**: its value in a fair game (½, 1/seats).
- **change** (`change_lo`–`change_hi`): the headline at the top rung minus at the rung below,
  paired by deal. **verdict**: *settled* when that interval lies within ± the tolerance
  (`settle_tolerance`), *moving* when it excludes 0, otherwise *unresolved* (more deals).
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
  are paired by deal, with Holm's correction for the number of comparisons.
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
    return w[order].fillna("—").reset_index()


def write_balance_report(config: BalanceConfig) -> Path:
    """Write ``report.md`` and ``figures/*.png`` in the study's folder; returns the report."""
    out = config.out
    t = study_tables(config)
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
    if not t["tests"].empty:
        lines += [
            "Each variant against its game's default, paired by deal (fairness: "
            "|headline − fair|; moves: decisions per game):",
            "",
            t["tests"].round(4).to_markdown(index=False),
            "",
        ]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path
