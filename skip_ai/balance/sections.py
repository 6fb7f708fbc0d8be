"""The evidence sections of a balance study's report as markdown: the answer table at a
glance, the skill trace, the per-decision measures, every self-play number, successive
halving, the games recorded and the definitions of what is shown.

Every share and rate is in percent with its interval in brackets; sides and players are named
in words (:mod:`skip_ai.balance.naming`); a section, a column or a definition that does not
apply to the study (one variant, no game played each for themselves, no mirror) is left out.
"""

from __future__ import annotations

import math

import pandas as pd

from skip_ai.balance import halving
from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.findings import compared_variants
from skip_ai.balance.metrics import sides
from skip_ai.balance.naming import label_map, rung_labels, short_name, variant_name


def cell(v: float, lo: float, hi: float, name: str = "", signed: bool = False) -> str:
    """A share (or a signed one) in percent with its interval: "Black 95.6 [92.9, 97.5]"."""
    f = "+.1f" if signed else ".1f"
    return f"{name} {100 * v:{f}} [{100 * lo:{f}}, {100 * hi:{f}}]".strip()


def in_order(config: BalanceConfig, frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s rows in the study's order of variants (its ``game`` column), stably."""
    return frame.sort_values("game", key=lambda g: g.map(config.games.index), kind="stable")


def several(config: BalanceConfig) -> bool:
    return len(config.games) > 1


def _first(config: BalanceConfig, columns: list[str]) -> list[str]:
    """The variant's column leads a table only when the study has several."""
    return (["variant"] if several(config) else []) + columns


GLANCE = {"rung": "players", "headline, %": "share of games, % [95% interval]"}


def glance(config: BalanceConfig, answers: pd.DataFrame) -> pd.DataFrame:
    """The answer table as printed: the columns a reader needs, named in words (the stop and
    the mirror's worth only where the study has them)."""
    columns = ["rung", "headline, %", "advantage, points", "verdict", "deals", "games", "CPU s"]
    for optional in ("stopped", "mirror ×"):
        if (answers[optional] != "—").any():
            columns.append(optional)
    return answers[_first(config, columns)].rename(columns=GLANCE)


def trace_section(config: BalanceConfig, trace: pd.DataFrame, figure: str) -> list[str]:
    """Each rung against the one below, in percent (the figure above the table)."""
    lines = ["## Skill trace", ""]
    if trace.empty:
        return lines + ["No step of the skill trace is recorded yet.", ""]
    rows = []
    for x in in_order(config, trace).itertuples():
        names = label_map(config, config.games.index(x.game))
        rows.append(
            {
                "variant": variant_name(x.game),
                "step": f"{names.get(x.stronger, x.stronger)} vs {names.get(x.weaker, x.weaker)}",
                "deals": x.deals,
                "score, % [97.5%]": cell(x.stronger_score, x.lo, x.hi),
                "margin, % of points [97.5%]": cell(
                    x.stronger_margin, x.margin_lo, x.margin_hi, signed=True
                ),
                "detects, points": f"{100 * x.detectable:.0f}",
                "doublings": "" if math.isnan(x.doublings) else f"{x.doublings:g}",
                "verdict": x.verdict,
            }
        )
    table = pd.DataFrame(rows)
    columns = ["step", "deals", "score, % [97.5%]", "margin, % of points [97.5%]"]
    columns += ["detects, points"] + (["doublings"] if (table.doublings != "").any() else [])
    return lines + [
        figure,
        "",
        "The higher rung's score against the lower one per duplicate deal (50% is even) and "
        "its margin, each with a 97.5% betting interval (the two share 5%).",
        "",
        table[_first(config, columns + ["verdict"])].to_markdown(index=False),
        "",
    ]


DECISIONS = {
    "meaningful_choice_rate": "meaningful choices, %",
    "lead_change_rate": "lead changes, % of choice points",
    "lead_changes": "lead changes a game",
    "decided_at": "decided after, % of choices",
    "comeback": "winner was behind, % of games",
    "drama": "drama, ×100",
    "uncertainty": "uncertainty, %",
}


def decisions_section(config: BalanceConfig, table: pd.DataFrame) -> list[str]:
    """The per-decision measures of every variant and rung side by side, by the evaluator."""
    if table.empty:
        return []
    m = config.measures
    cells = table.assign(
        cell=[
            "—"
            if math.isnan(r.value)
            else f"{r.value:.1f}"
            if r.measure == "lead_changes"
            else cell(r.value, r.lo, r.hi)
            for r in table.itertuples()
        ],
        label=[DECISIONS[r.measure] for r in table.itertuples()],
        players=[
            rung_labels(config, config.games.index(r.game))[r.rung] for r in table.itertuples()
        ],
        variant=[variant_name(g) for g in table.game],
    )
    wide = in_order(
        config,
        cells.pivot_table(
            index=["game", "variant", "rung", "players"],
            columns="label",
            values="cell",
            aggfunc="first",
        ).reset_index(),
    )
    present = [c for c in DECISIONS.values() if c in wide.columns]
    wide[present] = wide[present].fillna("—")  # a measure a game does not have (Pyatki's leads)
    return [
        "## Per-decision measures (one fixed evaluator)",
        "",
        f"Every choice point of the first {m.evaluated_games} self-play games of each variant "
        f"and rung, read by the same evaluator, `{m.evaluator}`, seeded per position — so the "
        "numbers describe the game as that evaluator sees it, the same way for every rung "
        f"(definitions: `skip_ai/balance/evaluator.py`; lead changes with a band of ±"
        f"{100 * m.band / 2:g} points around 50%; meaningful: the best move ahead of the "
        f"second by {100 * m.meaningful_spread:g} points of winning chance or more; drama: the "
        "mean of √(½ − the winner's chance) where it was behind, ×100). Means over games with "
        "95% betting intervals (the count a game without one); a deal and its mirror count as "
        "two games.",
        "",
        wide[_first(config, ["players", *present])].to_markdown(index=False),
        "",
    ]


def selfplay_section(config: BalanceConfig, table: pd.DataFrame) -> list[str]:
    """Every self-play number in percent: a table of the team games, one of the games played
    each for themselves (each only if the study has such games)."""
    lines = ["## Self-play by rung", ""]
    if table.empty:
        return lines + ["No self-play game is recorded yet.", ""]
    teams, seats = [], []
    for (game, rung), g in in_order(config, table).groupby(["game", "rung"], sort=False):
        m = g.set_index("measure")
        s = sides(game)
        row = {
            "variant": variant_name(game),
            "players": rung_labels(config, config.games.index(game))[rung],
        }
        if s.team_game:
            first, second = short_name(game, 0), short_name(game, 1)
            share, (v, lo, hi) = m.loc["margin_share"], _v(m, "team0_score")
            row |= {
                "first side's share, %": cell(v, lo, hi, first),
                "second side's share, %": cell(1 - v, 1 - hi, 1 - lo, second),
                "draws, %": cell(*_v(m, "draw_rate")),
                "first side's margin, % of points": cell(
                    share.value, share.lo, share.hi, first, signed=True
                ),
                "first side's margin, game points": f"{m.loc['margin'].value:+.2f}",
            }
            teams.append(row | _cost(m))
        else:
            row |= {f"seat {k} share, %": cell(*_v(m, f"seat{k}_score")) for k in range(s.players)}
            seats.append(row | {"nobody won, %": cell(*_v(m, "undecided_rate"))} | _cost(m))
    if teams:
        lines += [
            "Team games: each side's share of the games (its wins, half a draw; the first side "
            "holds seat 0) with the interval of the verdicts, the draws, and the first side's "
            "margin over the points both teams scored (betting intervals) and in the game's own "
            "points (a mean, no interval).",
            "",
            _markdown(config, teams),
            "",
        ]
    if seats:
        lines += [
            "Games played each for themselves: each seat's share (its wins, a game nobody won "
            "shared equally; intervals simultaneous over the seats) and the games nobody won.",
            "",
            _markdown(config, seats),
            "",
        ]
    return lines


def _v(m: pd.DataFrame, measure: str) -> tuple[float, float, float]:
    x = m.loc[measure]
    return x.value, x.lo, x.hi


def _cost(m: pd.DataFrame) -> dict:
    moves, seconds = m.loc["moves"], m.loc["seconds"]
    return {
        "moves a game": f"{moves.value:.1f}",
        "s / game": f"{seconds.value:.3f}",
        "deals": int(moves.n),
        "games": int(moves.games),
    }


def _markdown(config: BalanceConfig, rows: list[dict]) -> str:
    frame = pd.DataFrame(rows)
    return frame[_first(config, list(frame.columns[1:]))].to_markdown(index=False)


def halving_section(rounds: list[halving.Round]) -> list[str]:
    """The verdicts of successive halving, round by round (none without it)."""
    verdicts = [r.verdicts for r in rounds if not r.verdicts.empty]
    if not verdicts:
        return []
    table = pd.concat(verdicts, ignore_index=True)
    for column in ("game", "best"):
        table[column] = [variant_name(g) for g in table[column]]
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
        shown = missing.assign(game=[variant_name(g) for g in missing.game])
        columns = ["game", "kind", "rung", "expected", "recorded"]
        lines += [shown[columns].to_markdown(index=False), ""]
    return lines


def definitions(config: BalanceConfig, t: dict, compared: bool) -> list[str]:
    """The definitions of what this report shows, and only those: ``compared``, whether it
    ranks variants of one game."""
    team = any(sides(g).team_game for g in config.games)
    each = any(not sides(g).team_game for g in config.games)
    said = [
        "**Self-play rung** (the players of a row): every seat played by the same player. Deal "
        "*d* has the same cards at every rung"
        + (
            ". A **deal** counts a deal and its mirror (the teams' hands swapped, colours too "
            "where the game has them), analysed as a pair; **games** counts both."
            if config.mirror
            else "; **deals** and **games** count the same games."
        ),
    ]
    if team:
        said.append(
            "**Share of games**: a side's wins, plus half its draws, as a percentage of the "
            "games; 50% is fair. It is the share of the side ahead, named in the cell. "
            "**Advantage**: that share minus 50, in points, ± the interval's half-width."
        )
    if each:
        said.append(
            "**A seat's share** (games played each for themselves): its wins, with a game "
            "nobody won shared equally among the seats; fair is 100% / seats. Its intervals "
            "are simultaneous over the seats (Bonferroni)."
        )
    said.append(
        "**Verdict**: *favours X* when X's interval lies beyond fair after Holm's correction "
        "over every rung and variant of the study; *leans to X (not after Holm)* when the "
        "interval alone excludes fair; *no side advantaged (±h points)* when the interval "
        "holds fair and its half-width h is at most the precision target; "
        + ("*capped* when the rung's cap stopped it first; " if config.precision else "")
        + "*unresolved* otherwise. Each variant's verdict is read at the highest rung that "
        "reached the target (or a clear verdict)."
    )
    if config.precision:
        said.append(
            "**The sequential rule**: a rung deals in looks of growing size and stops "
            "(**stopped**) at the first look whose confidence sequence is narrow enough "
            "(*precise*), lies the margin beyond fair (*clear*), or at its cap (*capped*). A "
            "confidence sequence holds at every look at once, so looking does not inflate the "
            "error (Waudby-Smith & Ramdas 2023)."
        )
    if team:
        said.append(
            "**Margin**: a team's points minus the other's (cards, piles or points, as the game "
            "counts them), as a percentage of the points both scored, so games compare; and in "
            "the game's own points, a mean given without an interval (a t interval undercovers "
            "skewed margins)."
        )
    if not t["trace"].empty:
        said.append(
            "**Skill trace**: each rung against the one below on duplicate deals (each deal "
            "played with the teams swapped, or the seats rotated); the higher rung's **score** "
            "(its share of the deal's games) and its margin, each with a 97.5% interval. It is "
            "**shown stronger** when either interval lies above even (50%, 0), **weaker** when "
            "either lies below, else *not told apart*; only a rung shown stronger is called "
            "stronger. **Detects**: the smallest score difference the step finds with 80% power"
            + (
                "; **doublings**: budget doublings between two ISMCTS rungs."
                if t["trace"].doublings.notna().any()
                else "."
            )
        )
    if t["settled"]:
        said.append(
            "**Between the top rungs**: the share at the top rung minus the rung below, paired "
            "by deal: *settled* within ± the settle tolerance "
            f"({100 * config.measures.settle_tolerance:g} points), *moving* when the interval "
            "excludes 0."
        )
    if config.mirror:
        said.append(
            "**Mirror ×**: the variance of the mean of two independent games over the variance "
            "of a deal and its mirror's mean: how many independent deals a mirrored pair is "
            "worth."
        )
    if compared:
        said.append(
            "**Penalty**, **rank**: the designer's objective, smaller is better, with its "
            "interval carried from each term's; ranks by intervals (a shared rank is a tie)."
        )
    said.append(
        "**Intervals** (95% unless said, `skip_ai.stats`): the share of games by the betting "
        + ("confidence sequence" if config.precision else "interval")
        + " (Waudby-Smith & Ramdas 2023, valid for any bounded outcome, including a rung where "
        "every game ends alike); other rates and shares by the betting interval; paired "
        "differences between rungs and variants by the betting interval of the per-deal "
        "differences. A test simulates each with known truth (≥ 94% coverage)."
    )
    return ["## Definitions", "", *[f"- {x}" for x in said], ""]


def variants_section(config: BalanceConfig, t: dict, objective: str, figure: str) -> list[str]:
    """The variants of one game compared: each at its answering rung, its penalty and rank,
    then each against its game's default, paired by deal."""
    rows = []
    for x in in_order(config, compared_variants(t["summary"])).itertuples():
        names = label_map(config, config.games.index(x.game))
        rows.append(
            {
                "variant": variant_name(x.game),
                "players": names.get(x.rung, x.rung),
                "share, % [95%]": cell(x.headline, x.lo, x.hi, short_name(x.game, 0)),
                "rungs shown stronger": f"{x.skill_depth} of {x.steps}",
                "moves a game": f"{x.moves:.1f}",
                "penalty [95%]": f"{x.penalty:.3f} [{x.penalty_lo:.3f}, {x.penalty_hi:.3f}]",
                "rank": x.rank,
            }
        )
    lines = [
        "## Variants (each at its answering rung)",
        "",
        f"Objective: {objective}.",
        "",
        figure,
        "",
        pd.DataFrame(rows).to_markdown(index=False),
        "",
    ]
    tests = t["tests"]
    if tests.empty:
        return lines
    said = []
    for x in tests.itertuples():
        headline = x.measure == "headline"
        said.append(
            {
                "variant": variant_name(x.game),
                "against": variant_name(x.default),
                "players": label_map(config, config.games.index(x.game)).get(x.rung, x.rung),
                "measure": f"share of {short_name(x.game, 0)}" if headline else "moves a game",
                "difference [95%]": f"{cell(x.difference, x.lo, x.hi, signed=True)} points"
                if headline
                else f"{x.difference:+.1f} [{x.lo:+.1f}, {x.hi:+.1f}]",
                "deals": x.deals,
                "p (Holm)": "" if math.isnan(x.p_holm) else f"{x.p_holm:.3g}",
            }
        )
    return lines + [
        "Each variant against its game's default at the highest rung both ladders hold, "
        "paired by deal (shares: betting interval, Holm over these rows; moves: descriptive, "
        "Student's t):",
        "",
        pd.DataFrame(said).to_markdown(index=False),
        "",
    ]
