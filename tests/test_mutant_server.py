"""strength/mutant_server.py: how a Cosmic Ray mutant becomes a patch of live functions, and which lines a test
must run to meet it (the fork server of `mqspec strength --mutants`, issue 9)."""

from __future__ import annotations

import ast
import json
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mqspec.strength.equivalent_mutants import in_annotation
from mqspec.strength.mutant_server import (
    Server,
    _code_index,
    _default_change,
    _defined_names,
    _limits,
    _live_functions,
    _patches,
    _statement_lines,
)

MODULE = textwrap.dedent('''\
    from __future__ import annotations

    LIMIT = 3


    def twice(value: int | None, extra=1, *, scale: int = 2):
        return value * scale + extra


    class Counter:
        start = 10

        def bump(self, by):
            return self.start + by

        def picky(self, values):
            return [v for v in values if v > LIMIT]

        def later(self):
            return lambda x: x - 1

        def long_condition(self, a, b):
            if (a > 1 and
                    b > 2):
                return "both"
            return "not both"
    ''')


@pytest.fixture
def module(tmp_path):
    """MODULE imported from a file of its own, so its functions are live and found under tmp_path."""
    path = tmp_path / "sample_mutated.py"
    path.write_text(MODULE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("sample_mutated", path)
    loaded = importlib.util.module_from_spec(spec)
    sys.modules["sample_mutated"] = loaded
    spec.loader.exec_module(loaded)
    yield loaded, path
    del sys.modules["sample_mutated"]


def patch(module, old: str, new: str):
    _, path = module
    mutated = MODULE.replace(old, new, 1)
    assert mutated != MODULE
    original = _code_index(compile(MODULE, str(path), "exec"))
    changed = _code_index(compile(mutated, str(path), "exec"))
    return _patches(original, changed, _live_functions(path.parent), str(path))


def apply(patches):
    for functions, code in patches:
        for function in functions:
            function.__code__ = code


def test_a_change_in_a_function_body_patches_that_function_and_every_name_bound_to_it(module):
    loaded, _ = module
    bound_elsewhere = loaded.twice
    patches = patch(module, "value * scale + extra", "value * scale - extra")
    assert [functions[0].__name__ for functions, _ in patches] == ["twice"]
    apply(patches)
    assert loaded.twice(5) == 9 and bound_elsewhere(5) == 9


def test_a_longer_operator_in_a_method_is_not_mistaken_for_a_change_of_the_class_body(module):
    loaded, _ = module
    patches = patch(module, "self.start + by", "self.start ** by")
    assert [functions[0].__qualname__ for functions, _ in patches] == ["Counter.bump"]
    apply(patches)
    assert loaded.Counter().bump(2) == 100


def test_a_change_inside_a_comprehension_or_a_lambda_patches_the_enclosing_method(module):
    loaded, _ = module
    apply(patch(module, "if v > LIMIT]", "if v >= LIMIT]"))
    assert loaded.Counter().picky([2, 3, 4]) == [3, 4]
    apply(patch(module, "lambda x: x - 1", "lambda x: x + 1"))
    assert loaded.Counter().later()(1) == 2


@pytest.mark.parametrize("old, new", [
    ("LIMIT = 3", "LIMIT = 4"),                     # module level
    ("start = 10", "start = 11"),                   # a class body
    ("extra=1", "extra=2"),                         # a default, evaluated by the module's code
])
def test_a_change_no_patch_can_carry_is_left_to_a_fresh_import(module, old, new):
    assert patch(module, old, new) is None


@pytest.mark.parametrize("text, names", [("LIMIT = 3", {"LIMIT"}), ("start = 10", {"Counter", "start"}),
                                         ("def bump(self, by)", {"Counter", "bump"}), ("", set())])
def test_what_a_module_or_class_level_change_defines_orders_the_tests_that_name_it_first(text, names):
    at = position(text) if text else (2, 0)   # line 2: blank, outside every statement
    assert _defined_names(ast.parse(MODULE), at) == names


def test_a_fresh_import_carries_a_module_level_change_to_the_hosting_adapter_and_its_defaults():
    """In a process of its own (the import replaces the reference's modules): a changed constant of remote_read
    reaches the cleanup period of a queue manager the adapter hosts, which takes it as a default argument."""
    root = Path(__file__).resolve().parent.parent
    path = root / "reference" / "remote_read.py"
    original = path.read_text(encoding="utf-8")
    constant = next(line for line in original.splitlines() if line.startswith("DEFAULT_CLEANUP_MS = "))
    mutated = original.replace(constant, "DEFAULT_CLEANUP_MS = 1234", 1)
    script = textwrap.dedent(f"""\
        import mqspec.adapters.in_process, mqspec.reference.queue_manager   # the adapter imported first: it must come again
        from mqspec.strength.mutant_server import _reload
        before = mqspec.reference.queue_manager.QueueManager
        _reload({str(path)!r}, {mutated!r})
        import mqspec.reference.queue_manager
        target = mqspec.adapters.connect("reference")
        print(target.server.pending_request_cleanup_ms, mqspec.reference.queue_manager.QueueManager is before)
        target.close()
        """)
    run = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["1234", "False"], run.stderr[-2000:]


def test_lines_a_test_must_run_to_meet_the_change():
    # a simple statement: all its lines; a compound statement: its header only, however the body runs
    body, column = position("value * scale + extra")
    assert _statement_lines(ast.parse(MODULE), [body, column], [body, column + 5]) == (body, body)
    header = MODULE.splitlines().index("        if (a > 1 and") + 1
    assert _statement_lines(ast.parse(MODULE), [header + 1, 20], [header + 1, 21]) == (header, header + 1)
    assert _statement_lines(ast.parse(MODULE), [header, 15], [header, 16]) == (header, header)


def position(text: str) -> tuple[int, int]:
    for number, line in enumerate(MODULE.splitlines(), start=1):
        if text in line:
            return number, line.index(text)
    raise AssertionError(text)


@pytest.mark.parametrize("old, new, expected", [("extra=1", "extra=2", 2 * 5 + 2),
                                                   ("scale: int = 2", "scale: int = 3", 3 * 5 + 1)])
def test_a_literal_default_is_patched_into_the_live_function(module, old, new, expected):
    loaded, path = module
    line, column = position(old)
    start = (line, column + len(old) - 1)   # the default's digit, where Cosmic Ray's change starts
    changes, lines = _default_change(MODULE, MODULE.replace(old, new, 1), start, _live_functions(path.parent),
                                     str(path))
    for function, attribute, value in changes:
        setattr(function, attribute, value)
    assert loaded.twice(5) == expected
    assert lines == (position("return value * scale")[0],) * 2   # the tests that call it: those that run its body


def test_a_change_inside_a_postponed_annotation_is_recognised():
    assert in_annotation(ast.parse(MODULE), position("int | None"))
    assert not in_annotation(ast.parse(MODULE), position("value * scale + extra"))
    assert not in_annotation(ast.parse(MODULE.replace("from __future__ import annotations", "")),
                             position("int | None"))


def test_a_test_in_a_child_may_take_ten_times_its_baseline_duration_and_ten_seconds_at_least():
    assert _limits([0.1, 3.0, 0.0], [1, 0, 2]) == [30.0, 10.0, 10.0]


def test_the_lines_naming_a_changed_definition_are_found_across_the_reference(tmp_path):
    root = Path(__file__).resolve().parent.parent / "reference"
    text = (root / "remote_read.py").read_text(encoding="utf-8").splitlines()
    defined = next(n for n, line in enumerate(text, 1) if line.startswith("DEFAULT_CLEANUP_MS = "))
    found = Server(None, {"lines": {}}, tmp_path / "out.jsonl", 1).mentions({"DEFAULT_CLEANUP_MS"})
    assert defined in found[str((root / "remote_read.py").resolve())]
    host = str((root.parent / "adapters" / "in_process.py").resolve())   # it reads the constant too
    assert all(path.startswith(str(root.resolve())) or path == host for path in found)


HOSTED = textwrap.dedent('''\
    import sample_mutated as core
    from sample_mutated import LIMIT as CAP

    DOUBLE = CAP * 2


    def wider(values):
        return [v for v in values if v > DOUBLE]


    def unrelated():
        return core.Counter.start
    ''')


def _import_lines(text: str) -> set[int]:
    """The lines an import runs: every line outside a function body."""
    tree = ast.parse(text)
    bodies = {line for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
              for line in range(node.body[0].lineno, node.end_lineno + 1)}
    return set(range(1, len(text.splitlines()) + 1)) - bodies


def _server(tmp_path, texts: dict[str, str]) -> tuple[Server, dict[str, Path]]:
    paths = {}
    for name, text in texts.items():
        paths[name] = tmp_path / f"{name}.py"
        paths[name].write_text(text, encoding="utf-8")
    imported = {str(path.resolve()): _import_lines(texts[name]) for name, path in paths.items()}
    server = Server(None, {"lines": {}, "imported": imported}, tmp_path / "out.jsonl", 1)
    server.indexed = list(paths.values())
    return server, {name: Path(str(path.resolve())) for name, path in paths.items()}


def line_of(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_a_module_level_change_reaches_what_the_import_defines_from_it_under_any_name(tmp_path):
    server, paths = _server(tmp_path, {"sample_mutated": MODULE, "hosted": HOSTED})
    found = server.reach({"LIMIT"})
    assert line_of(MODULE, "v > LIMIT") in found[str(paths["sample_mutated"])]
    hosted = found[str(paths["hosted"])]
    assert line_of(HOSTED, "v > DOUBLE") in hosted   # LIMIT -> CAP (import alias) -> DOUBLE (module level)
    assert line_of(HOSTED, "core.Counter.start") not in hosted


def test_a_name_a_function_run_at_import_reads_leaves_the_reach_unbounded(tmp_path):
    server, paths = _server(tmp_path, {"sample_mutated": MODULE, "hosted": HOSTED})
    server.baseline["imported"][str(paths["hosted"])].add(line_of(HOSTED, "v > DOUBLE"))   # wider() called at import
    assert server.reach({"LIMIT"}) is None


@pytest.mark.parametrize("text, kind", [("LIMIT = 3", ast.Assign), ("start = 10", ast.Assign),
                                        ("def bump(self, by)", ast.FunctionDef), ("from __future__", ast.ImportFrom)])
def test_the_statement_a_reloaded_change_stands_in_is_module_or_class_level(text, kind):
    from mqspec.strength.mutant_server import _level_statement
    statement = _level_statement(ast.parse(MODULE), position(text))
    assert isinstance(statement, kind) and statement.lineno == position(text)[0]


def test_the_mutants_are_judged_under_every_reading_of_every_open_decision():
    """strength/mutants.py: the reference as it is, then targets that between them take every other reading."""
    from mqspec.reference.readings import OPEN_DECISIONS
    from mqspec.strength.mutants import readings_targets
    targets = readings_targets()
    assert targets[0] == "reference"
    taken = [pair for url in targets[1:-1] for pair in url.split("readings=", 1)[1].split("&", 1)[0].split(",")]
    assert sorted(taken) == sorted(f"{decision}:{reading}" for decision, readings in OPEN_DECISIONS.items()
                                   for reading in readings[1:])
    assert targets[-1] == "reference?readings=D-76:new-session&name=reference-new-session"   # D-76 alone


def test_a_mutant_cosmic_ray_cannot_make_is_recorded_and_the_run_goes_on(tmp_path, monkeypatch):
    """Cosmic Ray's ExceptionReplacer fails on `except (A, B)`: that mutant has no verdict, the others still do."""
    def prepare(self, mutant):
        if mutant["job"] == "broken":
            raise AttributeError("'PythonNode' object has no attribute 'value'")
        return {"outcome": "no-test", "output": "nothing to change"}

    monkeypatch.setattr(Server, "prepare", prepare)
    out = tmp_path / "out.jsonl"
    server = Server(None, {"lines": {}}, out, 1)
    server.run([{"job": job, "module": "/r/mqqb_packets.py", "start": [225, 12], "operator": "core/ExceptionReplacer"}
                for job in ("broken", "fine")])
    rows = {row["job"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert rows["broken"]["outcome"] == "incompetent" and "AttributeError" in rows["broken"]["output"]
    assert rows["fine"]["outcome"] == "no-test"
