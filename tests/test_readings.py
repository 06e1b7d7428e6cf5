"""Every reading of every open decision passes the whole suite.

An open decision (spec/decisions.md) is one where the specifications allow more
than one behaviour a conforming server may show.  The suite must not fail any of
them, so for each reading other than the reference's there is a variant of the
reference that takes it (`reference?readings=D-NN:name`), and the whole suite,
scenarios and stateful machines, runs against every variant in one pytest run
(spread over the machine's cores).  Each variant must pass, and its profile (the
readings the scenarios saw it take) must show its reading: a variant no scenario
can tell from the reference proves nothing.

The full proof is one whole suite per variant, about 20 minutes on 2 cores, so it
carries the `variants` marker and runs by `make variants`.  Every run of the test
suite makes the same proof in two cheaper parts: each variant on the scenarios
resting on its decision (and the machines, which rest on several), and all the
readings together on the whole suite.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

import pytest

from mqspec.catalogue import load_catalogue
from mqspec.reference.readings import OPEN_DECISIONS

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = [f"reference?readings={decision}:{reading}"
            for decision, readings in OPEN_DECISIONS.items() for reading in readings[1:]]
# Open decisions no scenario can observe, each with the reason; their variants must still pass everything.
UNOBSERVABLE = {
    "D-32": "a send through a descriptor whose queue was deleted in between: MS-MQRR has no method that sends "
            "through a handle, and Target.send opens, enqueues and closes in one call",
}
# every decision's second reading at once, then every third one: the readings must also work together
TOGETHER = ["reference?readings=" + ",".join(f"{decision}:{readings[k]}" for decision, readings in
                                             OPEN_DECISIONS.items() if len(readings) > k)
            for k in range(1, max(map(len, OPEN_DECISIONS.values())))]


def test_every_unobservable_decision_is_open_and_says_so():
    """An exemption names an open decision, and the decision log says no scenario can reach it."""
    log = (ROOT / "spec" / "decisions.md").read_text(encoding="utf-8")
    for decision in UNOBSERVABLE:
        assert decision in OPEN_DECISIONS
        entry = log.split(f"### {decision} ", 1)[1].split("\n### ", 1)[0]
        assert "no scenario can reach" in entry


def test_the_reference_knows_exactly_the_catalogues_open_decisions():
    """reference/readings.py names every open decision of spec/decisions.md with the same readings, the
    reference's first."""
    catalogue = {d.id: d.readings for d in load_catalogue().decisions.values() if d.open}
    assert OPEN_DECISIONS == catalogue


def run_suite(tmp_path, targets: list[str], *options: str) -> dict:
    """The features against `targets` in one pytest run; asserts every test passed, returns run.json's profile."""
    command = [sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider", "-n", "2",
               "--results", str(tmp_path), *options]
    for url in targets:
        command += ["--target", url]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    failures = defaultdict(list)
    for case in ElementTree.parse(tmp_path / "junit.xml").iter("testcase"):
        target = dict((p.get("name"), p.get("value")) for p in case.iter("property")).get("target")
        if case.find("failure") is not None or case.find("error") is not None:
            failures[target or case.get("name")].append(case.get("name"))
    assert not failures, "\n".join(f"{target}: {len(names)} failed, e.g. {names[:3]}"
                                   for target, names in failures.items())
    assert run.returncode == 0, run.stdout[-3000:]
    return json.loads((tmp_path / "run.json").read_text())["profile"]


def unseen(profile: dict, url: str, chosen: str) -> list[str]:
    """The readings of `chosen` ("D-NN:name,...") that the scenarios did not see `url` take."""
    missing = []
    for part in chosen.split(","):
        decision, reading = part.split(":")
        if decision not in UNOBSERVABLE and profile.get(url, {}).get(decision) != [reading]:
            missing.append(f"{url if len(url) < 80 else decision}: the scenarios saw "
                           f"{profile.get(url, {}).get(decision)}, not [{reading!r}]")
    return missing


@pytest.mark.timeout(1800)  # a whole suite's worth of scenarios in a subprocess; the machine may be shared
def test_every_variant_passes_the_scenarios_of_its_decision_and_shows_its_reading(tmp_path):
    """Each variant alone, on the scenarios resting on its decision (--decided-only); each must show its
    reading: a variant no scenario can tell from the reference proves nothing."""
    profile = run_suite(tmp_path, VARIANTS, "--decided-only")
    missing = [line for url in VARIANTS for line in unseen(profile, url, url.split("=", 1)[1])]
    assert not missing, "variants the suite cannot tell from the reference:\n" + "\n".join(missing)


@pytest.mark.timeout(1800)
def test_all_readings_together_pass_the_whole_suite(tmp_path):
    """Every decision's other reading at once (then every third one): the whole suite, scenarios and machines,
    passes, and shows each reading; under --profile reference each target is held to the readings it names."""
    profile = run_suite(tmp_path, TOGETHER, "--profile", "reference")
    demanded = json.loads((tmp_path / "run.json").read_text())["demanded_profile"]
    assert [demanded[url]["D-90"] for url in TOGETHER] == ["refuse", "read"]
    missing = [line for url in TOGETHER for line in unseen(profile, url, url.split("=", 1)[1])]
    assert not missing, "readings the suite did not see:\n" + "\n".join(missing)


@pytest.mark.variants
@pytest.mark.timeout(7200)
def test_every_variant_passes_the_whole_suite_and_shows_its_reading(tmp_path):
    """The full proof, one whole suite per variant (`make variants`, about 20 minutes on 2 cores)."""
    profile = run_suite(tmp_path, VARIANTS)
    missing = [line for url in VARIANTS for line in unseen(profile, url, url.split("=", 1)[1])]
    assert not missing, "variants the suite cannot tell from the reference:\n" + "\n".join(missing)
