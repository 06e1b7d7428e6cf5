"""The suite's own tables: the clause catalogue, the decisions, and the Gherkin scenarios.

The catalogue and decisions come from spec/ through mqspec.catalogue; the
scenarios from features/*.feature through the official Gherkin parser and pickle
compiler (the `gherkin` package pytest-bdd installs), so a Scenario Outline gives
one scenario per Examples row and tags are inherited exactly as Cucumber defines.
A scenario's `@clause:<id>` tags are the clauses it checks, its `@decision:D-NN`
tags the readings it rests on.
"""

from __future__ import annotations

from pathlib import Path

from gherkin.errors import ParserError
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler

from mqspec.catalogue import Catalogue
from mqspec.parts import part

from .errors import InputError

FEATURES = part("features")


def clause_rows(catalogue: Catalogue) -> list[dict]:
    return [{"clause_id": c.id, "document": c.document, "revision": c.revision, "section": c.section,
             "section_title": c.section_title, "level": c.level, "testable": c.testable, "text": c.text,
             "reason": c.reason, "decisions": list(c.decisions), "side": c.side} for c in catalogue.clauses.values()]


def decision_rows(catalogue: Catalogue) -> list[dict]:
    return [{"decision_id": d.id, "title": d.title, "kind": d.kind, "readings": list(d.readings),
             "windows": d.windows} for d in catalogue.decisions.values()]


def scenario_rows(directory: Path = FEATURES) -> tuple[list[dict], list[InputError]]:
    """One row per scenario (an Outline: per Examples row) of every .feature file under `directory`."""
    rows: list[dict] = []
    errors: list[InputError] = []
    for path in sorted(directory.rglob("*.feature")):
        uri = path.relative_to(directory).as_posix()
        try:
            document = Parser().parse(path.read_text(encoding="utf-8"))
        except ParserError as error:
            first = getattr(error, "errors", None) or [error]   # a CompositeParserException lists them
            errors.append(InputError(path, f"not valid Gherkin: {str(first[0]).strip()}"))
            continue
        document["uri"] = uri
        feature_name = (document.get("feature") or {}).get("name", "")
        for pickle in Compiler().compile(document):
            tags = [tag["name"] for tag in pickle.get("tags", [])]
            rows.append({
                "feature_uri": uri, "feature_name": feature_name, "scenario_name": pickle["name"],
                "line": int((pickle.get("location") or {}).get("line", 0)),
                "clauses": [tag[len("@clause:"):] for tag in tags if tag.startswith("@clause:")],
                "decisions": [tag[len("@decision:"):] for tag in tags if tag.startswith("@decision:")],
                "steps": [step["text"] for step in pickle.get("steps", [])]})
    return rows, errors


def current_suite_version() -> str:
    """The version hash run.json carries for runs of this checkout's suite."""
    from mqspec.pytest_plugin import suite_version
    return suite_version()
