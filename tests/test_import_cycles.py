"""Our modules (``skip_ai/**``, ``agents/**``) import each other without a cycle.

The graph is read from the source alone, with :mod:`test_layering`'s scan: every import
statement, module-level and function-local, and ``importlib.import_module`` calls. Imports under
``if TYPE_CHECKING:`` are left out: they never run (they are how an annotation names a type
without the import). A package's ``__init__`` imported implicitly before its submodules is not
an edge either: only what a module's text imports.
"""

from __future__ import annotations

import ast
import textwrap

from test_layering import imports, module_names


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """The lines of every ``if TYPE_CHECKING:`` block's body."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = getattr(test, "id", None) or getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for child in node.body:
                    lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def runtime_imports(source: str, module: str, known: set[str]) -> set[str]:
    """The modules of ours that ``module`` (its ``source``) imports when it runs."""
    skip = _type_checking_lines(ast.parse(source))
    return {target for line, target in imports(source, module, known) if line not in skip} - {
        module
    }


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    known = set(modules)
    return {m: runtime_imports(path.read_text(), m, known) for m, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of ``graph`` that has one, as the
    modules in import order (the first again at the end)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_in(graph, c) for c in components]


def _cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the first module of ``component`` (breadth first)."""
    start = min(component)
    came_from = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    path = [v]
                    while came_from[path[-1]] is not None:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle in the component {sorted(component)}")


def test_our_modules_import_each_other_without_a_cycle():
    found = cycles(import_graph())
    shown = [" -> ".join(m.removesuffix(".__init__") for m in c) for c in found]
    assert not found, "import cycles among our modules:\n" + "\n".join(shown)


def test_the_cycle_check_finds_and_shows_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_imports_that_only_type_checkers_run_are_no_edges():
    known = {"skip_ai.x", "skip_ai.y", "skip_ai.z"}
    source = textwrap.dedent("""
        from typing import TYPE_CHECKING
        from skip_ai.y import f
        if TYPE_CHECKING:
            from skip_ai.z import Config
        def g():
            import skip_ai.z
    """)
    assert runtime_imports(source, "skip_ai.x", known) == {"skip_ai.y", "skip_ai.z"}
    assert runtime_imports(
        source.replace("    import skip_ai.z", "    pass"), "skip_ai.x", known
    ) == {"skip_ai.y"}


def test_the_scan_covers_our_packages():
    graph = import_graph()
    assert "agents.factory" in graph and "skip_ai.match" in graph
    assert "agents.random_agent" in graph["agents.factory"]  # the table of agent kinds
    assert "agents.factory" not in graph["agents.random_agent"]  # no registration back
