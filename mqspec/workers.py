"""What pytest-xdist's workers need so that a run split over them is the run one process makes.

A worker runs the scenarios but never the plugin's run-wide set-up (results, run.json: the
controller's).  Two things must still hold there and reach the controller:

- the waivers and the demanded profile (`selection_of`): each worker works them out from the
  same options, so a waived scenario is skipped and a reading the profile forbids fails on
  whichever worker runs it;
- pytest-bdd's record of each scenario (its steps and their results, which cucumber.json is
  made of): pytest-bdd keeps it beside the report object, which does not travel from a worker,
  so `CarryScenario` puts it in the report itself on the worker and back beside it on the
  controller.
"""

from __future__ import annotations

import pytest

SELECTION_KEY = pytest.StashKey[dict]()   # {"waivers": ..., "demanded": ...}, in every process of a run


def selection_of(config) -> dict | None:
    return config.stash.get(SELECTION_KEY, None)


class CarryScenario:
    """pytest-bdd's scenario report across the worker/controller boundary (a JSON-able dict in the report)."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        from pytest_bdd.reporting import test_report_context_registry
        context = test_report_context_registry.get(outcome.get_result())
        if context is not None and hasattr(item.config, "workerinput"):
            outcome.get_result().mqspec_bdd = {"scenario": context.scenario, "name": context.name}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report):
        carried = getattr(report, "mqspec_bdd", None)
        if carried is None:
            return
        from pytest_bdd.reporting import ReportContext, test_report_context_registry
        test_report_context_registry.setdefault(report, ReportContext(carried["scenario"], carried["name"]))
