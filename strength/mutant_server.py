"""pytest plugin behind `mqspec strength --mutants`: the suite collected once, a forked child per mutant.

Theory of operation
-------------------
Starting pytest afresh for each of thousands of mutants spends its time importing and
collecting, and a surviving mutant costs a whole run of the suite.  This plugin is loaded
(with `-p strength.mutant_server`) into one pytest process in the pristine copy of the
project; after the collection it takes over the test loop:

1. Baseline.  Coverage has measured the core of reference/ since this module's import.  A
   forked child runs every collected test once, each in its own coverage context, and
   writes which tests ran each line, the lines the import and the collection ran, and each
   test's duration.  A test failing on the unchanged reference stops everything: no mutant
   could be judged.
2. Each mutant (a Cosmic Ray work item of the plan: module, operator, occurrence) is made by
   Cosmic Ray in memory; both versions of the module are compiled and compared code object
   by code object, nested code left out.  A change inside a function body is carried by
   patching `__code__` on every live function object made from that code, in a forked
   child, so every name bound to the function (methods, imports, tables) meets the mutant.
   The child runs only the tests that ran the mutated lines on the unchanged reference (a
   test that never reaches them cannot behave differently), fastest first, and stops at the
   first failure: killed by that test.  If no test ran the lines, the mutant survives
   without a run.  A change a patch cannot carry (module or class level, a decorator, a
   default value, code the import runs) is carried by importing the reference afresh in
   the child: its modules (and the adapter that hosts it) leave sys.modules and come back
   with the mutated text for the one module, as a copy of the file would give them.  An
   assignment or a definition at module or class level reaches a test only through the
   names it defines: the child runs the tests that run a line (of the reference or of the
   hosting adapter) naming one of them, or naming what a statement run at import defines
   from them, to a fixed point; for a definition, also those that run its body (a
   decorator may register it in a table that never names it).  Any other change, or one
   whose names a function run at import reads, can reach any test: every test runs,
   fastest first, those that name what it defines ahead of the others.
3. At most --mutant-jobs children run at once.  In a child each test may take ten times its
   baseline duration (ten seconds at least) before pytest-timeout fails it, so a mutant that
   makes a test wait for ever is killed by that test within seconds.  A child past its
   deadline (four times the baseline duration of its tests plus a minute) is killed: killed
   by the time-out.

One JSON line per mutant is appended to --mutant-out as it finishes, so an interrupted run
keeps what it did.  Hypothesis is derandomised here, so the machines explore in the
children exactly what they explored in the baseline.
"""

from __future__ import annotations

import ast
import gc
import importlib
import json
import os
import signal
import sys
import time
import types
from pathlib import Path

import coverage
import pytest
from hypothesis import settings

from .equivalent_mutants import ANNOTATION, in_annotation
from .loader import load

_REFERENCE = Path(__file__).resolve().parents[1] / "reference"
_HOST = _REFERENCE.parent / "adapters" / "in_process.py"   # the one module outside reference/ that reads it
_IMPORT = "import"   # the coverage context of everything before the first test
TIME_FACTOR, TIME_FLOOR = 10, 10.0   # a test's time-out in a child: 10 times its baseline duration, 10 s at least

_coverage = coverage.Coverage(data_file=None, include=[str(_REFERENCE / "*.py"), str(_HOST)], config_file=False)

def pytest_addoption(parser):
    group = parser.getgroup("mqspec mutants", "the fork server of mqspec strength --mutants")
    group.addoption("--mutant-plan", metavar="FILE", help="JSON list of the mutants to test")
    group.addoption("--mutant-out", metavar="FILE", help="JSON lines: one result per mutant, appended")
    group.addoption("--mutant-jobs", type=int, default=1, metavar="N", help="children at once")


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    plan_file = session.config.getoption("mutant_plan")
    if not plan_file:
        return None
    out = Path(session.config.getoption("mutant_out"))
    plan = json.loads(Path(plan_file).read_text(encoding="utf-8"))
    early = [name for name, module in sys.modules.items()
             if str(getattr(module, "__file__", "") or "").startswith(str(_REFERENCE))]
    if early:
        _abort(f"the collection imported {early[0]}, so the lines its import runs are unknown")
    settings.register_profile("mqspec-mutants", settings(derandomize=True, database=None))   # on the loaded one
    settings.load_profile("mqspec-mutants")
    _coverage.start()
    _coverage.switch_context(_IMPORT)
    for module in sorted(_REFERENCE.glob("*.py")):   # the suite imports the reference lazily: the children share one
        importlib.import_module(f"mqspec.reference.{module.stem}")
    importlib.import_module("mqspec.adapters.in_process")   # its import-time lines measured as the reference's are
    baseline = _baseline(session, out.with_name("baseline.json"))
    _coverage.stop()
    Server(session, baseline, out, session.config.getoption("mutant_jobs")).run(plan)
    return True


def _quiet() -> None:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)


def _run_items(session, order: list[int]) -> tuple[int, str | None]:
    """Run the items at `order` in a child; (tests run, node id of the first failure or None)."""
    items = session.items
    for position, index in enumerate(order):
        following = items[order[position + 1]] if position + 1 < len(order) else None
        items[index].config.hook.pytest_runtest_protocol(item=items[index], nextitem=following)
        if session.testsfailed:
            return position + 1, items[index].nodeid
    return len(order), None


def _verdict(session, decision: dict) -> list:
    """[tests run, node id of the first failure or None] of a child; the reference imported afresh first when the
    change needs it.  Each test may take TIME_FACTOR times its baseline duration, at least TIME_FLOOR seconds: a
    mutant that makes a test wait for ever is killed by that test's time-out, not after the suite's."""
    if "reload" in decision:
        try:
            _reload(*decision["reload"])
        except Exception as error:   # the mutated module does not import: the suite could not even start
            return [0, f"the import ({type(error).__name__}: {error})"]
    items = session.items
    for index, seconds in zip(decision["order"], decision["limits"], strict=True):
        items[index].add_marker(pytest.mark.timeout(seconds), append=False)   # pytest-timeout: it beats --timeout
    return list(_run_items(session, decision["order"]))


def _baseline(session, where: Path) -> dict:
    print(f"mqspec: mutants: the unchanged suite, {len(session.items)} tests, once under coverage", flush=True)
    begun = time.monotonic()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            _quiet()
            durations, failed = [], None
            for index, item in enumerate(session.items):
                _coverage.switch_context(str(index))
                started = time.perf_counter()
                _, failed = _run_items(session, [index])
                durations.append(time.perf_counter() - started)
                if failed:
                    break
            _coverage.stop()
            data = _coverage.get_data()
            lines, imported = {}, {}
            for name in data.measured_files():
                for line, contexts in data.contexts_by_lineno(name).items():
                    tests = sorted(int(context) for context in contexts if context.isdigit())
                    if tests:
                        lines.setdefault(name, {})[line] = tests
                    if _IMPORT in contexts:
                        imported.setdefault(name, []).append(line)
            where.write_text(json.dumps({"failed": failed, "durations": durations, "lines": lines,
                                         "imported": imported}), encoding="utf-8")
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    if status != 0 or not where.is_file():
        _abort("the baseline run under coverage died before writing its results")
    record = json.loads(where.read_text(encoding="utf-8"))
    if record["failed"]:
        _abort(f"the unchanged suite fails ({record['failed']}), so no mutant can be judged")
    print(f"mqspec: mutants: the unchanged suite passes in {time.monotonic() - begun:.0f} s under coverage "
          f"({sum(record['durations']):.0f} s in its tests)", flush=True)
    return {"durations": record["durations"],
            "lines": {os.path.realpath(name): {int(line): tests for line, tests in by_line.items()}
                      for name, by_line in record["lines"].items()},
            "imported": {os.path.realpath(name): set(by_line) for name, by_line in record["imported"].items()}}


def _abort(message: str) -> None:
    print(f"mqspec: mutants: {message}", flush=True)
    os._exit(3)


class Server:
    def __init__(self, session, baseline: dict, out: Path, jobs: int):
        self.session, self.baseline, self.out, self.jobs = session, baseline, out, max(1, jobs)
        self.live = _live_functions()
        self.sources: dict[str, tuple[str, dict, ast.Module]] = {}
        self.named_at: dict[str, dict[str, set[int]]] | None = None   # name -> file -> lines (mentions())
        self.indexed = [*sorted(_REFERENCE.glob("*.py")), _HOST]      # the files mentions() reads
        self.done = self.total = 0

    def run(self, plan: list[dict]) -> None:
        running: dict[int, tuple] = {}
        pending = list(plan)
        self.total = len(plan)
        while pending or running:
            while pending and len(running) < self.jobs:
                mutant = pending.pop(0)
                begun = time.monotonic()
                try:
                    decision = self.prepare(mutant)
                except Exception as error:   # Cosmic Ray's own failure (its ExceptionReplacer on an except tuple)
                    decision = {"outcome": "incompetent",
                                "output": f"Cosmic Ray could not make the mutant ({type(error).__name__}: {error})"}
                if "outcome" in decision:
                    self.emit(mutant, decision, time.monotonic() - begun)
                    continue
                result_file = self.out.with_name(f"child-{mutant['job']}.json")
                result_file.unlink(missing_ok=True)
                pid = os.fork()
                if pid == 0:
                    self.child(decision, result_file)
                running[pid] = (mutant, decision, result_file, begun, begun + decision["deadline"])
            self.reap(running)

    def reap(self, running: dict) -> None:
        pid, _ = os.waitpid(-1, os.WNOHANG) if running else (0, 0)
        if pid == 0:
            now = time.monotonic()
            for child, (mutant, decision, result_file, begun, deadline) in list(running.items()):
                if now > deadline:
                    os.kill(child, signal.SIGKILL)
                    os.waitpid(child, 0)
                    del running[child]
                    self.emit(mutant, {**decision, "outcome": "killed", "timed_out": True,
                                       "output": "timeout"}, now - begun)
            time.sleep(0.01)
            return
        mutant, decision, result_file, begun, _ = running.pop(pid)
        seconds = time.monotonic() - begun
        if not result_file.is_file():
            self.emit(mutant, {**decision, "outcome": "incompetent",   # the tool's failure, not a test's
                               "output": "the child died without a verdict"}, seconds)
            return
        ran, failed = json.loads(result_file.read_text(encoding="utf-8"))
        result_file.unlink()
        verdict = ({"outcome": "killed", "output": f"killed by {failed}"} if failed else
                   {"outcome": "survived", "output": f"survived the {ran} tests that run its lines"})
        self.emit(mutant, {**decision, **verdict, "tests": ran}, seconds)

    def child(self, decision: dict, result_file: Path) -> None:
        status = 1
        try:
            _quiet()
            for function, attribute, value in decision["changes"]:
                setattr(function, attribute, value)
            result_file.write_text(json.dumps(_verdict(self.session, decision)), encoding="utf-8")
            status = 0
        finally:
            os._exit(status)

    def emit(self, mutant: dict, decision: dict, seconds: float) -> None:
        row = {"job": mutant["job"], "outcome": decision["outcome"], "output": decision.get("output", ""),
               "diff": decision.get("diff", ""), "tests": decision.get("tests", 0),
               "timed_out": decision.get("timed_out", False), "seconds": round(seconds, 2)}
        with self.out.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(row) + "\n")
        self.done += 1
        print(f"  [{self.done}/{self.total}] {Path(mutant['module']).name}:{mutant['start'][0]} "
              f"{mutant['operator']}: {row['outcome']} ({seconds:.1f} s, {row['tests']} tests)", flush=True)

    def prepare(self, mutant: dict) -> dict:
        """What a mutant needs: an outcome already (no test, process, no mutation), or patches and tests to run."""
        import cosmic_ray.plugins
        from cosmic_ray.mutating import _make_diff, mutate_code
        path = os.path.realpath(mutant["module"])
        original, codes, tree = self.module(path)
        operator = cosmic_ray.plugins.get_operator(mutant["operator"])(**mutant.get("operator_args", {}))
        mutated = mutate_code(original, operator, mutant["occurrence"])
        if mutated is None:
            return {"outcome": "no-test", "output": "Cosmic Ray found nothing to change"}
        diff = "\n".join(_make_diff(original, mutated, mutant["relative"]))
        try:
            mutated_codes = _code_index(compile(mutated, path, "exec"))
        except SyntaxError as error:
            return {"outcome": "incompetent", "output": f"the mutant does not compile: {error}", "diff": diff}
        if in_annotation(tree, tuple(mutant["start"])):
            return {"outcome": "survived", "diff": diff, "output": ANNOTATION}
        patches = _patches(codes, mutated_codes, self.live, path)
        if patches is not None:
            first, last = _statement_lines(tree, mutant["start"], mutant["end"])
            if any(line in self.baseline["imported"].get(path, ()) for line in range(first, last + 1)):
                return self.reloaded(path, mutated, tree, mutant, diff)   # code the import runs
            changes = [(function, "__code__", code) for functions, code in patches for function in functions]
        else:
            default = _default_change(original, mutated, tuple(mutant["start"]), self.live, path)
            if default is None:
                return self.reloaded(path, mutated, tree, mutant, diff)   # module or class level
            changes, (first, last) = default
        covering = set()
        for line in range(first, last + 1):
            covering.update(self.baseline["lines"].get(path, {}).get(line, ()))
        if not covering:
            return {"outcome": "survived", "diff": diff, "output": "no test runs its lines"}
        durations = self.baseline["durations"]
        order = sorted(covering, key=lambda index: durations[index])
        return {"changes": changes, "order": order, "diff": diff, "limits": _limits(durations, order),
                "deadline": 60.0 + 4 * sum(durations[index] for index in order)}

    def reloaded(self, path: str, mutated: str, tree: ast.Module, mutant: dict, diff: str) -> dict:
        """The tests that can meet a change the reference's import carries (the theory of operation), fastest
        first; every test when its reach cannot be bounded, those naming what it defines first."""
        start = tuple(mutant["start"])
        names = _defined_names(tree, start)
        statement = _level_statement(tree, start)
        reach = self.reach(names) if names else None
        near = set()
        for module_path, lines in (reach or self.mentions(names)).items():
            for line in lines:
                near.update(self.baseline["lines"].get(module_path, {}).get(line, ()))
        durations = self.baseline["durations"]
        if reach is not None and isinstance(statement, _BOUNDED):
            if isinstance(statement, _DEFINITIONS):   # what its decorators registered runs its body
                for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
                    near.update(self.baseline["lines"].get(path, {}).get(line, ()))
            if not near:
                return {"outcome": "survived", "diff": diff, "output": "no test runs a line naming what it defines"}
            order = sorted(near, key=lambda index: durations[index])
            return {"changes": [], "reload": (path, mutated), "order": order, "diff": diff,
                    "limits": _limits(durations, order), "deadline": 60.0 + 4 * sum(durations[i] for i in order)}
        order = sorted(range(len(durations)), key=lambda index: (index not in near, durations[index]))
        return {"changes": [], "reload": (path, mutated), "order": order, "diff": diff,
                "limits": _limits(durations, order), "deadline": 60.0 + 4 * sum(durations)}

    def reach(self, names: set[str]) -> dict[str, set[int]] | None:
        """file -> lines naming `names` or what a module- or class-level statement naming one of them defines, to
        a fixed point; None when a function the import calls names one (what it builds is not bound by name)."""
        names = set(names)
        while True:
            found, more = self.mentions(names), set()
            for module_path, lines in found.items():
                tree = self.module(module_path)[2]
                for line in lines & self.baseline.get("imported", {}).get(module_path, set()):
                    if _in_function_body(tree, line):
                        return None
                    more |= _defined_names(tree, (line, 0))
            if more <= names:
                return found
            names |= more

    def mentions(self, names: set[str]) -> dict[str, set[int]]:
        """file -> lines of the reference and its hosting adapter that name one of `names` (a variable, an
        attribute, an import); the index of every name is built at the first call."""
        if self.named_at is None:
            self.named_at = {}
            for module in self.indexed:
                path = os.path.realpath(module)
                for node in ast.walk(self.module(path)[2]):
                    name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                            else node.name if isinstance(node, ast.alias) else None)
                    if name is not None:
                        self.named_at.setdefault(name, {}).setdefault(path, set()).add(node.lineno)
        found: dict[str, set[int]] = {}
        for name in names:
            for path, lines in self.named_at.get(name, {}).items():
                found.setdefault(path, set()).update(lines)
        return found

    def module(self, path: str) -> tuple[str, dict, ast.Module]:
        """The module's text, its code objects and its syntax tree, read once."""
        if path not in self.sources:
            text = Path(path).read_text(encoding="utf-8")
            self.sources[path] = (text, _code_index(compile(text, path, "exec")), ast.parse(text))
        return self.sources[path]


def _limits(durations: list[float], order: list[int]) -> list[float]:
    return [max(TIME_FLOOR, TIME_FACTOR * durations[index]) for index in order]


def _reload(path: str, text: str) -> None:
    """The reference imported afresh with `text` as the module at `path`, with the adapter that hosts it (the
    only module outside reference/ that imports it; the suite reaches it through adapters.connect)."""
    for name in [name for name in sys.modules
                 if name.startswith("mqspec.reference.") or name in ("mqspec.reference", "mqspec.adapters.in_process")]:
        del sys.modules[name]
    original = Path(path).read_text(encoding="utf-8")
    load("mqspec.reference", {Path(path).stem: [(original, text)]})   # the variants' loader, under the reference's name
    for module in sorted(_REFERENCE.glob("*.py")):
        importlib.import_module(f"mqspec.reference.{module.stem}")


def _defined_names(tree: ast.Module, start: tuple[int, int]) -> set[str]:
    """What the module- or class-level statement around `start` defines, with the classes around it."""
    names: set[str] = set()
    body = tree.body
    while True:
        around = next((node for node in body if node.lineno <= start[0] <= (node.end_lineno or node.lineno)), None)
        if around is None:
            return names
        if isinstance(around, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(around.name)
        if isinstance(around, (ast.Import, ast.ImportFrom)):   # a name bound to another module's definition
            names.update((alias.asname or alias.name).split(".")[0] for alias in around.names)
        targets = (around.targets if isinstance(around, ast.Assign) else
                   [around.target] if isinstance(around, (ast.AnnAssign, ast.AugAssign)) else [])
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, (ast.Name, ast.Attribute)):
                    names.add(node.id if isinstance(node, ast.Name) else node.attr)
        if not isinstance(around, ast.ClassDef):
            return names
        body = around.body


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BOUNDED = (ast.Assign, ast.AnnAssign, ast.AugAssign, *_DEFINITIONS)   # reach a test only through what they define


def _level_statement(tree: ast.Module, start: tuple[int, int]) -> ast.stmt | None:
    """The innermost module- or class-level statement around `start` (a method's `def`, not its body)."""
    body, found = tree.body, None
    while True:
        around = next((node for node in body if node.lineno <= start[0] <= (node.end_lineno or node.lineno)), None)
        if around is None:
            return found
        found = around
        if not isinstance(around, ast.ClassDef):
            return found
        body = around.body


def _in_function_body(tree: ast.Module, line: int) -> bool:
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
               and node.body[0].lineno <= line <= (node.end_lineno or node.lineno) for node in ast.walk(tree))


def _live_functions(root: Path = _REFERENCE) -> dict:
    """Every function object made from code under `root`: (file, qualified name, first line) -> [functions]."""
    live: dict[tuple, list] = {}
    for thing in gc.get_objects():
        if isinstance(thing, types.FunctionType):
            code = thing.__code__
            if code.co_filename.startswith(str(root)):
                key = (os.path.realpath(code.co_filename), code.co_qualname, code.co_firstlineno)
                live.setdefault(key, []).append(thing)
    return live


def _code_index(module: types.CodeType) -> dict:
    """(qualified name, first line) -> (code, parent key) for every code object of a module."""
    index: dict[tuple, tuple] = {}

    def visit(code: types.CodeType, parent: tuple | None) -> None:
        key = (code.co_qualname, code.co_firstlineno)
        index[key] = (code, parent)
        for constant in code.co_consts:
            if isinstance(constant, types.CodeType):
                visit(constant, key)

    visit(module, None)
    return index


def _shallow(code: types.CodeType) -> tuple:
    """A code object's own content; nested code stands only by its name, positions only by their lines (a longer
    operator in a method moves the end column of the class body's `def` statement, nothing else)."""
    constants = tuple(("code", constant.co_qualname, constant.co_firstlineno) if isinstance(constant, types.CodeType)
                      else (type(constant).__name__, repr(constant)) for constant in code.co_consts)
    return (code.co_code, constants, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
            code.co_flags, code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, tuple(code.co_lines()),
            code.co_exceptiontable)


def _patches(original: dict, mutated: dict, live: dict, path: str) -> list | None:
    """[(live functions, their mutated code)] carrying the change, or None if a patch cannot carry it."""
    if original.keys() != mutated.keys():
        return None
    patches, patched = [], set()
    for key, (code, _) in original.items():
        if _shallow(code) == _shallow(mutated[key][0]):
            continue
        while True:   # up to the nearest enclosing code that live functions run (never a class body)
            _, parent = original[key]
            if parent is None:
                return None   # up to the module's own code: a class body or the module changed
            functions = live.get((path, *key))
            if functions:
                if key not in patched:
                    patched.add(key)
                    patches.append((functions, mutated[key][0]))
                break
            key = parent
    return patches or None


def _default_change(original: str, mutated: str, start: tuple[int, int], live: dict, path: str):
    """([(function, "__defaults__" or "__kwdefaults__", new value)], lines of the function's body) when the change
    is to a literal default value of a live function, else None."""
    def defaults(tree):
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for index, value in enumerate(node.args.defaults):
                    yield node, "__defaults__", index, value
                for argument, value in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True):
                    if value is not None:
                        yield node, "__kwdefaults__", argument.arg, value

    def at(tree):
        for node, attribute, slot, value in defaults(tree):
            if (value.lineno, value.col_offset) <= start < (value.end_lineno, value.end_col_offset):
                return node, attribute, slot, value
        return None

    before, after = at(ast.parse(original)), at(ast.parse(mutated))
    if before is None or after is None or (before[0].lineno, before[2]) != (after[0].lineno, after[2]):
        return None
    try:
        value = ast.literal_eval(after[3])
    except ValueError:
        return None
    node, attribute, slot = before[0], before[1], before[2]
    first_line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    functions = [function for (file, _, line), found in live.items() if file == path and line == first_line
                 for function in found if function.__name__ == node.name]
    if not functions:
        return None
    changes = []
    for function in functions:
        if attribute == "__defaults__":
            new = list(function.__defaults__)
            new[slot] = value
            changes.append((function, attribute, tuple(new)))
        else:
            changes.append((function, attribute, {**function.__kwdefaults__, slot: value}))
    return changes, (node.body[0].lineno, node.end_lineno or node.body[0].lineno)


def _statement_lines(tree: ast.Module, start: list[int], end: list[int]) -> tuple[int, int]:
    """The lines whose execution can meet the change: the innermost statement around it (a compound statement's
    header only)."""
    first, last = start[0], end[0]
    best = None
    for node in ast.walk(tree):
        if (isinstance(node, ast.stmt) and node.lineno <= first and (node.end_lineno or node.lineno) >= last
                and (best is None or node.lineno >= best.lineno)):
            best = node
    if best is None:
        return first, last
    body = getattr(best, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
        return best.lineno, max(last, best.lineno)
    return best.lineno, max(last, best.end_lineno or best.lineno)


if __name__ == "__main__":   # pragma: no cover - a plugin, not a program
    sys.exit("load with: python -m pytest features -p strength.mutant_server --mutant-plan PLAN --mutant-out OUT")
