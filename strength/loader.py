"""Loading the reference's sources again, under another package name, with textual changes.

`load(package, changes)` imports `reference/*.py` afresh as the package `package`:
each module's source is read, every (old, new) change for that module is applied
(old must occur exactly once, so a change that no longer fits the code fails loudly
instead of silently testing nothing), and the result is compiled and executed as a
module of the new package.  The reference's relative imports then resolve inside
the new package, so its classes and enums are its own; nothing of the original
package is touched.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent / "reference"


class ChangeError(ValueError):
    """A change whose text is not in the module exactly once."""


class _Loader(importlib.abc.Loader):
    def __init__(self, path: Path | None, changes: list[tuple[str, str]]) -> None:
        self.path, self.changes = path, changes   # path None: the package itself, which has no code

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        if self.path is None:
            return
        source = self.path.read_text(encoding="utf-8")
        for old, new in self.changes:
            if source.count(old) != 1:
                raise ChangeError(f"{self.path.name}: the text to change occurs {source.count(old)} times, "
                                  f"not once: {old[:60]!r}")
            source = source.replace(old, new)
        # the changed source, run as the module: what the loader is for
        exec(compile(source, str(self.path), "exec"), module.__dict__)  # noqa: S102


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, package: str, changes: dict[str, list[tuple[str, str]]]) -> None:
        self.package, self.changes = package, changes

    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.package:
            spec = importlib.machinery.ModuleSpec(fullname, _Loader(None, []), is_package=True)
            spec.submodule_search_locations = [str(REFERENCE)]
            return spec
        prefix, _, name = fullname.rpartition(".")
        if prefix != self.package or not (REFERENCE / f"{name}.py").is_file():
            return None
        path = REFERENCE / f"{name}.py"
        return importlib.util.spec_from_file_location(fullname, path, loader=_Loader(path, self.changes.get(name, [])))


def load(package: str, changes: dict[str, list[tuple[str, str]]]):
    """The reference as `package`, each module changed as `changes` says; modules load on import."""
    unknown = [name for name in changes if not (REFERENCE / f"{name}.py").is_file()]
    if unknown:
        raise ChangeError(f"no module reference/{unknown[0]}.py")
    if package not in sys.modules:
        sys.meta_path.insert(0, _Finder(package, changes))
    module = importlib.import_module(package)
    for name in changes:   # apply every change now, so a stale one fails at once
        importlib.import_module(f"{package}.{name}")
    return module
