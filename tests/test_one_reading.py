"""Issue 22: a target shows one reading of an open decision in a run.  The ProfileCollector fails a scenario that
shows a reading other than the one an earlier scenario of the same target showed (unless the decision's readings
may coexist), names both, and keeps the mixed readings for run.json."""

from __future__ import annotations

from types import SimpleNamespace

from mqspec.catalogue import load_decisions
from mqspec.pytest_plugin import ProfileCollector, demanded_of


def _report(nodeid: str, target: str, *readings: str, when: str = "call"):
    properties = [("target", target)] + [("reading", reading) for reading in readings]
    return SimpleNamespace(nodeid=nodeid, when=when, outcome="passed", passed=True, longrepr=None,
                           user_properties=properties)


def test_a_second_reading_of_one_decision_fails_the_scenario_that_shows_it():
    mixed: dict = {}
    collector = ProfileCollector({}, [], mixed)
    first = _report("features/a.py::test_refused[reference]", "wrong", "D-36=refuse")
    again = _report("features/a.py::test_refused_again[reference]", "wrong", "D-36=refuse")
    other = _report("features/a.py::test_waiting[reference]", "wrong", "D-36=accept")
    elsewhere = _report("features/a.py::test_waiting[other]", "another target", "D-36=accept")
    for report in (first, again, other, elsewhere):
        collector.pytest_runtest_logreport(report)
    assert first.outcome == again.outcome == elsewhere.outcome == "passed"
    assert other.outcome == "failed"
    assert "'accept' here and 'refuse' in features/a.py::test_refused[reference]" in other.longrepr
    assert mixed == {"wrong": {"D-36": {"refuse": first.nodeid, "accept": other.nodeid}}}


def test_a_decision_whose_readings_coexist_is_left_alone():
    collector = ProfileCollector({}, [], {}, frozenset({"D-49"}))
    reports = [_report("t1", "wrong", "D-49=check"), _report("t2", "wrong", "D-49=no-check")]
    for report in reports:
        collector.pytest_runtest_logreport(report)
    assert [report.outcome for report in reports] == ["passed", "passed"]


def test_coexist_is_read_from_decisions_md(tmp_path):
    text = ("### D-01 One\n**Kind.** open: `a` (the reference's), `b`.\n"
            "**Coexist.** each queue may take its own.\n\n### D-02 Two\n**Kind.** open: `a`, `b`.\n")
    (tmp_path / "decisions.md").write_text(text, encoding="utf-8")
    decisions = load_decisions(tmp_path / "decisions.md")
    assert decisions["D-01"].coexist == "each queue may take its own."
    assert decisions["D-02"].coexist is None


def test_under_the_reference_profile_a_reference_target_is_held_to_the_readings_it_names():
    selection = {"demanded": {"D-36": "refuse", "D-90": "read"}, "profile": "reference"}
    assert demanded_of(selection, "reference") == {"D-36": "refuse", "D-90": "read"}
    assert demanded_of(selection, "reference?readings=D-90:refuse&name=r2") == {"D-36": "refuse", "D-90": "refuse"}
    assert demanded_of(selection, "mqrr://127.0.0.1:2103?readings=D-90:refuse") == selection["demanded"]
    named = {"demanded": {"D-90": "read"}, "profile": "D-90=read"}   # a profile written out is the same for all
    assert demanded_of(named, "reference?readings=D-90:refuse") == {"D-90": "read"}
