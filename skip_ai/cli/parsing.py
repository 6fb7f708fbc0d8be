"""The command line's parser and the option types its commands share."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """Bad options are one line (argparse's usage block buries it), with where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_WHOLE = re.compile(r"^\s*[+-]?[0-9][0-9_]*\s*$")
INT64_MAX = (1 << 63) - 1
"""No whole-number option is larger: every one reaches numpy or a kernel as an int64."""


def at_least(low: int, most: int = INT64_MAX) -> Callable[[str], int]:
    """An option's type: a whole number ≥ ``low`` and ≤ ``most`` (an int64 unless stated)."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            if _WHOLE.match(text):  # more digits than Python converts (4300)
                raise argparse.ArgumentTypeError(
                    f"must be at most {most:_} (got {len(text.strip())} digits)"
                ) from None
            shown = text if len(text) <= 40 else f"{text[:37]}..."
            raise argparse.ArgumentTypeError(f"expected a whole number, got {shown!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low} (got {value})")
        if value > most:
            shown = str(value) if value.bit_length() <= 64 else f"{len(text.strip())} digits"
            raise argparse.ArgumentTypeError(f"must be at most {most:_} (got {shown})")
        return value

    return whole


positive, natural = at_least(1), at_least(0)


def given(value: int | None, default: int) -> int:
    """An option's value, or its default when it was not given (0 is a value, refused by
    the option's type, never a silent default)."""
    return default if value is None else value
