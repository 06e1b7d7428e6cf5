"""The clause catalogue, its coverage by scenarios, and the clause ids the code cites."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from mqspec.catalogue import CLAUSE_ID, CatalogueError, load_catalogue
from mqspec.coverage import scenario_clauses

ROOT = Path(__file__).resolve().parent.parent
CITED = re.compile(r"(?:MS-MQRR|MS-MQDMPR|MS-MQMQ|MS-MQQB|MSDN-CURSOR):[0-9A-Z.]+:[0-9]{2}")


def test_the_catalogue_loads():
    catalogue = load_catalogue()
    assert len(catalogue.testable()) > 300
    assert catalogue.decisions["D-60"].title.startswith("MQ_LOOKUP_RECEIVE_PREV")
    assert catalogue.decisions["D-60"].kind == "repair"
    assert catalogue.decisions["D-03"].readings == ("dmpr", "msdn") and catalogue.decisions["D-03"].open


def test_every_testable_clause_has_a_scenario_and_every_tag_is_known():
    """The coverage gate: prints testable clauses covered / total."""
    catalogue = load_catalogue()
    tagged = scenario_clauses()
    unknown = sorted(set(tagged) - set(catalogue.clauses))
    assert not unknown, f"scenarios name clauses the catalogue does not have: {unknown}"
    testable = {clause.id for clause in catalogue.testable()}
    untested = sorted(testable - set(tagged))
    print(f"\ncoverage: {len(testable) - len(untested)} / {len(testable)} testable clauses have a scenario")
    assert not untested, f"{len(untested)} testable clauses have no scenario: {untested[:20]} ..."


def test_scenarios_tag_only_testable_clauses_or_say_why():
    catalogue = load_catalogue()
    for clause_id, scenarios in scenario_clauses().items():
        clause = catalogue.clauses.get(clause_id)
        assert clause is None or clause.testable, f"{clause_id} is marked not testable yet {scenarios[0]} checks it"


def test_every_clause_the_code_cites_exists():
    catalogue = load_catalogue()
    missing = []
    for folder in ("reference", "adapters", "steps"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for clause_id in CITED.findall(line):
                    if clause_id not in catalogue:
                        missing.append(f"{path.relative_to(ROOT)}:{number}: {clause_id}")
    assert not missing, "\n".join(missing)


def test_every_decision_the_code_cites_exists():
    decisions = load_catalogue().decisions
    missing = []
    for folder in ("reference", "adapters", "steps"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for decision in re.findall(r"\bD-[0-9]{2,3}\b", path.read_text(encoding="utf-8")):
                if decision not in decisions:
                    missing.append(f"{path.relative_to(ROOT)}: {decision}")
    assert not missing, missing


GOOD = """
[document]
id = "MS-MQRR"
title = "Remote Read"
revision = "29.0"

[sections]
"3.1.4.7" = "R_StartReceive (Opnum 7)"

[[clause]]
id = "MS-MQRR:3.1.4.7:16"
section = "3.1.4.7"
level = "MUST"
testable = true
text = "Invalid input gives MQ_ERROR_INVALID_PARAMETER."
"""


def _catalogue(tmp_path, text, decisions="### D-01 A decision\n**Kind.** repair.\n"):
    (tmp_path / "clauses").mkdir(exist_ok=True)
    (tmp_path / "clauses" / "doc.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "decisions.md").write_text(decisions, encoding="utf-8")
    return load_catalogue(tmp_path / "clauses", tmp_path / "decisions.md")


def test_a_good_file_loads(tmp_path):
    clause = _catalogue(tmp_path, GOOD)["MS-MQRR:3.1.4.7:16"]
    assert (clause.section_title, clause.level, clause.revision) == ("R_StartReceive (Opnum 7)", "MUST", "29.0")


@pytest.mark.parametrize("change, message", [
    (('id = "MS-MQRR:3.1.4.7:16"', 'id = "MQRR-3.1.4.7-16"'), "id must look like"),
    (('id = "MS-MQRR:3.1.4.7:16"', 'id = "MS-MQDMPR:3.1.4.7:16"'), "the file is MS-MQRR"),
    (('section = "3.1.4.7"', 'section = "3.1.4.8"'), "does not match the id"),
    (('level = "MUST"', 'level = "must"'), "level must be one of"),
    (("testable = true", 'testable = "yes"'), "testable must be true or false"),
    (("testable = true", "testable = false"), "needs a reason"),
    (('text = "Invalid input gives MQ_ERROR_INVALID_PARAMETER."', 'text = ""'), "one non-empty line"),
    (('text = "Invalid', 'decisions = ["D-99"]\ntext = "Invalid'), "D-99 is not in decisions.md"),
    (('text = "Invalid', 'colour = "red"\ntext = "Invalid'), "unknown field"),
    (('"3.1.4.7" = "R_StartReceive (Opnum 7)"', '"3.1.4.8" = "R_CancelReceive"'), "not listed in [sections]"),
    (('revision = "29.0"', ""), "needs a non-empty 'revision'"),
])
def test_a_bad_entry_is_named(tmp_path, change, message):
    with pytest.raises(CatalogueError) as error:
        _catalogue(tmp_path, GOOD.replace(*change))
    assert message in str(error.value)
    assert "doc.toml" in str(error.value)


def test_duplicate_ids_and_decisions_are_refused(tmp_path):
    with pytest.raises(CatalogueError, match="defined twice"):
        _catalogue(tmp_path, GOOD + GOOD.split("[[clause]]")[1].join(["[[clause]]", ""]))
    with pytest.raises(CatalogueError, match="appears twice"):
        _catalogue(tmp_path, GOOD, "### D-01 one\n**Kind.** repair.\n### D-01 two\n**Kind.** repair.\n")


@pytest.mark.parametrize("entry, message", [
    ("### D-01 a\n**Question.** no kind\n", "has no '**Kind.** repair."),
    ("### D-01 a\n**Kind.** open: `one`.\n", "two or more distinct readings"),
    ("### D-01 a\n**Kind.** open: `one`, `one`.\n", "two or more distinct readings"),
    ("### D-01 a\n**Kind.** repair: `one`, `two`.\n", "a repair none"),
    ("### D-01 a\n**Kind.** open: `a`, `b`.\n**Windows.** `c` (note).\n", "is not one of its readings"),
])
def test_every_decision_has_a_well_formed_kind(tmp_path, entry, message):
    with pytest.raises(CatalogueError, match=re.escape(message)):
        _catalogue(tmp_path, GOOD, entry)


def test_the_id_pattern():
    assert CLAUSE_ID.fullmatch("MSDN-CURSOR:RETR:01")
    assert not CLAUSE_ID.fullmatch("MS-MQRR:3.1.4.7:1")


def test_scenarios_name_only_the_readings_their_decisions_have():
    """A scenario that says `by D-NN ... (reading)` carries @decision:D-NN, and every reading it names is one of
    that decision's in spec/decisions.md."""
    from gherkin.parser import Parser
    decisions = load_catalogue().decisions
    problems = []
    for path in sorted((ROOT / "features").rglob("*.feature")):
        document = Parser().parse(path.read_text(encoding="utf-8"))
        feature_tags = {tag["name"] for tag in document["feature"].get("tags", [])}
        for child in document["feature"]["children"]:
            scenario = child.get("scenario")
            if not scenario:
                continue
            tags = feature_tags | {tag["name"] for tag in scenario.get("tags", [])}
            texts = [step["text"] for step in scenario["steps"]]
            for examples in scenario.get("examples", []):
                texts += [cell["value"] for row in examples.get("tableBody", []) for cell in row["cells"]]
            for text in texts:
                for decision, readings in re.findall(r"by (D-\d\d) the call returns (.+)", text):
                    where = f"{path.relative_to(ROOT)}: {scenario['name']!r}"
                    if f"@decision:{decision}" not in tags:
                        problems.append(f"{where} says 'by {decision}' without @decision:{decision}")
                    for reading in re.findall(r"\(([a-z0-9+-]+)\)", readings):
                        if decision not in decisions or reading not in decisions[decision].readings:
                            problems.append(f"{where}: {decision} has no reading {reading!r}")
            for tag in tags:
                if tag.startswith("@decision:") and tag[len("@decision:"):] not in decisions:
                    problems.append(f"{path.relative_to(ROOT)}: {tag} names no decision")
    assert not problems, "\n".join(problems)
