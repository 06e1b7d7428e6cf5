"""Which clauses the scenarios of features/ check, read from their @clause tags.

A tag on a Feature applies to each of its scenarios; a tag on a Scenario or
Scenario Outline applies to it alone.
"""

from __future__ import annotations

import re
from pathlib import Path

from .parts import part

FEATURES = part("features")
TAG = re.compile(r"@clause:(\S+)")
HEADER = re.compile(r"^\s*(Feature|Scenario|Scenario Outline|Scenario Template|Example|Rule|Background|Examples):")


def scenario_clauses(directory: Path = FEATURES) -> dict[str, list[str]]:
    """{clause id: ["file.feature: scenario name", ...]}"""
    result: dict[str, list[str]] = {}
    for path in sorted(directory.rglob("*.feature")):
        feature_tags: list[str] = []
        pending: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("@"):
                pending += TAG.findall(stripped)
                continue
            header = HEADER.match(line)
            if not header:
                continue
            kind = header.group(1)
            if kind == "Feature":
                feature_tags, pending = pending, []
            elif kind in ("Scenario", "Scenario Outline", "Scenario Template", "Example"):
                name = f"{path.relative_to(directory)}: {stripped.split(':', 1)[1].strip()}"
                for clause in set(feature_tags + pending):
                    result.setdefault(clause, []).append(name)
                pending = []
            else:
                pending = []
    return result
