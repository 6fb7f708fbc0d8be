"""A balance study's findings in sentences and in its answer table: per variant, the side
advantage at each rung with its precision and cost, whether the top rung is shown stronger
than the one below (the game or the bot?), the margins, the skill trace; then the variants.

Every sentence is built from the numbers of the tables it sits beside (``study_tables``), so
it cannot contradict them; every number names who played (the rung) and on how many deals,
with its 95% interval and the interval's method. Every rate is in percent, every side named as
its players know it (:mod:`skip_ai.balance.naming`), and a team's numbers are those of the side
the sentence names (Black's share, not Red's, beside "favours Black").
"""

from __future__ import annotations

import math

import pandas as pd

from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.halving import Round
from skip_ai.balance.metrics import Settlement, sides
from skip_ai.balance.naming import (
    capital,
    game_name,
    label_map,
    players_text,
    rung_labels,
    short_name,
    side_name,
    variant_name,
)


def headline_words(game: str) -> str:
    """What the headline measures, in words: the first team's share, or seat 0's."""
    return f"the share of {side_name(game, 0)}" if sides(game).team_game else "seat 0's share"


def pct(v: float, lo: float, hi: float) -> str:
    """A rate with its interval, in percent: "95.6% [92.9, 97.5]"."""
    return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def num(v: float, lo: float, hi: float, digits: int = 2) -> str:
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def oriented(v: float, lo: float, hi: float, side: int) -> tuple[float, float, float]:
    """Team 0's share with its interval as ``side``'s: team 1's is 1 − it."""
    return (v, lo, hi) if side == 0 else (1 - v, 1 - hi, 1 - lo)


def flipped(v: float, lo: float, hi: float, side: int) -> tuple[float, float, float]:
    """Team 0's signed difference (a margin, a change) as ``side``'s."""
    return (v, lo, hi) if side == 0 else (-v, -hi, -lo)


# --- the answer of one rung ----------------------------------------------------------------


def rung_answer(game: str, value: pd.DataFrame, rung: int, tests: pd.DataFrame) -> dict:
    """What a rung says of the side advantage: the favoured side (the one ahead) and its share
    with its interval, the advantage in points and its half-width, whether a side is
    advantaged (Holm), the method."""
    s = sides(game)
    rows = [value.loc[(rung, m)] for m in s.headlines]
    half = max((x.hi - x.lo) / 2 for x in rows)
    if s.team_game:
        x = rows[0]
        favoured = 0 if x.value >= 0.5 else 1
        share = oriented(x.value, x.lo, x.hi, favoured)
    else:
        favoured = max(range(s.players), key=lambda k: rows[k].value)
        x = rows[favoured]
        share = (x.value, x.lo, x.hi)
    adv = tests[(tests.game == game) & (tests.rung == rung) & tests.advantaged]
    # the games nobody won: draws of a team game, undecided games of the others (shared)
    draws = value.loc[(rung, "draw_rate" if s.team_game else "undecided_rate")].value
    return {
        "favoured": favoured,
        "share": share,
        "advantage": share[0] - s.fair,
        "half": half,
        "rows": rows,
        "advantaged": sorted(int(k) for k in adv.side),
        "excludes": any(x.lo > s.fair or x.hi < s.fair for x in rows),
        # how far from fair the interval reaches at most, for "fair to within e points"
        "reach": max(max(x.hi - s.fair, s.fair - x.lo) for x in rows),
        "draws": draws,
        "method": rows[0].method,
        "n": int(rows[0].n),
        "games": int(rows[0].games),
    }


def verdict(answer: dict, game: str, target: float | None, stop: str | None) -> str:
    """A rung's verdict: the side advantaged (Holm), fair to the target, capped, unresolved."""
    if answer["advantaged"]:
        return "favours " + ", ".join(short_name(game, k) for k in answer["advantaged"])
    if answer["excludes"]:
        return f"leans to {short_name(game, answer['favoured'])} (not after Holm)"
    if target is not None and answer["half"] <= target + 1e-12:
        return f"no side advantaged (±{100 * answer['half']:.1f} points)"
    return "capped" if stop == "capped" else "unresolved"


def wins(answer: dict) -> str:
    """The verb of a share: "wins", or "scores" where some games were drawn (half each)."""
    return "scores" if answer["draws"] > 0 else "wins"


def more_cost(answer: dict, target: float, seconds: float) -> str:
    """What reaching the target would take, from the half-width's 1/√n shrinkage."""
    n, games = answer["n"], answer["games"]
    need = math.ceil(n * (answer["half"] / target) ** 2)
    more_games = max(0, need - n) * games / max(n, 1)
    return (
        f"±{100 * target:.0f} points would take about {need} deals, {more_games:.0f} more "
        f"games (about {more_games * seconds:.0f} more CPU s)"
    )


def answer_table(config: BalanceConfig, t: dict) -> pd.DataFrame:
    """One row per variant and self-play rung: the favoured side's share in percent with its
    interval (``headline, %``), the advantage ± half-width, the verdict, the deals, games and
    CPU seconds it took, whether the cap stopped it, the mirror's efficiency; then the same
    share as numbers (``favoured``, ``share %``, ``lo %``, ``hi %``) and the game string."""
    target = config.precision.target if config.precision else None
    stops = {(p.variant, p.rung): p.stop for p in t["plans"]}
    rows = []
    for v, game in enumerate(config.games):
        s = sides(game)
        value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
        for r, label in enumerate(rung_labels(config, v)):
            if (r, s.headline) not in value.index:
                continue
            a = rung_answer(game, value, r, t["fairness"])
            stop = stops.get((v, r))
            seconds = value.loc[(r, "seconds")]
            side = short_name(game, a["favoured"])
            if s.team_game:
                headline = f"{side} {pct(*a['share']).replace('%', '')}"
            else:
                headline = ", ".join(
                    f"seat {k} {100 * x.value:.1f}" for k, x in enumerate(a["rows"])
                )
            rows.append(
                {
                    "variant": variant_name(game),
                    "rung": label,
                    "headline, %": headline,
                    "advantage, points": f"{side} {100 * a['advantage']:+.1f} ± "
                    f"{100 * a['half']:.1f}",
                    "verdict": verdict(a, game, target, stop),
                    "deals": a["n"],
                    "games": a["games"],
                    "CPU s": round(seconds.value * seconds.n, 1),
                    "s / game": round(seconds.value, 3),
                    "stopped": stop or "—",
                    "mirror ×": _efficiency(t, game, r),
                    "favoured": side,
                    "share %": round(100 * a["share"][0], 2),
                    "lo %": round(100 * a["share"][1], 2),
                    "hi %": round(100 * a["share"][2], 2),
                    "game": game,
                }
            )
    return pd.DataFrame(rows, columns=ANSWER_COLUMNS)


ANSWER_COLUMNS = [
    "variant",
    "rung",
    "headline, %",
    "advantage, points",
    "verdict",
    "deals",
    "games",
    "CPU s",
    "s / game",
    "stopped",
    "mirror ×",
    "favoured",
    "share %",
    "lo %",
    "hi %",
    "game",
]
"""The answer table's columns (:func:`answer_table`; the last five added in issue 48)."""


def _efficiency(t: dict, game: str, rung: int) -> str:
    e = t["efficiency"].get((game, rung), math.nan)
    return "—" if not math.isfinite(e) else f"{e:.2f}"


# --- sentences -----------------------------------------------------------------------------


def headline_sentence(config: BalanceConfig, t: dict, v: int, r: int) -> str:
    """The answer of variant ``v`` at rung ``r`` in words, from the answer table's numbers."""
    game = config.games[v]
    players = players_text(config.rungs(v)[r].spec)
    s = sides(game)
    value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
    a = rung_answer(game, value, r, t["fairness"])
    stop = {(p.variant, p.rung): p.stop for p in t["plans"]}.get((v, r))
    units = "deals, each with its mirror" if a["games"] == 2 * a["n"] else "deals"
    cost = value.loc[(r, "seconds")]
    said = f"{a['n']} {units}; {a['method']}; {cost.value * cost.n:.0f} CPU s"
    if s.team_game:
        draw = "; a draw counts half" if a["draws"] > 0 else ""
        text = (
            f"{side_name(game, a['favoured'])} {wins(a)} {pct(*a['share'])} of the "
            f"{a['games']} games between equal {players} ({said}{draw})"
        )
    else:
        each = ", ".join(f"seat {k} {pct(x.value, x.lo, x.hi)}" for k, x in enumerate(a["rows"]))
        u = value.loc[(r, "undecided_rate")]
        text = (
            f"between equal {players} (a fair share: {100 * s.fair:.1f}% each; a game nobody "
            f"won, {pct(u.value, u.lo, u.hi)} of them, split equally) the seats score {each} "
            f"(simultaneous over the seats; {said})"
        )
    target = config.precision.target if config.precision else None
    text += f"; verdict: {verdict(a, game, target, stop)}"
    if stop is not None:
        text += f" (stopped: {stop}"
        if stop == "capped" and config.precision is not None:
            text += "; " + more_cost(a, config.precision.target, cost.value)
        text += ")"
    return text + "."


def margin_sentence(game: str, value: pd.DataFrame, r: int, players: str, side: int) -> str:
    """The margin of ``side`` (a team) between equal players, in percent of the points both
    teams scored and in the game's own points."""
    if (r, "margin") not in value.index:
        return ""
    m, share = value.loc[(r, "margin")], value.loc[(r, "margin_share")]
    v, lo, hi = flipped(share.value, share.lo, share.hi, side)
    return (
        f"The margin of {side_name(game, side)} between equal {players}: "
        f"{100 * v:+.1f}% [{100 * lo:+.1f}, {100 * hi:+.1f}] of the points both teams scored "
        f"({share.method}), {flipped(m.value, 0, 0, side)[0]:+.2f} of the game's own points "
        "a game on average."
    )


def trace_sentence(t: dict, game: str, names: dict[str, str]) -> str:
    """Every step of the skill trace, in percent, its rungs by their labels."""
    steps = t["trace"][t["trace"].game == game].sort_values("step")
    if steps.empty:
        return ""
    said = "; ".join(
        f"{names.get(x.stronger, x.stronger)} against {names.get(x.weaker, x.weaker)}: score "
        f"{pct(x.stronger_score, x.lo, x.hi)}, margin {100 * x.stronger_margin:+.1f}% "
        f"[{100 * x.margin_lo:+.1f}, {100 * x.margin_hi:+.1f}] of the points, on {x.deals} "
        f"deals — {x.verdict} (detects a difference of {100 * x.detectable:.0f} points or "
        "more at 80% power)"
        for x in steps.itertuples()
    )
    depth = int(steps.clear.sum())
    return (
        f"Each rung against the one below on duplicate deals (each interval 97.5%, betting "
        f"interval): {said}. A rung is shown stronger in {depth} of {len(steps)} steps."
    )


def strongest(t: dict, game: str, rungs: int) -> tuple[int, list[int]]:
    """The strongest rung the skill trace measures, climbing the ladder: a rung shown stronger
    than one level with the best so far (the best, or not told apart from it) is the new best;
    a rung shown weaker drops below it. Also the rungs shown stronger only than a rung below
    the best: never measured against the best, they are not called the strongest."""
    steps = t["trace"][t["trace"].game == game].set_index("step")
    best, level, unmeasured = 0, {0}, []
    for r in range(1, rungs):
        if r not in steps.index:
            break
        verdict = steps.loc[r].verdict
        if r - 1 in level:
            if verdict == "stronger":
                best, level = r, {r}
            elif verdict == "not told apart":
                level.add(r)
        elif verdict == "stronger" or (r - 1 in unmeasured and verdict == "not told apart"):
            unmeasured.append(r)
    return best, unmeasured


def game_or_bot(config: BalanceConfig, t: dict, v: int) -> str:
    """Whether stronger play confirms the top rung's answer: only a rung the trace shows
    stronger than the one below counts as stronger play; otherwise, which rung is the
    strongest measured."""
    game, names = config.games[v], rung_labels(config, v)
    if len(names) < 2:
        return ""
    steps = t["trace"][t["trace"].game == game].set_index("step")
    top = len(names) - 1
    if top not in steps.index:
        return ""
    x = steps.loc[top]
    if x.verdict == "stronger":
        value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
        now = rung_answer(game, value, top, t["fairness"])["advantaged"]
        before = rung_answer(game, value, top - 1, t["fairness"])["advantaged"]
        shown = f"{names[top]} is shown stronger than {names[top - 1]} by the trace"
        if now != before:
            return f"{shown}, and gives a different answer: read the top rung."
        if now:
            return f"{shown}, and favours the same side: stronger play confirms it."
        return f"{shown}, and neither shows a side advantaged."
    best = strongest(t, game, len(names))[0]
    return (
        f"{names[top]} is not shown stronger than {names[top - 1]} by the trace ({x.verdict}), "
        "so its answer does not confirm the one below; "
        + (
            f"the strongest players measured are the {players_text(config.rungs(v)[best].spec)}."
            if best
            else "no step of the trace shows a stronger rung."
        )
    )


def settle_text(
    game: str, names: list[str], verdict_: str, each: list[Settlement], side: int
) -> str:
    """How the headline moved between the two top rungs, as ``side``'s share."""
    if not each or not all(math.isfinite(x.change) for x in each):
        return ""
    top = len(names) - 1
    if sides(game).team_game:
        v, lo, hi = flipped(each[0].change, each[0].lo, each[0].hi, side)
        what = f"the share of {side_name(game, side)} changed by {_points(v, lo, hi)}"
    else:
        what = "the seats' shares changed by " + ", ".join(
            f"seat {k} {_points(x.change, x.lo, x.hi)}" for k, x in enumerate(each)
        )
    return (
        f"From {names[top - 1]} to {names[top]}, over {each[0].deals} paired deals "
        f"({each[0].method}), {what}: {verdict_}."
    )


def _points(v: float, lo: float, hi: float) -> str:
    return f"{100 * v:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def answer_rung(config: BalanceConfig, t: dict, v: int, rungs: list[int]) -> int:
    """The rung whose self-play answers the designer: the highest one that reached the
    precision target (the sequential rule's *precise*), else the highest with a *clear*
    verdict, else the top rung played."""
    stops = {p.rung: p.stop for p in t["plans"] if p.variant == v}
    for wanted in ("precise", "clear"):  # the target reached first; a clear verdict next
        done = [r for r in rungs if stops.get(r) == wanted]
        if done:
            return done[-1]
    return rungs[-1]


def variant_findings(config: BalanceConfig, t: dict, v: int) -> list[str]:
    """The evidence on one variant, a heading and a point each: the answer at the highest
    rung that reached the precision asked for, the top rung beside it, the game-or-bot
    question, margins, the mirror's efficiency, the settlement, the skill trace and the
    per-decision measures."""
    game, names = config.games[v], rung_labels(config, v)
    s = sides(game)
    value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
    rungs = [r for r in range(len(names)) if (r, s.headline) in value.index]
    if not rungs:
        return []
    top, answer = rungs[-1], answer_rung(config, t, v, rungs)
    side = rung_answer(game, value, answer, t["fairness"])["favoured"]
    players = players_text(config.rungs(v)[answer].spec)
    points = [("The answer", headline_sentence(config, t, v, answer))]
    if answer != top:
        points.append(("At the top rung", headline_sentence(config, t, v, top)))
    points.append(("Stronger play?", game_or_bot(config, t, v)))
    if s.team_game:
        points.append(("Margins", margin_sentence(game, value, answer, players, side)))
    eff = t["efficiency"].get((game, answer), math.nan)
    if math.isfinite(eff):
        points.append(
            (
                "Mirrors",
                f"a deal played with its mirror was worth {eff:.2f} independent deals at "
                f"{names[answer]} (the variance of two independent games' mean over a pair's).",
            )
        )
    settled = t["settled"].get(game, ("", []))
    points.append(("Between the top rungs", settle_text(game, names, *settled, side)))
    points.append(("Skill trace", trace_sentence(t, game, label_map(config, v))))
    points.append(("Per decision", t["decisions_text"].get(game, "")))
    return [
        f"### {variant_name(game)}",
        "",
        *[f"- **{head}**: {capital(text)}" for head, text in points if text],
        "",
    ]


def findings(config: BalanceConfig, t: dict) -> list[str]:
    """The evidence, in sentences: what is missing of a partial study, each variant's
    points, then successive halving and the variants of one game compared."""
    lines = []
    partial = partial_text(t["progress"], config)
    if partial:
        lines += [partial, ""]
    for v, game in enumerate(config.games):
        if (t["selfplay"].game == game).any():
            lines += variant_findings(config, t, v)
    lines += halving_text(config, t["rounds"])
    lines += variant_lines(config, t)
    return lines


def compared_variants(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary's rows of the games with two variants or more in the study (the others
    have nothing to be compared with)."""
    if summary.empty:
        return summary
    return summary[summary.groupby("family").game.transform("size") > 1]


def variant_lines(config: BalanceConfig, t: dict) -> list[str]:
    """The variants against their defaults (Holm over the headline comparisons) and ranked."""
    lines = []
    summary = t["summary"]
    families = summary.groupby("family", sort=False) if len(summary) else []
    for _, ranked in families:
        if len(ranked) < 2:
            continue
        order = ", ".join(f"{r.rank}. {variant_name(r.game)}" for r in ranked.itertuples())
        lines += [
            f"Variants of {game_name(ranked.game.iloc[0])} ranked by "
            f"their penalty intervals ({objective_text(config)}; a shared rank is a tie: the "
            f"intervals overlap): {order}.",
            "",
        ]
    tests = t["tests"]
    heads = tests[tests.measure == "headline"] if not tests.empty else tests
    if len(heads):
        sig = heads[heads.p_holm < 0.05]
        for x in sig.itertuples():
            lines += [
                f"{variant_name(x.game)} differs from {variant_name(x.default)} in "
                f"{headline_words(x.game)} by {_points(x.difference, x.lo, x.hi)} "
                f"(Holm-adjusted p = {x.p_holm:.3g} over the {len(heads)} comparisons; "
                f"{x.rung} self-play, {x.deals} paired deals).",
                "",
            ]
        if sig.empty:
            lines += [
                f"No variant's share differs from its game's default at the 5% level after "
                f"Holm's correction over the {len(heads)} comparisons (paired by deal).",
                "",
            ]
    return lines


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
                f"{variant_name(x.game)} dropped after round {r.number} on {x.deals} deals "
                f"(penalty {num(x.penalty, x.lo, x.hi, 3)}; the best, {variant_name(x.best)}: "
                f"{num(best.penalty, best.lo, best.hi, 3)})"
            )
    last = rounds[-1]
    lines[0] += (" " + "; ".join(dropped) + ".") if dropped else " no variant was dropped."
    kept = ", ".join(variant_name(config.games[v]) for v in last.contenders)
    state = (
        "complete"
        if last.complete and last.number == h.rounds
        else f"not complete: round {last.number} of {h.rounds} is being played"
    )
    lines[0] += (
        f" Round {last.number} ({last.deals} deals) was played by {kept}; halving is {state}."
    )
    return [lines[0], ""]


def partial_text(progress: pd.DataFrame, config: BalanceConfig) -> str:
    """Empty for a complete study; else what is recorded."""
    missing = progress[progress.recorded < progress.expected]
    if missing.empty:
        return ""
    return (
        f"**Partial study**: {progress.recorded.sum()} of the {progress.expected.sum()} games "
        "planned so far are recorded; every number below is on the games recorded. Missing: "
        + "; ".join(
            f"{variant_name(x.game)} {x.kind} rung {x.rung} {x.recorded} of {x.expected}"
            for x in missing.itertuples()
        )
        + "."
    )


def objective_text(config: BalanceConfig) -> str:
    """The objective's penalty as a formula, its terms of weight 0 left out."""
    o = config.objective
    terms = [
        (o.fairness, "+", "|share − fair|"),
        (o.skill_depth, "−", "rungs shown stronger"),
        (o.length, "+", f"|moves − {o.length_target:g}|/{o.length_target:g}"),
        (o.drama, "−", "drama"),
    ]
    text = " ".join(f"{sign} {w:g}·{what}" for w, sign, what in terms if w > 0)
    return f"penalty = {text.removeprefix('+ ') or '0'}, smaller is better"
