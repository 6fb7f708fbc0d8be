"""A balance study's findings in sentences: per variant, who is advantaged at each rung of the
ladder and whether stronger play confirms it, whether the advantage has settled, the skill
trace, the per-decision measures; then the successive halving, the variants ranked and tested.

Every number names who played (the rung) and on how many games or deals, with its 95%
interval. Team games are read on the teams (team 0 moves first); games played each for
themselves on every seat."""

from __future__ import annotations

import math

import pandas as pd

from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.halving import Round
from skip_ai.balance.metrics import Settlement, advantaged, sides

VERDICT = {
    "settled": "has settled",
    "moving": "is still moving with skill: not settled at this budget",
    "unresolved": "has neither clearly settled nor clearly moved at this number of deals",
}


def pct(v: float, lo: float, hi: float) -> str:
    """A rate with its interval, in percent."""
    return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def num(v: float, lo: float, hi: float, digits: int = 2) -> str:
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def points(x: Settlement) -> str:
    """A settlement's change in percentage points with its interval."""
    return f"{100 * x.change:+.1f} points [{100 * x.lo:+.1f}, {100 * x.hi:+.1f}]"


def side_text(game: str, team: int) -> str:
    """Team ``team`` named as the designer knows it: colour, seats, who moves first."""
    s = sides(game)
    first = "; moves first" if team == 0 else ""
    colour = f"{s.names[team]}, " if s.colours else ""
    seats = s.team_seats(team)
    return f"team {team} ({colour}seat{'s' if ',' in seats else ''} {seats}{first})"


def seat_text(seat: int) -> str:
    return f"seat {seat}{' (moves first)' if seat == 0 else ''}"


def who(game: str, side: int) -> str:
    """A side of ``game``: a team in a team game, else a seat."""
    return side_text(game, side) if sides(game).team_game else seat_text(side)


def fair_text(game: str) -> str:
    s = sides(game)
    return "½" if s.team_game else f"the fair share {100 * s.fair:.1f}%"


def rung_rates(game: str, value: pd.DataFrame, rung: int, name: str) -> str:
    """Who wins how often between equal ``name`` players (``value``: the self-play table
    indexed by (rung, measure))."""
    s = sides(game)
    n = int(value.loc[(rung, s.headline)].n)
    if s.team_game:
        favoured = 1 if value.loc[(rung, "team0_score")].value < 0.5 else 0
        x = value.loc[(rung, f"team{favoured}_win_rate")]
        return (
            f"between equal {name} players {side_text(game, favoured)} wins "
            f"{pct(x.value, x.lo, x.hi)} of {n} games"
        )
    seats = [value.loc[(rung, f"seat{k}_win_rate")] for k in range(s.players)]
    each = ", ".join(f"{seat_text(k)} {pct(x.value, x.lo, x.hi)}" for k, x in enumerate(seats))
    return (
        f"between equal {name} players ({n} games; fair: {100 * s.fair:.1f}% each) the seats "
        f"win {each}"
    )


def side_score(game: str, value: pd.DataFrame, rung: int, side: int) -> str:
    """What an advantage is read on, with its interval: a team's score (wins and half the
    draws), a seat's win rate."""
    if not sides(game).team_game:
        x = value.loc[(rung, f"seat{side}_win_rate")]
        return f"its win rate, {pct(x.value, x.lo, x.hi)},"
    x = value.loc[(rung, "team0_score")]
    v, lo, hi = (x.value, x.lo, x.hi) if side == 0 else (1 - x.value, 1 - x.hi, 1 - x.lo)
    return f"its score (wins and half the draws), {pct(v, lo, hi)},"


def confirmation(game: str, value: pd.DataFrame, rungs: list[int], names: list[str]) -> str:
    """Whether stronger play confirms an advantage: the sides whose interval lies above the
    fair value at the highest rung played, against those seen at the rungs below."""
    top = rungs[-1]
    adv = {r: advantaged(value, game, r) for r in rungs}
    fair = fair_text(game)
    if adv[top]:
        out = []
        for side in adv[top]:
            also = [names[r] for r in rungs[:-1] if side in adv[r]]
            out.append(
                f"Stronger play confirms the advantage of {who(game, side)}: "
                f"{side_score(game, value, top, side)} lies above {fair} between equal "
                f"{names[top]} players"
                + (f", as at {', '.join(also)}." if also else " (at no lower rung).")
            )
        return " ".join(out)
    seen = sorted({side for r in rungs for side in adv[r]})
    if not seen:
        kind = "team" if sides(game).team_game else "seat"
        return f"No {kind} is advantaged at any rung ({fair} inside every interval)."
    return " ".join(
        f"Stronger play does not confirm the advantage of {who(game, side)} seen at "
        f"{', '.join(names[r] for r in rungs if side in adv[r])}: between equal "
        f"{names[top]} players {side_score(game, value, top, side)} includes {fair} (at "
        "this number of games: an advantage may remain, smaller or not yet told apart)."
        for side in seen
    )


def short_side(game: str, side: int) -> str:
    """A side in a table cell: the team's colour (or "team k"), or "seat k"."""
    s = sides(game)
    return (s.names[side] if s.colours else f"team {side}") if s.team_game else f"seat {side}"


def glance(config: BalanceConfig, t: dict) -> pd.DataFrame:
    """One row per variant: its headline at every rung (percent), who is advantaged at the
    highest rung played, whether a lower rung saw another advantage, the verdict on the top
    two rungs and the skill depth."""
    names = [a.name for a in config.agents]
    rows = []
    for game in config.games:
        s = sides(game)
        value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
        rungs = [r for r in range(len(names)) if (r, s.headline) in value.index]
        if not rungs:
            continue
        row = {"variant": game, "games per rung": int(value.loc[(rungs[-1], s.headline)].n)}
        for r, name in enumerate(names):
            x = value.loc[(r, s.headline)] if r in rungs else None
            row[name] = (
                "—" if x is None else f"{100 * x.value:.0f} [{100 * x.lo:.0f}, {100 * x.hi:.0f}]"
            )
        top = advantaged(value, game, rungs[-1])
        below = {side for r in rungs[:-1] for side in advantaged(value, game, r)} - set(top)
        row["advantaged at the top"] = ", ".join(short_side(game, k) for k in top) or "none"
        row["not confirmed"] = ", ".join(short_side(game, k) for k in sorted(below)) or "—"
        summary = t["summary"]
        match = summary[summary.game == game] if not summary.empty else summary
        row["top two rungs"] = match.verdict.iloc[0] if len(match) else "—"
        row["skill depth"] = (
            f"{match.skill_depth.iloc[0]} of {match.steps.iloc[0]}" if len(match) else "—"
        )
        rows.append(row)
    return pd.DataFrame(rows)


def settle_text(game: str, row, names: list[str], each: list[Settlement]) -> str:
    """How the headline moved between the two top rungs, and whether to quote it."""
    top = len(names) - 1
    moved = f"From {names[top - 1]} to {names[top]}, over {each[0].deals} paired deals, "
    if sides(game).team_game:
        quote = (
            f"; the number to quote for competent play is "
            f"{pct(row.headline, row.lo, row.hi)} (team 0's score, {names[top]})."
        )
        return (
            moved
            + f"team 0's score changed by {points(each[0])}: it {VERDICT[row.verdict]}"
            + (quote if row.verdict == "settled" else ".")
        )
    changes = ", ".join(f"seat {k}'s by {points(x)}" for k, x in enumerate(each))
    verdict = {
        "settled": "they have settled; the numbers to quote for competent play are the "
        f"{names[top]} rates above",
        "moving": "at least one is still moving with skill: not settled at this budget",
        "unresolved": "they have neither clearly settled nor clearly moved at this number of deals",
    }[row.verdict]
    return moved + f"the seats' win rates changed: {changes}; {verdict}."


def trace_text(trace: pd.DataFrame, game: str, row) -> str:
    steps = trace[trace.game == game].sort_values("step")
    said = ", ".join(
        f"{x.stronger} scores {num(x.stronger_score, x.lo, x.hi)} against {x.weaker} on "
        f"{x.deals} deals"
        for x in steps.itertuples()
    )
    return f"Skill depth {row.skill_depth} of {row.steps} steps (duplicate deals: {said})."


def decisions_text(value: pd.DataFrame, top: int, name: str) -> str:
    """The per-decision measures of the top rung, by the players' own estimates."""
    bits = []
    games = 0
    for m, text in (
        ("lead_changes", "the lead changes {} times a game"),
        ("comeback_rate", "the winner was behind at some point in {} of the games"),
        ("decided_at", "the game is decided after {} of its decisions"),
        ("meaningful_choice_rate", "{} of the decisions are meaningful choices"),
    ):
        if (top, m) in value.index:
            x = value.loc[(top, m)]
            games = max(games, int(x.n))
            cell = pct(x.value, x.lo, x.hi) if m != "lead_changes" else num(x.value, x.lo, x.hi, 1)
            bits.append(text.format(cell))
    return (
        f"Between equal {name} players, by their own estimates ({games} games): "
        + "; ".join(bits)
        + "."
    )


def variant_findings(
    config: BalanceConfig, game: str, t: dict[str, pd.DataFrame], settled: dict
) -> str:
    """The paragraph on one variant."""
    names = [a.name for a in config.agents]
    s = sides(game)
    value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
    rungs = [r for r in range(len(names)) if (r, s.headline) in value.index]
    head = [f"**{game}**"]
    if rungs:
        text = "; ".join(rung_rates(game, value, r, names[r]) for r in rungs) + "."
        head += [text[0].upper() + text[1:], confirmation(game, value, rungs, names)]
    summary = t["summary"]
    row = summary[summary.game == game]
    if not row.empty and len(names) >= 2:
        row = row.iloc[0]
        each = settled[game]
        if all(math.isfinite(x.change) for x in each):
            head.append(settle_text(game, row, names, each))
        head.append(trace_text(t["trace"], game, row))
    top = len(names) - 1
    if (top, "lead_changes") in value.index or (top, "drama") in value.index:
        head.append(decisions_text(value, top, names[top]))
    return " ".join(head)


def halving_text(config: BalanceConfig, rounds: list[Round]) -> list[str]:
    """Which variants successive halving dropped, at which round and on how many deals."""
    if config.halving is None:
        return []
    h = config.halving
    lines = [
        f"Successive halving ({h.rounds} rounds; contention judged by the objective on "
        f"{config.agents[h.rung].name} self-play; a variant is dropped when its penalty's "
        "interval lies entirely above the best variant's of its game):"
    ]
    dropped = []
    for r in rounds:
        for x in r.verdicts[r.verdicts.dropped].itertuples():
            best = r.verdicts[r.verdicts.game == x.best].iloc[0]
            dropped.append(
                f"{x.game} dropped after round {r.number} on {x.deals} deals (penalty "
                f"{num(x.penalty, x.lo, x.hi, 3)}; the best, {x.best}: "
                f"{num(best.penalty, best.lo, best.hi, 3)})"
            )
    last = rounds[-1]
    if dropped:
        lines[0] += " " + "; ".join(dropped) + "."
    else:
        lines[0] += " no variant was dropped."
    kept = ", ".join(config.games[v] for v in last.contenders)
    state = (
        "complete"
        if last.complete and last.number == h.rounds
        else f"not complete: round {last.number} of {h.rounds} is being played"
    )
    lines[0] += (
        f" Round {last.number} ({last.deals} deals) was played by {kept}; halving is {state}."
    )
    return [lines[0], ""]


def partial_text(progress: pd.DataFrame, rounds: list[Round], config: BalanceConfig) -> str:
    """Empty for a complete study; else what is recorded: the variants complete, those in
    progress (with their rungs and steps short of games) and those not started."""
    unplanned = config.halving is not None and not (
        rounds[-1].complete and rounds[-1].number == config.halving.rounds
    )
    missing = progress[progress.recorded < progress.expected]
    if missing.empty and not unplanned:
        return ""
    names = [a.name for a in config.agents]
    have = progress.groupby("game", sort=False).recorded.sum()
    started = [g for g in config.games if g in set(missing.game) and have.get(g, 0) > 0]
    waiting = [g for g in config.games if g in set(missing.game) and have.get(g, 0) == 0]
    complete = [g for g in config.games if g not in set(missing.game)]
    parts = []
    for game in started:
        m = missing[missing.game == game]
        what = ", ".join(
            f"{names[x.rung]} self-play {x.recorded} of {x.expected}"
            if x.kind == "self"
            else f"step {names[x.rung]} v {names[x.rung - 1]} {x.recorded} of {x.expected}"
            for x in m.itertuples()
        )
        parts.append(f"{game} ({what} games)")
    return (
        f"**Partial study**: {progress.recorded.sum()} of the {progress.expected.sum()} games "
        + ("planned so far " if unplanned else "")
        + "are recorded; every number below is on the games recorded. Complete: "
        + (", ".join(complete) or "none")
        + ". In progress: "
        + ("; ".join(parts) or "none")
        + ". Not started: "
        + (", ".join(waiting) or "none")
        + "."
    )


def findings(config: BalanceConfig, t: dict) -> list[str]:
    """The report's first section: what the study found, in sentences."""
    names = [a.name for a in config.agents]
    lines = []
    partial = partial_text(t["progress"], t["rounds"], config)
    if partial:
        lines += [partial, ""]
    for game in config.games:
        if (t["selfplay"].game == game).any():
            lines += [variant_findings(config, game, t, t["settled"]), ""]
    lines += halving_text(config, t["rounds"])
    summary = t["summary"]
    for family, ranked in summary.groupby("family", sort=False):
        if len(ranked) < 2:
            continue
        order = ", ".join(f"{r.rank}. {r.game}" for r in ranked.itertuples())
        lines += [
            f"Variants of {family} ranked by the objective ({objective_text(config)}; "
            f"{names[-1]} self-play, {games_text(ranked.games)}): "
            f"{order}.",
            "",
        ]
    tests = t["tests"]
    for measure, words in (
        ("fairness", "fairness (|headline − fair|)"),
        ("moves", "length (decisions per game)"),
    ):
        if tests.empty:
            break
        sig = tests[(tests.measure == measure) & (tests.p_holm < 0.05)]
        if sig.empty:
            lines += [
                f"No variant differs from its game's default in {words} at the 5% level "
                f"after Holm's correction over {len(tests)} comparisons ({names[-1]} "
                "self-play, paired by deal).",
                "",
            ]
        for x in sig.itertuples():
            lines += [
                f"{x.game} differs from {x.default} in {words} by "
                f"{num(x.difference, x.lo, x.hi, 3)} (Holm-adjusted p = "
                f"{x.p_holm:.3g}, {names[-1]} self-play, {x.deals} paired deals).",
                "",
            ]
    return lines


def games_text(games: pd.Series) -> str:
    lo, hi = games.min(), games.max()
    return f"{lo} games each" if lo == hi else f"{lo}–{hi} games each"


def who_played(config: BalanceConfig, df: pd.DataFrame) -> str:
    """The sentence that says who played, on how many deals."""
    played = "; ".join(f"{a.name} = `{a.spec}`" for a in config.agents)
    deals, trace, games = config.deals, config.trace_deals, len(config.games)
    most = (
        " (at most: successive halving gives the variants it drops fewer)" if config.halving else ""
    )
    return (
        f"Who played: {played}. Self-play: {deals} deal{'s' * (deals != 1)} per variant and "
        f"rung; skill trace: {trace} duplicate deal{'s' * (trace != 1)} per step{most}; "
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
