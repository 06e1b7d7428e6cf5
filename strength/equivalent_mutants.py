"""Surviving Cosmic Ray mutants of the reference's core that are equivalent to it, each with the reason.

A mutant is named by `mutant_key`: its module, Cosmic Ray's operator and its line before and
after the change (stripped), so an entry follows its line when code above it moves and lapses
when the line itself changes.  An entry is added only after reading the mutant's diff and
showing that no call through the Target interface can tell it from the reference, or that it
behaves as a reading of an open decision that a conforming server may take
(spec/decisions.md), which the suite accepts by design.  strength/mutants.py reports a
survivor without an entry as a gap in the suite.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from reference.readings import OPEN_DECISIONS


def mutant_key(module: str, operator: str, line: str, changed: str) -> str:
    return f"{module} | {operator} | {line} => {changed}"


def line_key(module: str, line: str) -> str:
    return f"{module} | {line}"


def explanation(module: str, operator: str, line: str, changed: str, source: Path | None = None,
                start: tuple[int, int] | None = None) -> str:
    """Why the mutant is equivalent to the reference, or "" if nobody has shown it.  With the project copy the
    mutant was made in (`source`) and its position, a change to the test of a decision's only branch is
    recognised as choosing the decision's other reading."""
    return (EQUIVALENT_MUTANTS.get(mutant_key(module, operator, line, changed))
            or EQUIVALENT_LINES.get(line_key(module, line), "")
            or (reading_switch(source, module, operator, tuple(start)) if source and start else ""))


_BRANCH = re.compile(r'readings\["(D-\d+)"\]')


@cache
def _branches(source: Path) -> dict[str, int]:
    """How many places of the reference branch on each decision."""
    counts: dict[str, int] = {}
    for path in sorted((source / "reference").glob("*.py")):
        for decision in _BRANCH.findall(path.read_text(encoding="utf-8")):
            counts[decision] = counts.get(decision, 0) + 1
    return counts


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def reading_switch(source: Path, module: str, operator: str, start: tuple[int, int]) -> str:
    """The explanation of a mutant that only changes which branch of a two-reading open decision's only branch
    point runs (the test `readings["D-NN"] == "reading"` itself): the reference then behaves as one of the two
    readings, both of which the suite accepts by design (issue 8), or "" if the mutant is not such a change."""
    path = source / module
    if not path.is_file():
        return ""
    for node in ast.walk(_tree(path)):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.left, ast.Subscript)
                and isinstance(node.left.slice, ast.Constant) and isinstance(node.comparators[0], ast.Constant)):
            continue
        decision = node.left.slice.value
        if not (isinstance(decision, str) and _BRANCH.fullmatch(f'readings["{decision}"]')):
            continue
        begin, end = (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)
        test_itself = (operator.startswith("core/ReplaceComparisonOperator_") and begin <= start < end) or \
            (operator == "core/AddNot" and start == begin)
        if (test_itself and len(OPEN_DECISIONS.get(decision, ())) == 2
                and _branches(source).get(decision) == 1):
            return (f"changes only the test of {decision}'s only branch, so the reference behaves as one of its "
                    f"two readings ({' or '.join(OPEN_DECISIONS[decision])}), both of which a conforming server "
                    f"may take and the suite accepts (spec/decisions.md)")
    return ""


_ENTRIES = (
    ("reference/adm.py", "core/ReplaceBinaryOperator_Mul_Pow",
     "return INFINITE if self.quota == INFINITE else self.quota * 1024",
     "return INFINITE if self.quota == INFINITE else self.quota ** 1024",
     "Queue.quota_bytes() is called nowhere: Enqueue Message computes quota * 1024 itself"),
    ("reference/cursor.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if position.state == AVAILABLE and not position.is_reserved:",
     "if position.state <= AVAILABLE and not position.is_reserved:",
     ("MessagePositionState is an IntEnum whose smallest member is Available (0): state <= Available holds "
     "exactly when state == Available")),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_Is",
     "elif any(d.access_type == A.ReceiveAccess and d.share_mode == M.DenyNone for d in existing):",
     "elif any(d.access_type == A.ReceiveAccess and d.share_mode is M.DenyNone for d in existing):",
     "share_mode always holds a QueueShareMode member, and Enum members are singletons: == and is agree"),
    ("reference/queue_manager.py", "core/NumberReplacer",
     "self._message_ordinal += 1", "self._message_ordinal += 2",
     ("ordinals 2, 4, 6, ... are as unique as 1, 2, 3 (MS-MQMQ:2.2.18.1.3:01 asks for a unique ordinal only), and "
     "the store reserves whatever ordinal is reached (D-33)")),
    ("reference/reads.py", "core/AddNot",
     'if self.readings["D-04"] == "other-failure":', 'if not self.readings["D-04"] == "other-failure":',
     ("the only branch on D-04: the mutant answers a lookup seek that runs off the queue with MQ_ERROR, which is "
     "the D-04 reading other-failure that a conforming server may take")),
    ("reference/remote_read.py", "core/ReplaceComparisonOperator_Eq_IsNot",
     'if transactional and dw_ack == Ack.RR_NACK and status == HRESULT.MQ_OK and readings["D-66"] == "released":',
     ('if transactional and dw_ack == Ack.RR_NACK and status is not HRESULT.MQ_OK and readings["D-66"] == '
     '"released":'),
     ("Dequeue Message End returns the MQ_OK member itself, so on success the NACKed message stays locked in its "
     "transaction: the D-66 reading stays-locked (this is the only branch on D-66); after a failed End the "
     "message is held by nothing, and withdrawing and releasing it changes nothing")),
    ("reference/remote_read.py", "core/ReplaceAndWithOr",
     "return all(isinstance(v, int) and 0 <= v < (1 << bits) for v in values)",
     "return all(isinstance(v, int) or 0 <= v < (1 << bits) for v in values)",
     ("the values are the IDL's DWORD and ULONGLONG parameters: NDR cannot carry a value of another type or out of "
     "range, so over MS-MQRR every value is an int (only a Python caller of the in-process server could pass "
     "something else, which no MS-MQRR client can)")),
    ("reference/transactions.py", "core/ReplaceBinaryOperator_Add_FloorDiv",
     ("transaction = Transaction(transaction_identifier, (self._transaction_ids - 1) % 0xFFFFF + 1)  "
     "# MS-MQDMPR:3.1.7.1.8:01"),
     ("transaction = Transaction(transaction_identifier, (self._transaction_ids - 1) % 0xFFFFF // 1)  "
     "# MS-MQDMPR:3.1.7.1.8:01"),
     ("the TransactionHeader ids become 0, 1, 2, ... instead of 1, 2, 3, ...: still 20-bit and distinct among the "
     "queue manager's transactions, all that MS-MQMQ:2.2.20.5:01 asks")),
    ("reference/transactions.py", "core/ReplaceTrueWithFalse",
     "def transaction_prepare(self, transaction_identifier: bytes, single_phase: bool = True) -> int:",
     "def transaction_prepare(self, transaction_identifier: bytes, single_phase: bool = False) -> int:",
     "every caller passes single_phase (the adapter's prepare False, its commit True): the default is never used"),
    ("reference/position_list.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if peek and state == LOCKED and position.message_reference.allow_peek_when_locked:",
     "if peek and state <= LOCKED and position.message_reference.allow_peek_when_locked:",
     ("the line before has already returned an Available position, and Available (0) and Locked (1) are the only "
     "states <= Locked")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_LtE",
     'if reading != "times-out":', 'if reading <= "times-out":',
     ('the D-13 readings "queue-deleted" and "not-available" both sort before "times-out", so the test differs only '
     "under the reading times-out, which the reference does not take")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_Eq_NotEq",
     'status = (HRESULT.MQ_ERROR_QUEUE_DELETED if reading == "queue-deleted"',
     'status = (HRESULT.MQ_ERROR_QUEUE_DELETED if reading != "queue-deleted"',
     ("readers blocked on a deleted queue end with MQ_ERROR_QUEUE_NOT_AVAILABLE: the D-13 reading not-available, "
     "which a conforming server may take (this is where D-13 chooses the status)")),
    ("reference/reads.py", "core/AddNot",
     "if action is SEEK_CURRENT and lookup_id in position_list.moved:",
     "if not action is SEEK_CURRENT and lookup_id in position_list.moved:",
     ("MessagePositionList.moved is filled only under the D-05 reading already-received; under the reference's "
     "reading (not-found) it stays empty and the test is false either way")),
    ("reference/remote_read.py", "core/ReplaceComparisonOperator_Eq_IsNot",
     'if readings["D-55"] == "other-failure":', 'if readings["D-55"] is not "other-failure":',
     ("a dwAck out of range is answered with MQ_ERROR: the D-55 reading other-failure, which a conforming server "
     "may take (this is the only branch on D-55)")),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_Is",
     'and readings["D-59"] == "refuse"):', 'and readings["D-59"] is "refuse"):',
     ('a reading is the str object of the readings table, and CPython interns the identifier-like constant '
     '"refuse" in both modules: == and is agree')),
    ("reference/arrival.py", "core/NumberReplacer",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result == -1 and message.positive_journaling_requested and not message.is_transactional",
     ("the condition also needs the D-26 reading on-delivery (next line); under the reference's reading "
     "(on-removal) it is false either way")),
    ("reference/cursor.py", "core/ReplaceComparisonOperator_Is_Eq",
     "if found is cursor.position_list.end:", "if found == cursor.position_list.end:",
     "MessagePosition defines no __eq__, so == is identity"),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_Is",
     "if status == HRESULT.MQ_OK and (child.queue_reference.is_journal",
     "if status is HRESULT.MQ_OK and (child.queue_reference.is_journal",
     "Open Queue returns the HRESULT members themselves, and an IntEnum member is a singleton: == and is agree"),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_IsNot",
     'return (HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE if self.readings["D-32"] == "not-available"',
     'return (HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE if self.readings["D-32"] is not "not-available"',
     ("the D-32 reading not-available, which a conforming server may take, and a branch no call through "
     "MS-MQRR reaches (spec/decisions.md D-32: the suite's send opens the queue each time)")),
    ("reference/queue_manager.py", "core/AddNot",
     'if self.readings["D-14"] == "times-out":', 'if not self.readings["D-14"] == "times-out":',
     ("the only branch on D-14: Close Cursor leaves the cursor's waiting reads to their timers, the D-14 reading "
     "times-out that a conforming server may take")),
    ("reference/transactions.py", "core/ReplaceBinaryOperator_Add_Pow",
     ("transaction = Transaction(transaction_identifier, (self._transaction_ids - 1) % 0xFFFFF + 1)  "
     "# MS-MQDMPR:3.1.7.1.8:01"),
     ("transaction = Transaction(transaction_identifier, (self._transaction_ids - 1) % 0xFFFFF ** 1)  "
     "# MS-MQDMPR:3.1.7.1.8:01"),
     "the TransactionHeader ids become 0, 1, 2, ...: still 20-bit and distinct, all that MS-MQMQ:2.2.20.5:01 asks"),
    ("reference/queue_manager.py", "core/NumberReplacer",
     "value = self.random.getrandbits(32)", "value = self.random.getrandbits( 31)",
     ("descriptor and cursor handles drawn from 31 bits are still nonzero, QM-unique and within the IDL's DWORD, "
     "all that MS-MQDMPR:3.1.1.16:01 and 3.2.1.2:01 ask")),
)

# The survivors of the full run, one section per module of the core: (module, operator, the line before, the line
# after, reason).  Operator "*" with line after "*" explains every mutant of the line (code that never runs, text
# Python never evaluates).

_ENTRIES += (   # reference/acknowledgment.py
)

_ENTRIES += (   # reference/adm.py
)

_ENTRIES += (   # reference/arrival.py
)

_ENTRIES += (   # reference/cursor.py
)

_ENTRIES += (   # reference/message.py
)

_ENTRIES += (   # reference/open_queue.py
)

_ENTRIES += (   # reference/packet_sections.py
)

_ENTRIES += (   # reference/position_list.py
)

_ENTRIES += (   # reference/queue_manager.py
)

_ENTRIES += (   # reference/reads.py
)

_ENTRIES += (   # reference/remote_read.py
)

_ENTRIES += (   # reference/remote_read_rules.py
)

_ENTRIES += (   # reference/timers.py
)

_ENTRIES += (   # reference/transactions.py
)

_ENTRIES += (
    ("reference/adm.py", "*", "return INFINITE if self.quota == INFINITE else self.quota * 1024", "*",
     "Queue.quota_bytes() is called nowhere: Enqueue Message computes quota * 1024 itself"),
    ("reference/remote_read.py", "*",
     "p_client_id: bytes | None, f_non_routing_server: int = 1, major: int = 6,", "*",
     ("the line's annotations are unevaluated strings (`from __future__ import annotations`), and its defaults "
      "are never used: their only callers, the in-process Target's open_queue and open_queue_for_move, pass "
      "every parameter")),
)

EQUIVALENT_MUTANTS: dict[str, str] = {mutant_key(module, operator, line, changed): reason
                                      for module, operator, line, changed, reason in _ENTRIES if operator != "*"}
EQUIVALENT_LINES: dict[str, str] = {line_key(module, line): reason
                                    for module, operator, line, _, reason in _ENTRIES if operator == "*"}
