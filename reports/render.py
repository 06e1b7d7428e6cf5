"""Every rendering of one report model, written into the report directory.

    report.html                 the self-contained page (render_html.py)
    summary.json                the model without the drill-down, for machines
    summary.md                  a short Markdown summary, for CI comments
    clauses.junit.xml           one test case per clause and target, for CI test views
    certification-<target>.json the certification record of each target (record.py) whose run completed
"""

from __future__ import annotations

import json
from pathlib import Path

from .record import COMPLETE, certification_record, record_file_name
from .render_html import render_html
from .render_junit import render_junit
from .render_markdown import render_markdown


def render_all(model: dict, output: Path) -> dict[str, Path]:
    files: dict[str, Path] = {}
    records = {}
    exit_status = {run["run_id"]: run["exit_status"] for run in model["runs"]}
    for target in model["targets"]:
        if exit_status.get(model["latest"][target]) not in COMPLETE:
            continue   # an interrupted or broken run certifies nothing: its record would overstate it
        record = certification_record(model, target)
        path = output / record_file_name(target)
        path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        records[target] = path.name
        files[f"record:{target}"] = path
    summary = {key: value for key, value in model.items() if key != "scenarios"}
    summary["records"] = records
    files["json"] = output / "summary.json"
    files["json"].write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    files["markdown"] = output / "summary.md"
    files["markdown"].write_text(render_markdown(model), encoding="utf-8")
    files["junit"] = output / "clauses.junit.xml"
    files["junit"].write_bytes(render_junit(model))
    files["html"] = output / "report.html"
    files["html"].write_text(render_html(model), encoding="utf-8")
    return files
