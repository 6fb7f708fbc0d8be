"""The layers hold: core ← agents ← drivers, and every module imports on its own.

- **core**: cards, kernel, games, what a game declares (``spec``), its text and words, the table
  layouts' shared zones (``layout``), the pyspiel wrapper, its states' text form
  (``state_text``), mirrored deals (and the package's own ``__init__``);
- **agents**: everything under ``agents/``, with the files agents read;
- **drivers**: the rest of ``skip_ai`` (sim, duplicate, match, play, tournament, training,
  analysis, cli, ...).

A module may import its own layer and the layers below. The scan reads every import statement,
function-local ones included, and ``importlib.import_module`` calls (their constant prefix).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("skip_ai", "agents")
CORE = (
    "skip_ai.__init__",
    "skip_ai._numba_cache",
    "skip_ai.cards",
    "skip_ai.kernel",
    "skip_ai.games",
    "skip_ai.spec",
    "skip_ai.text",
    "skip_ai.words",
    "skip_ai.layout",
    "skip_ai.pyspiel_wrapper",
    "skip_ai.state_text",
    "skip_ai.mirror",
)
LAYERS = ("core", "agents", "drivers")


def module_names() -> dict[str, Path]:
    """Every module of our packages by dotted name (``pkg.__init__`` for a package's own
    file), found from the files alone: nothing is imported."""
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            out[".".join(path.relative_to(ROOT).with_suffix("").parts)] = path
    return out


def layer(module: str) -> int:
    """0 core, 1 agents, 2 drivers."""
    if module.split(".")[0] == "agents":
        return 1
    if any(module == c or module.startswith(c + ".") for c in CORE):
        return 0
    return 2


def imports(source: str, module: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, imported module) for every import of ours in ``source`` (the module
    ``module``), wherever it stands in the file."""
    package = (
        module.rsplit(".", 1)[0]
        if not module.endswith(".__init__")
        else module[: -len(".__init__")]
    )
    found = []

    def ours(name: str) -> str | None:
        if name.split(".")[0] not in PACKAGES:
            return None
        return name if name in known else f"{name}.__init__"

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, ours(a.name)) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for a in node.names:  # "from pkg import mod" imports the module pkg.mod
                sub = f"{base}.{a.name}"
                found.append(
                    (
                        node.lineno,
                        ours(sub) if sub in known or f"{sub}.__init__" in known else ours(base),
                    )
                )
        elif (
            isinstance(node, ast.Call)
            and node.args
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
        ):
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((node.lineno, ours(arg.value)))
            elif (
                isinstance(arg, ast.JoinedStr)
                and arg.values
                and isinstance(arg.values[0], ast.Constant)
            ):
                found.append((node.lineno, ours(arg.values[0].value.rstrip("."))))
    return [(line, name) for line, name in found if name is not None]


def violations(modules: dict[str, Path]) -> list[str]:
    known = set(modules)
    out = []
    for module, path in modules.items():
        for line, target in imports(path.read_text(), module, known):
            if layer(target) > layer(module):
                out.append(
                    f"{path.relative_to(ROOT)}:{line} ({LAYERS[layer(module)]}) imports "
                    f"{target.removesuffix('.__init__')} ({LAYERS[layer(target)]})"
                )
    return out


def test_no_layer_imports_a_higher_one():
    assert violations(module_names()) == []


def test_the_scan_sees_local_relative_and_importlib_imports():
    known = {
        "skip_ai.kernel.engine",
        "skip_ai.kernel.state",
        "skip_ai.sim",
        "agents.__init__",
        "agents.heuristics.__init__",
        "agents.heuristics.brook",
    }
    source = textwrap.dedent("""
        import numpy
        from .state import H_CUR
        def f():
            from agents.heuristics import brook
            import skip_ai.sim
            return importlib.import_module(f"agents.heuristics.{name}")
    """)
    found = imports(source, "skip_ai.kernel.engine", known)
    assert found == [
        (3, "skip_ai.kernel.state"),
        (5, "agents.heuristics.brook"),
        (6, "skip_ai.sim"),
        (7, "agents.heuristics.__init__"),
    ]
    assert [layer(m) for _, m in found] == [0, 1, 2, 1]


# Each module is imported in a child forked from a process that has loaded only third-party
# packages: none of ours is in sys.modules, so a cycle hidden by import order elsewhere shows.
_IMPORT_ALONE = """
import os, sys, traceback
import numpy, numba, pandas, pyarrow, pyspiel, tqdm  # the heavy third-party imports, once
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot
from open_spiel.python.algorithms import ismcts, mcts
assert not any(m.split(".")[0] in ("skip_ai", "agents") for m in sys.modules)


def alone(name):
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            __import__(name)
        except BaseException:
            print(f"--- import {name} alone failed:", flush=True)
            traceback.print_exc(file=sys.stdout)
            sys.stdout.flush()
            code = 1
        os._exit(code)
    return pid


names, running, failed = sys.argv[1:], set(), 0
while names or running:
    while names and len(running) < 2:  # two children at a time
        running.add(alone(names.pop()))
    pid, status = os.wait()
    running.discard(pid)
    failed += status != 0
sys.exit(1 if failed else 0)
"""


def test_every_module_imports_alone():
    names = sorted(m.removesuffix(".__init__") for m in module_names())
    r = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALONE, *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
