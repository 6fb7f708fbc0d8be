"""The progress bar of a batch: games recorded, this run's games per second and the time left.

The rate is this run's own, over its last :data:`WINDOW` finished games (all of them, from its
first, until there are that many). The games recorded by an earlier run (a resumed batch)
count towards the games done, never towards the rate: counted as finished at once they would
make a resumed batch look fast; and tqdm's smoothed rate, fed one large task at a time, swung
from hours to minutes (issue 48). Timing from the first finished game leaves out the run's
start, and the window lets the rate forget the first deals, slow while every (game, agent)
compiles its kernels, once they are over. The runner plays the deals interleaved across games
and pairs (:func:`skip_ai.tournament.schedule.schedule`), so a window of games is a fair sample
of the games left.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from tqdm import tqdm

WINDOW = 200
"""Games the rate is measured over: many deals of every (game, pair) in a small batch."""


class Progress:
    """Counts a run's games and says the time left; shows a bar unless ``show`` is False.

    ``clock`` (seconds, monotonic) is :func:`time.monotonic` but in tests."""

    def __init__(
        self,
        name: str,
        total: int,
        before: int,
        show: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.total, self.before, self.played = total, before, 0
        self._clock = clock
        # (when, games played by then) at each update of the last WINDOW games
        self._marks: deque[tuple[float, int]] = deque()
        self._bar = tqdm(
            total=total,
            initial=before,
            unit="game",
            desc=name,
            disable=not show,
            # tqdm's own rate and time left would count from its start with no notion of
            # this run's games: ours stand in the postfix
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]",
        )
        self._bar.set_postfix_str(self.describe(), refresh=False)

    def rate(self) -> float | None:
        """This run's games per second over its last :data:`WINDOW` games; None until it is
        measured (two updates apart in time)."""
        if not self._marks:
            return None
        then, played = self._marks[0]
        elapsed = self._clock() - then
        return (self.played - played) / elapsed if elapsed > 0 else None

    def time_left(self) -> float | None:
        """Seconds to the batch's end at this run's rate; None while it is not measured."""
        rate = self.rate()
        return (self.total - self.before - self.played) / rate if rate else None

    def describe(self) -> str:
        """The bar's postfix: this run's rate (over its last games) and the time left at that
        rate."""
        rate, left = self.rate(), self.time_left()
        if not rate or left is None:
            return "this run: rate not measured yet"
        return (
            f"this run: {rate:.2f} games/s over its last {self.played - self._marks[0][1]} games, "
            f"{_clock_text(left)} left at that rate"
        )

    def update(self, games: int = 1) -> None:
        self.played += games
        self._marks.append((self._clock(), self.played))
        while len(self._marks) > 1 and self.played - self._marks[1][1] >= WINDOW:
            self._marks.popleft()
        self._bar.set_postfix_str(self.describe(), refresh=False)
        self._bar.update(games)

    def close(self) -> None:
        self._bar.close()


def _clock_text(seconds: float) -> str:
    """``seconds`` as H:MM:SS (or M:SS under an hour)."""
    s = round(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"
