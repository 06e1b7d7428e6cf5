"""A target with a store certifies like one without (issue 8, part 5).

Every scenario of a run against `reference?store=PATH` reopens the same SQLite file,
and a second run finds what the first left; the target's reset must make each
scenario start from the same state as an in-memory queue manager.  One pytest run
certifies both targets side by side (two workers, so each worker's store is its own
file) on a store a first run already used, and every test must get the same verdict.
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def verdicts(junit: Path) -> dict[tuple[str, str], str]:
    """(target, test name without its target id) -> passed, failed or skipped."""
    found = {}
    for case in ElementTree.parse(junit).iter("testcase"):
        target = dict((p.get("name"), p.get("value")) for p in case.iter("property")).get("target", "")
        name = re.sub(r"\[reference(\?store=[^\]]*?qm\.db)?-?", "[", case.get("name"))   # the target's name
        outcome = ("failed" if case.find("failure") is not None or case.find("error") is not None
                   else "skipped" if case.find("skipped") is not None else "passed")
        found[(target.split("?")[1] if "?" in target else "memory", name)] = outcome
    return found


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_a_store_gives_the_verdicts_of_memory_also_when_it_was_used_before(tmp_path):
    store = tmp_path / "qm.db"
    url = f"reference?store={store}"
    command = [sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider", "-n", "2",
               "-k", "restart or journal or dead or quota or transaction"]
    first = subprocess.run([*command, "--target", url, "--results", str(tmp_path / "first")],
                           cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert first.returncode == 0, first.stdout[-3000:]
    second = subprocess.run([*command, "--target", "reference", "--target", url, "--results",
                             str(tmp_path / "second")], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert second.returncode == 0, second.stdout[-3000:]
    found = verdicts(tmp_path / "second" / "junit.xml")
    memory = {name: outcome for (target, name), outcome in found.items() if target == "memory"}
    stored = {name: outcome for (target, name), outcome in found.items() if target != "memory"}
    assert len(memory) > 100 and memory.keys() == stored.keys()
    differ = sorted(name for name in memory if memory[name] != stored[name])
    assert not differ, f"{len(differ)} verdicts differ with a store, e.g. {differ[:5]}"
