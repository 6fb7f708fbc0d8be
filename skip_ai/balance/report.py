"""A balance study's report: the answers first (a table and a paragraph per variant), then
the evidence — skill trace, variants, the per-rung table, definitions, figures.

Every number names who played (the rung's agent and spec), how many deals, and its 95%
interval with the interval's method."""

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
    findings,
    num,
    objective_text,
    variant_name,
    who_played,
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
from skip_ai.balance.plots import rung_plot, trace_plot, variant_plot
from skip_ai.balance.progress import completeness, recorded
from skip_ai.balance.variants import compare_to_default, penalty_interval, rank_variants
from skip_ai.tournament.store import write_atomic


def study_tables(config: BalanceConfig) -> dict:
    """The study's measures: ``selfplay`` (long), ``trace``, ``fairness`` (every rung's test
    of fair, Holm over the study), ``efficiency`` (the mirror's, per variant and rung),
    ``summary`` (one row per variant at its answering rung — the highest that reached the
    target: :func:`~skip_ai.balance.findings.answer_rung` — ranked), ``tests`` (each variant against
    the default), ``settled`` (per variant, the verdict and the settlement of each side),
    ``plans`` (the sequential rule's, if any), ``progress``, ``rounds`` (successive
    halving's, if any), ``decisions_text`` and ``records`` (the finished games)."""
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
        game: decisions_sentence(decisions, game, len(config.rungs(v)) - 1, config.names(v)[-1])
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


DEFINITIONS = """\
- **Self-play rung**: every seat played by the same agent. Deal *d* has the same cards for
  every rung (and every variant that deals alike). With mirrors, a **unit** is a deal and its
  mirror (the teams' hands swapped, colours too where the game has them), analysed as a pair;
  otherwise a unit is a deal. **deals** counts units, **games** the games in them.
- **team0_score**: team 0's wins plus half its draws, per game; ½ is fair. Team 0 holds the
  first half of the seats and moves first (Red in Two Captains, Little Country, Columns,
  Harvest and Chains). **advantage**: the favoured team's score minus ½, in points, ± the
  interval's half-width. Games played each for themselves (Pyatki): **seatK_score**, the
  seat's wins with a game nobody won split equally among the seats, fair = 1/seats; their
  intervals are simultaneous over the seats (Bonferroni); **undecided_rate** beside them.
- **verdict**: *favours X* when X's headline interval lies above fair after Holm's correction
  over every rung and variant of the study; *leans to X (not after Holm)* when the interval
  alone excludes fair; *no side advantaged (±h points)* when the interval holds fair and its
  half-width h is at most the precision target (the advantage is then at most about 2h);
  *capped* when the rung's cap stopped it first (the sentence says what the target would
  cost); *unresolved* otherwise (a study of fixed deal counts). Each variant's paragraph
  answers at the highest rung that reached the target (or a clear verdict), and gives the
  top rung beside it when that one was capped.
- **The sequential rule** (`[precision]`): a rung deals in looks of growing size and stops
  at the first look whose confidence sequence is narrow enough (*precise*), lies the margin
  beyond fair (*clear*), or at its cap (*capped*). A confidence sequence holds at every look
  at once, so peeking does not inflate the error (Waudby-Smith & Ramdas 2023).
- **margin_share**: team 0's score minus team 1's over the points both teams scored (from
  `state.scores()`: cards, piles, points), in [−1, 1], so games compare — the second headline,
  with its betting interval; **margin**: the same in the game's own points, a mean given
  without an interval (a t interval undercovers skewed margins).
- **Skill trace**: rung *k+1* against rung *k* on duplicate deals (each deal played with the
  teams swapped, or the seats rotated); **stronger_score**: the higher rung's mean score per
  deal (1 = wins every game), **stronger_margin**: its mean margin share; each with a 97.5%
  interval (the two share 5%). The higher rung is **shown stronger** when either interval lies
  above no difference (½, 0), **weaker** when either lies below. **detectable**: the smallest
  score difference the step finds with 80% power at its deals. **doublings**: budget doublings
  between two plain ISMCTS rungs. **skill depth**: the steps whose higher rung is shown
  stronger. A top rung that is not shown stronger than the one below is not "stronger play".
- **change**, **settled/moving**: the headline at the top rung minus the rung below, paired by
  deal: *settled* within ± `settle_tolerance`, *moving* when the interval excludes 0.
- **mirror ×**: the variance of the mean of two independent games over the variance of a deal
  and its mirror's mean: how many independent deals a mirrored pair is worth.
- **penalty**, **rank**: the designer's objective, smaller is better, with its interval carried
  from each term's; ranks by intervals (a shared rank is a tie).
- **Intervals** (95%, `skip_ai.stats`): the headline by the betting confidence sequence under
  the sequential rule, else the betting interval (Waudby-Smith & Ramdas 2023, valid for any
  bounded outcome, including a rung where every game ends alike); other rates and shares by
  the betting interval; moves by Student's t; paired differences between rungs and
  variants by Tango's score interval for paired wins and losses, else the betting interval of
  the per-deal differences. A test simulates each with known truth (≥ 94% coverage).
"""


def wide(table: pd.DataFrame) -> pd.DataFrame:
    """The self-play table as one row per (variant, rung), one column per measure."""

    def cell(r) -> str:
        if r.measure == "seconds":
            return f"{r.value:.3f}"
        if r.measure == "margin":
            return f"{r.value:+.2f}"
        digits = 1 if r.measure in ("moves", "margin") else 3
        return num(r.value, r.lo, r.hi, digits)

    t = table.assign(cell=[cell(r) for r in table.itertuples()])
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
            *[f"seat{k}_score" for k in range(8)],
            *[f"seat{k}_win_rate" for k in range(8)],
            "undecided_rate",
            "margin",
            "margin_share",
            "moves",
            "seconds",
        ]
        if m in w.columns
    ]
    counts = table.groupby(["game", "rung"])[["n", "games"]].max()
    return w[order].fillna("—").join(counts, on=["game", "rung"]).reset_index()


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
    df = t["records"]
    answers = answer_table(config, t)

    def figure(fig, name: str) -> str:
        return f"![{name}]({save(fig, out / 'figures' / f'{name}.png').relative_to(out)})"

    lines = [
        f"# Balance study: {config.name}",
        "",
        who_played(config, df),
        "",
        "## Answers",
        "",
        "Is the game fair between equal players? One row per variant and self-play rung: "
        "the headline in percent with its 95% interval, the advantage in points ± the "
        "interval's half-width, the verdict, and what it cost. The paragraphs below say the "
        "same in words, with the game-or-bot question, margins and the skill trace.",
        "",
        answers.to_markdown(index=False) if len(answers) else "No self-play rung is recorded yet.",
        "",
        *findings(config, t),
        "## Skill trace",
        "",
    ]
    if t["trace"].empty:
        lines += ["No step of the skill trace is recorded yet.", ""]
    else:
        lines += [
            figure(trace_plot(t["trace"], list(config.games)), "trace"),
            "",
            t["trace"]
            .assign(game=[variant_name(g) for g in t["trace"].game])
            .round(3)
            .to_markdown(index=False),
            "",
        ]
    if len(t["summary"]) > 1:
        lines += [
            "## Variants (self-play at each variant's answering rung)",
            "",
            f"Objective: {objective_text(config)}.",
            "",
            figure(variant_plot(t["summary"]), "variants"),
            "",
            t["summary"].round(4).to_markdown(index=False),
            "",
        ]
    if not t["tests"].empty:
        lines += [
            "Each variant against its game's default at the highest rung both ladders hold, "
            "paired by deal (headline: Holm over these rows; moves: descriptive, Student's t):",
            "",
            t["tests"].round(4).to_markdown(index=False),
            "",
        ]
    lines += halving_section(t["rounds"])
    lines += decisions_section(config, t["decisions"])
    lines += ["## Self-play by rung", ""]
    if t["selfplay"].empty:
        lines += ["No self-play game is recorded yet.", ""]
    else:
        lines += [
            figure(rung_plot(t["selfplay"], config), "rungs"),
            "",
            wide(t["selfplay"]).to_markdown(index=False),
            "",
        ]
    lines += [
        "## Definitions",
        "",
        DEFINITIONS,
    ]
    lines += progress_section(t["progress"])
    _write(out / "selfplay.csv", t["selfplay"].round(6).to_csv(index=False))
    _write(out / "answers.csv", answers.to_csv(index=False))
    return _write(out / "report.md", "\n".join(lines))


def _write(path: Path, text: str) -> Path:
    """``text`` into ``path`` whole (:func:`~skip_ai.tournament.store.write_atomic`)."""
    write_atomic(path, text.encode())
    return path


def decisions_section(config: BalanceConfig, table: pd.DataFrame) -> list[str]:
    """The per-decision measures of every variant and rung side by side, by the evaluator."""
    if table.empty:
        return []
    m = config.measures
    cells = table.assign(
        cell=[
            f"{r.value:.1f}" if r.measure == "lead_changes" else num(r.value, r.lo, r.hi, 2)
            for r in table.itertuples()
        ]
    )
    wide = cells.pivot_table(
        index=["game", "rung", "agent"], columns="measure", values="cell", aggfunc="first"
    ).reset_index()
    wide["game"] = [variant_name(g) for g in wide.game]
    return [
        "## Per-decision measures (one fixed evaluator)",
        "",
        f"Every choice point of the first {m.evaluated_games} self-play games of each variant "
        f"and rung, read by the same evaluator, `{m.evaluator}`, seeded per position — so the "
        "numbers describe the game as that evaluator sees it, the same way for every rung "
        f"(definitions: `skip_ai/balance/evaluator.py`; lead changes with a band of ±"
        f"{m.band / 2:g} around ½; meaningful: the best move ahead of the second by "
        f"{m.meaningful_spread:g} or more; lead changes: the count a game, and as the share of "
        "the choice points after the first). Means over games with 95% betting intervals (the "
        "count without one); a deal and its mirror count as two games.",
        "",
        wide.to_markdown(index=False),
        "",
    ]


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


def progress_section(progress: pd.DataFrame) -> list[str]:
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
        columns = ["game", "kind", "rung", "expected", "recorded"]
        lines += [missing[columns].to_markdown(index=False), ""]
    return lines
