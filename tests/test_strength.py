"""strength/: the variants still apply to the reference, none is reachable by default, and `mqspec strength`
runs them end to end and writes the variant x clause table (issue 9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mqspec.adapters import TargetError, connect
from mqspec.adapters.in_process import REFERENCE as REFERENCE_IMPLEMENTATION
from mqspec.catalogue import load_catalogue
from mqspec.cli import main
from mqspec.strength import run as strength_run
from mqspec.strength.loader import REFERENCE, ChangeError, load
from mqspec.strength.variants import AREAS, EQUIVALENT, VARIANTS, load_variant

# Two variants whose clauses no stateful machine carries, so a run restricted to them takes seconds.
CHEAP = {"acknowledgment-always-express": "MS-MQQB:3.1.7.15:08", "exact-limit-truncates": "MS-MQRR:3.1.4.7:11"}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_change_of_every_variant_still_applies_to_the_reference(name):
    for module, old, new in VARIANTS[name].changes:
        source = (REFERENCE / f"{module}.py").read_text(encoding="utf-8")
        assert source.count(old) == 1, (f"variant {name}: its text in reference/{module}.py occurs "
                                        f"{source.count(old)} times, not once: {old[:70]!r}")
        assert "readings[" not in old, f"variant {name} is anchored on a line of an open decision's branch"
        assert old != new
    package = load_variant(name)   # every changed module compiles and imports
    assert package.__name__.startswith("_mqspec_variant_")


def test_every_variant_names_a_testable_clause_an_area_and_one_line():
    catalogue = load_catalogue()
    assert len(VARIANTS) >= 41, "issue 9: the reference and at least 40 further variants"
    for variant in VARIANTS.values():
        assert variant.clause in catalogue, f"{variant.name}: no clause {variant.clause}"
        assert catalogue[variant.clause].testable, f"{variant.name}: {variant.clause} is not testable"
        assert variant.area in AREAS, f"{variant.name}: area {variant.area!r} is not one of {AREAS}"
        assert variant.text and "\n" not in variant.text and len(variant.text) <= 120, variant.name
        assert variant.changes, variant.name
    assert {variant.area for variant in VARIANTS.values()} == set(AREAS), "every area has a variant"
    assert not set(EQUIVALENT) & set(VARIANTS), "a variant removed as equivalent is still listed"
    assert all(len(reason) > 40 for reason in EQUIVALENT.values()), "every removal says why"


def test_the_plain_reference_is_never_a_variant():
    import mqspec.reference.position_list
    import mqspec.reference.queue_manager
    with connect("reference") as target:
        assert target._core.impl is REFERENCE_IMPLEMENTATION
        assert type(target.qm) is mqspec.reference.queue_manager.QueueManager
        assert target.name == "reference"
    with connect("reference?variant=fifo-ignores-priority") as variant:
        assert variant._core.impl is not REFERENCE_IMPLEMENTATION
        assert type(variant.qm).__module__.startswith("_mqspec_variant_fifo_ignores_priority")
        assert "fifo-ignores-priority" in variant.name
    # loading a variant changed nothing of the reference's own modules: they still order by priority
    package = load_variant("fifo-ignores-priority")
    import importlib
    changed = importlib.import_module(f"{package.__name__}.position_list")
    orders = []
    for module in (mqspec.reference.position_list, changed):
        positions = module.MessagePositionList()
        for number, priority in enumerate((1, 5)):
            message = type("M", (), {"lookup_identifier": number, "allow_peek_when_locked": False})()
            positions.insert(module.MessagePosition(message, None, priority, module.AVAILABLE))
        orders.append([p.priority for p in positions.positions()])
    assert orders == [[5, 1], [1, 5]]


def test_an_unknown_variant_is_refused_in_one_line():
    with pytest.raises(TargetError) as refused:
        connect("reference?variant=no-such-variant")
    assert "no-such-variant" in str(refused.value) and "\n" not in str(refused.value)


def test_a_change_whose_text_is_gone_fails_loudly():
    with pytest.raises(ChangeError, match=r"cursor\.py: the text to change occurs 0 times"):
        load("_mqspec_test_stale_change", {"cursor": [("text that is nowhere in the module", "x")]})
    with pytest.raises(ChangeError, match="no module reference/nowhere.py"):
        load("_mqspec_test_unknown_module", {"nowhere": [("a", "b")]})


def _junit(path: Path, cases: list[tuple[str, str, str, list[str]]]) -> Path:
    """cases: (module, name, outcome passed/failed/error/skipped, clauses)."""
    body = []
    for module, name, outcome, clauses in cases:
        properties = "".join(f'<property name="clause" value="{c}" />' for c in clauses)
        inner = {"passed": "", "failed": '<failure message="x">x</failure>', "error": '<error message="x">x</error>',
                 "skipped": '<skipped message="x">x</skipped>'}[outcome]
        body.append(f'<testcase classname="features.{module}" name="{name}"><properties>{properties}'
                    f'</properties>{inner}</testcase>')
    path.write_text(f'<testsuites><testsuite name="pytest">{"".join(body)}</testsuite></testsuites>')
    return path


def test_a_variant_is_killed_only_by_tests_that_pass_on_the_reference(tmp_path):
    control = strength_run.RunOutcome("reference")
    control.tests, control.failures = strength_run.read_junit(_junit(tmp_path / "c.xml", [
        ("test_conformance", "test_flaky[reference]", "failed", ["MS-MQRR:3.1.4.7:11"]),
        ("test_conformance", "test_a[reference]", "passed", []),
    ]))
    variant = strength_run.RunOutcome("v")
    variant.tests, variant.failures = strength_run.read_junit(_junit(tmp_path / "v.xml", [
        ("test_conformance", "test_flaky[reference]", "failed", ["MS-MQRR:3.1.4.7:11"]),
        ("test_conformance", "test_a[reference]", "error", ["MS-MQRR:2.2.6:02"]),
        ("test_machines", "test_cursor_machine[reference]", "failed", ["MS-MQDMPR:3.1.1.2:04", "MSDN-CURSOR:NAV:01"]),
        ("test_conformance", "test_b[reference]", "skipped", []),
    ]))
    assert variant.tests == 3
    judged = strength_run.judge(variant, control)
    assert judged.status == "killed" and judged.ignored == 1
    assert [(f.test, f.kind, f.clauses) for f in judged.failures] == [
        ("features/test_conformance.py::test_a[reference]", "scenario", ["MS-MQRR:2.2.6:02"]),
        ("features/test_machines.py::test_cursor_machine[reference]", "machine",
         ["MS-MQDMPR:3.1.1.2:04", "MSDN-CURSOR:NAV:01"])]
    only_flaky = strength_run.RunOutcome("w", tests=1, failures=[strength_run.Failure(
        "features/test_conformance.py::test_flaky[reference]", "scenario", [])])
    assert strength_run.judge(only_flaky, control).status == "survived"
    broken = strength_run.RunOutcome("x", error="pytest ended with status 4")
    assert strength_run.judge(broken, control).status == "error"


def test_the_table_groups_kills_by_area_and_section_and_names_survivors():
    names = ["acknowledgment-always-express", "exact-limit-truncates", "trailers-dropped"]
    variants = [VARIANTS[name] for name in names]
    outcomes = [
        strength_run.RunOutcome(names[0], "killed", 3.0, 10, [strength_run.Failure(
            "features/test_conformance.py::test_ack[reference]", "scenario", ["MS-MQQB:3.1.7.15:08"])]),
        strength_run.RunOutcome(names[1], "killed", 4.0, 10, [strength_run.Failure(
            "features/test_machines.py::test_read_machine[reference]", "machine", ["MS-MQRR:3.1.4.9:04"])]),
        strength_run.RunOutcome(names[2], "survived", 5.0, 10, []),
    ]
    control = strength_run.RunOutcome("reference", "passed", 9.0, 10)
    import datetime
    record = strength_run.build_record(variants, outcomes, control, datetime.datetime.now(datetime.UTC),
                                       12.0, 2, False)
    assert record["kill_rate"]["overall"] == {"variants": 3, "killed": 2, "rate": 66.7}
    assert record["kill_rate"]["by_area"]["sections"] == {"variants": 2, "killed": 1, "rate": 50.0}
    assert record["kill_rate"]["by_area"]["acknowledgments"]["rate"] == 100.0
    assert record["kill_rate"]["by_section"]["MS-MQRR 3.1.4.7 R_StartReceive (Opnum 7)"] == \
        {"variants": 2, "killed": 1, "rate": 50.0}
    assert record["survivors"] == ["trailers-dropped"]
    rows = {row["name"]: row for row in record["variants"]}
    assert rows[names[0]]["caught_own_clause"] and not rows[names[1]]["caught_own_clause"]
    assert rows[names[1]]["machines_failed"] == 1 and rows[names[1]]["scenarios_failed"] == 0
    text = strength_run.markdown(record)
    assert "| acknowledgment-always-express | MS-MQQB:3.1.7.15:08 | killed | 1 scenarios, 0 machines | " \
           "**MS-MQQB:3.1.7.15:08** (1) | 3.0 |" in text
    assert "## Survivors\n\n- trailers-dropped\n" in text
    assert strength_run.summary_lines(record)[1].startswith("survivor: trailers-dropped (MS-MQRR:3.1.4.7:13)")


def test_strength_kills_two_variants_end_to_end_and_writes_the_table(tmp_path, capsys):
    results = tmp_path / "strength"
    arguments = ["strength", "--results", str(results), "--jobs", "2"]
    for name, clause in CHEAP.items():
        arguments += ["--variant", name, "--clause", clause]
    assert main(arguments) == 0
    out = capsys.readouterr().out
    assert "kill rate 2/2 (100.0%)" in out
    record = json.loads((results / "strength.json").read_text())
    assert record["control"]["status"] == "passed" and record["control"]["tests"] > 0
    assert record["kill_rate"]["overall"]["rate"] == 100.0 and record["survivors"] == []
    for row in record["variants"]:
        assert row["status"] == "killed", row
        assert row["caught_own_clause"], f"{row['name']} should be caught by the scenarios of {row['clause']}"
        assert all(failure["test"].startswith("features/test_conformance.py::") for failure in row["failures"])
    markdown = (results / "strength.md").read_text()
    assert "Kill rate: **2 of 2 variants (100.0%)**" in markdown
    assert "| exact-limit-truncates | MS-MQRR:3.1.4.7:11 | killed |" in markdown
    assert (results / "runs" / "reference" / "results" / "junit.xml").is_file()


def test_strength_names_a_survivor_and_exits_1(tmp_path, capsys):
    results = tmp_path / "strength"
    status = main(["strength", "--results", str(results), "--variant", "trailers-dropped",
                   "--clause", CHEAP["acknowledgment-always-express"]])
    out = capsys.readouterr().out
    assert status == 1
    assert "mqspec: survivor: trailers-dropped (MS-MQRR:3.1.4.7:13)" in out
    assert json.loads((results / "strength.json").read_text())["survivors"] == ["trailers-dropped"]


@pytest.mark.parametrize("arguments, message", [
    (["--variant", "no-such-variant"], "mqspec: --variant no-such-variant: no such variant"),
    (["--variant", "lookup-last-from-front"], "removed as equivalent"),
    (["--jobs", "0"], "mqspec: --jobs 0: needs at least 1"),
    (["--clause", "MS-MQRR:9.9:01"], "mqspec: --clause MS-MQRR:9.9:01: no such clause"),
    (["--sample", "3"], "mqspec: --sample, --survivors and --module go with --mutants"),
    (["--survivors"], "mqspec: --sample, --survivors and --module go with --mutants"),
    (["--mutants", "--survivors"], "mqspec: --survivors needs the --results directory of an earlier mutants run"),
    (["--mutants", "--variant", "trailers-dropped"], "mqspec: --mutants takes none of"),
    (["--module", "security"], "mqspec: --sample, --survivors and --module go with --mutants"),
    (["--mutants", "--module", "cli"], "mqspec: --module cli: not a module of the core"),
])
def test_bad_input_is_one_line(arguments, message, capsys):
    assert main(["strength", *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_unwritable_results_directory_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["strength", "--variant", "trailers-dropped", "--results", str(blocker / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mqspec: --results {blocker / 'x'}: cannot write there") and err.count("\n") == 1


def test_list_names_every_variant_and_every_removal(capsys):
    assert main(["strength", "--list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in VARIANTS) and all(name in out for name in EQUIVALENT)


@pytest.mark.slow
def test_a_sample_of_cosmic_ray_mutants_of_the_core_is_killed_or_explained(tmp_path, capsys):
    """The CI's share of `mqspec strength --mutants`: 12 mutants drawn with a fixed seed, each against the tests that
    reach its lines (the fork server: one baseline under coverage, then seconds a mutant; a change at module level
    imports the reference afresh and meets every test); the full run is `mqspec strength --mutants`.  The gate: no
    surviving mutant of the sample goes unexplained."""
    pytest.importorskip("cosmic_ray")
    results = tmp_path / "mutation"
    status = main(["strength", "--mutants", "--sample", "12", "--jobs", "2", "--results", str(results)])
    out = capsys.readouterr().out
    record = json.loads((results / "mutants" / "mutants.json").read_text())
    assert record["tested"] == 12 and record["pending"] == 0
    assert record["killed"] + record["survived"] + record["other"] == 12
    assert any(row["killed_by"].startswith("features/") for row in record["results"]), "no killing test named"
    assert "mqspec: mutants: score" in out
    # every survivor is named, with its explanation or as a gap, and no gap is left
    survivors = [line for line in out.splitlines() if line.startswith("mqspec: survivor: ")]
    assert len(survivors) == record["survived"]
    assert not record["unexplained"] and status == 0, "\n".join(line for line in survivors if "NOT EXPLAINED" in line)
    # judged again against the same suite: no gap, so nothing runs and the status stays 0
    status = main(["strength", "--mutants", "--survivors", "--jobs", "2", "--results", str(results)])
    assert "0 to test" in capsys.readouterr().out and status == 0


def test_survivors_of_no_earlier_run_is_one_line(tmp_path, capsys):
    pytest.importorskip("cosmic_ray")
    assert main(["strength", "--mutants", "--survivors", "--results", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "holds no earlier mutants run" in err and err.count("\n") == 1


def test_the_strength_table_blames_the_clause_whose_rule_broke_first():
    """Issue 21: a machine and the scenarios whose failing check names the order's clause blame it alone; the
    other failures blame each of their tags, so the misread clause comes first, as on the terminal."""
    from mqspec.strength.run import Failure, at_fault
    order = "MS-MQDMPR:3.1.1.2:04"
    failures = [Failure("features/test_machines.py::test_cursor_machine[reference]", "machine",
                        [order] + [f"MSDN-CURSOR:NAV:0{n}" for n in (1, 3)], order),
                Failure("features/test_conformance.py::test_a[reference]", "scenario", ["MSDN-CURSOR:PRIO:05"], order),
                Failure("features/test_conformance.py::test_b[reference]", "scenario", ["MSDN-CURSOR:PRIO:05"], order),
                Failure("features/test_conformance.py::test_c[reference]", "scenario",
                        ["MS-MQDMPR:3.1.7.1.10:03", "MS-MQDMPR:3.1.7.1.10:04"])]
    assert at_fault(failures) == [[order, 3], ["MS-MQDMPR:3.1.7.1.10:03", 1], ["MS-MQDMPR:3.1.7.1.10:04", 1]]
