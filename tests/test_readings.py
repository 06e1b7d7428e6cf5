"""Every reading of every open decision passes the whole suite.

An open decision (spec/decisions.md) is one where the specifications allow more
than one behaviour a conforming server may show.  The suite must not fail any of
them, so for each reading other than the reference's there is a variant of the
reference that takes it (`reference?readings=D-NN:name`), and the whole suite,
scenarios and stateful machines, runs against every variant in one pytest run
(spread over the machine's cores).  Each variant must pass, and its profile (the
readings the scenarios saw it take) must show its reading: a variant no scenario
can tell from the reference proves nothing.
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
from reference.readings import OPEN_DECISIONS

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = [f"reference?readings={decision}:{reading}"
            for decision, readings in OPEN_DECISIONS.items() for reading in readings[1:]]


def test_the_reference_knows_exactly_the_catalogues_open_decisions():
    """reference/readings.py names every open decision of spec/decisions.md with the same readings, the
    reference's first."""
    catalogue = {d.id: d.readings for d in load_catalogue().decisions.values() if d.open}
    assert OPEN_DECISIONS == catalogue


@pytest.mark.variants
def test_every_variant_passes_the_whole_suite_and_shows_its_reading(tmp_path):
    command = [sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider", "-n", "2",
               "--results", str(tmp_path)]
    for url in VARIANTS:
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
    profile = json.loads((tmp_path / "run.json").read_text())["profile"]
    unseen = []
    for url in VARIANTS:
        decision, reading = url.split("=", 1)[1].split(":")
        if profile.get(url, {}).get(decision) != [reading]:
            unseen.append(f"{url}: the scenarios saw {profile.get(url, {}).get(decision)}")
    assert not unseen, "variants the suite cannot tell from the reference:\n" + "\n".join(unseen)
