"""A failed check that names the clause whose rule it enforces: the cause, told apart from the collateral.

A scenario checks the clauses of its tags, but a step may fail on a rule of another clause (a cursor scenario
whose queue comes back in the wrong order fails on the order of the MessagePositionList, MS-MQDMPR 3.1.1.2:04).
Such a step raises `clause_failure(...)`; the suite's plugin records its clause as the result's `cause` (a junit
property), and the report fails that clause as at fault and the scenario's own clauses as its collateral.
"""

from __future__ import annotations

ORDER = "MS-MQDMPR:3.1.1.2:04"   # the MessagePositionList: priority 7..0, then arrival


def clause_failure(message: str, clause: str) -> AssertionError:
    """An AssertionError that knows the clause whose rule broke (its `clause`); a plain AssertionError, so the
    failure reads as any other assertion does (no class of ours in its first line)."""
    error = AssertionError(message)
    error.clause = clause
    return error


def check_holds(actual: list, expected: list, message: str) -> None:
    """The messages a queue holds, in order: the same messages in another order break the order's rule."""
    if actual == expected:
        return
    if sorted(actual) == sorted(expected):
        raise clause_failure(f"{message}: the same messages in another order ({ORDER})", ORDER)
    raise AssertionError(message)
