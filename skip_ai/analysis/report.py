"""``skip-ai report OUT``: the batch's tables and plots as ``OUT/report.md`` and
``OUT/figures/*.png``."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from skip_ai.analysis.balance import (
    CROSS_METRICS,
    SIDE_METRICS,
    balance_table,
    balance_wide,
    methods,
)
from skip_ai.analysis.bootstrap import check_samples
from skip_ai.analysis.frame import load_records
from skip_ai.analysis.plots import balance_plot, length_plot, ratings_plot, save, winrate_heatmap
from skip_ai.analysis.ratings import elo_ratings
from skip_ai.analysis.structure import structure_table
from skip_ai.analysis.winrate import pair_scores
from skip_ai.balance.metrics import STUDENT


def write_report(
    out_dir: str | Path,
    n_boot: int = 200,
    structure_games: int = 20,
    seed: int = 0,
    dest: str | Path | None = None,
) -> Path:
    """Analyse the records of the batch folder ``out_dir`` and write ``report.md`` there (or
    in ``dest``), with its PNG figures under ``figures/``; returns the report's path."""
    check_samples(n_boot)
    df = load_records(Path(out_dir))
    out = Path(dest) if dest is not None else Path(out_dir)
    # the game is judged between equal players only; unequal pairings measure the players
    selfplay, cross = df[df.agent_a == df.agent_b], df[df.agent_a != df.agent_b]

    def figure(fig, name: str) -> str:
        """Save ``fig`` under figures/ and link it."""
        return f"![{name}]({save(fig, out / 'figures' / f'{name}.png').relative_to(out)})"

    variants = df.game.nunique()
    agents = len(set(df.agent_a) | set(df.agent_b))
    lines = [
        f"# Report: {', '.join(sorted(df.batch.unique()))}",
        "",
        f"{len(df)} finished games ({len(selfplay)} in self-play, {len(cross)} between "
        f"different agents), {variants} variant{'s' * (variants != 1)}, {agents} "
        f"agent{'s' * (agents != 1)}; code {', '.join(sorted(df.code_version.unique()))}.",
        "",
        "Intervals are 95%: a percentile bootstrap over deals for the ratings, "
        "`skip_ai.stats.score_interval` (Wilson's over the effective number of deals) for "
        "duplicate scores, and for the metrics by variant the method named under each table.",
        "",
    ]
    if not cross.empty:
        ratings = elo_ratings(cross, n_boot=n_boot, seed=seed)
        skill = balance_table(cross, n_boot=n_boot, seed=seed)
        skill = skill[skill.metric.isin(CROSS_METRICS)]
        lines += [
            "## Cross-play: the agents",
            "",
            "Agents against other agents on duplicate deals. These games rate the "
            "players; they say nothing of the game's balance (unequal players).",
            "",
            "### Ratings",
            "",
            figure(ratings_plot(ratings), "ratings"),
            "",
            _table(ratings.round({"elo": 0, "lo": 0, "hi": 0})),
            "",
            "### Win rates (duplicate score of agent vs opponent)",
            "",
        ]
        for game in sorted(cross.game.unique()):
            lines += [
                f"#### {game}",
                "",
                figure(winrate_heatmap(cross, game), f"winrate_{_slug(game)}"),
                "",
            ]
        lines += [
            _table(pair_scores(cross).round(3)),
            "",
            "### Skill gap and length by variant",
            "",
            "Definitions: `skip_ai.analysis.balance`. Each cell: estimate [95% interval].",
            "",
            _table(balance_wide(skill).reset_index()),
            "",
            f"Intervals: {methods(skill)}.",
            "",
        ]
    lines += ["## Self-play: the game between equal players", ""]
    if selfplay.empty:
        lines += [
            "This batch has no self-play games (the same agent on every seat), so it "
            "measures no balance: side win rates pooled over unequal pairings would mix "
            "the game with the players. `skip-ai balance CONFIG.toml` measures balance "
            "along a skill ladder.",
            "",
        ]
    else:
        # one agent's self-play at a time: different players make different games
        balance = pd.concat(
            [
                balance_table(sub, n_boot=n_boot, seed=seed).assign(
                    game=lambda t, agent=agent: f"{agent} self-play: " + t.game
                )
                for agent, sub in selfplay.groupby("agent_a", sort=True)
            ],
            ignore_index=True,
        )
        balance = balance[balance.metric.isin(SIDE_METRICS)]
        lines += [
            figure(balance_plot(balance), "balance"),
            "",
            "Definitions: `skip_ai.analysis.balance` (team 0: the first half of the "
            "seats, moving first; Red in the games with colours). Each cell: estimate "
            "[95% interval].",
            "",
            _table(balance_wide(balance).reset_index()),
            "",
            f"Intervals: {methods(balance)}. The win and draw rates and their intervals are "
            "the balance study's (`skip_ai.balance.metrics.outcome_rates`, over the same deal "
            "units): `skip-ai balance` prints the same numbers for the same games.",
            "",
        ]
    structure = structure_table(sorted(df.game.unique()), structure_games, seed)
    lines += [
        f"Branching factor and decision moves, from {structure_games} random-play games "
        "per variant (records keep no legal moves); intervals over the games by "
        f"{STUDENT} (`skip_ai.stats.mean_interval`):",
        "",
        _table(structure.round(3)),
        "",
        "## Game length",
        "",
        figure(length_plot(df), "lengths"),
        "",
    ]
    path = out / "report.md"
    out.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))
    return path


def _table(df: pd.DataFrame) -> str:
    return df.to_markdown(index=False)


def _slug(game: str) -> str:
    """A file name for a game string."""
    return re.sub(r"[^A-Za-z0-9]+", "_", game).strip("_")
