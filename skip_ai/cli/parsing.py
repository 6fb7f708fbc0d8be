"""The command line's parser and the option types its commands share."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """Bad options are one line (argparse's usage block buries it), with where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def at_least(low: int) -> Callable[[str], int]:
    """An option's type: a whole number ≥ ``low``."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low} (got {value})")
        return value

    return whole


positive, natural = at_least(1), at_least(0)


def given(value: int | None, default: int) -> int:
    """An option's value, or its default when it was not given (0 is a value, refused by
    the option's type, never a silent default)."""
    return default if value is None else value
