"""One import name, and imports that point one way.

Every part of the suite is a subpackage of mqspec (pyproject.toml maps the checkout's top-level folders into
it), and every import in the repository, tests and benchmarks included, uses that one name.  The modules of
the package import each other without a circle, and the parts keep the direction of the design: reference/
imports only the protocol's vocabulary, protocol/ nothing of the others, adapters/ never the steps that use them, reports/ reads files and never the
code that wrote them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = {"mqspec": "mqspec", "protocol": "mqspec.protocol", "reference": "mqspec.reference",
         "adapters": "mqspec.adapters", "steps": "mqspec.steps", "features": "mqspec.features",
         "reports": "mqspec.reports", "strength": "mqspec.strength", "shims": "mqspec.shims"}
# part -> the parts it may import (besides itself)
ALLOWED = {
    "protocol": set(),
    "reference": {"protocol"},
    "reports": {"mqspec"},                                   # the catalogue and the suite's version
    "adapters": {"protocol", "reference", "mqspec"},         # in_process hosts the reference; never the steps
    "steps": {"protocol", "adapters", "mqspec"},             # never reference/: the suite judges by the spec
    "features": {"protocol", "adapters", "steps", "mqspec"},
    "shims": {"protocol", "adapters", "mqspec"},             # clients under test: never the suite's steps
}


def _sources():
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0] not in (".venv", "results", "build", "dist") and not relative.parts[0].startswith("."):
            yield path


def _modules() -> dict[str, Path]:
    modules = {}
    for folder, package in PARTS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [part for part in path.relative_to(ROOT / folder).with_suffix("").parts if part != "__init__"]
            modules[".".join([package, *parts])] = path
    return modules


def _imported(name: str, path: Path) -> list[str]:
    """Every module name an import of the file may mean (a `from X import y` may import X or X.y)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[:len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            found += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return found


def test_every_import_uses_the_one_name():
    """No file of the repository imports a part by its folder's name (`import reference`): only mqspec.<part>."""
    old = set(PARTS) - {"mqspec"}
    wrong = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
            wrong += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names
                      if name.split(".")[0] in old]
    assert not wrong, "\n".join(wrong)


def test_no_module_of_the_package_imports_itself_round_a_circle():
    modules = _modules()
    graph = {name: {other for other in _imported(name, path) if other in modules and other != name}
             for name, path in modules.items()}
    circles, state = [], {}

    def visit(name, trail):
        state[name] = "open"
        for other in sorted(graph[name]):
            if state.get(other) == "open":
                circles.append(" -> ".join(trail[trail.index(other):] + [other]))
            elif other not in state:
                visit(other, trail + [other])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not circles, "\n".join(circles)


def test_the_parts_import_in_the_direction_of_the_design():
    modules = _modules()
    wrong = []
    for name, path in modules.items():
        part = next(folder for folder, package in PARTS.items() if name == package or name.startswith(package + "."))
        if part not in ALLOWED:
            continue
        for other in _imported(name, path):
            if not other.startswith("mqspec"):
                continue
            pieces = other.split(".")
            target = pieces[1] if len(pieces) > 1 and pieces[1] in PARTS else "mqspec"
            if target != part and target not in ALLOWED[part]:
                wrong.append(f"{path.relative_to(ROOT)} imports {other}")
    assert not wrong, "\n".join(sorted(set(wrong)))
