"""The clauses at fault and their collateral: one misreading should not read as dozens of failed clauses.

Theory of operation
-------------------
A failing result may name its cause: the clause whose rule the failing check enforces (junit property `cause`:
a stateful machine's broken rule or invariant, a step that raised steps/blame.py's clause_failure).  Then, for
each clause the result bears on:

    the cause itself                     -> failed, at fault
    another clause, the result stopped   -> not run: "not judged (the machine stopped at ..., on <cause>)"
      (a stateful machine: `stopped` says where; its other tags were never judged)
    another clause, a scenario           -> failed, collateral of the cause
    any clause of a result with no cause -> failed, at fault (nothing says otherwise)

A failed clause is at fault when one of its failing results holds it at fault, else collateral (of the
cause its first failing result names).  The clauses at fault are ranked by how many failed clauses they
explain (their collateral, themselves included), then in catalogue order: the misread clause comes first.
verdicts.py does the same with Spark columns; tally.py and the gate use this module.
"""

from __future__ import annotations

def clause_order(clause_id: str) -> tuple:
    """MS-MQRR:3.1.4.10:02 after MS-MQRR:3.1.4.9:05: sections compare number by number ("" first)."""
    if not clause_id:
        return ("", [], "")
    document, section, number = clause_id.split(":")
    return document, [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in section.split(".")], number


NOT_JUDGED = "not judged (the machine stopped at {stopped}, on {cause})"


def bearing(verdict: str, reason: str, clause: str, cause: str, stopped: str) -> tuple[str, str, str]:
    """(verdict, reason, collateral_of) of one result for one of its clauses; collateral_of is "" unless the
    clause failed because of another clause."""
    if verdict != "failed" or not cause or clause == cause:
        return verdict, reason, ""
    if stopped:
        return "not run", NOT_JUDGED.format(stopped=stopped, cause=cause), ""
    return "failed", reason, cause


def ranked(verdicts: dict[str, dict]) -> tuple[list[tuple[str, dict, int]], list[tuple[str, dict]]]:
    """([(clause, row, failed clauses it explains)] at fault, best first; [(clause, row)] collateral) of one
    target's verdicts (clause -> {verdict, reason, fault, cause})."""
    failed = {clause: row for clause, row in verdicts.items() if row["verdict"] == "failed"}
    collateral = sorted(((clause, row) for clause, row in failed.items() if row.get("fault") == "collateral"),
                        key=lambda item: (clause_order(item[1].get("cause") or ""), clause_order(item[0])))
    explains: dict[str, int] = {}
    for _, row in collateral:
        explains[row.get("cause") or ""] = explains.get(row.get("cause") or "", 0) + 1
    at_fault = [(clause, row, 1 + explains.get(clause, 0)) for clause, row in failed.items()
                if row.get("fault") != "collateral"]
    at_fault.sort(key=lambda item: (-item[2], clause_order(item[0])))
    return at_fault, collateral
