"""The stateful machines of steps/machine_*.py as pytest tests, once per --target.

Each test runs one hypothesis RuleBasedStateMachine against the target URL that
features/conftest.py parametrises (a fresh target per generated example; the
autouse `world` fixture's target is not used).  Default: 200 examples of up to 30
steps each; `--deep`: 2000 examples of up to 50 steps.  A failure prints
hypothesis' shrunk program and a Gherkin scenario to paste into a .feature file,
after deleting the steps of hypothesis' example that the failure does not need.
"""

from __future__ import annotations

import re

import pytest
from hypothesis.stateful import run_state_machine_as_test

from mqspec.steps.machine_cursors import CursorMachine
from mqspec.steps.machine_lookups import LookupMachine
from mqspec.steps.machine_reads import ReadMachine
from mqspec.steps.machine_support import in_catalogue
from mqspec.steps.machines import bind, machine_settings, minimise

# the first line of a machine's failure (MachineBase.failure): where it stopped, and the clause whose rule broke
STOPPED = re.compile(r"^(?P<machine>\w+) machine, step (?P<step>\d+): .*\((?P<clause>[A-Za-z-]+:[0-9A-Za-z.]+:\d\d)\)$")


def marked(mark: str, *ids: str):
    """Decorate a test with one `mark` marker per id: the clauses it checks, or the open decisions whose
    readings its model accepts."""
    def decorate(function):
        for value in reversed(ids):
            function = getattr(pytest.mark, mark)(value, id=value)(function)
        return function
    return decorate


def clauses(*ids: str):
    return marked("clause", *ids)


def decisions(*ids: str):
    return marked("decision", *ids)


def run(machine, target_url: str, request) -> None:
    """Run one machine; on a failure, report the example minimised further (steps.machines.minimise)."""
    deep = bool(request.config.getoption("deep", default=False))
    bound = bind(machine, target_url)
    try:
        run_state_machine_as_test(bound, settings=machine_settings(deep))
    except AssertionError as error:
        report_readings(bound, request)
        report_cause(str(error), request)
        shorter = minimise(bound)
        if shorter is None:
            raise
        report = AssertionError(shorter + "\n(Hypothesis' own shrunk program is below; the scenario above replays "
                                "it with the steps that do not matter deleted.)")
        for note in getattr(error, "__notes__", []):
            report.add_note(note)
        raise report from None
    report_readings(bound, request)


def report_cause(failure: str, request) -> None:
    """A failing machine fails the clause of the rule or invariant that broke (`cause`); its other clauses were not
    judged, since it stopped there (`stopped`): properties the report reads (reports/verdicts.py)."""
    stopped = STOPPED.match(failure.split("\n", 1)[0])
    if stopped and in_catalogue(stopped["clause"]):
        request.node.user_properties += [("cause", stopped["clause"]),
                                         ("stopped", f"step {stopped['step']} of the {stopped['machine']} machine")]


def report_readings(bound, request) -> None:
    """The readings of open decisions the target showed, as the scenarios report theirs (mqspec.pytest_plugin)."""
    for decision, readings in sorted(bound.seen.items()):
        for reading in sorted(readings):
            request.node.user_properties.append(("reading", f"{decision}={reading}"))


@clauses("MS-MQDMPR:3.1.1.2:04", "MS-MQDMPR:3.1.7.1.9:04", "MS-MQDMPR:3.2.7.1:01", "MS-MQDMPR:3.2.7.2:01",
         "MS-MQDMPR:3.2.7.2:02", "MS-MQDMPR:3.2.7.3:01", "MS-MQDMPR:3.2.7.3:02", "MS-MQDMPR:3.2.7.4:01",
         "MS-MQDMPR:3.2.7.4:02", "MS-MQDMPR:3.1.7.1.14:01", "MS-MQDMPR:3.1.7.1.15:01", "MS-MQDMPR:3.1.7.1.15:02",
         "MS-MQDMPR:3.1.7.1.10:03", "MS-MQDMPR:3.1.7.1.10:05", "MS-MQRR:3.1.4.4:02", "MS-MQRR:3.1.4.5:02",
         "MS-MQRR:3.1.4.7:18", "MSDN-CURSOR:NAV:01", "MSDN-CURSOR:NAV:03", "MSDN-CURSOR:CREATE:01",
         "MSDN-CURSOR:CREATE:03", "MSDN-CURSOR:CREATE:04", "MSDN-CURSOR:PEEK:01", "MSDN-CURSOR:PEEK:02",
         "MSDN-CURSOR:RETR:01", "MSDN-CURSOR:RETR:02", "MSDN-CURSOR:RETR:03", "MSDN-CURSOR:RETR:04",
         "MSDN-CURSOR:END:02", "MSDN-CURSOR:END:05", "MSDN-CURSOR:MULTI:01", "MSDN-CURSOR:MULTI:04",
         "MSDN-CURSOR:NA:01", "MSDN-CURSOR:NA:04", "MS-MQRR:3.1.4.9:04", "MSDN-CURSOR:ERR:01", "MSDN-CURSOR:ERR:02",
         "MSDN-CURSOR:PRIO:01", "MSDN-CURSOR:PRIO:02", "MSDN-CURSOR:PRIO:03", "MSDN-CURSOR:PRIO:05")
@decisions("D-03", "D-52")
def test_cursor_machine(connect_url, request):
    run(CursorMachine, connect_url, request)


@clauses("MS-MQDMPR:3.1.1.2:04", "MS-MQDMPR:3.1.1.12:01", "MS-MQDMPR:3.1.7.1.9:03", "MS-MQDMPR:3.1.7.1.13:02",
         "MS-MQDMPR:3.1.7.1.13:03", "MS-MQDMPR:3.1.7.3.2:01", "MS-MQDMPR:3.1.7.3.2:02", "MS-MQDMPR:3.1.7.3.3:01",
         "MS-MQDMPR:3.1.7.3.3:02", "MS-MQDMPR:3.1.7.1.10:07", "MS-MQRR:3.1.4.7:09", "MS-MQRR:3.1.4.7:20",
         "MS-MQRR:3.1.4.9:04", "MS-MQRR:3.1.4.9:05", "MS-MQRR:3.1.4.9:06", "MS-MQRR:3.1.4.9:08")
@decisions("D-04", "D-52")
def test_lookup_machine(connect_url, request):
    run(LookupMachine, connect_url, request)


@clauses("MS-MQDMPR:3.1.1.2:04", "MS-MQDMPR:3.1.7.1.9:05", "MS-MQDMPR:3.1.7.1.10:06", "MS-MQDMPR:3.1.7.1.10:07",
         "MS-MQDMPR:3.1.7.1.11:01", "MS-MQDMPR:3.1.7.1.12:01", "MS-MQDMPR:3.1.7.1.12:02", "MS-MQDMPR:3.1.7.1.12:03",
         "MS-MQDMPR:3.1.7.1.7:01", "MS-MQDMPR:3.1.7.1.7:02", "MS-MQDMPR:3.1.4.4:01", "MS-MQDMPR:3.1.4.4:02",
         "MS-MQDMPR:3.1.4.5:01", "MS-MQDMPR:3.1.4.5:02", "MS-MQRR:3.1.4.8:03", "MS-MQRR:3.1.4.9:04",
         "MS-MQRR:3.1.4.9:05", "MS-MQRR:3.1.4.9:06", "MS-MQRR:3.1.4.9:07", "MS-MQRR:3.1.4.9:08",
         "MS-MQRR:3.1.4.13:14", "MS-MQRR:3.1.4.15:03", "MS-MQRR:3.1.4.15:05", "MSDN-CURSOR:MULTI:02",
         "MS-MQDMPR:3.1.7.1.9:03", "MS-MQDMPR:3.1.7.3.3:02")
@decisions("D-04", "D-24", "D-52", "D-54", "D-66")
def test_read_machine(connect_url, request):
    run(ReadMachine, connect_url, request)
