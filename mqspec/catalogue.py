"""The clause catalogue: normative clauses of the MSMQ specifications, in our words.

One TOML file per source document lives in spec/clauses/.  Each has a
`[document]` table (id, title, revision), a `[sections]` table mapping every
section number it cites to the section's title, and `[[clause]]` entries:

    id         "<DOCUMENT>:<section>:<NN>", e.g. "MS-MQRR:3.1.4.7:16"
    section    the section the clause comes from (listed in [sections])
    level      MUST, MUST NOT, SHOULD, SHOULD NOT or MAY
    testable   true, or false with `reason`
    text       one line, our own wording
    decisions  optional list of decision ids (spec/decisions.md) that fix its reading
    side       "server" (the default: a requirement on the queue manager) or "client" (on whoever calls
               RemoteRead, or reads the packets it returns): which targets it certifies

`load_catalogue` checks all of that and raises CatalogueError naming the file
and the entry at fault.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .parts import part

SPEC_DIR = part("spec")
LEVELS = ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY")
CLAUSE_ID = re.compile(r"(?P<document>MS-MQRR|MS-MQDMPR|MS-MQMQ|MS-MQQB|MSDN-CURSOR):"
                       r"(?P<section>[0-9]+(?:\.[0-9]+)*|[A-Z]+):(?P<number>[0-9]{2})")
DECISION_ID = re.compile(r"^### (D-[0-9]{2,3}) (.+)$", re.MULTILINE)
KIND = re.compile(r"^\*\*Kind\.\*\* (repair|open)(?:: (.+))?\.$", re.MULTILINE)
WINDOWS = re.compile(r"^\*\*Windows\.\*\* `([a-z0-9+-]+)`", re.MULTILINE)
COEXIST = re.compile(r"^\*\*Coexist\.\*\* (.+)$", re.MULTILINE)   # why one target may show several readings
READING = re.compile(r"`([a-z0-9+-]+)`")


class CatalogueError(ValueError):
    """The catalogue is inconsistent; the message names the file and entry."""


@dataclass(frozen=True)
class Clause:
    id: str
    document: str
    revision: str
    section: str
    section_title: str
    level: str
    testable: bool
    text: str
    reason: str = ""
    decisions: tuple[str, ...] = ()
    side: str = "server"


SIDES = ("server", "client")


@dataclass(frozen=True)
class Decision:
    """An entry of spec/decisions.md: a repair, or an open decision with its named readings."""
    id: str
    title: str
    kind: str                          # "repair" or "open"
    readings: tuple[str, ...] = ()     # open: every reading a conforming server may take; the first is the reference's
    windows: str | None = None         # the reading a product-behaviour note says Windows takes
    coexist: str | None = None         # `**Coexist.** why`: one target may show several readings in one run

    @property
    def open(self) -> bool:
        return self.kind == "open"


@dataclass(frozen=True)
class Catalogue:
    clauses: dict[str, Clause]
    decisions: dict[str, Decision]

    def testable(self) -> list[Clause]:
        return [clause for clause in self.clauses.values() if clause.testable]

    def __contains__(self, clause_id: str) -> bool:
        return clause_id in self.clauses

    def __getitem__(self, clause_id: str) -> Clause:
        return self.clauses[clause_id]


def load_decisions(path: Path | None = None) -> dict[str, Decision]:
    """Every decision with its kind: `**Kind.** repair.` or `**Kind.** open: `a` (the reference's), `b`.`"""
    text = (path or SPEC_DIR / "decisions.md").read_text(encoding="utf-8")
    decisions = {}
    heads = list(DECISION_ID.finditer(text))
    for index, match in enumerate(heads):
        decision = match.group(1)
        if decision in decisions:
            raise CatalogueError(f"decisions.md: {decision} appears twice")
        body = text[match.end():heads[index + 1].start() if index + 1 < len(heads) else len(text)]
        kind = KIND.search(body)
        if kind is None:
            raise CatalogueError(f"decisions.md: {decision} has no '**Kind.** repair.' or '**Kind.** open: ...' line")
        readings = tuple(READING.findall(kind.group(2) or ""))
        if (kind.group(1) == "open") != (len(readings) >= 2) or len(set(readings)) != len(readings):
            raise CatalogueError(f"decisions.md: {decision}: an open decision names two or more distinct readings, "
                                 "a repair none")
        windows = WINDOWS.search(body)
        if windows and windows.group(1) not in readings:
            raise CatalogueError(f"decisions.md: {decision}: its Windows reading {windows.group(1)!r} is not one "
                                 "of its readings")
        coexist = COEXIST.search(body)
        if coexist and kind.group(1) != "open":
            raise CatalogueError(f"decisions.md: {decision}: only an open decision's readings can coexist")
        decisions[decision] = Decision(decision, match.group(2).strip(), kind.group(1), readings,
                                       windows.group(1) if windows else None,
                                       coexist.group(1).strip() if coexist else None)
    return decisions


def load_catalogue(directory: Path | None = None, decisions_path: Path | None = None) -> Catalogue:
    directory = directory or SPEC_DIR / "clauses"
    decisions = load_decisions(decisions_path)
    clauses: dict[str, Clause] = {}
    files = sorted(directory.glob("*.toml"))
    if not files:
        raise CatalogueError(f"{directory}: no clause files (*.toml)")
    for path in files:
        for clause in _load_file(path, decisions):
            if clause.id in clauses:
                raise CatalogueError(f"{path.name}: clause {clause.id} is defined twice")
            clauses[clause.id] = clause
    return Catalogue(clauses, decisions)


def _load_file(path: Path, decisions: dict[str, str]) -> list[Clause]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(f"{path.name}: not valid TOML: {error}") from None
    document = data.get("document") or {}
    for key in ("id", "title", "revision"):
        if not isinstance(document.get(key), str) or not document[key]:
            raise CatalogueError(f"{path.name}: [document] needs a non-empty {key!r}")
    sections = data.get("sections") or {}
    result = []
    for position, entry in enumerate(data.get("clause") or [], start=1):
        where = f"{path.name}: clause #{position} ({entry.get('id', 'no id')})"
        result.append(_clause(entry, document, sections, decisions, where))
    return result


def _clause(entry: dict, document: dict, sections: dict, decisions: dict, where: str) -> Clause:
    unknown = set(entry) - {"id", "section", "level", "testable", "text", "reason", "decisions", "side"}
    if unknown:
        raise CatalogueError(f"{where}: unknown field(s) {sorted(unknown)}")
    clause_id = entry.get("id", "")
    match = CLAUSE_ID.fullmatch(clause_id)
    if not match:
        raise CatalogueError(f"{where}: id must look like MS-MQRR:3.1.4.7:16")
    if match.group("document") != document["id"]:
        raise CatalogueError(f"{where}: id names {match.group('document')}, the file is {document['id']}")
    section = entry.get("section")
    if section != match.group("section"):
        raise CatalogueError(f"{where}: section {section!r} does not match the id")
    if section not in sections:
        raise CatalogueError(f"{where}: section {section} is not listed in [sections]")
    if entry.get("level") not in LEVELS:
        raise CatalogueError(f"{where}: level must be one of {', '.join(LEVELS)}")
    testable = entry.get("testable")
    if not isinstance(testable, bool):
        raise CatalogueError(f"{where}: testable must be true or false")
    reason = entry.get("reason", "")
    if not testable and not reason:
        raise CatalogueError(f"{where}: a clause that is not testable needs a reason")
    text = entry.get("text", "")
    if not isinstance(text, str) or not text.strip() or "\n" in text:
        raise CatalogueError(f"{where}: text must be one non-empty line")
    cited = tuple(entry.get("decisions") or ())
    for decision in cited:
        if decision not in decisions:
            raise CatalogueError(f"{where}: decision {decision} is not in decisions.md")
    side = entry.get("side", "server")
    if side not in SIDES:
        raise CatalogueError(f"{where}: side must be server or client, not {side!r}")
    return Clause(clause_id, document["id"], document["revision"], section, sections[section],
                  entry["level"], testable, text.strip(), reason, cited, side)
