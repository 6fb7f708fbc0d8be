"""What several commands print alike: who each score belongs to, an interrupted run."""

from __future__ import annotations

import sys
from pathlib import Path

import pyspiel


def score_names(game: pyspiel.Game) -> list[str]:
    """Who each number of ``scores()`` belongs to: the teams, or the seats."""
    if game.spec.team_game:
        return list(game.spec.team_names)
    return [f"seat {q}" for q in range(game.num_players())]


def interrupted(kept: str, out: Path) -> int:
    """Ctrl-C during a resumable run: say what is kept where; the exit status 130."""
    print(
        f"\nskip-ai: interrupted; {kept} {out}: run the same command again to resume",
        file=sys.stderr,
    )
    return 130
