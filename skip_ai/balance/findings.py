"""A balance study's findings in sentences and in its answer table: per variant, the side
advantage at each rung with its precision and cost, whether the top rung is shown stronger
than the one below (the game or the bot?), the margins, the skill trace; then the variants.

Every sentence is built from the numbers of the tables it sits beside (``study_tables``), so
it cannot contradict them; every number names who played (the rung) and on how many deals,
with its 95% interval and the interval's method.
"""

from __future__ import annotations

import math

import pandas as pd

from skip_ai.balance.config import BalanceConfig
from skip_ai.balance.halving import Round
from skip_ai.balance.metrics import Settlement, sides

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
    first = ", moves first" if team == 0 else ""
    seats = s.team_seats(team)
    where = f"seat{'s' if ',' in seats else ''} {seats}{first}"
    return f"{s.names[team]} (team {team}, {where})" if s.colours else f"team {team} ({where})"


def short_side(game: str, side: int) -> str:
    """A side in a table cell: the team's colour (or "team k"), or "seat k"."""
    s = sides(game)
    return (s.names[side] if s.colours else f"team {side}") if s.team_game else f"seat {side}"


def seat_text(seat: int) -> str:
    return f"seat {seat}{' (moves first)' if seat == 0 else ''}"


# --- the answer of one rung ----------------------------------------------------------------


def rung_answer(game: str, value: pd.DataFrame, rung: int, tests: pd.DataFrame) -> dict:
    """What a rung says of the side advantage: the favoured side, the advantage in points and
    its half-width, the interval, whether a side is advantaged (Holm), the method."""
    s = sides(game)
    rows = [value.loc[(rung, m)] for m in s.headlines]
    half = max((x.hi - x.lo) / 2 for x in rows)
    if s.team_game:
        x = rows[0]
        favoured = 0 if x.value >= 0.5 else 1
        advantage = abs(x.value - 0.5)
    else:
        favoured = max(range(s.players), key=lambda k: abs(rows[k].value - s.fair))
        advantage = rows[favoured].value - s.fair
    adv = tests[(tests.game == game) & (tests.rung == rung) & tests.advantaged]
    return {
        "favoured": favoured,
        "advantage": advantage,
        "half": half,
        "rows": rows,
        "advantaged": sorted(int(k) for k in adv.side),
        "excludes": any(x.lo > s.fair or x.hi < s.fair for x in rows),
        "method": rows[0].method,
        "n": int(rows[0].n),
        "games": int(rows[0].games),
    }


def verdict(answer: dict, game: str, target: float | None, stop: str | None) -> str:
    """A rung's verdict: the side advantaged (Holm), fair to the target, capped, unresolved."""
    if answer["advantaged"]:
        return "favours " + ", ".join(short_side(game, k) for k in answer["advantaged"])
    if answer["excludes"]:
        return f"leans to {short_side(game, answer['favoured'])} (not after Holm)"
    if target is not None and answer["half"] <= target + 1e-12:
        return f"no side advantaged (±{100 * answer['half']:.1f} points)"
    return "capped" if stop == "capped" else "unresolved"


def more_cost(answer: dict, target: float, seconds: float) -> str:
    """What reaching the target would take, from the half-width's 1/√n shrinkage."""
    n, games = answer["n"], answer["games"]
    need = math.ceil(n * (answer["half"] / target) ** 2)
    more_games = max(0, need - n) * games / max(n, 1)
    return (
        f"±{100 * target:.0f} would take about {need} deals, {more_games:.0f} more games "
        f"(about {more_games * seconds:.0f} more CPU s)"
    )


def answer_table(config: BalanceConfig, t: dict) -> pd.DataFrame:
    """One row per variant and self-play rung: the headline, the advantage ± half-width, the
    verdict, the deals, games and CPU seconds it took, whether the cap stopped it, the
    mirror's efficiency."""
    target = config.precision.target if config.precision else None
    stops = {(p.variant, p.rung): p.stop for p in t["plans"]}
    rows = []
    for v, game in enumerate(config.games):
        s = sides(game)
        value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
        for r, name in enumerate(config.names(v)):
            if (r, s.headline) not in value.index:
                continue
            a = rung_answer(game, value, r, t["fairness"])
            stop = stops.get((v, r))
            seconds = value.loc[(r, "seconds")]
            if s.team_game:
                x = a["rows"][0]
                headline = f"team 0 {100 * x.value:.1f} [{100 * x.lo:.1f}, {100 * x.hi:.1f}]"
            else:
                headline = "seats " + ", ".join(f"{100 * x.value:.1f}" for x in a["rows"])
            rows.append(
                {
                    "variant": variant_name(game),
                    "rung": name,
                    "headline, %": headline,
                    "advantage, points": f"{short_side(game, a['favoured'])} "
                    f"{100 * a['advantage']:+.1f} ± {100 * a['half']:.1f}",
                    "verdict": verdict(a, game, target, stop),
                    "deals": a["n"],
                    "games": a["games"],
                    "CPU s": round(seconds.value * seconds.n, 1),
                    "s / game": round(seconds.value, 3),
                    "stopped": stop or "—",
                    "mirror ×": _efficiency(t, game, r),
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
]
"""The answer table's columns (:func:`answer_table`)."""


def _efficiency(t: dict, game: str, rung: int) -> str:
    e = t["efficiency"].get((game, rung), math.nan)
    return "—" if not math.isfinite(e) else f"{e:.2f}"


# --- sentences -----------------------------------------------------------------------------


def headline_sentence(config: BalanceConfig, t: dict, v: int, r: int) -> str:
    """The answer of variant ``v`` at rung ``r`` in words, from the answer table's numbers."""
    game, name = config.games[v], config.names(v)[r]
    s = sides(game)
    value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
    a = rung_answer(game, value, r, t["fairness"])
    stop = {(p.variant, p.rung): p.stop for p in t["plans"]}.get((v, r))
    units = "deals with their mirrors" if a["games"] == 2 * a["n"] else "deals"
    cost = value.loc[(r, "seconds")]
    said = f"{a['n']} {units}, {a['games']} games, {cost.value * cost.n:.0f} CPU s"
    if s.team_game:
        x = a["rows"][0]
        team0 = f"team 0's score {pct(x.value, x.lo, x.hi)}, {a['method']}"
        if a["advantaged"]:
            k = a["advantaged"][0]
            share = x.value if k == 0 else 1 - x.value
            text = (
                f"{side_text(game, k)} wins {100 * share:.1f}% ± {100 * a['half']:.1f} of "
                f"the games between equal {name} players ({team0}; {said})"
            )
        else:
            text = (
                f"between equal {name} players no team is advantaged after Holm's correction "
                f"({team0}; {said})"
            )
    else:
        each = ", ".join(
            f"{seat_text(k)} {pct(x.value, x.lo, x.hi)}" for k, x in enumerate(a["rows"])
        )
        u = value.loc[(r, "undecided_rate")]
        adv = ", ".join(f"seat {k}" for k in a["advantaged"])
        text = (
            f"between equal {name} players (fair: {100 * s.fair:.1f}% each; a game nobody "
            f"won, {pct(u.value, u.lo, u.hi)} of them, split equally) the seats score {each} "
            f"({a['method']}, simultaneous over the seats; {said}): "
            + (f"{adv} advantaged after Holm's correction" if adv else "no seat advantaged")
        )
    target = config.precision.target if config.precision else None
    text += f"; verdict: {verdict(a, game, target, stop)}"
    if stop is not None:
        text += f" (stopped: {stop}"
        if stop == "capped" and config.precision is not None:
            text += "; " + more_cost(a, config.precision.target, cost.value)
        text += ")"
    return text + "."


def margin_sentence(game: str, value: pd.DataFrame, r: int, name: str) -> str:
    if (r, "margin") not in value.index:
        return ""
    m, share = value.loc[(r, "margin")], value.loc[(r, "margin_share")]
    return (
        f"Team 0's margin between equal {name} players: {num(share.value, share.lo, share.hi)} "
        f"of the points both teams scored ({share.method}), {m.value:+.2f} of the game's own "
        "points a game on average."
    )


def trace_sentence(t: dict, game: str, names: list[str]) -> str:
    steps = t["trace"][t["trace"].game == game].sort_values("step")
    if steps.empty:
        return ""
    said = "; ".join(
        f"{x.stronger} against {x.weaker}: score {num(x.stronger_score, x.lo, x.hi)}, margin "
        f"{num(x.stronger_margin, x.margin_lo, x.margin_hi)} on {x.deals} deals — {x.verdict} "
        f"(detects ≥ {100 * x.detectable:.0f} points at 80% power)"
        for x in steps.itertuples()
    )
    depth = int(steps.clear.sum())
    return (
        f"Skill trace (duplicate deals; each interval 97.5%): {said}. Skill shows in {depth} "
        f"of {len(steps)} steps."
    )


def game_or_bot(config: BalanceConfig, t: dict, v: int) -> str:
    """Whether stronger play confirms the top rung's answer: only a rung the trace shows
    stronger than the one below counts as stronger play."""
    game, names = config.games[v], config.names(v)
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
    shown = [
        names[r]
        for r in range(1, len(names))
        if r in steps.index and steps.loc[r].verdict == "stronger"
    ]
    return (
        f"{names[top]} is not shown stronger than {names[top - 1]} by the trace ({x.verdict}), "
        "so its answer is not confirmation by stronger play; "
        + (
            f"the highest rung the trace shows stronger than the one below it is {shown[-1]}."
            if shown
            else "no step of the trace shows a stronger rung."
        )
    )


def settle_text(game: str, names: list[str], verdict_: str, each: list[Settlement]) -> str:
    """How the headline moved between the two top rungs."""
    if not each or not all(math.isfinite(x.change) for x in each):
        return ""
    top = len(names) - 1
    what = "team 0's score" if sides(game).team_game else "the seats' scores"
    changes = ", ".join(points(x) for x in each)
    return (
        f"From {names[top - 1]} to {names[top]}, over {each[0].deals} paired deals "
        f"({each[0].method}), {what} changed by {changes}: {verdict_}."
    )


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


def variant_findings(config: BalanceConfig, t: dict, v: int) -> str:
    """The paragraph on one variant: the answer at the highest rung that reached the
    precision asked for, the top rung beside it, then the game-or-bot question, margins, the
    mirror's efficiency, the settlement, the skill trace and the per-decision measures."""
    game, names = config.games[v], config.names(v)
    s = sides(game)
    value = t["selfplay"][t["selfplay"].game == game].set_index(["rung", "measure"])
    rungs = [r for r in range(len(names)) if (r, s.headline) in value.index]
    if not rungs:
        return ""
    top, answer = rungs[-1], answer_rung(config, t, v, rungs)
    head = headline_sentence(config, t, v, answer)
    parts = [f"**{variant_name(game)}**: {head[0].upper()}{head[1:]}"]
    if answer != top:
        parts.append("The top rung, to its cap: " + headline_sentence(config, t, v, top))
    parts.append(game_or_bot(config, t, v))
    parts.append(margin_sentence(game, value, answer, names[answer]))
    eff = t["efficiency"].get((game, answer), math.nan)
    if math.isfinite(eff):
        parts.append(
            f"A deal played with its mirror was worth {eff:.2f} independent deals at "
            f"{names[answer]} (the variance of two independent games' mean over a pair's)."
        )
    parts.append(settle_text(game, names, *t["settled"].get(game, ("", []))))
    parts.append(trace_sentence(t, game, names))
    parts.append(t["decisions_text"].get(game, ""))
    return " ".join(p for p in parts if p)


def findings(config: BalanceConfig, t: dict) -> list[str]:
    """The report's first section: what the study found, in sentences."""
    lines = []
    partial = partial_text(t["progress"], config)
    if partial:
        lines += [partial, ""]
    for v, game in enumerate(config.games):
        if (t["selfplay"].game == game).any():
            lines += [variant_findings(config, t, v), ""]
    lines += halving_text(config, t["rounds"])
    lines += variant_lines(config, t)
    return lines


def variant_lines(config: BalanceConfig, t: dict) -> list[str]:
    """The variants against their defaults (Holm over the headline comparisons) and ranked."""
    lines = []
    summary = t["summary"]
    families = summary.groupby("family", sort=False) if len(summary) else []
    for family, ranked in families:
        if len(ranked) < 2:
            continue
        order = ", ".join(f"{r.rank}. {variant_name(r.game)}" for r in ranked.itertuples())
        lines += [
            f"Variants of {family} ranked by their penalty intervals ({objective_text(config)}; "
            f"a shared rank is a tie: the intervals overlap): {order}.",
            "",
        ]
    tests = t["tests"]
    heads = tests[tests.measure == "headline"] if not tests.empty else tests
    if len(heads):
        sig = heads[heads.p_holm < 0.05]
        for x in sig.itertuples():
            lines += [
                f"{variant_name(x.game)} differs from {variant_name(x.default)} in the "
                f"headline by {100 * x.difference:+.1f} points [{100 * x.lo:+.1f}, "
                f"{100 * x.hi:+.1f}] (Holm-adjusted p = {x.p_holm:.3g} over the "
                f"{len(heads)} headline comparisons; {x.rung} self-play, {x.deals} paired deals).",
                "",
            ]
        if sig.empty:
            lines += [
                f"No variant's headline differs from its game's default at the 5% level after "
                f"Holm's correction over the {len(heads)} headline comparisons (paired by deal).",
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


def who_played(config: BalanceConfig, df: pd.DataFrame) -> str:
    """The sentences that say who played, on how many deals, by which rule."""
    played = "; ".join(f"{a.name} = `{a.spec}`" for a in config.agents)
    own = ""
    if config.ladders:
        own = (
            " Ladders: "
            + "; ".join(
                f"{variant_name(g)}: {' → '.join(config.names(v))}"
                for v, g in enumerate(config.games)
            )
            + "."
        )
    trace = config.trace_deals
    games = len(config.games)
    if config.precision is None:
        deals = f"Self-play: {config.deals} deal{'s' * (config.deals != 1)} per variant and rung"
    else:
        p = config.precision
        deals = (
            f"Self-play dealt sequentially per variant and rung until team 0's score (each "
            f"seat's, each for themselves) is known to ±{100 * p.target:g} points"
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
    return (
        f"Who played: {played}.{own} {deals}{mirror}; skill trace: {trace} duplicate "
        f"deal{'s' * (trace != 1)} per step; {games} variant{'s' * (games != 1)}; {len(df)} "
        f"finished games; batch seed {config.seed}"
        + (f"; code {', '.join(sorted(df.code_version.unique()))}." if len(df) else ".")
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


def games_text(games: pd.Series) -> str:
    lo, hi = games.min(), games.max()
    return f"{lo} games each" if lo == hi else f"{lo}–{hi} games each"
