"""Reading the results of `mqspec strength`: strength.json and mutants.json -> staged rows -> Parquet.

Each file is read with json (which says where a file goes wrong) and checked for
what every such record holds: a file cut short, of another format ("format" must be
mqspec-strength/1 or mqspec-mutants/1) or lacking a key is one InputError naming it,
and the other inputs are still reported.  Keys the brief of each format leaves
optional (a mutant row's module, outcome, killed_by; the control run) are read when
present and null otherwise.  The rows are staged as NDJSON, one file per table of
schemas.STRENGTH, and Spark reads them with those schemas into Parquet (`load`);
strength.py computes on the tables.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

from pyspark.sql import SparkSession

from . import schemas
from .errors import InputError
from .inputs import StrengthResults, read_json

STRENGTH_FORMAT = "mqspec-strength/1"
MUTANTS_FORMAT = "mqspec-mutants/1"
STATUSES = ("killed", "survived", "error")
TABLES = tuple(schemas.STRENGTH)
_MISSING = object()


def _load(path: Path, format_: str) -> dict:
    record = read_json(path)
    if not isinstance(record, dict):
        raise InputError(path, f"not a {format_} record (a JSON object)")
    found = record.get("format")
    if found != format_:
        raise InputError(path, f"format {found!r} is not {format_}, the one this report reads" if found is not None
                         else f"no 'format' key: not a {format_} record")
    return record


def _field(path: Path, record: dict, key: str, kinds, where: str = "", default=_MISSING):
    """record[key] if it is one of `kinds`; the default when absent (or null) and one is given; else InputError."""
    value = record.get(key)
    if value is None and default is not _MISSING:
        return default
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        value = None   # true/false is no count
    if not isinstance(value, kinds):
        what = {str: "a string", list: "a list", dict: "an object", bool: "true or false"}.get(kinds, "a number")
        raise InputError(path, f"{where + ': ' if where else ''}{key!r} is missing or not {what}")
    return value


NUMBER = (int, float)


def _strings(path: Path, values, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise InputError(path, f"{where} must be a list of strings")
    return values


def strength_rows(path: Path, source: str) -> dict[str, list[dict]]:
    """The staged rows of one strength.json; InputError (one line) when it is not one."""
    record = _load(path, STRENGTH_FORMAT)
    control = _field(path, record, "control", dict, default={})
    equivalent = _field(path, record, "equivalent", dict, default={})
    rows: dict[str, list[dict]] = {"strength_runs": [{
        "source": source, "file": str(path), "started": _field(path, record, "started", str),
        "seconds": _field(path, record, "seconds", NUMBER, default=None),
        "jobs": _field(path, record, "jobs", int, default=None), "quick": _field(path, record, "quick", bool,
                                                                                 default=False),
        "suite": _field(path, record, "suite", str, default=""),
        "clauses": _strings(path, record.get("clauses") or [], "'clauses'"),
        "control_status": _field(path, control, "status", str, "control", default=""),
        "control_tests": _field(path, control, "tests", int, "control", default=None),
        "control_seconds": _field(path, control, "seconds", NUMBER, "control", default=None),
        "control_failures": len(_field(path, control, "failures", list, "control", default=[]))}],
        "strength_variants": [], "strength_failures": [],
        "strength_equivalent": [{"source": source, "name": str(name), "reason": str(reason)}
                                for name, reason in equivalent.items()]}
    seen = set()
    for index, variant in enumerate(_field(path, record, "variants", list)):
        where = f"variants[{index}]"
        if not isinstance(variant, dict):
            raise InputError(path, f"{where} is not a JSON object")
        name = _field(path, variant, "name", str, where)
        where = f"variant {name}"
        if name in seen:
            raise InputError(path, f"{where} appears twice")
        seen.add(name)
        status = _field(path, variant, "status", str, where)
        if status not in STATUSES:
            raise InputError(path, f"{where}: status {status!r} is not one of {', '.join(STATUSES)}")
        rows["strength_variants"].append({
            "source": source, "position": index, "name": name, "clause": _field(path, variant, "clause", str, where),
            "area": _field(path, variant, "area", str, where, default=""),
            "text": _field(path, variant, "text", str, where, default=""),
            "section": _field(path, variant, "section", str, where, default=""), "status": status,
            "seconds": _field(path, variant, "seconds", NUMBER, where, default=None),
            "tests": _field(path, variant, "tests", int, where, default=None),
            "ignored_failures": _field(path, variant, "ignored_failures", int, where, default=0),
            "error": _field(path, variant, "error", str, where, default="")})
        for number, failure in enumerate(_field(path, variant, "failures", list, where, default=[])):
            there = f"{where}: failures[{number}]"
            if not isinstance(failure, dict):
                raise InputError(path, f"{there} is not a JSON object")
            rows["strength_failures"].append({
                "source": source, "variant": name, "test": _field(path, failure, "test", str, there),
                "kind": _field(path, failure, "kind", str, there, default="scenario"),
                "clauses": _strings(path, failure.get("clauses") or [], f"{there}: 'clauses'")})
    return rows


def mutant_rows(path: Path, source: str) -> dict[str, list[dict]]:
    """The staged rows of one mutants.json; InputError (one line) when it is not one."""
    record = _load(path, MUTANTS_FORMAT)
    counts = {key: _field(path, record, key, int) for key in ("mutants", "tested", "pending", "killed", "survived")}
    finished = record.get("finished") if isinstance(record.get("finished"), str) else (
        _dt.datetime.fromtimestamp(path.stat().st_mtime, _dt.UTC).isoformat(timespec="seconds"))
    rows: dict[str, list[dict]] = {"mutant_runs": [{
        "source": source, "file": str(path), "finished": finished,
        "seconds": _field(path, record, "seconds", NUMBER, default=None),
        "jobs": _field(path, record, "jobs", int, default=None),
        "tool": _field(path, record, "tool", str, default=""),
        "skipped": _field(path, record, "skipped", int, default=0),
        "timed_out": _field(path, record, "timed_out", int, default=0),
        "score": _field(path, record, "score", NUMBER, default=None), **counts}],
        "mutant_results": [], "mutant_survivors": []}
    for index, row in enumerate(_field(path, record, "survivors", list)):
        where = f"survivors[{index}]"
        if not isinstance(row, dict):
            raise InputError(path, f"{where} is not a JSON object")
        rows["mutant_survivors"].append({
            "source": source, "module": _field(path, row, "module", str, where),
            "line": _field(path, row, "line", int, where), "source_line": _field(path, row, "source", str, where),
            "operator": _field(path, row, "operator", str, where),
            "equivalent": _field(path, row, "equivalent", str, where, default=""),
            "diff": _field(path, row, "diff", str, where, default="")})
    for row in _field(path, record, "results", list, default=[]):
        if isinstance(row, dict):   # the per-mutant rows are optional detail: what they lack stays null
            rows["mutant_results"].append({
                "source": source, "module": _text(row.get("module")), "line": row.get("line")
                if isinstance(row.get("line"), int) else None, "operator": _text(row.get("operator")),
                "outcome": _text(row.get("outcome")), "killed_by": _text(row.get("killed_by"))})
    return rows


def _text(value) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ", ".join(value)
    return json.dumps(value)


def stage(directory: Path, found: list[StrengthResults]) -> tuple[bool, list[InputError]]:
    """Each strength input's rows as NDJSON under `directory` (one file per table); (anything read, errors)."""
    rows: dict[str, list[dict]] = {name: [] for name in TABLES}
    errors: list[InputError] = []
    for results in found:
        source = str(results.directory)
        for path, read in ((results.strength, strength_rows), (results.mutants, mutant_rows)):
            if path is None:
                continue
            try:
                for table, more in read(path, source).items():
                    rows[table] += more
            except InputError as error:
                errors.append(error)
    directory.mkdir(parents=True, exist_ok=True)
    for table, table_rows in rows.items():
        with open(directory / f"{table}.ndjson", "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
                              for row in table_rows)
    return bool(rows["strength_runs"] or rows["mutant_runs"]), errors


def load(spark: SparkSession, directory: Path, tables: Path) -> dict[str, str]:
    """The staged strength tables, read with their schemas and written as Parquet; {table: path}."""
    from .ingest import write
    return {name: write(spark.read.schema(schema).json(str(directory / f"{name}.ndjson")), tables / name)
            for name, schema in schemas.STRENGTH.items()}
