"""Every ``skip-ai`` command in the README (and in docs/cli.md) works as written, in the order
given: the command line parses, every config or file it reads is in the repository, and every
folder or file it reads from ``runs/`` is one an earlier command of the same page writes.

So a newcomer who runs the page top to bottom never meets "no records at runs/…" — the test
fails as soon as a page names a folder nothing before it creates."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from skip_ai.balance.search_config import is_search_file, load_search_config
from skip_ai.balance.study import load as load_study
from skip_ai.balance.study import quick_config_path
from skip_ai.cli import build_parser
from skip_ai.tournament.config import load_config

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/cli.md")


def commands(page: str) -> list[list[str]]:
    """The ``skip-ai`` command lines of the page's bash blocks, in order (comments dropped,
    ``a && b`` split, a ``.venv/bin/`` prefix removed)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0].removeprefix(".venv/bin/") == "skip-ai":
                    found.append(words[1:])
    return found


def reads_and_writes(args) -> tuple[list[str], list[str]]:
    """The paths a parsed command reads and the ones it writes (relative to the repository)."""
    command = args.command
    if command in ("balance", "tournament"):
        config = args.config
        out = getattr(args, "out", None)
        if out is None:
            if command == "balance" and (args.search or (config and is_search_file(config))):
                out = str(load_search_config(config or quick_config_path(), args.search).study.out)
            else:
                loaded = load_study(config) if command == "balance" else load_config(ROOT / config)
                out = str(loaded.out)
        reads = [config] if config else []
        if command == "balance" and args.report_to:
            return [*reads, out], [args.report_to]
        return reads, [out]
    if command == "report":
        return [args.out], [args.out]
    if command == "serve":
        return ([args.records] if args.records else []), []
    if command in ("train",):
        return [args.config], []
    if command == "tune":
        balance = getattr(args, "balance", None)
        return ([balance] if balance else []), [args.out]
    if command in ("simulate", "positions"):
        return [], [args.out] if getattr(args, "out", None) else []
    return [], []


@pytest.mark.parametrize("page", PAGES)
def test_every_command_parses_and_reads_only_what_exists_or_was_made(page):
    parser = build_parser()
    made: set[str] = set()
    lines = commands(page)
    assert lines, f"{page} has no skip-ai command"
    for words in lines:
        try:
            args = parser.parse_args(words)
        except SystemExit:
            pytest.fail(f"{page}: `skip-ai {shlex.join(words)}` does not parse")
        reads, writes = reads_and_writes(args)
        for path in reads:
            norm = str(Path(path))
            if norm.startswith("runs"):
                assert norm in made, (
                    f"{page}: `skip-ai {shlex.join(words)}` reads {path}, which no earlier "
                    "command of the page makes"
                )
            else:
                assert (ROOT / path).exists(), f"{page}: {path} is not in the repository"
        made.update(str(Path(p)) for p in writes)


def test_the_walk_sees_the_quick_start_and_a_folder_read_back():
    """The parser of the pages finds the commands the newcomer runs first (a page rewritten
    into another shape must not make the walk above check nothing)."""
    readme = [words[0] for words in commands("README.md") if words]
    assert readme[0] == "balance"
    assert {"report", "tournament", "match", "serve", "play"} <= set(readme)
