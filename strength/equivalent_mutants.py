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
from operator import eq, ge, gt, le, lt, ne
from pathlib import Path


def mutant_key(module: str, operator: str, line: str, changed: str) -> str:
    return f"{module} | {operator} | {line} => {changed}"


def line_key(module: str, line: str) -> str:
    return f"{module} | {line}"


def explanation(module: str, operator: str, line: str, changed: str, source: Path | None = None,
                start: tuple[int, int] | None = None) -> str:
    """Why the mutant is equivalent to the reference, or "" if nobody has shown it.  With the project copy the
    mutant was made in (`source`) and its position, a change inside a postponed annotation, and one to the test of
    a reading that holds for the same readings as before, are recognised as such."""
    found = EQUIVALENT_MUTANTS.get(mutant_key(module, operator, line, changed)) or \
        EQUIVALENT_LINES.get(line_key(module, line), "")
    if found or not (source and start and (source / module).is_file()):
        return found
    return (ANNOTATION if in_annotation(_tree(source / module), tuple(start)) else "") or \
        reading_test(source, module, operator, tuple(start)) or unread_property(source, module, operator,
                                                                                   tuple(start))


ANNOTATION = ("the change falls inside an annotation, which `from __future__ import annotations` keeps as a string "
              "that nothing evaluates")


def in_annotation(tree: ast.Module, start: tuple[int, int]) -> bool:
    """Whether `start` (line from 1, column from 0) falls inside an annotation of a module that postpones their
    evaluation."""
    if not any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
               and any(alias.name == "annotations" for alias in node.names) for node in tree.body):
        return False
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg,
                                                                                      node.args.kwarg]
            found += [argument.annotation for argument in arguments if argument and argument.annotation]
            found += [node.returns] if node.returns else []
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return any((a.lineno, a.col_offset) <= start < (a.end_lineno, a.end_col_offset) for a in found)


# Where the reference's objects are read: its own modules and the adapter that hosts it (the suite never imports it).
_READERS = ("reference/*.py", "adapters/in_process.py")


def unread_property(source: Path, module: str, operator: str, start: tuple[int, int]) -> str:
    """The explanation of a removed @property whose attribute nothing reads (an attribute of the data model that no
    protocol call shows: without the decorator it is a method, and no code asks for it either way), or ""."""
    path = source / module
    if operator != "core/RemoveDecorator" or not path.is_file():
        return ""
    decorated = next((node for node in ast.walk(_tree(path)) if isinstance(node, ast.FunctionDef)
                      and any(isinstance(d, ast.Name) and d.id == "property" and d.lineno == start[0]
                              for d in node.decorator_list)), None)   # Cosmic Ray's position is the "@"
    if decorated is None:
        return ""
    for pattern in _READERS:
        for reader in sorted(source.glob(pattern)):
            if any(isinstance(node, ast.Attribute) and node.attr == decorated.name for node in ast.walk(_tree(reader))):
                return ""
    return (f"nothing reads .{decorated.name} (neither the reference nor the adapter that hosts it): the property is "
            f"part of the data model no protocol call shows, and as a plain method it goes unread alike")


_BRANCH = re.compile(r'readings\["(D-\d+)"\]')


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


_COMPARISONS = {"Eq": eq, "NotEq": ne, "Lt": lt, "LtE": le, "Gt": gt, "GtE": ge}


def reading_test(source: Path, module: str, mutation: str, start: tuple[int, int]) -> str:
    """The explanation of a mutant that turns the test of a reading (`readings["D-NN"] == "name"`) into another
    comparison that holds for exactly the same readings of that decision (its names compare alike, as strings,
    under both), or "" otherwise: a comparison that holds for another reading makes the reference take it, which
    the mutation run's --profile reference fails (strength/mutants.py), so such a mutant never needs explaining."""
    # imported here: the fork server imports this module before it may import the reference
    from mqspec.reference.readings import OPEN_DECISIONS

    path = source / module
    parts = mutation.removeprefix("core/ReplaceComparisonOperator_").split("_")
    if not (mutation.startswith("core/ReplaceComparisonOperator_") and len(parts) == 2 and path.is_file()
            and all(part in _COMPARISONS for part in parts)):
        return ""
    before, after = (_COMPARISONS[part] for part in parts)
    for node in ast.walk(_tree(path)):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.left, ast.Subscript)
                and isinstance(node.left.slice, ast.Constant) and isinstance(node.comparators[0], ast.Constant)):
            continue
        decision, name = node.left.slice.value, node.comparators[0].value
        if not (isinstance(decision, str) and _BRANCH.fullmatch(f'readings["{decision}"]') and isinstance(name, str)):
            continue
        if not (node.lineno, node.col_offset) <= start < (node.end_lineno, node.end_col_offset):
            continue
        readings = OPEN_DECISIONS.get(decision, ())
        if readings and all(before(reading, name) == after(reading, name) for reading in readings):
            return (f"{decision}'s readings ({', '.join(readings)}) compare with \"{name}\" alike under both "
                    f"comparisons, so the reference takes the same reading of {decision} as before")
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
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "positive = reason == C.MQMSG_CLASS_ACK_RECEIVE", "positive = reason <= C.MQMSG_CLASS_ACK_RECEIVE",
     ("every removal reason is ACK_RECEIVE (0x4000) or a receive NACK of 0xC000 and above (Q_DELETED, Q_PURGED, "
      "RECEIVE_TIMEOUT, RECEIVE_REJECTED: the callers in reads.py, transactions.py, queue_manager.py and the "
      "Dequeue operations' reasons), so reason <= 0x4000 holds exactly when reason == 0x4000")),
    ("reference/acknowledgment.py", "core/ReplaceBinaryOperator_BitAnd_FloorDiv",
     ("if (positive and requested & Acks.ACK_POS_RECEIVE) or (not positive and requested & "
      "Acks.ACK_NEG_RECEIVE):"),
     ("if (positive and requested & Acks.ACK_POS_RECEIVE) or (not positive and requested // "
      "Acks.ACK_NEG_RECEIVE):"),
     ("AcknowledgementsRequested is always 0..15 (arrival.property_error refuses any other bit, mqqb_arrival "
      "masks the packet's with 0x0F, copies carry NONE or their original's), so requested // 8 is nonzero "
      "exactly when bit 0x8 is set")),
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_Eq_GtE",
     'if queue.is_journal or queue.queue_type.name == "System":',
     'if queue.is_journal or queue.queue_type.name >= "System":',
     ('the QueueType names are Private, Public, System and Connector: only "System" itself is >= "System"')),
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_Eq_Gt",
     'if queue.is_journal or queue.queue_type.name == "System":',
     'if queue.is_journal or queue.queue_type.name > "System":',
     ("the test only matters for journal and system queues, and message_removed never runs for them: "
      "message_position_deleted calls it only for a journaling queue (they never journal) or a message asking "
      "for acknowledgments or journaling, and they hold only record copies (D-30 refuse: nobody sends to them), "
      "which ask for nothing under the reference's D-28 reading inert")),
    ("reference/acknowledgment.py", "core/ReplaceOrWithAnd",
     'if queue.is_journal or queue.queue_type.name == "System":',
     'if queue.is_journal and queue.queue_type.name == "System":',
     ("the test only matters for journal and system queues, and message_removed never runs for them: "
      "message_position_deleted calls it only for a journaling queue (they never journal) or a message asking "
      "for acknowledgments or journaling, and they hold only record copies (D-30 refuse: nobody sends to them), "
      "which ask for nothing under the reference's D-28 reading inert")),
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_Eq_GtE",
     'source_journals = message.is_transactional or self.readings["D-26"] == "on-removal"',
     'source_journals = message.is_transactional or self.readings["D-26"] >= "on-removal"',
     ('D-26\'s readings are "on-removal" and "on-delivery", and "on-delivery" sorts before "on-removal": >= '
      "holds exactly when == does, under either reading")),
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_Eq_LtE",
     'source_journals = message.is_transactional or self.readings["D-26"] == "on-removal"',
     'source_journals = message.is_transactional or self.readings["D-26"] <= "on-removal"',
     ('under the reference\'s D-26 reading the reading is "on-removal", and a string is <= itself: the test '
      "holds as == does")),
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_Eq_IsNot",
     'source_journals = message.is_transactional or self.readings["D-26"] == "on-removal"',
     'source_journals = message.is_transactional or self.readings["D-26"] is not "on-removal"',
     ('under the reference\'s D-26 reading the reading is readings.py\'s "on-removal", a different object from '
      "this module's constant (a string with a hyphen is not interned; checked), so `is not` holds as == does")),
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if message_class not in NO_BODY_CLASSES and received_message.privacy_level == PrivacyLevel.None_:",
     "if message_class not in NO_BODY_CLASSES and received_message.privacy_level <= PrivacyLevel.None_:",
     ("privacy_level always holds a PrivacyLevel member (the adapter and mqqb_arrival convert to it), and None_ "
      "(0) is the smallest (Base 1, Enhanced 3, Advanced 5): <= None_ holds exactly when == None_")),
    ("reference/acknowledgment.py", "core/ReplaceComparisonOperator_NotEq_Gt",
     "if status != HRESULT.MQ_OK:", "if status > HRESULT.MQ_OK:",
     ("Open Queue returns HRESULT members: MQ_OK is 0 and every other member is an error code of 0x80000000 "
      "and above (none is negative or between), so > MQ_OK holds exactly when != MQ_OK")),
)

_ENTRIES += (   # reference/adm.py
    ("reference/adm.py", "core/ReplaceBinaryOperator_Mul_Div",
     "def __init__(self, pathname: str, *, identifier: bytes, queue_type: QueueType,",
     "def __init__(self, pathname: str, /, identifier: bytes, queue_type: QueueType,",
     ("the keyword-only marker becomes a positional-only one: every Queue(...) (queue_manager, persistence) passes "
      "the path name by position and the rest by keyword, which both signatures accept alike")),
    ("reference/adm.py", "core/ReplaceFalseWithTrue",
     'label: str = "", journaling: bool = False, quota: int = INFINITE,',
     'label: str = "", journaling: bool = True, quota: int = INFINITE,',
     ("a queue that is not a subqueue gets journaling from its creator (the adapter's create_queue, the store's "
      "restore); the default reaches only system, journal and subqueues, which have no journal queue, so it only makes "
      "message_position_deleted call message_removed, which then does nothing: the journal branch needs a journal "
      "queue, and every other branch needs a request that would have made the call anyway")),
    ("reference/adm.py", "core/ReplaceFalseWithTrue",
     "journal_quota: int = INFINITE, authentication: bool = False,",
     "journal_quota: int = INFINITE, authentication: bool = True,",
     ("Queue.authentication is read by no rule: the store writes it and restores it as it was, and no Target "
      "call sets or reports it")),
    ("reference/adm.py", "core/NumberReplacer",
     "transactional: bool = False, base_priority: int = 0,",
     "transactional: bool = False, base_priority: int = 1,",
     ("Queue.base_priority is read by no rule: the store writes it and restores it as it was, and no Target "
      "call sets or reports it")),
    ("reference/adm.py", "core/NumberReplacer",
     "transactional: bool = False, base_priority: int = 0,",
     "transactional: bool = False, base_priority: int = -1,",
     ("Queue.base_priority is read by no rule: the store writes it and restores it as it was, and no Target "
      "call sets or reports it")),
    ("reference/adm.py", "core/NumberReplacer",
     "create_time: int = 0, private_queue_number: int = 0, security: QueueSecurity = DEFAULT) -> None:",
     "create_time: int = 1, private_queue_number: int = 0, security: QueueSecurity = DEFAULT) -> None:",
     ("every Queue(...) passes create_time (create_queue, _system_queue, the journal, the store's restore): the "
      "default is never used")),
    ("reference/adm.py", "core/NumberReplacer",
     "create_time: int = 0, private_queue_number: int = 0, security: QueueSecurity = DEFAULT) -> None:",
     "create_time: int = -1, private_queue_number: int = 0, security: QueueSecurity = DEFAULT) -> None:",
     ("every Queue(...) passes create_time (create_queue, _system_queue, the journal, the store's restore): the "
      "default is never used")),
    ("reference/adm.py", "core/NumberReplacer",
     "create_time: int = 0, private_queue_number: int = 0, security: QueueSecurity = DEFAULT) -> None:",
     "create_time: int = 0, private_queue_number: int = 1, security: QueueSecurity = DEFAULT) -> None:",
     ("the default reaches only system and journal queues, whose number nothing reads: queue_format_name serves "
      "create_queue's new queue, and PRIVATE= names are resolved over QueueCollection, which holds neither")),
    ("reference/adm.py", "core/NumberReplacer",
     "create_time: int = 0, private_queue_number: int = 0, security: QueueSecurity = DEFAULT) -> None:",
     "create_time: int = 0, private_queue_number: int = -1, security: QueueSecurity = DEFAULT) -> None:",
     ("the default reaches only system and journal queues, whose number nothing reads: queue_format_name serves "
      "create_queue's new queue, and PRIVATE= names are resolved over QueueCollection, which holds neither")),
    ("reference/adm.py", "*", "self.type = bytes(16)", "*",
     "Queue.type (MS-MQDMPR's Queue.Type GUID) is read nowhere, and no Target call sets or reports it"),
    ("reference/adm.py", "core/NumberReplacer", "self.total_bytes = 0", "self.total_bytes = -1",
     ("Queue.total_bytes is read only by Enqueue Message's test total_bytes + size > quota * 1024; every packet "
      "size is a multiple of 4 (4-byte aligned sections; checked on 20,000 random messages) and so is "
      "quota * 1024, so a sum one lower changes the test only at quota * 1024 + 1, which no sum reaches")),
    ("reference/adm.py", "core/ReplaceFalseWithTrue", "self.deleted = False", "self.deleted = True",
     "Queue.deleted is written (here and by Delete Queue) but read nowhere"),
    ("reference/adm.py", "core/ReplaceFalseWithTrue", "multiple: bool = False) -> None:",
     "multiple: bool = True) -> None:",
     ("OpenQueueDescriptor is built only by open_queue.py's _new_descriptor, which passes multiple: the default "
      "is never used")),
    ("reference/adm.py", "*", "if self.waiter is not None:", "*",
     ("the line only decides whether finish() clears ReadRequest.waiter, which nothing reads (reads.py sets it, "
      "this line alone looks at it)")),
    ("reference/adm.py", "core/NumberReplacer",
     "def __init__(self, identifier: bytes | None, header_id: int = 0) -> None:",
     "def __init__(self, identifier: bytes | None, header_id: int = 1) -> None:",
     "Transaction is built only by create_transaction, which passes header_id: the default is never used"),
    ("reference/adm.py", "core/NumberReplacer",
     "def __init__(self, identifier: bytes | None, header_id: int = 0) -> None:",
     "def __init__(self, identifier: bytes | None, header_id: int = -1) -> None:",
     "Transaction is built only by create_transaction, which passes header_id: the default is never used"),
    ("reference/adm.py", "core/ReplaceTrueWithFalse", "self.single_phase = True", "self.single_phase = False",
     ("single_phase is read only at start (abort_unprepared_transactions) and by the store; under the reference's "
      "D-23 reading abort-unprepared an unprepared transaction is aborted whatever it says, and "
      "transaction_prepare sets it from its caller before a transaction is prepared")),
)

_CONSTANT_STAMP = ("TxSequenceID's TimeStamp becomes a constant (0xFFFFFFFF or 0 until 2106), which never goes down, "
                   "and its Ordinal (the 20-bit transaction id) still grows and tells transactions apart: all "
                   "MS-MQMQ:2.2.18.1.2:01 and MS-MQMQ:2.2.20.5:01 ask")

_ENTRIES += (   # reference/arrival.py
    ("reference/arrival.py", "core/ReplaceComparisonOperator_NotEq_Gt",
     "if status != HRESULT.MQ_OK:", "if status > HRESULT.MQ_OK:",
     ("property_error returns HRESULT members: MQ_OK is 0 and every other member is an error code of 0x80000000 "
      "and above (none is negative or between), so > MQ_OK holds exactly when != MQ_OK")),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_Gt",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result > 0 and message.positive_journaling_requested and not message.is_transactional",
     "the condition also needs the D-26 reading on-delivery (next line): under the reference's it is false either way"),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_GtE",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result >= 0 and message.positive_journaling_requested and not message.is_transactional",
     "the condition also needs the D-26 reading on-delivery (next line): under the reference's it is false either way"),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_Lt",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result < 0 and message.positive_journaling_requested and not message.is_transactional",
     "the condition also needs the D-26 reading on-delivery (next line): under the reference's it is false either way"),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result <= 0 and message.positive_journaling_requested and not message.is_transactional",
     "the condition also needs the D-26 reading on-delivery (next line): under the reference's it is false either way"),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_NotEq",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result != 0 and message.positive_journaling_requested and not message.is_transactional",
     "the condition also needs the D-26 reading on-delivery (next line): under the reference's it is false either way"),
    ("reference/arrival.py", "core/NumberReplacer",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result == 1 and message.positive_journaling_requested and not message.is_transactional",
     "the condition also needs the D-26 reading on-delivery (next line): under the reference's it is false either way"),
    ("reference/arrival.py", "core/ReplaceUnaryOperator_Delete_Not",
     "if (result == 0 and message.positive_journaling_requested and not message.is_transactional",
     "if (result == 0 and message.positive_journaling_requested and  message.is_transactional",
     "the condition also needs the D-26 reading on-delivery (next line): under the reference's it is false either way"),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_LtE",
     'and self.readings["D-26"] == "on-delivery"):', 'and self.readings["D-26"] <= "on-delivery"):',
     ('D-26\'s readings are "on-removal" and "on-delivery", and "on-removal" sorts after "on-delivery": <= holds '
      "exactly when == does, under either reading")),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_Lt",
     'and self.readings["D-26"] == "on-delivery"):', 'and self.readings["D-26"] < "on-delivery"):',
     ('under the reference\'s D-26 reading the reading is "on-removal", which sorts after "on-delivery": < is '
      "false, as == is")),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_GtE",
     'if status == HRESULT.MQ_ERROR_QUEUE_NOT_FOUND and self.readings["D-68"] == "refuse+nack":',
     'if status >= HRESULT.MQ_ERROR_QUEUE_NOT_FOUND and self.readings["D-68"] == "refuse+nack":',
     ("a send Open Queue refuses above QUEUE_NOT_FOUND names no queue that takes it (ILLEGAL_FORMATNAME; "
      "UNSUPPORTED_FORMATNAME_OPERATION: a journal, system, DL= or MACHINE= name), and the mutant answers it as "
      "MS-MQQB 3.1.5.8.2/3.1.5.8.5 answer a packet whose destination is not in QueueCollection: NACK_BAD_DST_Q "
      "and the dead-letter copy, which D-68 leaves a set-up send free to make (MS-MQQB:3.1.5.8.2:03)")),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_Gt",
     'if status == HRESULT.MQ_ERROR_QUEUE_NOT_FOUND and self.readings["D-68"] == "refuse+nack":',
     'if status > HRESULT.MQ_ERROR_QUEUE_NOT_FOUND and self.readings["D-68"] == "refuse+nack":',
     ("an unknown queue gets no NACK or copy (the D-68 reading refuse-only), and a send refused above "
      "QUEUE_NOT_FOUND (an ill-formed name, a journal, system, DL= or MACHINE= name: no queue takes it) gets "
      "NACK_BAD_DST_Q and the dead-letter copy, as MS-MQQB 3.1.5.8.2/3.1.5.8.5 answer a packet whose destination "
      "is not in QueueCollection, which D-68 leaves a set-up send free to do (MS-MQQB:3.1.5.8.2:03)")),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if result == 0 and requested & Acks.ACK_POS_ARRIVAL:", "if result <= 0 and requested & Acks.ACK_POS_ARRIVAL:",
     ("result is an Enqueue Message status, 0 to 3 (EnqueueStatus; D-32's MQ_ERROR_QUEUE_NOT_AVAILABLE is the "
      "other reading, and no send reaches it): <= 0 holds exactly when == 0")),
    ("reference/arrival.py", "core/ReplaceComparisonOperator_Eq_GtE", "elif result == 3:", "elif result >= 3:",
     ("result is an Enqueue Message status, 0 to 3 (EnqueueStatus; D-32's MQ_ERROR_QUEUE_NOT_AVAILABLE is the "
      "other reading, and no send reaches it): >= 3 holds exactly when == 3")),
    ("reference/arrival.py", "core/ReplaceBinaryOperator_BitAnd_BitOr",
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))',
     '+ (self.now_seconds() | 0xFFFFFFFF).to_bytes(4, "little"))',
     _CONSTANT_STAMP),
    ("reference/arrival.py", "core/ReplaceBinaryOperator_BitAnd_FloorDiv",
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))',
     '+ (self.now_seconds() // 0xFFFFFFFF).to_bytes(4, "little"))',
     _CONSTANT_STAMP),
    ("reference/arrival.py", "core/ReplaceBinaryOperator_BitAnd_RShift",
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))',
     '+ (self.now_seconds() >> 0xFFFFFFFF).to_bytes(4, "little"))',
     _CONSTANT_STAMP),
    ("reference/arrival.py", "core/NumberReplacer",
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))',
     '+ (self.now_seconds() & 4294967296).to_bytes(4, "little"))',
     _CONSTANT_STAMP),
    ("reference/arrival.py", "core/ReplaceBinaryOperator_BitAnd_Mod",
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))',
     '+ (self.now_seconds() % 0xFFFFFFFF).to_bytes(4, "little"))',
     "now in seconds since 1970 stays below 0xFFFFFFFF until 2106, so now % 0xFFFFFFFF == now & 0xFFFFFFFF"),
    ("reference/arrival.py", "core/NumberReplacer",
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))',
     '+ (self.now_seconds() & 4294967294).to_bytes(4, "little"))',
     ("TimeStamp loses its lowest bit: it still never goes down, and the Ordinal (the 20-bit transaction id) "
      "still tells transactions apart: all MS-MQMQ:2.2.18.1.2:01 and MS-MQMQ:2.2.20.5:01 ask")),
    ("reference/arrival.py", "core/NumberReplacer",
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))',
     '+ (self.now_seconds() & 0xFFFFFFFF).to_bytes( 5, "little"))',
     ("the fifth byte is 0 and the packet keeps only the first 8 bytes of the sequence identifier (packet.py), "
      "and nothing else reads its bytes: the packets are the same")),
)

_CURSOR_PARKED_END = ("under the reference's D-11 reading parked-end a cursor's parked_after is always None "
                      "(reads.py _parked_after gives None, move_to resets it), so `parked_after is None or ...` is "
                      "true before the changed second operand is evaluated")
_CURSOR_ARRIVALS_ONLY = ("code of the D-11 reading end-sees-arrivals only: it runs when parked_after is set, which "
                         "reads.py _parked_after does only under that reading, so no call to the reference (reading "
                         "parked-end) reaches it")

_ENTRIES += (   # reference/cursor.py
    *(("reference/cursor.py", f"core/ReplaceComparisonOperator_IsNot_{name}",
       "if parked_after is None or cursor.message_position_reference is not position_list.end:",
       f"if parked_after is None or cursor.message_position_reference {changed} position_list.end:",
       _CURSOR_PARKED_END)
      for name, changed in (("Eq", "=="), ("Gt", ">"), ("GtE", ">="), ("Is", "is"), ("Lt", "<"), ("LtE", "<="))),
    ("reference/cursor.py", "*",
     ("while found is not position_list.end and found.message_reference.lookup_identifier & SEQUENCE_BITS <= "
      "parked_after:"), "*", _CURSOR_ARRIVALS_ONLY),
    ("reference/cursor.py", "*",
     "SEQUENCE_BITS = 0x00FFFFFFFFFFFFFF  # the SequentialID part of a LookupIdentifier (MS-MQDMPR 3.1.7.1.9)", "*",
     "SEQUENCE_BITS is read only on _seek's D-11 end-sees-arrivals line; " + _CURSOR_ARRIVALS_ONLY),
    ("reference/cursor.py", "*", "position_list.start.cursor_references += 1", "*",
     ("Start's cursor count is never read: every reader of cursor_references asks first (or only handles "
      "message positions) whether the position is Deleted, and Start is a reserved entry that is always "
      "Available (position_list.py remove, drop_tombstone, discard_uncommitted; cursor.py move_to)")),
    ("reference/cursor.py", "core/AddNot",
     "return (BUSY if self.cursor_state in (WaitReceive, WaitPeek) else ILLEGAL), None",
     "return (BUSY if not self.cursor_state in (WaitReceive, WaitPeek) else ILLEGAL), None",
     ("swaps Busy and IllegalCursorAction for events without a rule: a read in a Wait state gets "
      "IllegalCursorAction, which reads.py maps to MQ_ERROR_ILLEGAL_CURSOR_ACTION like Busy under the "
      "reference's D-12 reading refuse (only D-12 other-failure tells them apart), and Message Available / "
      "Wait Time Expired in Unread or Read get Busy, a status their callers (reads.py) ignore")),
    *(("reference/cursor.py", "core/NumberReplacer", line, changed,
       ("the member keeps a value no other member of its IntEnum has, and cursor states, events and statuses are "
        "only compared by identity and used as dict keys (cursor.py TRANSITIONS, reads.py), never by value"))
      for line, changed in (
          ("Unread = 0", "Unread = -1"), ("Read = 3", "Read = 4"),
          ("GET_MESSAGE_FOR_PEEK = 0           # 3.2.7.2 Get Message For Peek",
           "GET_MESSAGE_FOR_PEEK = -1           # 3.2.7.2 Get Message For Peek"),
          ("WAIT_TIME_EXPIRED = 4              # 3.2.7.6 Wait Time Expired",
           "WAIT_TIME_EXPIRED = 5              # 3.2.7.6 Wait Time Expired"),
          ("Succeeded = 0", "Succeeded = -1"),
          ("Busy = 5                  # a read event while a read waits through the cursor (D-12)",
           "Busy = 6                  # a read event while a read waits through the cursor (D-12)"))),
    *(("reference/cursor.py", "core/NumberReplacer", line, changed,
       ("makes Busy and IllegalCursorAction one member (an IntEnum alias): reads.py maps both to "
        "MQ_ERROR_ILLEGAL_CURSOR_ACTION under the reference's D-12 reading refuse, and only D-12 other-failure "
        "(reads.py _cursor_failure) tells them apart"))
      for line, changed in (
          ("IllegalCursorAction = 4", "IllegalCursorAction = 5"),
          ("Busy = 5                  # a read event while a read waits through the cursor (D-12)",
           "Busy = 4                  # a read event while a read waits through the cursor (D-12)"))),
    *(("reference/cursor.py", "core/NumberReplacer", line, changed,
       ("makes NotFound and Waiting one member (an IntEnum alias), so a cursor receive with a zero time-out that "
        "finds nothing waits for zero ms and ends with MQ_ERROR_IO_TIMEOUT, the cursor unchanged (Wait Time "
        "Expired has no rule in Unread): the D-03 reading msdn, which a conforming server may take; NotFound "
        "comes from nowhere else"))
      for line, changed in (("NotFound = 2", "NotFound = 3"), ("Waiting = 3", "Waiting = 2"))),
    ("reference/cursor.py", "*", "if old.state == DELETED and old.cursor_references == 0:", "*",
     ("the test only decides whether drop_tombstone is called, and drop_tombstone checks state == Deleted and "
      "cursor_references == 0 again: an extra call is refused there, a missing one leaves a Deleted position "
      "linked in its place with no cursor on it, which every seek skips and positions() leaves out (D-06), so "
      "only memory tells")),
    ("reference/cursor.py", "core/NumberReplacer", "old.cursor_references -= 1", "old.cursor_references -= 0",
     ("counts never go down, so a position a cursor once rested on stays linked as a tombstone after removal: "
      "seeks skip it and positions() leaves it out, so only memory tells (D-06)")),
    ("reference/cursor.py", "core/NumberReplacer", "position.cursor_references += 1",
     "position.cursor_references += 2",
     ("each arrival counts 2 and each departure 1, so a count never returns to 0 and a removed position a cursor "
      "rested on stays linked as a tombstone: seeks skip it and positions() leaves it out, so only memory tells "
      "(D-06)")),
    ("reference/cursor.py", "core/ReplaceTrueWithFalse", "self.closed = True", "self.closed = False",
     ("`closed` is read only when a read waiting through the cursor ends (reads.py waiting_message_read_timer_stop)"
      ", and under the reference's readings no such read outlives Close Cursor: D-14 cancelled ends them before "
      "release(), and Close Queue (D-31 all) and Delete Queue (D-13 queue-deleted) end them earlier")),
)

_SENT_TIME_PASSED = ("every Message(...) passes sent_time (the adapter, mqqb_arrival, both acknowledgment forms) or, "
                     "in the store's restore, sets it from the record at once: the default is never used")
_SET_AT_ENQUEUE = ("the value is overwritten before anything reads it: Enqueue Message sets size, LookupIdentifier "
                   "and ArrivalTime before the message enters a list (copies are enqueued the same way), and the "
                   "store's restore sets all three; a message that never enters a list is never read for them")

_ENTRIES += (   # reference/message.py
    ("reference/message.py", "core/ReplaceBinaryOperator_Mul_Div",
     'def __init__(self, body: bytes = b"", *, label: str = "", priority: int = DEFAULT_PRIORITY,',
     'def __init__(self, body: bytes = b"", /, label: str = "", priority: int = DEFAULT_PRIORITY,',
     ("the keyword-only marker becomes a positional-only one: every Message(...) (the adapter, acknowledgment, "
      "mqqb_arrival, persistence) passes the body by position or not at all, and the rest by keyword")),
    ("reference/message.py", "*", '"authentication_level": 0,', "*",
     "nothing reads Message.AuthenticationLevel: no packet field or Target call shows it"),
    ("reference/message.py", "*", '"final_ack_required": False,', "*",
     ("a peer's transactional packet sets FinalAckRequired from its FA bit (mqqb_arrival); the default stands only "
      "for messages sent on this computer, whose final acknowledgment nobody is sent (the source is this queue "
      "manager) and whose FA bit in the TransactionHeader no clause fixes for a message that never travelled")),
    *(("reference/message.py", "*", line, "*",
       ("read only for transactional messages (the packet's TransactionHeader, final acknowledgments), and every "
        "transactional message gets its own value when it arrives (arrival for a send here, mqqb_arrival for a "
        "peer's packet), so the default is never read"))
      for line in ('"transaction_sequence_number": 0,', '"transaction_previous_sequence_number": 0,',
                   ('"transaction_header_id": 0,    # TransactionHeader.Flags.ID, unique per transaction '
                    '(MS-MQMQ 2.2.20.5)'))),
    ("reference/message.py", "*", "return self.delivery_guarantee == DeliveryGuarantee.Recoverable", "*",
     "Message.is_recoverable is called nowhere (dead code, to be deleted with a fresh full run)"),
    *(("reference/message.py", "core/NumberReplacer",
       "NULL_IDENTIFIER = bytes(20)  # OBJECTID with GUID_NULL lineage and uniquifier 0",
       f"NULL_IDENTIFIER = bytes( {size})  # OBJECTID with GUID_NULL lineage and uniquifier 0",
       ("the default stands only until Enqueue Message gives the message its identifier (arrival), and a "
        "correlation identifier is written into the packet cut or padded with zeros to 20 bytes (packet.py): "
        f"{size} zero bytes read as 20 zero bytes")) for size in (19, 21)),
    ("reference/message.py", "core/NumberReplacer",
     "sent_time: int = 0, identifier: bytes = NULL_IDENTIFIER,",
     "sent_time: int = 1, identifier: bytes = NULL_IDENTIFIER,",
     _SENT_TIME_PASSED),
    ("reference/message.py", "core/NumberReplacer",
     "sent_time: int = 0, identifier: bytes = NULL_IDENTIFIER,",
     "sent_time: int = -1, identifier: bytes = NULL_IDENTIFIER,",
     _SENT_TIME_PASSED),
    ("reference/message.py", "core/NumberReplacer", "self.lookup_identifier = 0", "self.lookup_identifier = 1",
     _SET_AT_ENQUEUE),
    ("reference/message.py", "core/NumberReplacer", "self.lookup_identifier = 0", "self.lookup_identifier = -1",
     _SET_AT_ENQUEUE),
    ("reference/message.py", "core/NumberReplacer", "twin.lookup_identifier = 0", "twin.lookup_identifier = 1",
     _SET_AT_ENQUEUE),
    ("reference/message.py", "core/NumberReplacer", "twin.lookup_identifier = 0", "twin.lookup_identifier = -1",
     _SET_AT_ENQUEUE),
    ("reference/message.py", "core/NumberReplacer", "self.arrival_time = 0", "self.arrival_time = 1",
     _SET_AT_ENQUEUE),
    ("reference/message.py", "core/NumberReplacer", "self.arrival_time = 0", "self.arrival_time = -1",
     _SET_AT_ENQUEUE),
    ("reference/message.py", "core/NumberReplacer", "self.size = 0", "self.size = 1", _SET_AT_ENQUEUE),
    ("reference/message.py", "core/NumberReplacer", "self.size = 0", "self.size = -1", _SET_AT_ENQUEUE),
    ("reference/message.py", "core/ReplaceAndWithOr",
     'return self.get("soap_envelope") is not None and self.get("soap_compound_message") is not None',
     'return self.get("soap_envelope") is not None or self.get("soap_compound_message") is not None',
     ("the two are only ever set together: the adapter sets the compound message (b\"\" if none) whenever it sets "
      "the envelope, nothing else sets either, and the store restores what it recorded")),
)

_OQ_SEND_ONLY = ("send_only is read only with an access other than SendAccess (next line), and such opens come only "
                 "from R_OpenQueue / R_OpenQueueForMove, which refuse MULTICAST= names and DIRECT= names of protocols "
                 "other than TCP and OS first (remote_read.py _format_name): every name they let through has no "
                 "HTTP(S) protocol, so send_only is false in the reference and the mutant alike")
_OQ_SYSTEM_NAME = ('QueueType names are Private, Public, System and Connector: only "System" is >= "System"')
_OQ_STATUS_GT = ("the statuses here are MQ_OK (0) and failing HRESULTs, which Python holds as positive ints "
                 "(0xC00E....), so > MQ_OK holds exactly when != MQ_OK")
_OQ_D30 = ("under the reference's D-30 reading refuse the element's own Open Queue has already refused a journal or "
           "system queue for sending (status not MQ_OK), so this test is reached only by statuses it lets through "
           "unchanged: the mutant can only differ under D-30 accept")
_OQ_PUBLIC = ("differs only for a PUBLIC= name of an existing public queue, and no Target call can form one: the "
              "Target gives public queues by their DIRECT= names and no call reveals a queue's GUID (every queue "
              "GUID is new_guid()'s, never the queue manager's); for any other PUBLIC= name both find nothing "
              "(a public queue's private number is 0, a PUBLIC= name's is None)")
_OQ_KINDS = ("the other kinds that reach this test (CONNECTOR=, MULTICAST= on a send; MULTIPLE= and DL= are handled "
             "before) have no protocol, so the DIRECT branch answers None for them (_is_this_computer is false) like "
             "the else branch")
_OQ_D22 = ("under the reference's D-22 reading explicit the test stays false; the `or` mutant creates a subqueue "
           "the first time it is named and only then, which is the D-22 reading implicit that a conforming server may "
           "take (this is D-22's only branch)")
_OQ_TCP_GTE = 'the protocols are TCP, OS, HTTP and HTTPS: only "TCP" is >= "TCP"'
_OQ_OS_GTE = ('TCP names returned on the line before, and of OS, HTTP and HTTPS only "OS" is >= "OS"')
_OQ_CHILDREN = ("a multiple-element descriptor lives only while one message is enqueued through it (send_message and "
                "the acknowledgment senders close it right after), and its children are SendAccess / DenyNone "
                "descriptors with no waits or cursors, which the sharing rules (_sharing_status) ignore: left open "
                "they change nothing but memory")
_OQ_D13 = ("the test can only change what happens for a descriptor whose queue was deleted: under the reference's "
           "D-13 reading queue-deleted, Delete Queue has already ended its waiting reads, and skipping the rest leaves "
           "only its cursors registered with the queue manager, where no call can reach them once R_CloseQueue "
           "forgets the handle")
_OQ_ONE_ELEMENT = ("an expanded list has at least one element, and differs only when it dedups to one: the mutant "
                   "then opens that one element as a one-child multiple-element descriptor, which enqueues one "
                   "copy (Message.copy keeps every attribute but the position) in the same queue under the same "
                   "destination text (the list's text is that element's text), or opens the same element "
                   "(elements[-1] is elements[0])")

_ENTRIES += (   # reference/open_queue.py
    *(("reference/open_queue.py", "core/NumberReplacer", "else 2)", f"else {n})",
       ("a send reaches Enqueue Message To An Open Queue through a descriptor the adapter opens for it under the "
        "queue manager's lock, so its queue cannot be deleted in between: no Target call reaches this branch"))
      for n in (1, 3)),
    *(("reference/open_queue.py", operator,
       'send_only = (name.kind == "MULTICAST" or (name.kind == "DIRECT" and name.protocol in ("HTTP", "HTTPS")))',
       changed, _OQ_SEND_ONLY)
      for operator, changed in (
          ("core/ReplaceOrWithAnd",
           'send_only = (name.kind == "MULTICAST" and (name.kind == "DIRECT" and name.protocol in ("HTTP", "HTTPS")))'),
          *((f"core/ReplaceComparisonOperator_Eq_{name}",
             (f'send_only = (name.kind == "MULTICAST" or (name.kind {symbol} "DIRECT" and name.protocol in '
              '("HTTP", "HTTPS")))'))
            for name, symbol in (("Gt", ">"), ("GtE", ">="), ("IsNot", "is not"), ("Lt", "<"), ("LtE", "<="),
                                 ("NotEq", "!="))))),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_GtE",
     'if (required_access == A.SendAccess and (queue.is_journal or queue.queue_type.name == "System")',
     'if (required_access == A.SendAccess and (queue.is_journal or queue.queue_type.name >= "System")',
     _OQ_SYSTEM_NAME),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_NotEq_Gt", "if status != HRESULT.MQ_OK:",
     "if status > HRESULT.MQ_OK:", _OQ_STATUS_GT),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_Lt", "if len(elements) == 1:",
     "if len(elements) < 1:", _OQ_ONE_ELEMENT),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_LtE", "if len(elements) == 1:",
     "if len(elements) <= 1:", _OQ_ONE_ELEMENT),
    ("reference/open_queue.py", "core/NumberReplacer", "if len(elements) == 1:", "if len(elements) == 0:",
     _OQ_ONE_ELEMENT),
    ("reference/open_queue.py", "core/NumberReplacer", "return self.open_queue(elements[0], access, share)",
     "return self.open_queue(elements[ -1], access, share)", _OQ_ONE_ELEMENT),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_Lt",
     "if status == HRESULT.MQ_OK and (child.queue_reference.is_journal",
     "if status < HRESULT.MQ_OK and (child.queue_reference.is_journal", _OQ_D30),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if status == HRESULT.MQ_OK and (child.queue_reference.is_journal",
     "if status <= HRESULT.MQ_OK and (child.queue_reference.is_journal", _OQ_D30),
    ("reference/open_queue.py", "core/ReplaceOrWithAnd", 'or child.queue_reference.queue_type.name == "System"):',
     'and child.queue_reference.queue_type.name == "System"):', _OQ_D30),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_Gt",
     'or child.queue_reference.queue_type.name == "System"):',
     'or child.queue_reference.queue_type.name > "System"):', _OQ_D30),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_GtE",
     'or child.queue_reference.queue_type.name == "System"):',
     'or child.queue_reference.queue_type.name >= "System"):', _OQ_D30),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_GtE", 'if name.kind == "PRIVATE":',
     'if name.kind >= "PRIVATE":', _OQ_PUBLIC),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_Gt", 'elif name.kind == "PUBLIC":',
     'elif name.kind > "PUBLIC":', _OQ_PUBLIC),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_GtE", 'elif name.kind == "PUBLIC":',
     'elif name.kind >= "PUBLIC":', _OQ_PUBLIC),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Is_IsNot",
     "if q.identifier == name.guid.bytes_le and q.parent is None), None)",
     "if q.identifier == name.guid.bytes_le and q.parent is not None), None)", _OQ_PUBLIC),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_GtE", 'elif name.kind == "DIRECT":',
     'elif name.kind >= "DIRECT":', _OQ_KINDS),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_LtE", 'elif name.kind == "DIRECT":',
     'elif name.kind <= "DIRECT":', _OQ_KINDS),
    *(("reference/open_queue.py", operator, 'if subqueue is None and self.readings["D-22"] == "implicit":', changed,
       _OQ_D22)
      for operator, changed in (
          ("core/AddNot", 'if not subqueue is None and self.readings["D-22"] == "implicit":'),
          ("core/ReplaceComparisonOperator_Is_IsNot",
           'if subqueue is not None and self.readings["D-22"] == "implicit":'),
          ("core/ReplaceAndWithOr", 'if subqueue is None or self.readings["D-22"] == "implicit":'))),
    ("reference/open_queue.py", "*",
     'subqueue = self.create_queue(f"{queue.pathname};{name.subqueue}")[1]', "*",
     ("code of the D-22 reading implicit only (the test before it needs that reading), which no call to the "
      "reference (reading explicit) reaches")),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_GtE", 'if name.protocol == "TCP":',
     'if name.protocol >= "TCP":', _OQ_TCP_GTE),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_Eq_GtE", 'if name.protocol == "OS":',
     'if name.protocol >= "OS":', _OQ_OS_GTE),
    ("reference/open_queue.py", "core/ZeroIterationForLoop",
     "for child in queue_desc.open_queue_descriptor_collection:", "for child in []:", _OQ_CHILDREN),
    *(("reference/open_queue.py", operator, 'if queue is None and self.readings["D-13"] == "times-out":', changed,
       _OQ_D13)
      for operator, changed in (
          ("core/AddNot", 'if not queue is None and self.readings["D-13"] == "times-out":'),
          ("core/ReplaceComparisonOperator_Is_IsNot", 'if queue is not None and self.readings["D-13"] == "times-out":'),
          ("core/ReplaceAndWithOr", 'if queue is None or self.readings["D-13"] == "times-out":'),
          *((f"core/ReplaceComparisonOperator_Eq_{name}",
             f'if queue is None and self.readings["D-13"] {symbol} "times-out":')
            for name, symbol in (("Gt", ">"), ("GtE", ">="), ("IsNot", "is not"), ("Lt", "<"), ("LtE", "<="),
                                 ("NotEq", "!="))))),
    ("reference/open_queue.py", "*", 'tagged_only = self.readings["D-31"] == "tagged-only"', "*",
     ("tagged_only is consulted only for a waiting read without a tag, and under the reference's readings every "
      "wait carries its dwRequestId (remote_read.py drops the tag only under D-18 untagged or D-31 tagged-only), "
      "so `waiter.tag is not None` decides alone")),
    ("reference/open_queue.py", "*", "if waiter.tag is not None or not tagged_only:", "*",
     ("under the reference's readings every wait carries its dwRequestId as tag (remote_read.py drops it only under "
      "D-18 untagged or D-31 tagged-only) and tagged_only is false (D-31 all), so the test is true before and "
      "after each change: every waiting read of the descriptor still ends cancelled")),
    ("reference/open_queue.py", "core/ZeroIterationForLoop",
     "for cursor in list(queue_desc.cursor_collection.values()):", "for cursor in []:",
     ("the cursors of a closed descriptor stay registered and resting where they were, but their waiting reads have "
      "just ended (D-31 all), R_CloseQueue forgets the context handle through which alone a cursor is named, and "
      "the rundown closes them itself first: only memory (and tombstones they keep, D-06) tells")),
    ("reference/open_queue.py", "core/ReplaceComparisonOperator_NotEq_Gt", "if status != 0:", "if status > 0:",
     ("the statuses are Enqueue Message's 0-3 or, from a child, the same or a positive HRESULT "
      "(MQ_ERROR_QUEUE_NOT_AVAILABLE): none is negative, so > 0 holds exactly when != 0")),
)

_ENTRIES += (   # reference/packet_sections.py
    ("reference/packet_sections.py", "core/ReplaceFalseWithTrue",
     "def absolute_time_to_reach_queue(sent_time: int, relative: int, wrap: bool = False) -> int:",
     "def absolute_time_to_reach_queue(sent_time: int, relative: int, wrap: bool = True) -> int:",
     "the default is never used: the only caller, _first_bytes, always passes wrap"),
    ("reference/packet_sections.py", "*",
     "return (sent_time + relative) & 0xFFFFFFFF  # D-64 wrap: the sum in the 4-byte field, as written", "*",
     ("code of the D-64 reading wrap only (wrap is true only under that reading, packet_sections), which no call "
      "to the reference (reading saturate) reaches")),
    ("reference/packet_sections.py", "core/AddNot", "if wrap:", "if not wrap:",
     ("wrap is D-64's only branch (packet_sections sets it from the reading): the mutant writes the plain 4-byte sum "
      "under saturate, the D-64 reading wrap, which a conforming server may take and the suite accepts")),
    ("reference/packet_sections.py", "core/ReplaceComparisonOperator_Eq_GtE", "if relative == INFINITE:",
     "if relative >= INFINITE:",
     "relative is read from a 4-byte field, so it is never above INFINITE (0xFFFFFFFF): >= holds exactly when =="),
    *(("reference/packet_sections.py", "core/NumberReplacer", line, line.replace(")[0]", ")[ -1]"),
       'struct.unpack_from("<I", ...) returns a 1-tuple, so [-1] is [0]')
      for line in ('sent, relative = struct.unpack_from("<I", data, SENT_TIME_OFFSET)[0], \\',
                   'struct.unpack_from("<I", data, TTRQ_OFFSET)[0]')),
    *(("reference/packet_sections.py", f"core/ReplaceBinaryOperator_Add_{name}",
       'size_alloc = (layout.header_size + actual if layout.readings["D-61"] == "literal"',
       f'size_alloc = (layout.header_size {symbol} actual if layout.readings["D-61"] == "literal"',
       ("the sum is the D-61 reading literal's size only, and under the reference's reading padded the "
        "conditional expression takes trailer_offset without evaluating it"))
      for name, symbol in (("BitAnd", "&"), ("BitOr", "|"), ("BitXor", "^"), ("Div", "/"), ("FloorDiv", "//"),
                           ("LShift", "<<"), ("Mod", "%"), ("Mul", "*"), ("Pow", "**"), ("RShift", ">>"),
                           ("Sub", "-"))),
)

_POSITIONS_COUNT = ("MessagePositionList.count is read only by __len__, which only Queue.__repr__ calls (a debugging "
                    "aid no Target call reaches: nothing tests a position list's truth value either)")
_POSITIONS_TOMBSTONE_KEPT = ("a position that should be unlinked stays linked in its place, Deleted: every seek "
                             "skips it, positions() leaves it out and the lookup index no longer has it (D-06), so "
                             "only memory tells")

_ENTRIES += (   # reference/position_list.py
    ("reference/position_list.py", "*", "if self.message_reference is None:", "*",
     "MessagePosition.__repr__ serves debugging only: no test prints a position"),
    ("reference/position_list.py", "core/NumberReplacer",
     "self.cursor_references = 0  # cursors resting here; keeps a Deleted position linked (D-06)",
     "self.cursor_references = 1  # cursors resting here; keeps a Deleted position linked (D-06)",
     "every count is one too high, so it never returns to 0: " + _POSITIONS_TOMBSTONE_KEPT),
    ("reference/position_list.py", "*", "self.start = MessagePosition(None, None, 8, AVAILABLE)", "*",
     ("Start's priority is read only by _unlink's `before.priority == p` (p 0..7): 9 never matches, like 8; 7 "
      "matches when band 7's last position goes, leaving _tails[7] = Start instead of None, and insert then links "
      "a position after Start either way (Start is where its search for a higher band ends)")),
    ("reference/position_list.py", "*", "self.end = MessagePosition(None, None, -1, AVAILABLE)", "*",
     ("End's priority is never read: _unlink reads the priority of a position's predecessor, which is never End, "
      "and insert that of the new position")),
    ("reference/position_list.py", "core/NumberReplacer", "self._tails = [None] * 8", "self._tails = [None] * 9",
     "priorities are 0..7 (insert reads _tails[q] for q < 8 only), so a ninth slot is never used"),
    ("reference/position_list.py", "*", "self.count = 0  # linked positions that are not tombstones", "*",
     _POSITIONS_COUNT),
    ("reference/position_list.py", "*", "self.count += 1", "*", _POSITIONS_COUNT),
    ("reference/position_list.py", "*", "self.count -= 1", "*", _POSITIONS_COUNT),
    *(("reference/position_list.py", operator, "for q in range(p + 1, 8):", changed,
       ("the search starts at band p or p + 1 (p | 1 is p + 1 for even p, p for odd p), and band p is empty on "
        "this path (_tails[p] is None), so the first non-empty band found is the same"))
      for operator, changed in (("core/ReplaceBinaryOperator_Add_BitOr", "for q in range(p | 1, 8):"),
                                ("core/ReplaceBinaryOperator_Add_FloorDiv", "for q in range(p // 1, 8):"),
                                ("core/ReplaceBinaryOperator_Add_Mul", "for q in range(p * 1, 8):"),
                                ("core/ReplaceBinaryOperator_Add_Pow", "for q in range(p ** 1, 8):"),
                                ("core/NumberReplacer", "for q in range(p + 0, 8):"))),
    *(("reference/position_list.py", operator, "if position.state != DELETED:", changed,
       ("a guard that never fires: remove()'s only caller (queue_manager.py _unlink_deleted) sets the state to "
        "Deleted just before, and the mutant still lets Deleted through"))
      for operator, changed in (("core/ReplaceComparisonOperator_NotEq_Gt", "if position.state > DELETED:"),
                                ("core/ReplaceComparisonOperator_NotEq_Lt", "if position.state < DELETED:"))),
    ("reference/position_list.py", "*",
     "if position.state == DELETED and position.cursor_references == 0 and position.previous is not None:", "*",
     ("drop_tombstone's only caller (cursor.py move_to) calls it for a Deleted position whose count just reached 0, "
      "and such a position is linked (a Deleted position is unlinked only when no cursor rests on it), so every "
      "operand is true: a weaker test changes nothing, a stronger one keeps the position: "
      + _POSITIONS_TOMBSTONE_KEPT)),
    *(("reference/position_list.py", operator, "if position.cursor_references == 0:", changed,
       ("counts are never negative, so `<= 0` is `== 0`, and `< 0` / `== -1` never unlink: "
        + _POSITIONS_TOMBSTONE_KEPT))
      for operator, changed in (("core/ReplaceComparisonOperator_Eq_LtE", "if position.cursor_references <= 0:"),
                                ("core/ReplaceComparisonOperator_Eq_Lt", "if position.cursor_references < 0:"),
                                ("core/NumberReplacer", "if position.cursor_references == -1:"))),
    ("reference/position_list.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "self._tails[p] = before if before.priority == p else None",
     "self._tails[p] = before if before.priority <= p else None",
     "the list is ordered by priority, so a predecessor's priority is never below p: <= p holds exactly when == p"),
    ("reference/position_list.py", "core/ReplaceComparisonOperator_Eq_LtE", "if state == AVAILABLE:",
     "if state <= AVAILABLE:",
     ("MessagePositionState is an IntEnum whose smallest member is Available (0): state <= Available holds exactly "
      "when state == Available (seek_forward and seek_backward alike; their Locked tests share the entry above)")),
)

_QM_DEFAULTS = ("the QueueManager's only constructor call (adapters/in_process.py _Core) passes seed, computer_name, "
                "queue_manager_quota, send_insecure_nacks and readings itself, so these defaults are never used")

_ENTRIES += (   # reference/queue_manager.py
    ("reference/queue_manager.py", "*", 'status = (HRESULT.MQ_ERROR_QUEUE_DELETED if reading == "queue-deleted"', "*",
     ("the test picks one of D-13's two statuses for readers a deletion wakes: any change makes the reference "
      "answer as the reading queue-deleted or not-available, both of which a conforming server may take and the "
      "suite accepts (spec/decisions.md)")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_LtE",
     "if quota != INFINITE and queue.total_bytes + size > quota * 1024:",
     "if quota <= INFINITE and queue.total_bytes + size > quota * 1024:",
     ("a queue's quota is a DWORD of kilobytes, so <= INFINITE always holds; for INFINITE the size test asks "
      "whether the queue would pass 0xFFFFFFFF KB (about 4 TiB): only a queue manager configured with a quota "
      "above that and holding 4 TiB of messages could tell, and the D-20 quotas (1 MiB, 4 GB) refuse long before")),
    ("reference/queue_manager.py", "core/RemoveDecorator", "@journal_quota.setter", "",
     ("nothing reads or sets QueueManager.journal_quota (the reference and its adapter use the system journal "
      "queue's quota directly): without the setter the name is a plain method that nobody calls either")),
    ("reference/queue_manager.py", "core/ReplaceBinaryOperator_Mul_Div",
     'def __init__(self, clock: Clock, *, computer_name: str = "mqspec", seed: int | None = 0,',
     'def __init__(self, clock: Clock, /, computer_name: str = "mqspec", seed: int | None = 0,',
     ("the keyword-only marker becomes a positional-only one: the QueueManager's only constructor call "
      "(adapters/in_process.py _Core) passes the clock by position and every other argument by keyword")),
    ("reference/queue_manager.py", "core/ReplaceAndWithOr", "if value and value not in taken:",
     "if value or value not in taken:",
     ("differs only when getrandbits(32) draws 0 or a handle already in use, about one draw in 2**32 per open "
      "handle: no Target call chooses the draws, and the seeded stream of the scenarios draws neither")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_Gt",
     'if path.computer != "." and path.computer.lower() != self.computer_name.lower():',
     'if path.computer > "." and path.computer.lower() != self.computer_name.lower():',
     ('a computer name starts with a letter or a digit, which sort after "." in ASCII, so > "." holds for every '
      'computer name as != "." does, and both fail for "." itself')),
    *(("reference/queue_manager.py", "core/NumberReplacer",
       'def __init__(self, clock: Clock, *, computer_name: str = "mqspec", seed: int | None = 0,',
       f'def __init__(self, clock: Clock, *, computer_name: str = "mqspec", seed: int = {seed},', _QM_DEFAULTS)
      for seed in ("1", "-1")),
    ("reference/queue_manager.py", "core/ReplaceFalseWithTrue",
     'send_insecure_nacks: bool = False, addresses: tuple[str, ...] = ("127.0.0.1",),',
     'send_insecure_nacks: bool = True, addresses: tuple[str, ...] = ("127.0.0.1",),', _QM_DEFAULTS),
    ("reference/queue_manager.py", "core/ReplaceOrWithAnd",
     "self.readings = readings or Readings()  # the reading of each open decision (spec/decisions.md)",
     "self.readings = readings and Readings()  # the reading of each open decision (spec/decisions.md)",
     ("the adapter always passes a Readings object (always true: it defines no __bool__ or __len__), which the mutant "
      "swaps for Readings(), the reference's own readings: the queue manager then takes the reference's reading of "
      "every open decision, which is what a target started without readings does and what the suite accepts "
      "(spec/decisions.md); only a target configured with other readings would lose them")),
    ("reference/queue_manager.py", "core/NumberReplacer", "self.sequential_id = 0", "self.sequential_id = 1",
     ("the first lookup identifier becomes 2 instead of 1: MS-MQDMPR 3.1.1.1 and 3.1.7.1.9 (MS-MQDMPR:3.1.1.1:02, "
      "3.1.7.1.9:03) give SequentialID no starting value, only that each enqueue increments it, and every id "
      "is still nonzero, unique and increasing")),
    *(("reference/queue_manager.py", "core/NumberReplacer", "self._message_ordinal = 0",
       f"self._message_ordinal = {start}",
       (f"message identifiers' ordinals start at {first} instead of 1 and still never repeat (the store reserves "
        "from the first one on, D-33): MS-MQMQ:2.2.18.1.3:01 asks for a unique ordinal only, with no first value"))
      for start, first in (("1", "2"), ("-1", "0"))),
    *(("reference/queue_manager.py", "core/NumberReplacer", "self._transaction_ids = 0",
       f"self._transaction_ids = {start}",
       (f"the TransactionHeader ids start at {first} instead of 1 (transactions.py numbers them (n - 1) % 0xFFFFF "
        "+ 1): still 20-bit and distinct for 0xFFFFF transactions in a row, all MS-MQMQ:2.2.20.5:01 asks"))
      for start, first in (("1", "2"), ("-1", "0xFFFFF, then 1, 2, ..."))),
    ("reference/queue_manager.py", "core/NumberReplacer",
     "return uuid.UUID(int=self.random.getrandbits(128), version=4).bytes_le",
     "return uuid.UUID(int=self.random.getrandbits( 127), version=4).bytes_le",
     ("the queue manager's and queues' GUIDs come from 127 random bits instead of 128 (uuid then sets the version "
      "and variant bits as before): they are still random and distinct, and no specification gives a GUID a value "
      "beyond being unique")),
    *(("reference/queue_manager.py", "core/NumberReplacer",
       "return uuid.UUID(int=self.random.getrandbits(128), version=4).bytes_le",
       f"return uuid.UUID(int=self.random.getrandbits(128), version= {version}).bytes_le",
       (f"only the GUID's version nibble changes (4 to {version}); the other 122 bits stay random and distinct, and "
        "MS-MQMQ and MS-MQDMPR use a GUID only as an opaque unique identifier, naming no version"))
      for version in ("5", "3")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_IsNot_Is",
     'if transaction is not None and self.readings["D-07"] == "count-when-available":',
     'if transaction is None and self.readings["D-07"] == "count-when-available":',
     ("under the reference's D-07 reading (count-in-list) the second operand is false, so the test is false "
      "whatever the first operand says")),
    ("reference/queue_manager.py", "core/ReplaceAndWithOr",
     'if transaction is not None and self.readings["D-07"] == "count-when-available":',
     'if transaction is not None or self.readings["D-07"] == "count-when-available":',
     ("under the reference's reading the test becomes `transaction is not None`: an uncommitted enqueue is counted "
      "once it becomes Available, exactly what the D-07 reading count-when-available does (this is D-07's only "
      "branch), which a conforming server may take")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_Lt",
     "if message.time_to_be_received != INFINITE:", "if message.time_to_be_received < INFINITE:",
     ("TimeToBeReceived is a 32-bit field (MS-MQMQ 2.2.19.3) and INFINITE is its largest value 0xFFFFFFFF, so "
      "ttbr < INFINITE holds exactly when ttbr != INFINITE")),
    *(("reference/queue_manager.py", "core/ReplaceComparisonOperator_Eq_LtE", line, line.replace("==", "<=", 1),
       ("MessagePositionState is an IntEnum whose smallest member is Available (0): state <= Available holds "
        "exactly when state == Available"))
      for line in ("if position.state == AVAILABLE:",
                   "position.state = LOCKED if position.state == AVAILABLE else position.state")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_Gt", "if position.state != AVAILABLE:",
     "if position.state > AVAILABLE:",
     ("MessagePositionState is an IntEnum whose smallest member is Available (0): state > Available holds exactly "
      "when state != Available")),
    *(("reference/queue_manager.py", operator, "if message.message_position_reference is position:", changed,
       ("Message.message_position_reference is read by nothing but the Time To Be Received handler (and, at a "
        "restart, on freshly loaded messages), which ends the same way for a Deleted position as for None; the "
        "message's live position is never another one here, since Move unlinks the source before it points the "
        "message at the new position (complete_move)"))
      for operator, changed in (
          ("core/AddNot", "if not message.message_position_reference is position:"),
          ("core/ReplaceComparisonOperator_Is_IsNot", "if message.message_position_reference is not position:"),
          ("core/ReplaceComparisonOperator_Is_NotEq", "if message.message_position_reference != position:"))),
    *(("reference/queue_manager.py", "core/NumberReplacer",
       "FIRST_USER_PRIVATE_QUEUE_NUMBER = 0x10  # D-100 after the system queues (MS-MQQB 2.2.4: order_queue$ is 4)",
       f"FIRST_USER_PRIVATE_QUEUE_NUMBER = {first}  # D-100 after the system queues (MS-MQQB 2.2.4: order_queue$ is 4)",
       ("private queues are numbered from 0x11 or 0x0F instead of 0x10: Create Queue asks only for an unused "
        "PrivateQueueNumber (MS-MQDMPR 3.1.7.1.3), D-100 only for one that is not the order queue's 4, and the "
        "PRIVATE= format names built from them still differ"))
      for first in (17, 15)),
    ("reference/queue_manager.py", "core/NumberReplacer",
     "DEFAULT_QUEUE_MANAGER_QUOTA = 0x00100000  # MS-MQDMPR:3.1.1.1:01 bytes (D-20)",
     "DEFAULT_QUEUE_MANAGER_QUOTA = 1048577  # MS-MQDMPR:3.1.1.1:01 bytes (D-20)",
     ("a default one byte above the SHOULD value of MS-MQDMPR:3.1.1.1:01: D-20 leaves the default free (every "
      "default conforms; its reading windows is 4 GB), and scenarios that need the boundary set the quota first")),
    ("reference/queue_manager.py", "*",
     "WINDOWS_QUEUE_MANAGER_QUOTA = 4 << 30     # D-20 windows: MS-MQMQ <24>, 4 GB from Vista / Server 2008 on", "*",
     "read only under the D-20 reading windows (QueueManager.__init__), which the reference does not take"),
    ("reference/queue_manager.py", "*", 'queue.is_journal = name == "journal"', "*",
     ("is_journal of a system queue is never decisive: every reader (open_queue.py, acknowledgment.py, "
      "mqqb_arrival.py, adapters/in_process.py delete_queue) tests `is_journal or queue_type.name == \"System\"`, "
      "and _system_queue gives all three system queues QueueType.System")),
    *(("reference/queue_manager.py", f"core/ReplaceComparisonOperator_GtE_{name}", line,
       line.replace(" >= ", f" {op} "),
       (f"the store's bound is renewed at least when the reference renews it{extra}; the value equal to the bound, "
        "the only one the mutant may use unrenewed, is never handed out after a restart, which resumes from the "
        "bound + 1 (persistence.py restore): no id repeats (D-33)"))
      for line in ("if self._message_ordinal >= self.persistence.reserved_ordinal:",
                   "if sequential_id >= persistence.reserved:")
      for name, op, extra in (("Gt", ">", " or one value later"),
                              ("NotEq", "!=", ", and on every other call too"),
                              ("IsNot", "is not", ", and on every other call too"))),
    *(("reference/queue_manager.py", f"core/ReplaceBinaryOperator_BitAnd_{name}",
       'return self.identifier + (self._message_ordinal & 0xFFFFFFFF).to_bytes(4, "little")',
       f'return self.identifier + (self._message_ordinal {op} 0xFFFFFFFF).to_bytes(4, "little")',
       (f"below 2**32 - 1 the ordinal maps one-to-one ({what}) onto 4 bytes, so message identifiers stay distinct, "
        "all MS-MQMQ:2.2.18.1.3:01 asks; a run never reaches 2**32 - 1 messages"))
      for name, op, what in (("BitXor", "^", "ordinal ^ 0xFFFFFFFF"), ("Mod", "%", "ordinal % 0xFFFFFFFF == ordinal"))),
    *(("reference/queue_manager.py", f"core/ReplaceBinaryOperator_BitOr_{name}",
       "message.lookup_identifier = ((7 - priority) << 56) | (sequential_id & LOOKUP_ID_LOW_BITS)",
       f"message.lookup_identifier = ((7 - priority) << 56) {op} (sequential_id & LOOKUP_ID_LOW_BITS)",
       ("the two operands have no bit in common (the first only bits 56-63, the second is masked to bits 0-55), so "
        f"a | b == a {op} b"))
      for name, op in (("Add", "+"), ("BitXor", "^"))),
    *(("reference/queue_manager.py", "core/ReplaceBinaryOperator_BitAnd_Mod", line, line.replace(" & ", " % "),
       ("SequentialID % 0x00FFFFFFFFFFFFFF equals SequentialID & 0x00FFFFFFFFFFFFFF for every SequentialID below "
        "2**56 - 1, and no queue manager enqueues that many messages"))
      for line in ("message.lookup_identifier = ((7 - priority) << 56) | (sequential_id & LOOKUP_ID_LOW_BITS)",
                   "message.lookup_identifier = sequential_id & LOOKUP_ID_LOW_BITS")),
    ("reference/queue_manager.py", "core/NumberReplacer",
     'parent = self.queue_collection.get(key.split(";", 1)[0])',
     'parent = self.queue_collection.get(key.split(";", 2)[0])',
     ("the first piece of str.split is the text before the first separator whatever maxsplit (1 or more) is: only "
      "the later pieces, which nothing reads here, change")),
    ("reference/queue_manager.py", "core/NumberReplacer", "self._next_private_number += 1",
     "self._next_private_number += 2",
     ("private queues are numbered 1, 3, 5, ... instead of 1, 2, 3, ...: Create Queue asks only for an unused "
      "PrivateQueueNumber (MS-MQDMPR 3.1.7.1.3), the numbers stay distinct, a restart resumes above the highest "
      "one (persistence.py _restore_queue), and the suite learns each number from the queue's PRIVATE= name")),
    ("reference/queue_manager.py", "core/AddNot",
     "queue_type=QueueType.Private if path.private else QueueType.Public,",
     "queue_type=QueueType.Private if not path.private else QueueType.Public,",
     ("swaps Private and Public only, which nothing tells apart: every reader of queue_type tests for System alone "
      "(open_queue.py, acknowledgment.py, mqqb_arrival.py, complete_move, adapters/in_process.py), the store "
      "writes and restores it as it is, and what privacy decides (key, private number, format name) follows "
      "path.private itself")),
    *(("reference/queue_manager.py", "core/ReplaceTrueWithFalse", line, line.replace("True", "False"),
       "Queue.deleted is written (here and in Queue.__init__) but read nowhere, by the reference or its adapter")
      for line in ("queue.deleted = True", "journal.deleted = True")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_Lt", 'if reading != "times-out":',
     'if reading < "times-out":',
     ('the D-13 readings "queue-deleted" and "not-available" both sort before "times-out", so the test differs only '
      "under the reading times-out, which the reference does not take")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_Lt",
     "if quota != INFINITE and queue.total_bytes + size > quota * 1024:",
     "if quota < INFINITE and queue.total_bytes + size > quota * 1024:",
     ("a queue's quota is a DWORD of kilobytes and INFINITE is its largest value 0xFFFFFFFF, so quota < INFINITE "
      "holds exactly when quota != INFINITE")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_Lt",
     "if ttrq != INFINITE and message.sent_time and now > message.sent_time + ttrq:",
     "if ttrq < INFINITE and message.sent_time and now > message.sent_time + ttrq:",
     ("TimeToReachQueue is a 32-bit field (MS-MQMQ 2.2.19.2 UserHeader) and INFINITE is its largest value "
      "0xFFFFFFFF, so ttrq < INFINITE holds exactly when ttrq != INFINITE")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_LtE",
     "if ttrq != INFINITE and message.sent_time and now > message.sent_time + ttrq:",
     "if ttrq <= INFINITE and message.sent_time and now > message.sent_time + ttrq:",
     ("only a TimeToReachQueue of INFINITE now reaches the time test, which then asks whether now passed "
      "SentTime + 0xFFFFFFFF s: with a nonzero 32-bit SentTime (seconds since 1970) that is after 2106, which no "
      "clock of a run reaches")),
    ("reference/queue_manager.py", "core/ZeroIterationForLoop",
     "for position in list(queue.message_position_list.positions()):", "for position in []:",
     ("purge_silently's only caller is Delete Queue, for the deleted queue's journal: MS-MQDMPR 3.1.7.1.4 "
      "(MS-MQDMPR:3.1.7.1.4:01) deletes iQueue's own positions and says nothing of its journal's, which no name "
      "reaches once the queue has left QueueCollection; the copies left there only keep counting against "
      "QueueManagerQuota, which the specification leaves to the implementation")),
    *(("reference/queue_manager.py", f"core/ReplaceBinaryOperator_Sub_{name}",
       "message.lookup_identifier = ((7 - priority) << 56) | (sequential_id & LOOKUP_ID_LOW_BITS)",
       f"message.lookup_identifier = ((7 {op} priority) << 56) | (sequential_id & LOOKUP_ID_LOW_BITS)",
       (f"this branch runs only for a message with a TransactionalMessageSequenceIdentifier, whose priority is "
        f"always 0 (MS-MQMQ:2.2.19.1:02; arrival.py _mark_transactional, mqqb_arrival.py _message, and copies keep "
        f"it): 7 {op} 0 == 7 - 0"))
      for name, op in (("Add", "+"), ("BitOr", "|"), ("BitXor", "^"), ("LShift", "<<"), ("RShift", ">>"))),
    ("reference/queue_manager.py", "core/AddNot",
     'if transaction is not None and self.readings["D-07"] == "count-when-available":',
     'if not transaction is not None and self.readings["D-07"] == "count-when-available":',
     ("under the reference's D-07 reading (count-in-list) the second operand is false, so the test is false "
      "whatever the first operand says")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_GtE", "if position.state != AVAILABLE:",
     "if position.state >= AVAILABLE:",
     ("MessagePositionState is an IntEnum whose smallest member is Available (0), so the test now always holds: for "
      "a position already Available the mutant sets the same state again and records that same state in the store "
      "(persistence.py record_state), which changes nothing a call or a restart can see")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_NotEq_Lt", "if position.state != AVAILABLE:",
     "if position.state < AVAILABLE:",
     ("in message_position_available the position is Available at every pass of this test: the method has just "
      "made it so, a destructive reader returns two lines below, and the only waiters after which the loop goes "
      "on are peeks, which change no state; so neither != nor < Available holds (and < never does: Available is "
      "the smallest member, 0)")),
    ("reference/queue_manager.py", "core/AddNot",
     "base_ms = message.sent_time * 1000 if message.sent_time else self.clock.now_ms()",
     "base_ms = message.sent_time * 1000 if not message.sent_time else self.clock.now_ms()",
     ("a message with a SentTime (every local send sets one, arrival.py _arrive) now has its timer start at "
      "Enqueue Message: the D-09 reading enqueue-time, which a conforming server may take; only an MQQB packet "
      "carrying SentTime 0 counts from SentTime itself (1970) and expires at once, which is what the D-09 reading "
      "sent-time does with such a SentTime taken literally")),
    ("reference/queue_manager.py", "core/ReplaceComparisonOperator_Eq_Lt",
     "position.state = LOCKED if position.state == AVAILABLE else position.state",
     "position.state = LOCKED if position.state < AVAILABLE else position.state",
     ("< Available never holds (Available is the smallest member, 0), and neither does == Available here: a "
      "message whose transaction is still in TransactionCollection was enqueued or received in it, so its "
      "position is Locked or PurgePending (commit, abort and D-66 withdrawal clear TransactionIdentifier)")),
    *(("reference/queue_manager.py", operator,
       "position.state = LOCKED if position.state == AVAILABLE else position.state", changed,
       ("the position is Locked or PurgePending here (a message whose transaction is still in "
        "TransactionCollection was enqueued or received in it; commit, abort and D-66 withdrawal clear "
        "TransactionIdentifier), and the mutant sets a PurgePending one Locked too: that is the text of MS-MQDMPR "
        "3.1.7.2.7 (MS-MQDMPR:3.1.7.2.7:01), which sets the position Locked without condition, so a server doing it "
        "conforms; the reference keeps PurgePending (not logged in spec/decisions.md)"))
      for operator, changed in (
          ("core/AddNot", "position.state = LOCKED if not position.state == AVAILABLE else position.state"),
          ("core/ReplaceComparisonOperator_Eq_Gt",
           "position.state = LOCKED if position.state > AVAILABLE else position.state"),
          ("core/ReplaceComparisonOperator_Eq_GtE",
           "position.state = LOCKED if position.state >= AVAILABLE else position.state"),
          ("core/ReplaceComparisonOperator_Eq_IsNot",
           "position.state = LOCKED if position.state is not AVAILABLE else position.state"),
          ("core/ReplaceComparisonOperator_Eq_NotEq",
           "position.state = LOCKED if position.state != AVAILABLE else position.state"))),
    ("reference/queue_manager.py", "*", "self.throttled = True  # MS-MQDMPR:3.1.7.2.5:01", "*",
     ("Begin Flow Control is raised by no Target call (only the unit tests call begin_flow_control): dead code for "
      "the suite, to be deleted or wired to a protocol event with a fresh full run")),
    ("reference/queue_manager.py", "core/ReplaceFalseWithTrue", "self.throttled = False", "self.throttled = True",
     ("in end_flow_control: End Flow Control is raised by no Target call (only the unit tests call it), and "
      "Throttled is never set without it: dead code for the suite, to be deleted or wired to a protocol event with "
      "a fresh full run (the same text in QueueManager.__init__ makes every send fail, which the suite catches)")),
)

_ENTRIES += (   # reference/reads.py
    ("reference/reads.py", "*", "elif action is SEEK_FIRST:", "*",
     ("SeekFirst and SeekLast of Seek Available Message Position With Id (MS-MQDMPR 3.1.7.1.13) are asked for by "
      "no protocol call: MS-MQRR's lookup actions map to SeekCurrent, SeekNext and SeekPrevious only "
      "(remote_read_rules LOOKUP_SEEK), so a mutant that swaps the two reaches nothing a client can call")),
    *(("reference/reads.py", operator,
       'if status is CursorStatus.Busy and self.readings["D-12"] == "other-failure":',
       f'if {left} and self.readings["D-12"] == "other-failure":',
       ("the test's right operand is the D-12 reading other-failure, false under the reference's reading refuse, "
        "so the `and` is false whatever its left operand gives (CursorStatus is an IntEnum: no comparison raises)"))
      for operator, left in (("core/AddNot", "not status is CursorStatus.Busy"),
                             ("core/ReplaceComparisonOperator_Is_NotEq", "status != CursorStatus.Busy"),
                             ("core/ReplaceComparisonOperator_Is_Lt", "status < CursorStatus.Busy"),
                             ("core/ReplaceComparisonOperator_Is_LtE", "status <= CursorStatus.Busy"),
                             ("core/ReplaceComparisonOperator_Is_Gt", "status > CursorStatus.Busy"),
                             ("core/ReplaceComparisonOperator_Is_GtE", "status >= CursorStatus.Busy"),
                             ("core/ReplaceComparisonOperator_Is_IsNot", "status is not CursorStatus.Busy"))),
    ("reference/reads.py", "core/ReplaceAndWithOr",
     'if status is CursorStatus.Busy and self.readings["D-12"] == "other-failure":',
     'if status is CursorStatus.Busy or self.readings["D-12"] == "other-failure":',
     ("a read on a busy cursor then fails with MQ_ERROR, and every other status still maps as before (the D-12 "
      "test is false): exactly the D-12 reading other-failure, which a conforming server may take")),
    *(("reference/reads.py", operator,
       'if status is CursorStatus.NotFound and timeout == 0 and self.readings["D-03"] == "msdn":', changed,
       ("the test's last operand is the D-03 reading msdn, false under the reference's reading dmpr, so the `and` "
        "chain is false whatever its other operands give (IntEnum and int comparisons: none raises)"))
      for operator, changed in (
          ("core/AddNot",
           'if not status is CursorStatus.NotFound and timeout == 0 and self.readings["D-03"] == "msdn":'),
          *((f"core/ReplaceComparisonOperator_Is_{name}",
             f'if status {op} CursorStatus.NotFound and timeout == 0 and self.readings["D-03"] == "msdn":')
            for name, op in (("NotEq", "!="), ("Lt", "<"), ("LtE", "<="), ("Gt", ">"), ("GtE", ">="),
                             ("IsNot", "is not"))),
          *((f"core/ReplaceComparisonOperator_Eq_{name}",
             f'if status is CursorStatus.NotFound and timeout {op} 0 and self.readings["D-03"] == "msdn":')
            for name, op in (("NotEq", "!="), ("Lt", "<"), ("LtE", "<="), ("Gt", ">"), ("GtE", ">="))),
          *(("core/NumberReplacer",
             f'if status is CursorStatus.NotFound and timeout == {n} and self.readings["D-03"] == "msdn":')
            for n in ("1", "-1")))),
    *(("reference/reads.py", "core/ReplaceAndWithOr",
       'if status is CursorStatus.NotFound and timeout == 0 and self.readings["D-03"] == "msdn":', changed,
       ("the cursor answers NotFound only to a receive that may not wait (iNoWait: timeout 0, cursor.py "
        "_seek_for_dequeue), so the mutant turns exactly that NotFound into MQ_ERROR_IO_TIMEOUT and leaves the "
        "cursor as it was: the D-03 reading msdn, which a conforming server may take"))
      for changed in ('if status is CursorStatus.NotFound or timeout == 0 and self.readings["D-03"] == "msdn":',
                      'if status is CursorStatus.NotFound and timeout == 0 or self.readings["D-03"] == "msdn":')),
    ("reference/reads.py", "core/ReplaceFalseWithTrue",
     "two_phase_read: bool = False) -> ReadRequest:", "two_phase_read: bool = True) -> ReadRequest:",
     ("Dequeue Message's default is never used: its only caller, dequeue_message_begin, passes "
      "two_phase_read=True (R_StartReceive raises Dequeue Message Begin, MS-MQRR 3.1.4.7)")),
    ("reference/reads.py", "core/ReplaceFalseWithTrue",
     "transaction=None, two_phase_read: bool = False) -> ReadRequest:",
     "transaction=None, two_phase_read: bool = True) -> ReadRequest:",
     ("Read Message By Lookup Identifier's default is never used: its only caller (remote_read.py _read) passes "
      "two_phase_read=not peek")),
    *(("reference/reads.py", operator, "if position.state != AVAILABLE or position is position_list.end:", changed,
       reason)
      for operator, changed, reason in (
          ("core/ReplaceComparisonOperator_NotEq_Gt",
           "if position.state > AVAILABLE or position is position_list.end:",
           ("MessagePositionState is an IntEnum whose smallest member is Available (0): state > Available holds "
            "exactly when state != Available")),
          ("core/ReplaceComparisonOperator_NotEq_GtE",
           "if position.state >= AVAILABLE or position is position_list.end:",
           ("the test only picks a short cut: when it is always true the seek from Start runs every time, and "
            "seek_forward(start, peek=False) returns the first Available position after Start, which is the front "
            "position itself whenever the short cut would have taken it (Available and not End)")))),
    *(("reference/reads.py", "core/ReplaceTrueWithFalse", line, changed,
       ("destructive_read only stops message_position_available's loop over waiting readers after the reader it "
        "satisfied (queue_manager.py); a waiting dequeue's continuation always locks the message (Dequeue Message "
        "is reached only through Dequeue Message Begin, or in a transaction), and the loop's next check, position "
        "not Available, returns at once either way"))
      for line, changed in (
          ("return self._wait(request, queue_desc, timeout, True, tag, None, lambda found: self._take(",
           "return self._wait(request, queue_desc, timeout, False, tag, None, lambda found: self._take("),
          ("return self._wait(request, queue_desc, timeout, True, tag, cursor,",
           "return self._wait(request, queue_desc, timeout, False, tag, cursor,"))),
    *(("reference/reads.py", operator, line, changed,
       ("ulTimeout is a DWORD (remote_read.py _start refuses anything outside 0 .. 2**32-1 before any read), so "
        "timeout <= 0 holds exactly when timeout == 0"))
      for operator, line, changed in (
          ("core/ReplaceComparisonOperator_Eq_LtE",
           "status, position = cursor.handle_event(CursorEvent.GET_NEXT_MESSAGE_FOR_DEQUEUE, timeout == 0)",
           "status, position = cursor.handle_event(CursorEvent.GET_NEXT_MESSAGE_FOR_DEQUEUE, timeout <= 0)"),
          ("core/ReplaceComparisonOperator_Eq_LtE",
           "if queue_desc.queue_reference is None or timeout == 0:",
           "if queue_desc.queue_reference is None or timeout <= 0:"))),
    ("reference/reads.py", "core/ReplaceComparisonOperator_NotEq_Lt",
     "if timeout != INFINITE:", "if timeout < INFINITE:",
     ("ulTimeout is a DWORD checked by remote_read.py _start and INFINITE is 0xFFFFFFFF, its largest value, so "
      "timeout < INFINITE holds exactly when timeout != INFINITE")),
    ("reference/reads.py", "core/ReplaceComparisonOperator_Is_LtE",
     "if status is SUCCEEDED:", "if status <= SUCCEEDED:",
     ("CursorStatus is an IntEnum whose smallest member is Succeeded (0) and handle_event returns its members, "
      "so status <= Succeeded holds exactly when status is Succeeded")),
    ("reference/reads.py", "core/ReplaceComparisonOperator_IsNot_Gt",
     "if status is not WAITING:", "if status > WAITING:",
     ("the line is in three reads; it survives only in Peek Next Message (in Dequeue Message and Peek Message a "
      "cursor's AlreadyReceived (1) would wait instead of failing, which the suite catches): Get Next Message For "
      "Peek answers only Succeeded (taken above), Waiting (3), IllegalCursorAction (4) or Busy (5) (cursor.py "
      "_seek_for_peek, _illegal, handle_event), so there status > Waiting holds exactly when status is not "
      "Waiting")),
    ("reference/reads.py", "core/ReplaceComparisonOperator_Eq_GtE",
     "if position.state == PURGE_PENDING:", "if position.state >= PURGE_PENDING:",
     ("MessagePositionState is an IntEnum whose largest member is PurgePending (3): state >= PurgePending holds "
      "exactly when state == PurgePending")),
    ("reference/reads.py", "core/ReplaceComparisonOperator_NotEq_Gt",
     "if status != MQ_OK:", "if status > MQ_OK:",
     ("seek_available_message_position_with_id returns HRESULT members, an IntEnum whose values are all >= 0 "
      "(MQ_OK is 0, failures are 0xC...... codes), so status > MQ_OK holds exactly when status != MQ_OK")),
    *(("reference/reads.py", f"core/ReplaceComparisonOperator_Is_{name}",
       "if action is SEEK_CURRENT and lookup_id in position_list.moved:",
       f"if action {op} SEEK_CURRENT and lookup_id in position_list.moved:",
       ("MessagePositionList.moved is filled only under the D-05 reading already-received; under the reference's "
        "reading (not-found) it stays empty and the test is false whatever its left operand gives"))
      for name, op in (("NotEq", "!="), ("IsNot", "is not"))),
    ("reference/reads.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if state == AVAILABLE:", "if state <= AVAILABLE:",
     ("MessagePositionState is an IntEnum whose smallest member is Available (0): state <= Available holds "
      "exactly when state == Available")),
    ("reference/reads.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if peek and state == LOCKED:", "if peek and state <= LOCKED:",
     ("the line before has already returned an Available position, and Available (0) and Locked (1) are the only "
      "states <= Locked")),
    *(("reference/reads.py", operator,
       "descriptors = [queue_desc] if queue_desc is not None else queue.open_queue_descriptor_collection", changed,
       ("its only caller (remote_read.py r_cancel_receive) passes the caller's descriptor under the reference's "
        "D-17 reading own-handle, so the mutant searches every descriptor of the queue: the D-17 reading "
        "queue-wide, which a conforming server may take"))
      for operator, changed in (
          ("core/AddNot",
           "descriptors = [queue_desc] if not queue_desc is not None else queue.open_queue_descriptor_collection"),
          ("core/ReplaceComparisonOperator_IsNot_Is",
           "descriptors = [queue_desc] if queue_desc is None else queue.open_queue_descriptor_collection"))),
)

_RR_NACK_RELEASE = ('if transactional and dw_ack == Ack.RR_NACK and status == HRESULT.MQ_OK and readings["D-66"] == '
                    '"released":')
_RR_ACK_CLASS_TEST = ('if us_class not in (0, MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED) and '
                      'self.qm.readings["D-58"] == "refuse":')

_ENTRIES += (   # reference/remote_read.py
    # a test of an open decision that now takes another of its readings (or stays the reference's) at this method
    *(("reference/remote_read.py", f"core/ReplaceComparisonOperator_Eq_{name}", line,
       line.replace(f"{subject} == ", f"{subject} {symbol} ", 1), reason)
      for line, subject, reason in (
          ('if self.qm.readings["D-46"] == "other-failure":', 'self.qm.readings["D-46"]',
           ("the test picks between the D-46 readings for R_CreateCursor and R_PurgeQueue on a deleted queue: it "
            "stays false (the reference's not-available) or turns true, answering both with MQ_ERROR exactly as the "
            "D-46 reading other-failure does; both are readings a conforming server may take")),
          ('if self.qm.readings["D-46"] == "purge-ok":', 'self.qm.readings["D-46"]',
           ("R_PurgeQueue on a handle whose queue was deleted then answers MQ_OK while R_CreateCursor still answers "
            "MQ_ERROR_QUEUE_NOT_AVAILABLE: the D-46 reading purge-ok (or, when the test stays false, the "
            "reference's), which a conforming server may take")),
          ('if descriptor.access_type not in allowed and readings["D-49"] == "check":', 'readings["D-49"]',
           ("the test is either still true (the reference's reading check) or false, which drops R_StartReceive's "
            "access check alone: the D-49 reading no-check at this method, which a conforming server may take (the "
            "suite's D-49 scenarios accept either answer at each method)")),
          ('if source.access_type != QueueAccessType.ReceiveAccess and self.qm.readings["D-49"] == "check":',
           'self.qm.readings["D-49"]',
           ("the test is either still true (the reference's reading check) or false, which drops R_MoveMessage's "
            "access check alone: the D-49 reading no-check at this method, which a conforming server may take (the "
            "suite's D-49 scenarios accept either answer at each method)")),
          ('if descriptor.access_type != QueueAccessType.ReceiveAccess and self.qm.readings["D-49"] == "check":',
           'self.qm.readings["D-49"]',
           ("the test is either still true (the reference's reading check) or false, which drops "
            "R_SetUserAcknowledgementClass's access check alone: the D-49 reading no-check at this method, which a "
            "conforming server may take")),
          ('if qm.readings["D-18"] == "untagged" or qm.readings["D-31"] == "tagged-only":', 'qm.readings["D-31"]',
           ("the test either stays false or holds under the reference's readings; if it holds, a waiting peek gets "
            "no tag and cannot be cancelled: the D-18 reading untagged (whose only branch is this line), which a "
            "conforming server may take")),
          ('if queue is None and self.qm.readings["D-74"] == "not-available":', 'self.qm.readings["D-74"]',
           ("the test is either still true (the reference's reading not-available) or false, which lets a cancel "
            "on a deleted queue go on to find nothing waiting (STATUS_NOT_FOUND): the D-74 reading literal at this "
            "method, which a conforming server may take")),
          ('if descriptor.queue_reference is None and readings["D-74"] == "not-available":', 'readings["D-74"]',
           ("the test is either still true (the reference's reading not-available) or false, which lets an End on a "
            "deleted queue go on to find no message (MQ_ERROR_MESSAGE_NOT_FOUND): the D-74 reading literal at this "
            "method, which a conforming server may take")),
          ('if entry.transactional and not transactional and readings["D-69"] == "refuse":', 'readings["D-69"]',
           ("a transactional receive ended by R_EndReceive is then refused with MQ_ERROR_TRANSACTION_USAGE (or, "
            "when the test stays false, acts as started): the D-69 reading refuse, which a conforming server may "
            "take")),
          ('transactional = transactional if readings["D-69"] == "literal" else entry.transactional',
           'readings["D-69"]',
           ("the End then acts as its own method says (transactional := the End's own flag) instead of as the "
            "Start required: the D-69 reading literal (or, when the test stays false, the reference's), which a "
            "conforming server may take")),
          ('if self.qm.readings["D-23"] == "keep-enlisted":', 'self.qm.readings["D-23"]',
           ("the test either stays false (the reference's abort-unprepared) or marks the enlisted transaction "
            "two-phase: under abort-unprepared SinglePhase is read only at a restart, which aborts every unprepared "
            "transaction whatever its SinglePhase, and Prepare sets it itself, so nothing a client sees changes")))
      for name, symbol in (("NotEq", "!="), ("Lt", "<"), ("LtE", "<="), ("Gt", ">"), ("GtE", ">="),
                           ("IsNot", "is not"))),
    *(("reference/remote_read.py", "core/AddNot", line, line.replace("if ", "if not ", 1), reason)
      for line, reason in (
          ('if self.qm.readings["D-46"] == "other-failure":',
           ("the test then holds under the reference's reading, so R_CreateCursor and R_PurgeQueue on a deleted "
            "queue answer MQ_ERROR: the D-46 reading other-failure, which a conforming server may take")),
          ('if self.qm.readings["D-46"] == "purge-ok":',
           ("the test then holds under the reference's reading, so R_PurgeQueue on a deleted queue answers MQ_OK "
            "(R_CreateCursor still MQ_ERROR_QUEUE_NOT_AVAILABLE): the D-46 reading purge-ok, which a conforming "
            "server may take")),
          ('if self.qm.readings["D-23"] == "keep-enlisted":',
           ("enlisted transactions are marked two-phase; under the reference's abort-unprepared SinglePhase is read "
            "only at a restart, which aborts every unprepared transaction whatever its SinglePhase, and Prepare sets "
            "it itself")),
          ('transactional = transactional if readings["D-69"] == "literal" else entry.transactional',
           ("the End then acts as its own method says instead of as the Start required: the D-69 reading literal, "
            "which a conforming server may take")),
          ('if p_transaction_id is not None and ul_action in PEEK_ACTIONS and readings["D-41"] == "param":',
           ("the test's last operand is the D-41 reading param, false under the reference's reading usage, so the "
            "test stays false")),
          ('if entry.transactional and not transactional and readings["D-69"] == "refuse":',
           ("the test's last operand is the D-69 reading refuse, false under the reference's reading as-started, "
            "so the test stays false")),
          (_RR_ACK_CLASS_TEST,
           ("the test's last operand is the D-58 reading refuse, false under the reference's reading "
            "any-nonzero-rejects, so the test stays false")),
          ('if entry.waiting and readings["D-38"] == "keep":',
           ("an entry whose LookupIdentifier is 0 is still waiting (a failed read's entry is removed: D-52 remove), "
            "so the End removes it and answers MQ_ERROR_MESSAGE_NOT_FOUND: the D-38 reading remove, which a "
            "conforming server may take")))),
    *(("reference/remote_read.py", operator, line, changed, reason) for reason, mutants in (
        (("this DEFAULT_PORT is only RemoteReadServer's default for port=, and its only constructor "
          "(adapters/in_process.py) always passes port= (protocol.idl's DEFAULT_PORT or the target's port option)"),
         tuple(("core/NumberReplacer", "DEFAULT_PORT = 2103  # MS-MQRR:3.1.4.1:01",
                f"DEFAULT_PORT = {port}  # MS-MQRR:3.1.4.1:01") for port in (2104, 2102))),
        (("a default clean-up period a little under 5 minutes (4 min, 4 min 55 s, 4 min 59.7 s: still far above "
          "the 11 s the suite's timer scenarios need): MS-MQRR:3.1.2.2:02 leaves the period to the implementation "
          "(Windows: 5 minutes unless configured), and a configured period is still honoured"),
         tuple(("core/NumberReplacer", "DEFAULT_CLEANUP_MS = 5 * 60 * 1000  # MS-MQRR:3.1.2.2:02 Windows' default",
                f"DEFAULT_CLEANUP_MS = {period}  # MS-MQRR:3.1.2.2:02 Windows' default")
               for period in ("4 * 60 * 1000", "5 * 59 * 1000", "5 * 60 * 999"))),
        ("OpenQueueResult objects are never assigned to nor hashed, so frozen=False changes nothing a caller can see",
         (("core/ReplaceTrueWithFalse", "@dataclass(frozen=True)", "@dataclass(frozen=False)"),)),
        (("pMoveContext keeps this default only when the open fails (success passes its own value, and R_OpenQueue "
          "has no pMoveContext output: the Target drops it), and outputs of a failed open are ignored "
          "(MS-MQRR:3.1.4.11:09; on the wire the failure is an RPC exception that carries no outputs)"),
         (("core/NumberReplacer", "p_move_context: int = 0", "p_move_context: int = 1"),
          ("core/NumberReplacer", "p_move_context: int = 0", "p_move_context: int = -1"))),
        (("queue_manager.addresses always holds exactly one address (QueueManager's default (\"127.0.0.1\",): no "
          "Target passes another), so [-1] is [0]"),
         (("core/NumberReplacer", "address = ipaddress.ip_address(queue_manager.addresses[0])",
           "address = ipaddress.ip_address(queue_manager.addresses[ -1])"),)),
        (("the address is always IPv4 (127.0.0.1, QueueManager's only address: no Target passes another), so "
          "version is 4: 4 <= 4 and 4 >= 4 hold like 4 == 4, and the IPv6 branch's constant is never used"),
         tuple((operator, "source_address=(1 if address.version == 4 else 6, address.packed),",
                f"source_address=(1 if address.version {test} else {other}, address.packed),")
               for operator, test, other in (("core/NumberReplacer", "== 4", 7), ("core/NumberReplacer", "== 4", 5),
                                             ("core/ReplaceComparisonOperator_Eq_LtE", "<= 4", 6),
                                             ("core/ReplaceComparisonOperator_Eq_GtE", ">= 4", 6)))),
        (("a dwAccess other than RECEIVE_ACCESS or PEEK_ACCESS is then refused with MQ_ERROR_INVALID_PARAMETER and "
          "every other still opens: the D-42 reading refuse-unknown (its only branch is this line), which a "
          "conforming server may take"),
         (("core/ReplaceAndWithOr",
           'if self.qm.readings["D-42"] == "refuse-unknown" and dw_access not in (Access.RECEIVE_ACCESS,',
           'if self.qm.readings["D-42"] == "refuse-unknown" or dw_access not in (Access.RECEIVE_ACCESS,'),)),
        (("a dwShareMode other than MQ_DENY_NONE or MQ_DENY_SHARE is then refused with MQ_ERROR_INVALID_PARAMETER "
          "and every other still opens: the D-73 reading refuse-unknown (its only branch is this line), which a "
          "conforming server may take"),
         (("core/ReplaceAndWithOr",
           'if self.qm.readings["D-73"] == "refuse-unknown" and dw_share_mode not in (ShareMode.MQ_DENY_NONE,',
           'if self.qm.readings["D-73"] == "refuse-unknown" or dw_share_mode not in (ShareMode.MQ_DENY_NONE,'),)),
        (("R_OpenQueue then also files a move context: it is never handed out (R_OpenQueue has no pMoveContext "
          "output; the Target drops it), it stands for a handle without MoveAccess, which R_MoveMessage refuses "
          "with MQ_ERROR_INVALID_HANDLE exactly like a value never issued, and it goes when the handle closes; the "
          "extra random draw only changes which random values later contexts get"),
         (("core/ReplaceFalseWithTrue",
           "return self._open(p_queue_format, access, dw_share_mode, p_client_id, move=False, caller=caller)",
           "return self._open(p_queue_format, access, dw_share_mode, p_client_id, move=True, caller=caller)"),)),
        (("dwShareMode is a DWORD (no Target passes a negative value; NDR cannot carry one), so dwShareMode <= "
          "MQ_DENY_NONE (0) holds exactly when it equals 0"),
         (("core/ReplaceComparisonOperator_Eq_LtE",
           ("share = QueueShareMode.DenyNone if dw_share_mode == ShareMode.MQ_DENY_NONE else "
            "QueueShareMode.DenyReceive"),
           ("share = QueueShareMode.DenyNone if dw_share_mode <= ShareMode.MQ_DENY_NONE else "
            "QueueShareMode.DenyReceive")),
          )),
        (("the status is an HRESULT member, an IntEnum whose values are all >= 0 (MQ_OK is 0), so status > MQ_OK "
          "holds exactly when status != MQ_OK"),
         (("core/ReplaceComparisonOperator_NotEq_Gt", "if status != HRESULT.MQ_OK:", "if status > HRESULT.MQ_OK:"),
          ("core/ReplaceComparisonOperator_NotEq_Gt", "if request.status != HRESULT.MQ_OK:",
           "if request.status > HRESULT.MQ_OK:"))),
        (("the first move context becomes 1 instead of a draw: still nonzero, unique and accepted by "
          "R_MoveMessage, all a client can check of MS-MQRR:3.1.4.11:08's random value (one value cannot show "
          "randomness; the reference's own draws repeat with its seed)"),
         (("core/NumberReplacer", "move_context = 0", "move_context = 1"),)),
        (("move_context starts at 0 and getrandbits never returns a negative number, so move_context <= 0 holds "
          "exactly when it is 0"),
         (("core/ReplaceComparisonOperator_Eq_LtE", "while move_context == 0 or move_context in self.move_contexts:",
           "while move_context <= 0 or move_context in self.move_contexts:"),)),
        (("a 63-bit draw is still a random, nonzero (the loop redraws 0), unique value that fits pMoveContext's "
          "ULONGLONG: all MS-MQRR:3.1.4.11:08 asks"),
         (("core/NumberReplacer", "move_context = self.qm.random.getrandbits(64)",
           "move_context = self.qm.random.getrandbits( 63)"),)),
        (("a wider bound only admits values that the IDL's types cannot carry (LookupId is a ULONGLONG, the others "
          "DWORDs): no MS-MQRR client can send them, so no call through the protocol differs"),
         (("core/NumberReplacer",
           "if not (_fits(64, lookup_id) and _fits(32, h_cursor, ul_action, ul_timeout, dw_request_id,",
           "if not (_fits( 65, lookup_id) and _fits(32, h_cursor, ul_action, ul_timeout, dw_request_id,"),
          ("core/NumberReplacer",
           "if not (_fits(64, lookup_id) and _fits(32, h_cursor, ul_action, ul_timeout, dw_request_id,",
           "if not (_fits(64, lookup_id) and _fits( 33, h_cursor, ul_action, ul_timeout, dw_request_id,"))),
        (("the test's last operand is the D-41 reading param, false under the reference's reading usage, so the "
          "test stays false whatever its other operands give (no operand raises)"),
         (("core/ReplaceComparisonOperator_IsNot_Is",
           'if p_transaction_id is not None and ul_action in PEEK_ACTIONS and readings["D-41"] == "param":',
           'if p_transaction_id is None and ul_action in PEEK_ACTIONS and readings["D-41"] == "param":'),)),
        (("a transactional peek is then refused with MQ_ERROR_INVALID_PARAMETER before the handle is looked at: "
          "the D-41 reading param (its only branch is this line), which a conforming server may take"),
         (("core/ReplaceAndWithOr",
           'if p_transaction_id is not None and ul_action in PEEK_ACTIONS and readings["D-41"] == "param":',
           'if p_transaction_id is not None and ul_action in PEEK_ACTIONS or readings["D-41"] == "param":'),)),
        (("the line runs only under the D-48 reading qm-wide, which the reference does not take (it takes "
          "own-handle: the branch above), so no call to the reference reaches it"),
         tuple((operator, "if cursor is not None and cursor.open_queue_descriptor_reference.queue_reference is not \\",
                f"if {head} cursor.open_queue_descriptor_reference.queue_reference {tail} \\")
               for operator, head, tail in (
                   ("core/AddNot", "not cursor is not None and", "is not"),
                   ("core/ReplaceComparisonOperator_IsNot_Is", "cursor is None and", "is not"),
                   ("core/ReplaceAndWithOr", "cursor is not None or", "is not"),
                   *((f"core/ReplaceComparisonOperator_IsNot_{name}", "cursor is not None and", symbol)
                     for name, symbol in (("Eq", "=="), ("Lt", "<"), ("LtE", "<="), ("Gt", ">"), ("GtE", ">="),
                                          ("Is", "is")))))),
        (("PendingRequestEntry.time_stamp is stored and never read: the clean-up timer keeps its own deadline "
          "(_start_cleanup_timer), and the TimeStamp of MS-MQRR 3.1.1.2 is not an output of any method"),
         tuple((operator,
                "entry = PendingRequestEntry(dw_request_id, ph_context, 0, self.qm.clock.now_ms() & 0xFFFFFFFF,",
                f"entry = PendingRequestEntry(dw_request_id, ph_context, 0, self.qm.clock.now_ms() {mask},")
               for operator, mask in (
                   *((f"core/ReplaceBinaryOperator_BitAnd_{name}", f"{symbol} 0xFFFFFFFF")
                     for name, symbol in (("Add", "+"), ("Sub", "-"), ("Mul", "*"), ("Div", "/"), ("FloorDiv", "//"),
                                          ("Mod", "%"), ("RShift", ">>"), ("BitOr", "|"), ("BitXor", "^"))),
                   ("core/NumberReplacer", "& 4294967296"), ("core/NumberReplacer", "& 4294967294")))),
        (("the test stays false under the reference's readings (D-18 tagged, D-31 all), as the original does, so "
          "waiting peeks keep their tag"),
         (("core/ReplaceOrWithAnd",
           'if qm.readings["D-18"] == "untagged" or qm.readings["D-31"] == "tagged-only":',
           'if qm.readings["D-18"] == "untagged" and qm.readings["D-31"] == "tagged-only":'),)),
        (("ul_action is MQ_ACTION_PEEK_CURRENT (0x80000000) or MQ_ACTION_PEEK_NEXT (0x80000001) here (the line "
          "above), so ul_action <= PEEK_CURRENT holds exactly when it equals it"),
         (("core/ReplaceComparisonOperator_Eq_LtE",
           "peek = qm.peek_message if ul_action == Action.MQ_ACTION_PEEK_CURRENT else qm.peek_next_message",
           "peek = qm.peek_message if ul_action <= Action.MQ_ACTION_PEEK_CURRENT else qm.peek_next_message"),)),
        (("waiting is read only together with LookupIdentifier 0 (_end, _cleanup_timer_expired); after _finish the "
          "entry holds its message's nonzero LookupIdentifier or, if the read failed, is removed (D-52 remove, the "
          "reference's reading), so it is never read again"),
         (("core/ReplaceFalseWithTrue", "entry.waiting = False", "entry.waiting = True"),)),
        (("under the reference's D-69 reading as-started the End acts as its Start required (transactional := "
          "entry.transactional) and the refuse test is false, so which End method was called is never read"),
         (("core/ReplaceFalseWithTrue", "return self._end(ph_context, dw_ack, dw_request_id, transactional=False)",
           "return self._end(ph_context, dw_ack, dw_request_id, transactional=True)"),
          ("core/ReplaceTrueWithFalse",
           "return self._end(ph_context, dw_ack, dw_request_id, transactional=True)  # MS-MQRR:3.1.4.15:05",
           "return self._end(ph_context, dw_ack, dw_request_id, transactional=False)  # MS-MQRR:3.1.4.15:05"))),
        (("a LookupIdentifier is never negative (0 for none, else a message's 64-bit identifier), so "
          "lookup_identifier <= 0 holds exactly when it is 0"),
         (("core/ReplaceComparisonOperator_Eq_LtE", "if entry.lookup_identifier == 0:",
           "if entry.lookup_identifier <= 0:"),
          ("core/ReplaceComparisonOperator_Eq_LtE", "if entry.lookup_identifier == 0 and entry.waiting:",
           "if entry.lookup_identifier <= 0 and entry.waiting:"))),
        (("an entry whose LookupIdentifier is 0 is still waiting (a failed read's entry is removed: D-52 remove), "
          "so `waiting or keep` is true exactly when `waiting and keep` is"),
         (("core/ReplaceAndWithOr", 'if entry.waiting and readings["D-38"] == "keep":',
           'if entry.waiting or readings["D-38"] == "keep":'),)),
        (("the test's last operand is the D-69 reading refuse, false under the reference's reading as-started, so "
          "the test stays false whatever its other operands give"),
         (("core/ReplaceUnaryOperator_Delete_Not",
           'if entry.transactional and not transactional and readings["D-69"] == "refuse":',
           'if entry.transactional and  transactional and readings["D-69"] == "refuse":'),)),
        (("a transactional receive ended by R_EndReceive is then refused with MQ_ERROR_TRANSACTION_USAGE: the D-69 "
          "reading refuse, which a conforming server may take"),
         (("core/ReplaceAndWithOr",
           'if entry.transactional and not transactional and readings["D-69"] == "refuse":',
           'if entry.transactional and not transactional or readings["D-69"] == "refuse":'),)),
        (("dwAck is RR_NACK (1) or RR_ACK (2) here (the first test of _end refuses any other), so dw_ack >= RR_ACK "
          "holds exactly when it equals RR_ACK"),
         (("core/ReplaceComparisonOperator_Eq_GtE",
           "status = self.qm.dequeue_message_end(descriptor, position, dw_ack == Ack.RR_ACK, transactional)",
           "status = self.qm.dequeue_message_end(descriptor, position, dw_ack >= Ack.RR_ACK, transactional)"),)),
        *((reason, tuple((operator, _RR_NACK_RELEASE, _RR_NACK_RELEASE.replace(before, after, 1))
                         for operator, before, after in mutants))
          for reason, mutants in (
              (("dwAck is RR_NACK (1) or RR_ACK (2) here, so dw_ack < RR_NACK never holds: a NACKed transactional "
                "receive stays locked in its transaction, the D-66 reading stays-locked (its only branch is this "
                "line), which a conforming server may take"),
               (("core/ReplaceComparisonOperator_Eq_Lt", "dw_ack ==", "dw_ack <"),)),
              ("dwAck is RR_NACK (1) or RR_ACK (2) here, so dw_ack <= RR_NACK holds exactly when it equals RR_NACK",
               (("core/ReplaceComparisonOperator_Eq_LtE", "dw_ack ==", "dw_ack <="),)),
              (("the status is an HRESULT member, an IntEnum whose values are all >= 0 (MQ_OK is 0), so status <= "
                "MQ_OK holds exactly when status == MQ_OK"),
               (("core/ReplaceComparisonOperator_Eq_LtE", "status ==", "status <="),)),
              (("on success the NACKed message is either released as the reference does or stays locked in its "
                "transaction (the D-66 reading stays-locked; this is the only branch on D-66); after a failed End "
                "(the message Available or Deleted, held by no transaction) withdrawing and releasing it changes "
                "nothing"),
               tuple((f"core/ReplaceComparisonOperator_Eq_{name}", "status ==", f"status {symbol}")
                     for name, symbol in (("NotEq", "!="), ("Lt", "<"), ("Gt", ">"), ("GtE", ">=")))))),
        (("waiting is true only while LookupIdentifier is still 0 (_finish clears waiting before it sets the "
          "identifier), and an entry with 0 that no longer waits was removed with its timer (D-52 remove), so the "
          "test is true exactly when waiting is"),
         (("core/ReplaceComparisonOperator_Eq_GtE", "if entry.lookup_identifier == 0 and entry.waiting:",
           "if entry.lookup_identifier >= 0 and entry.waiting:"),
          ("core/ReplaceAndWithOr", "if entry.lookup_identifier == 0 and entry.waiting:",
           "if entry.lookup_identifier == 0 or entry.waiting:"))),
        (("MessagePositionState is an IntEnum whose smallest member is Available (0): state > Available holds "
          "exactly when state != Available"),
         (("core/ReplaceComparisonOperator_NotEq_Gt", "if position.state != MessagePositionState.Available:",
           "if position.state > MessagePositionState.Available:"),)),
        (("the line runs only under the D-23 reading keep-enlisted, which the reference does not take, so no call "
          "to the reference reaches it"),
         (("core/ReplaceFalseWithTrue",
           "transaction.single_phase = False  # D-23 keep-enlisted: MS-DTC decides, not a restart",
           "transaction.single_phase = True  # D-23 keep-enlisted: MS-DTC decides, not a restart"),)),
        (("the test's last operand is the D-58 reading refuse, false under the reference's reading "
          "any-nonzero-rejects, so the test stays false whatever its other operands give"),
         tuple(("core/NumberReplacer", _RR_ACK_CLASS_TEST, _RR_ACK_CLASS_TEST.replace("(0,", f"( {value},", 1))
               for value in (1, -1))),
        (("a usClass other than 0 or MQMSG_CLASS_NACK_RECEIVE_REJECTED is then refused with "
          "MQ_ERROR_INVALID_PARAMETER: the D-58 reading refuse (its only branch is this line), which a conforming "
          "server may take"),
         (("core/ReplaceAndWithOr", _RR_ACK_CLASS_TEST, _RR_ACK_CLASS_TEST.replace(") and self", ") or self", 1)),)),
        (("the bound changes only for values below 0 or from 2**bits on, which the IDL's types (ULONGLONG, DWORD) "
          "cannot carry: no MS-MQRR client can send them, so no call through the protocol differs"),
         tuple((operator, "return all(isinstance(v, int) and 0 <= v < (1 << bits) for v in values)",
                f"return all(isinstance(v, int) and {test} for v in values)")
               for operator, test in (("core/NumberReplacer", "-1 <= v < (1 << bits)"),
                                      ("core/ReplaceComparisonOperator_Lt_NotEq", "0 <= v != (1 << bits)"),
                                      ("core/ReplaceComparisonOperator_Lt_LtE", "0 <= v <= (1 << bits)"),
                                      ("core/ReplaceComparisonOperator_Lt_IsNot", "0 <= v is not (1 << bits)"),
                                      ("core/NumberReplacer", "0 <= v < ( 2 << bits)")))),
    ) for operator, line, changed in mutants),
    # R_QMEnlistRemoteTransaction's input checks: MS-MQRR:3.1.4.12:03 (testable false) binds the client, and the IDL
    # (a fixed 16-byte XACTUOW, ref pointers, range(0, 131072), size_is) keeps every breach of it off the wire
    *(("reference/remote_read.py", operator, line, changed,
       ("the test then differs only for a NULL or not 16-byte pTransactionId, a NULL pbPropagationToken, a "
        "cbPropagationToken outside 0 .. 131072 or unlike the token's length: breaches of MS-MQRR:3.1.4.12:03, a "
        "duty of the client whose server answer no text names, and which the IDL keeps any MS-MQRR client from "
        "sending"))
      for operator, line, changed in (
          ("core/ReplaceOrWithAnd", "if (p_transaction_id is None or len(p_transaction_id) != 16",
           "if (p_transaction_id is None and len(p_transaction_id) != 16"),
          ("core/ReplaceComparisonOperator_NotEq_Lt", "if (p_transaction_id is None or len(p_transaction_id) != 16",
           "if (p_transaction_id is None or len(p_transaction_id) < 16"),
          ("core/ReplaceComparisonOperator_NotEq_Gt", "if (p_transaction_id is None or len(p_transaction_id) != 16",
           "if (p_transaction_id is None or len(p_transaction_id) > 16"),
          ("core/ReplaceOrWithAnd", "or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131072",
           "or pb_propagation_token is None and not 0 <= cb_propagation_token <= 131072"),
          ("core/NumberReplacer", "or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131072",
           "or pb_propagation_token is None or not -1 <= cb_propagation_token <= 131072"),
          ("core/NumberReplacer", "or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131072",
           "or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131073"),
          ("core/ReplaceOrWithAnd", "or cb_propagation_token != len(pb_propagation_token)):",
           "and cb_propagation_token != len(pb_propagation_token)):"),
          ("core/ReplaceComparisonOperator_NotEq_Lt", "or cb_propagation_token != len(pb_propagation_token)):",
           "or cb_propagation_token < len(pb_propagation_token)):"),
          ("core/ReplaceComparisonOperator_NotEq_Gt", "or cb_propagation_token != len(pb_propagation_token)):",
           "or cb_propagation_token > len(pb_propagation_token)):"))),
    *(("reference/remote_read.py", "core/ReplaceOrWithAnd", line, changed,
       ("an all-zero pTransactionId of 16 bytes is then enlisted like any other: the D-40 reading accept-zero, "
        "which a conforming server may take; the test changes otherwise only for breaches of MS-MQRR:3.1.4.12:03 "
        "(a NULL token, an id not 16 bytes long) that the IDL keeps off the wire"))
      for line, changed in (
          ('or (not any(p_transaction_id) and self.qm.readings["D-40"] == "refuse-zero")',
           'and (not any(p_transaction_id) and self.qm.readings["D-40"] == "refuse-zero")'),
          ("or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131072",
           "and pb_propagation_token is None or not 0 <= cb_propagation_token <= 131072"))),
    *(("reference/remote_read.py", operator,
       "or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131072", changed,
       ("a token of 0 (or of 131072) bytes, the edge of what the IDL allows, is then refused with "
        "MQ_ERROR_INVALID_PARAMETER: a token is MS-DTC's to accept (MS-MQRR:3.1.4.12:01, testable false) and "
        "MS-MQRR:3.1.4.12:05 lets the server fail on error, which the suite cannot tell apart for a token of any "
        "given size"))
      for operator, changed in (
          ("core/NumberReplacer", "or pb_propagation_token is None or not 1 <= cb_propagation_token <= 131072"),
          ("core/ReplaceComparisonOperator_LtE_NotEq",
           "or pb_propagation_token is None or not 0 != cb_propagation_token <= 131072"),
          ("core/ReplaceComparisonOperator_LtE_Lt",
           "or pb_propagation_token is None or not 0 < cb_propagation_token <= 131072"),
          ("core/ReplaceComparisonOperator_LtE_IsNot",
           "or pb_propagation_token is None or not 0 is not cb_propagation_token <= 131072"),
          ("core/ReplaceComparisonOperator_LtE_Lt",
           "or pb_propagation_token is None or not 0 <= cb_propagation_token < 131072"),
          ("core/ReplaceComparisonOperator_LtE_NotEq",
           "or pb_propagation_token is None or not 0 <= cb_propagation_token != 131072"),
          ("core/NumberReplacer", "or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131071"))),
    ("reference/remote_read.py", "core/ReplaceComparisonOperator_Eq_LtE",
     'if name.kind == "DIRECT" and name.protocol not in ("TCP", "OS"):',
     'if name.kind <= "DIRECT" and name.protocol not in ("TCP", "OS"):',
     ("m_qft is PUBLIC, PRIVATE, DIRECT, MACHINE or SUBQUEUE here (the test above refuses the rest), so the name's "
      "kind is PUBLIC, PRIVATE, DIRECT or MACHINE, and of those only DIRECT is <= \"DIRECT\"")),
    ("reference/remote_read.py", "core/ZeroIterationForLoop",
     "for cursor in list(descriptor.cursor_collection.values()):", "for cursor in []:",
     ("Close Queue, raised on the next line, closes the descriptor's cursors itself (MS-MQDMPR:3.1.7.1.6:02, "
      "open_queue.py close_queue), after ending its waiting reads with MQ_ERROR_OPERATION_CANCELLED: under the "
      "reference's readings (D-14 cancelled, D-31 all) every read waiting through those cursors ends with that "
      "status either way, and every cursor ends closed")),
    ("reference/remote_read.py", "core/ZeroIterationForLoop",
     "for move_context, target in list(self.move_contexts.items()):", "for move_context, target in []:",
     ("a move context left behind names a handle the line before has just dropped from context_handles, so "
      "R_MoveMessage through it fails with MQ_ERROR_INVALID_HANDLE exactly as through a context never issued; "
      "the stale value only keeps the next random draw from repeating it")),
    ("reference/remote_read.py", "core/ReplaceOrWithAnd",
     "or any(w.request.request_id == dw_request_id", "and any(w.request.request_id == dw_request_id",
     ("the server then refuses a reused dwRequestId only while a receive still waits under it (entry and waiting "
      "read at once) and serves every other reuse, the later entry taking the key, as the D-36 reading accept "
      "does: MS-MQRR:3.1.4.7:34 forbids the reuse to the client without naming any answer of the server, and the "
      "suite's D-36 scenarios accept either answer for each reuse")),
    *(("reference/remote_read.py", "core/NumberReplacer", line, line.replace("), 0  #", "), 1  #", 1),
       ("phCursor of a failed R_CreateCursor: the client ignores it (MS-MQRR:3.1.4.4:03), and 1 still fits its "
        "DWORD in the reply"))
      for line in ("return self._unknown_handle(), 0  # MS-MQRR:3.1.4.4:02 (D-44)",
                   "return self._queue_gone(), 0  # D-46 the queue was deleted: Open Cursor gives no cursor")),
    *(("reference/remote_read.py", "*", line, "*",
       ("the line's annotations are unevaluated strings (`from __future__ import annotations`), and its defaults "
        "are never used: their only callers, the in-process Target's open_queue and open_queue_for_move, pass "
        "every parameter"))
      for line in ("minor: int = 0, build_number: int = 0, f_workgroup: int = 0,",
                   "caller: Caller | None = None) -> OpenQueueResult:")),
    ("reference/remote_read.py", "core/ReplaceBinaryOperator_Mul_Div",
     "def __init__(self, queue_manager, *, port: int = DEFAULT_PORT,",
     "def __init__(self, queue_manager, /, port: int = DEFAULT_PORT,",
     ("the keyword-only marker becomes a positional-only one: every RemoteReadServer constructor call (the "
      "in-process adapter's, with **server_options, and the unit tests') passes the queue manager by position and "
      "the options by keyword, which both signatures accept alike")),
    ("reference/remote_read.py", "core/ReplaceComparisonOperator_Eq_LtE",
     "if ul_action == Action.MQ_ACTION_RECEIVE:", "if ul_action <= Action.MQ_ACTION_RECEIVE:",
     ("_read's only caller (_start) has already checked that ulAction fits an unsigned DWORD (_fits), and "
      "MQ_ACTION_RECEIVE is 0, so ul_action <= 0 holds exactly when ul_action == 0")),
    ("reference/remote_read.py", "core/ReplaceComparisonOperator_NotEq_GtE", "if status != HRESULT.MQ_OK:",
     "if status >= HRESULT.MQ_OK:",
     ("HRESULT values are all >= 0, so a successful cancel now takes the failure branch, which under the "
      "reference's D-54 reading (status-not-found) returns the status, MQ_OK, as well; it only skips removing the "
      "request's entry, which is gone already: under D-52 remove (the reference's) the cancelled receive's own "
      "failure removed it (_finish), and D-36 refuse lets no other entry share a waiting read's request id")),
    *(("reference/remote_read.py", operator, "if entry.lookup_identifier == 0:", changed,
       ("a lookup identifier is never negative, so the test never holds: an entry still without a message "
        "(lookup identifier 0) then goes the common way, its entry removed and no position found for identifier 0, "
        "so the End answers MQ_ERROR_MESSAGE_NOT_FOUND: the D-38 reading remove (spec/decisions.md), which a "
        "conforming server may take; such an entry never outlives a queue deletion under the reference's readings "
        "(D-13 ends its read, D-52 remove drops its entry), so D-74 does not come in"))
      for operator, changed in (("core/ReplaceComparisonOperator_Eq_Lt", "if entry.lookup_identifier < 0:"),
                                ("core/NumberReplacer", "if entry.lookup_identifier == -1:"))),
)

_ENTRIES += (   # reference/remote_read_rules.py
    *(("reference/remote_read_rules.py", operator, line, changed, reason) for reason, mutants in (
        (("hCursor and ulTimeout are DWORDs, and remote_read.py _start refuses a value outside 0 .. 2**32-1 before "
          "it asks this table, so x <= 0 holds exactly when x == 0"), (
            ("core/ReplaceComparisonOperator_Eq_LtE",
             "return ul_action in LOOKUP_ACTIONS and h_cursor == 0 and ul_timeout == 0",
             "return ul_action in LOOKUP_ACTIONS and h_cursor <= 0 and ul_timeout == 0"),
            ("core/ReplaceComparisonOperator_Eq_LtE",
             "return ul_action in LOOKUP_ACTIONS and h_cursor == 0 and ul_timeout == 0",
             "return ul_action in LOOKUP_ACTIONS and h_cursor == 0 and ul_timeout <= 0"),
        )),
        (("the default is never used: the only PendingRequestEntry made (remote_read.py _start) passes "
          "transactional= itself"), (
            ("core/ReplaceFalseWithTrue",
             "time_stamp: int, transactional: bool = False) -> None:",
             "time_stamp: int, transactional: bool = True) -> None:"),
        )),
        (("the value is seen only when the call fails (succeed() overwrites it), and on failure the outputs mean "
          "nothing: the client ignores them (MS-MQRR:3.1.4.7:15); 1 still fits the output's DWORD / ULONGLONG on "
          "the wire"), (
            ("core/NumberReplacer",
             "self.pdw_arrive_time = 0",
             "self.pdw_arrive_time = 1"),
            ("core/NumberReplacer",
             "self.p_sequence_id = 0",
             "self.p_sequence_id = 1"),
        )),
    ) for operator, line, changed in mutants),
)

_ENTRIES += (   # reference/timers.py
    *(("reference/timers.py", "*", line, "*",
       ("the count of marked entries and the test on it only decide when marked (cancelled) entries are dropped "
        "from the heap all at once; they are skipped when they surface anyway, so which timers fire, and when, is "
        "the same whenever (or whether) the drop happens: only the heap's size changes"))
      for line in ("COMPACT_AT = 64                # marked entries a heap keeps before it is worth dropping them",
                   "self._marked = 0              # cancelled entries still in the heap",
                   "self._marked += 1",
                   "if self._marked > COMPACT_AT and 2 * self._marked > len(self._heap):",
                   "heapq.heapify(self._heap)",
                   "self._marked = 0",
                   "self._marked -= 1")),
    *(("reference/timers.py", "*", line, "*",
       "TimerQueue.next_deadline and __len__ are called nowhere (dead code, to be deleted with a fresh full run)")
      for line in ("while heap and heap[0][2].cancelled:", "return heap[0][0] if heap else None",
                   "return sum(1 for _, _, t in self._heap if not t.cancelled)")),
    *(("reference/timers.py", "core/NumberReplacer", "fired = 0", f"fired = {start}",
       ("run_due's count is only returned through QueueManager.run_timers, and its callers (adapters/in_process.py, "
        "three places) discard it: which timers fire does not depend on the count"))
      for start in ("1", "-1")),
    *(("reference/timers.py", "core/NumberReplacer", "fired += 1", f"fired += {step}",
       ("run_due's count is only returned through QueueManager.run_timers, and its callers (adapters/in_process.py, "
        "three places) discard it: which timers fire does not depend on the count"))
      for step in ("2", "0")),
    ("reference/timers.py", "core/ReplaceTrueWithFalse", "timer.cancelled = True", "timer.cancelled = False",
     ("the line marks a timer that is firing, which heappop has just taken off the heap: run_due never meets it "
      "again, and the only other readers of the flag, next_deadline and __len__, have no caller (this is run_due's "
      "line; the same text in cancel() is not equivalent, and the suite kills it)")),
)

_TX_D23_HALF = ("half of D-23 only: under the reference's reading every transaction alive at a restart is single-phase "
                "and unprepared, or prepared for two-phase commit (a Target's prepare is two-phase; a single-phase "
                "prepare is followed at once by its commit); an unprepared one that is not single-phase is made only "
                "by the other half, remote_read's enlist under keep-enlisted, so this test decides nothing alone")
_TX_HEADER_ID = ("transaction = Transaction(transaction_identifier, (self._transaction_ids - 1) % 0xFFFFF + 1)  "
                 "# MS-MQDMPR:3.1.7.1.8:01")
_TX_IDS_DISTINCT = ("the n-th transaction's TransactionHeader id becomes {}: still within 20 bits and distinct for any "
                    "0xFFFFF transactions in a row (0xFFFFF is odd, so doubling is one-to-one modulo it), which is "
                    "all MS-MQMQ:2.2.20.5:01 asks (the reference itself repeats ids after 0xFFFFF transactions)")

_ENTRIES += (   # reference/transactions.py
    ("reference/transactions.py", "*", 'keep_enlisted = self.readings["D-23"] == "keep-enlisted"', "*",
     _TX_D23_HALF),
    *(("reference/transactions.py", operator,
       "if transaction.single_phase or (not transaction.prepared and not keep_enlisted):", changed, _TX_D23_HALF)
      for operator, changed in (
          ("core/ReplaceOrWithAnd",
           "if transaction.single_phase and (not transaction.prepared and not keep_enlisted):"),
          ("core/ReplaceUnaryOperator_Delete_Not",
           "if transaction.single_phase or (not transaction.prepared and  keep_enlisted):"))),
    ("reference/transactions.py", "core/ReplaceComparisonOperator_Eq_Gt",
     'if position.state == PURGE_PENDING and self.readings["D-24"] == "purged":',
     'if position.state > PURGE_PENDING and self.readings["D-24"] == "purged":',
     ("PurgePending (3) is the largest MessagePositionState, so the test never holds and a purged uncommitted "
      "enqueue is made Available at commit: D-24's other reading, survives, which a conforming server may take and "
      "the suite accepts")),
    ("reference/transactions.py", "core/ReplaceBinaryOperator_Mul_Div",
     "def add_operation(self, transaction: Transaction, kind: str, position, *, target=None,",
     "def add_operation(self, transaction: Transaction, kind: str, position, /, target=None,",
     ("the keyword-only marker becomes a positional-only one: every add_operation call (queue_manager, reads, "
      "persistence) passes transaction, kind and position by position and target and reason by keyword")),
    ("reference/transactions.py", "core/NumberReplacer",
     "self._transaction_ids += 1", "self._transaction_ids += 2",
     _TX_IDS_DISTINCT.format("(2n - 1) % 0xFFFFF + 1")),
    *(("reference/transactions.py", f"core/ReplaceBinaryOperator_Sub_{name}", _TX_HEADER_ID,
       _TX_HEADER_ID.replace("_ids - 1)", f"_ids {op} 1)"), _TX_IDS_DISTINCT.format(ids))
      for name, op, ids in (("Add", "+", "(n + 1) % 0xFFFFF + 1"),
                            ("BitXor", "^", "(n ^ 1) % 0xFFFFF + 1, which swaps n's pairs 2k and 2k + 1"),
                            ("FloorDiv", "//", "n % 0xFFFFF + 1"), ("Mul", "*", "n % 0xFFFFF + 1"),
                            ("LShift", "<<", "2n % 0xFFFFF + 1"), ("Pow", "**", "n % 0xFFFFF + 1"))),
    ("reference/transactions.py", "core/ReplaceComparisonOperator_Eq_GtE", "if len(kept) == len(operations):",
     "if len(kept) >= len(operations):",
     "kept is a filtered copy of operations, never longer: len(kept) >= len(operations) holds exactly when equal"),
    *(("reference/transactions.py", "core/ReplaceComparisonOperator_Eq_GtE", line, line.replace("==", ">=", 1),
       ("MessagePositionState is an IntEnum whose largest member is PurgePending (3): state >= PurgePending holds "
        "exactly when state == PurgePending"))
      for line in ('if position.state == PURGE_PENDING and self.readings["D-24"] == "purged":',
                   "elif position.state == PURGE_PENDING:")),
    *(("reference/transactions.py", "core/NumberReplacer", _TX_HEADER_ID,
       _TX_HEADER_ID.replace("_ids - 1)", f"_ids - {k})"), _TX_IDS_DISTINCT.format(f"(n - {k}) % 0xFFFFF + 1"))
      for k in ("2", "0")),
    *(("reference/transactions.py", operator, _TX_HEADER_ID, _TX_HEADER_ID.replace(" % 0xFFFFF + 1)", changed),
       (f"the n-th transaction's header id becomes {ids}: the packet keeps its low 20 bits (packet.py masks it "
        "with 0xFFFFF), distinct for any 0xFFFFE transactions in a row, and the TxSequenceID Ordinal made of it "
        "(arrival.py) grows with n until it wraps, as the reference's does after 0xFFFFF transactions: all "
        "MS-MQMQ:2.2.20.5:01 and 2.2.18.1.2 ask"))
      for operator, changed, ids in (
          ("core/ReplaceBinaryOperator_Mod_Add", " + 0xFFFFF + 1)", "n + 0xFFFFF (low 20 bits n - 1)"),
          ("core/ReplaceBinaryOperator_Mod_BitOr", " | 0xFFFFF + 1)", "(n - 1) | 0x100000 (low 20 bits n - 1)"),
          ("core/ReplaceBinaryOperator_Mod_BitXor", " ^ 0xFFFFF + 1)", "(n - 1) ^ 0x100000 (low 20 bits n - 1)"),
          ("core/NumberReplacer", " % 1048576 + 1)", "(n - 1) % 0x100000 + 1 (low 20 bits n, then 0 at n = 0x100000)"),
          ("core/NumberReplacer", " % 1048574 + 1)", "(n - 1) % 0xFFFFE + 1, wrapping one transaction earlier"),
          ("core/NumberReplacer", " % 0xFFFFF + 2)", "(n - 1) % 0xFFFFF + 2 (low 20 bits 2, 3, ..., 0xFFFFF, 0)"),
          ("core/NumberReplacer", " % 0xFFFFF + 0)", "(n - 1) % 0xFFFFF, that is 0, 1, 2, ..."))),
    ("reference/transactions.py", "core/ReplaceBinaryOperator_Add_Mul", _TX_HEADER_ID,
     _TX_HEADER_ID.replace(" % 0xFFFFF + 1)", " % 0xFFFFF * 1)"),
     "the TransactionHeader ids become 0, 1, 2, ...: still 20-bit and distinct, all that MS-MQMQ:2.2.20.5:01 asks"),
    ("reference/transactions.py", "core/ReplaceBinaryOperator_Add_LShift", _TX_HEADER_ID,
     _TX_HEADER_ID.replace(" % 0xFFFFF + 1)", " % 0xFFFFF << 1)"),
     ("the header ids become 0, 2, 4, ...: the packet's 20 bits are distinct for 2**19 transactions in a row and the "
      "TxSequenceID Ordinal grows until it wraps; no 20-bit id can stay unique for ever (the reference's repeats "
      "after 0xFFFFF transactions), so MS-MQMQ:2.2.20.5:01 leaves the length of the cycle free")),
)

_ENTRIES += (   # reference/mqqb_arrival.py (issue 22's mutation run over the new modules)
    ("reference/mqqb_arrival.py", "core/ZeroIterationForLoop",
     "for sessions in (self.sessions, self.initiated):", "for sessions in []:",
     ("a closed session left in the lists: `sessions` is read only through a filter on state OPEN (the session "
      "a FinalAck goes on), and `initiated` is filled only under D-76's new-session reading, not the reference's "
      "(same-session); under new-session the closed session would be reused and the FinalAck lost, which the "
      "scenario 'Once a session the target opened to deliver FinalAcks is closed, the next FinalAck still comes' "
      "catches (it fails with `reference?readings=D-76:new-session` and this change)")),
)

_ENTRIES += (   # reference/security.py (issue 22's mutation run over the new modules)
    ("reference/security.py", "core/ReplaceTrueWithFalse", "@dataclass(frozen=True)", "@dataclass(frozen=False)",
     ("frozen only forbids assigning a field and makes the instances hashable: nothing in reference/ or adapters/ "
      "assigns a field of a Caller or of a QueueSecurity (each is made whole, by the adapters' calling_as, "
      "as_identity, as_anonymous and by QueueSecurity.from_plain), and none is hashed (no set or dict holds one; "
      "a queue keeps its QueueSecurity in an attribute of adm.Queue, a plain class)")),
    ("reference/security.py", "*", "auth_level: int = 6               # RPC_C_AUTHN_LEVEL_PKT_PRIVACY", "*",
     ("the default is never taken: every Caller is made with both fields (in_process.py's first client at 6, "
      "as_identity at its level, as_anonymous at 1, calling_as from the RPC layer's (account, level) pair)")),
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


_ENTRIES += (   # issue 22: the full mutation run over security, mqqb_session, mqqb_arrival, mqqb_packets
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     "DEFAULT_ACK_WAIT_TIMEOUT = 120_000  # MS-MQQB 3.1.3.2 implementation-dependent until the peer's AckTimeout",
     "DEFAULT_ACK_WAIT_TIMEOUT = 120001  # MS-MQQB 3.1.3.2 implementation-dependent until the peer's AckTimeout",
     "MS-MQQB 3.1.3.2 leaves AckWaitTimeout to the system configuration until the peer's ConnectionParameters set it (an acceptor takes the peer's before any message can arrive); any value conforms, so one millisecond more or less is another conforming configuration"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     "DEFAULT_ACK_WAIT_TIMEOUT = 120_000  # MS-MQQB 3.1.3.2 implementation-dependent until the peer's AckTimeout",
     "DEFAULT_ACK_WAIT_TIMEOUT = 119999  # MS-MQQB 3.1.3.2 implementation-dependent until the peer's AckTimeout",
     "MS-MQQB 3.1.3.2 leaves AckWaitTimeout to the system configuration until the peer's ConnectionParameters set it (an acceptor takes the peer's before any message can arrive); any value conforms, so one millisecond more or less is another conforming configuration"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.remote_qm_guid = bytes(16)                 # RemoteQMGuid, from the EstablishConnection request',
     'self.remote_qm_guid = bytes( 17)                 # RemoteQMGuid, from the EstablishConnection request',
     "the placeholder is replaced by the EstablishConnection request's ClientGuid (3.1.5.3.1) or the initiator's target (3.1.5.2.3) before anything reads it: every reader (the order queue's address, the FinalAck's session) acts only on an OPEN session"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.remote_qm_guid = bytes(16)                 # RemoteQMGuid, from the EstablishConnection request',
     'self.remote_qm_guid = bytes( 15)                 # RemoteQMGuid, from the EstablishConnection request',
     "the placeholder is replaced by the EstablishConnection request's ClientGuid (3.1.5.3.1) or the initiator's target (3.1.5.2.3) before anything reads it: every reader (the order queue's address, the FinalAck's session) acts only on an OPEN session"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.unacked_received_msg_count = 0',
     'self.unacked_received_msg_count = 1',
     "the count gates only the Session Ack Send Timer's SessionAck (3.1.6.4: none when nothing is unacknowledged), and that timer starts only when a message arrives, which counts it; the count itself is in no packet"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.received_window_size = 0',
     'self.received_window_size = 1',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (ReceivedWindowSize: this queue manager sends no UserMessages a window could hold back, D-19)'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.received_window_size = 0',
     'self.received_window_size = -1',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (ReceivedWindowSize: this queue manager sends no UserMessages a window could hold back, D-19)'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.recoverable_ack_send_timeout = 0xFFFFFFFF',
     'self.recoverable_ack_send_timeout = 4294967296',
     "read only when a recoverable message arrives, which an acceptor's session allows only once the peer's ConnectionParameters have replaced it (3.1.5.4.1); on a session this queue manager opened (D-76 new-session) the peer sends no UserMessages, and a timer of 0xFFFFFFFF ms (49 days) is no more observable one millisecond off"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.recoverable_ack_send_timeout = 0xFFFFFFFF',
     'self.recoverable_ack_send_timeout = 4294967294',
     "read only when a recoverable message arrives, which an acceptor's session allows only once the peer's ConnectionParameters have replaced it (3.1.5.4.1); on a session this queue manager opened (D-76 new-session) the peer sends no UserMessages, and a timer of 0xFFFFFFFF ms (49 days) is no more observable one millisecond off"),
    ('reference/mqqb_session.py', 'core/ReplaceFalseWithTrue',
     'self.session_active = self.received_ack = False',
     'self.session_active = self.received_ack = True',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (SessionActive, ReceivedAck: kept for the Session Cleanup and Ping timers, which this reference does not run)'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.incoming_tx_sequence_id = bytes(8)         # MS-MQQB 3.1.1.3.1 Ordinal and Timestamp 0',
     'self.incoming_tx_sequence_id = bytes( 9)         # MS-MQQB 3.1.1.3.1 Ordinal and Timestamp 0',
     "read as a little-endian number (0 for any run of zero bytes) and packed into an OrderAck as 8 bytes ('8s' pads or cuts to eight zeros): all-zero bytes of any length are the same TxSequenceID"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.incoming_tx_sequence_id = bytes(8)         # MS-MQQB 3.1.1.3.1 Ordinal and Timestamp 0',
     'self.incoming_tx_sequence_id = bytes( 7)         # MS-MQQB 3.1.1.3.1 Ordinal and Timestamp 0',
     "read as a little-endian number (0 for any run of zero bytes) and packed into an OrderAck as 8 bytes ('8s' pads or cuts to eight zeros): all-zero bytes of any length are the same TxSequenceID"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.tx_message_reject_count = 0',
     'self.tx_message_reject_count = 1',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (TxMessageRejectCount: management data, IncomingTransactionalTransferInfo.RejectCount, which no MS-MQRR method returns)'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.tx_message_reject_count = 0',
     'self.tx_message_reject_count = -1',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (TxMessageRejectCount: management data, IncomingTransactionalTransferInfo.RejectCount, which no MS-MQRR method returns)'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.tx_message_reject_count += 1',
     'self.tx_message_reject_count += 2',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (TxMessageRejectCount: management data, IncomingTransactionalTransferInfo.RejectCount, which no MS-MQRR method returns)'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.tx_message_reject_count += 1',
     'self.tx_message_reject_count += 0',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (TxMessageRejectCount: management data, IncomingTransactionalTransferInfo.RejectCount, which no MS-MQRR method returns)'),
    ('reference/mqqb_session.py', 'core/ReplaceTrueWithFalse',
     'self.received_ack = True  # MS-MQQB 3.1.5.1 on receipt of any packet',
     'self.received_ack = False  # MS-MQQB 3.1.5.1 on receipt of any packet',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (ReceivedAck: kept for the Ping timer, which this reference does not run)'),
    ('reference/mqqb_session.py', 'core/ReplaceTrueWithFalse',
     'self.session_active = True',
     'self.session_active = False',
     'an ADM element of MS-MQQB 3.1.1.3.1 the session keeps for the data model and that no rule of this reference reads: no packet, no queue and no answer depends on it (SessionActive: kept for the Session Cleanup timer, which this reference does not run)'),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'return self.state == CLOSED',
     'return self.state <= CLOSED',
     "the states are the strings of TRANSITIONS, and none sorts before 'CLOSED' ('OPEN' and 'WAITING_*' come after it): state <= CLOSED holds exactly when state == CLOSED"),
    ('reference/mqqb_session.py', 'core/ReplaceFalseWithTrue',
     'def send(self, packet: bytes, user_message: bool = False, recoverable: bool = False) -> None:',
     'def send(self, packet: bytes, user_message: bool = False, recoverable: bool = True) -> None:',
     '`recoverable` is read only for a UserMessage (user_message=True), and both callers that send one pass it (mqqb_arrival._send_to_order_queue, the held packets of _parameters_response); an internal packet takes the default and never reads it'),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_NotEq_Gt',
     'if user_message and self.state != OPEN:',
     'if user_message and self.state > OPEN:',
     "a UserMessage goes out on a session that is OPEN, or on one this queue manager is still opening (WAITING_ECR_MSG, WAITING_CPR_MSG, which sort after 'OPEN'); a CLOSED one has returned the line before: state > OPEN holds exactly when state != OPEN there"),
    ('reference/security.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if kind == DENY and rights & wanted & ~allowed:',
     'if kind >= DENY and rights & wanted & ~allowed:',
     "an entry's kind is 'allow' or 'deny' (from_plain refuses any other), and 'allow' sorts before 'deny': kind >= DENY holds exactly for deny entries"),
    ('reference/security.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if kind == ALLOW:',
     'if kind <= ALLOW:',
     "an entry's kind is 'allow' or 'deny' (from_plain refuses any other), and 'deny' sorts after 'allow': kind <= ALLOW holds exactly for allow entries"),
    ('reference/security.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if kind == ALLOW:',
     'if kind >= ALLOW:',
     'a deny entry reaches this line only when none of its wanted rights is still missing (the line before returns otherwise), so adding its rights to `allowed` adds only rights not wanted or already allowed: `allowed & wanted` and every later deny test are unchanged'),
    ('reference/security.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if allowed & wanted == wanted:',
     'if allowed & wanted >= wanted:',
     'allowed & wanted has no bit wanted lacks, so as a number it is at most wanted: >= holds exactly when == does'),
)

_ENTRIES += (   # issue 22: reference/security.py's access-list form checks
    ('reference/security.py', '*', 'if not isinstance(plain, dict) or set(plain) - {"owner", "dacl"}:', '*',
     "the form checks of a queue's security as the Target's create_queue takes it, set-up input that no MSMQ clause governs: over the wire the control interface refuses a malformed list before the reference sees it (adapters/mqrr/control_args.py, tests/test_control_refusals.py), and the scenarios write only well-formed lists of allow and deny entries naming an identity or a well-known group with MQSEC_* masks; a check loosened or tightened on other forms changes no call a scenario makes"),
    ('reference/security.py', '*', 'if (not isinstance(entry, (list, tuple)) or len(entry) != 3 or entry[0] not in (ALLOW, DENY)', '*',
     "the form checks of a queue's security as the Target's create_queue takes it, set-up input that no MSMQ clause governs: over the wire the control interface refuses a malformed list before the reference sees it (adapters/mqrr/control_args.py, tests/test_control_refusals.py), and the scenarios write only well-formed lists of allow and deny entries naming an identity or a well-known group with MQSEC_* masks; a check loosened or tightened on other forms changes no call a scenario makes"),
    ('reference/security.py', '*', 'or not isinstance(entry[1], str) or not entry[1]', '*',
     "the form checks of a queue's security as the Target's create_queue takes it, set-up input that no MSMQ clause governs: over the wire the control interface refuses a malformed list before the reference sees it (adapters/mqrr/control_args.py, tests/test_control_refusals.py), and the scenarios write only well-formed lists of allow and deny entries naming an identity or a well-known group with MQSEC_* masks; a check loosened or tightened on other forms changes no call a scenario makes"),
    ('reference/security.py', '*', 'or not isinstance(entry[2], int) or not 0 <= entry[2] <= 0xFFFFFFFF):', '*',
     "the form checks of a queue's security as the Target's create_queue takes it, set-up input that no MSMQ clause governs: over the wire the control interface refuses a malformed list before the reference sees it (adapters/mqrr/control_args.py, tests/test_control_refusals.py), and the scenarios write only well-formed lists of allow and deny entries naming an identity or a well-known group with MQSEC_* masks; a check loosened or tightened on other forms changes no call a scenario makes"),
    ('reference/security.py', 'core/ReplaceOrWithAnd', 'owner = plain.get("owner") or DEFAULT.owner',
     'owner = plain.get("owner") and DEFAULT.owner',
     'the owner is kept, and stored for a restart, but no rule reads it: the access check of MS-MQDMPR 3.1.7.1.3.1 walks the DACL alone, and the owner\'s implicit rights (READ_CONTROL, WRITE_DAC) belong to methods MS-MQRR does not have'),
)

_FIXED_HEADERS = 'every such bound is at most the true 120 bytes (BaseHeader 16, UserHeader 48, MessagePropertiesHeader 56), and a UserMessage shorter than those three headers fails to unpack them whatever the bound says (struct.error, read as PacketFormatError: the session closes, MS-MQMQ:2.2.19.1:12), so a lower bound refuses exactly what the true one refuses'
_ENTRIES += (   # issue 22: reference/mqqb_packets.py FIXED_HEADERS, a lower bound than the headers' own
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitAnd',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size & USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size | USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size ^ USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Div',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size / USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_FloorDiv',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size // USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Mod',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size % USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_RShift',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size >> USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Sub',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size - USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitAnd',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size & PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size | PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size ^ PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Div',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size / PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_FloorDiv',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size // PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Mod',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size % PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_RShift',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size >> PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Sub',
     'FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     'FIXED_HEADERS = BASE.size + USER.size - PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has',
     _FIXED_HEADERS),
)

_UNREAD_DEFAULT = "a default of UserMessagePacket that is never read: the one constructor call (read_user_message) passes `raw`, _message_properties assigns every MessagePropertiesHeader field of every packet (MP is required, MS-MQMQ:2.2.19.2), SignatureSize is assigned with the SecurityHeader and read (`signed`) only when there is one, and the compound message's body with the SRMP envelope, read only when there is one"
_ENTRIES += (   # issue 22: reference/mqqb_packets.py, defaults never read and sums of disjoint bits
    ('reference/mqqb_packets.py', '*', 'signature_size: int = 0            # SecurityHeader.SignatureSize', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'acknowledgements: int = 0', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'message_class: int = 0', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'correlation_id: bytes = bytes(20)', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'body_type: int = 0', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'application_tag: int = 0', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'privacy_level: int = 0', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'compound_message_body: tuple[int, int] = (0, 0)  # CompoundMessageHeader (MsgBodyOffset, MsgBodySize)', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'hash_algorithm: int = 0            # MessagePropertiesHeader.HashAlgorithm', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'encryption_algorithm: int = 0      # MessagePropertiesHeader.EncryptionAlgorithm', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', '*', 'raw: bytes = field(default=b"", repr=False)', '*', _UNREAD_DEFAULT),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'SESSION_ACK_SIZES = (BASE.size + INTERNAL.size, SESSION_ACK_SIZE)  # D-85 its PacketSize: text, windows',
     'SESSION_ACK_SIZES = (BASE.size | INTERNAL.size, SESSION_ACK_SIZE)  # D-85 its PacketSize: text, windows',
     'BASE.size is 16 and INTERNAL.size 4, which share no bit: 16 | 4 and 16 ^ 4 are 16 + 4'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     'SESSION_ACK_SIZES = (BASE.size + INTERNAL.size, SESSION_ACK_SIZE)  # D-85 its PacketSize: text, windows',
     'SESSION_ACK_SIZES = (BASE.size ^ INTERNAL.size, SESSION_ACK_SIZE)  # D-85 its PacketSize: text, windows',
     'BASE.size is 16 and INTERNAL.size 4, which share no bit: 16 | 4 and 16 ^ 4 are 16 + 4'),
)

_ENTRIES += (   # issue 22: mqqb_session.py, readings' free fields and masked values
    ('reference/mqqb_session.py', 'core/AddNot',
     'if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     'if not (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     "the branch only matters under D-88's answer reading, and a packet other than a UserMessage that reaches it before any EstablishConnection is either internal, which fails to read as a UserMessage and closes the session unanswered as before, or a user-shaped OrderAck or FinalAck, which the answer reading covers as well (at least one packet of the protocol, then a close); neither reading queues anything"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_Gt',
     'if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     'if (self.state, kind) > (WAITING_EC_MSG, "UserMessage"):',
     "the branch only matters under D-88's answer reading, and a packet other than a UserMessage that reaches it before any EstablishConnection is either internal, which fails to read as a UserMessage and closes the session unanswered as before, or a user-shaped OrderAck or FinalAck, which the answer reading covers as well (at least one packet of the protocol, then a close); neither reading queues anything"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     'if (self.state, kind) >= (WAITING_EC_MSG, "UserMessage"):',
     "the branch only matters under D-88's answer reading, and a packet other than a UserMessage that reaches it before any EstablishConnection is either internal, which fails to read as a UserMessage and closes the session unanswered as before, or a user-shaped OrderAck or FinalAck, which the answer reading covers as well (at least one packet of the protocol, then a close); neither reading queues anything"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_IsNot',
     'if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     'if (self.state, kind) is not (WAITING_EC_MSG, "UserMessage"):',
     "the branch only matters under D-88's answer reading, and a packet other than a UserMessage that reaches it before any EstablishConnection is either internal, which fails to read as a UserMessage and closes the session unanswered as before, or a user-shaped OrderAck or FinalAck, which the answer reading covers as well (at least one packet of the protocol, then a close); neither reading queues anything"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_Lt',
     'if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     'if (self.state, kind) < (WAITING_EC_MSG, "UserMessage"):',
     "the branch only matters under D-88's answer reading, and a packet other than a UserMessage that reaches it before any EstablishConnection is either internal, which fails to read as a UserMessage and closes the session unanswered as before, or a user-shaped OrderAck or FinalAck, which the answer reading covers as well (at least one packet of the protocol, then a close); neither reading queues anything"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     'if (self.state, kind) <= (WAITING_EC_MSG, "UserMessage"):',
     "the branch only matters under D-88's answer reading, and a packet other than a UserMessage that reaches it before any EstablishConnection is either internal, which fails to read as a UserMessage and closes the session unanswered as before, or a user-shaped OrderAck or FinalAck, which the answer reading covers as well (at least one packet of the protocol, then a close); neither reading queues anything"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_NotEq',
     'if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):',
     'if (self.state, kind) != (WAITING_EC_MSG, "UserMessage"):',
     "the branch only matters under D-88's answer reading, and a packet other than a UserMessage that reaches it before any EstablishConnection is either internal, which fails to read as a UserMessage and closes the session unanswered as before, or a user-shaped OrderAck or FinalAck, which the answer reading covers as well (at least one packet of the protocol, then a close); neither reading queues anything"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'return 3 if self.qm.readings["D-86"] == "nonzero" else 0',
     'return 4 if self.qm.readings["D-86"] == "nonzero" else 0',
     'D-86: the text leaves the BaseHeader priority of internal packets free and a receiver ignores it; the suite accepts any, recording zero or nonzero, and the mutant keeps one value for every internal packet of a run'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'return 3 if self.qm.readings["D-86"] == "nonzero" else 0',
     'return 2 if self.qm.readings["D-86"] == "nonzero" else 0',
     'D-86: the text leaves the BaseHeader priority of internal packets free and a receiver ignores it; the suite accepts any, recording zero or nonzero, and the mutant keeps one value for every internal packet of a run'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'return 3 if self.qm.readings["D-86"] == "nonzero" else 0',
     'return 3 if self.qm.readings["D-86"] == "nonzero" else 1',
     'D-86: the text leaves the BaseHeader priority of internal packets free and a receiver ignores it; the suite accepts any, recording zero or nonzero, and the mutant keeps one value for every internal packet of a run'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'return 3 if self.qm.readings["D-86"] == "nonzero" else 0',
     'return 3 if self.qm.readings["D-86"] == "nonzero" else -1',
     'D-86: the text leaves the BaseHeader priority of internal packets free and a receiver ignores it; the suite accepts any, recording zero or nonzero, and the mutant keeps one value for every internal packet of a run'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 1, True, self._priority(),',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 1, 1, True, self._priority(),',
     "D-88's answer reading is any packet of the protocol before the close; this refused EstablishConnection's TimeStamp and SE answer no request (there was none), and whether it sets CS is not asked of the reading"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 1, True, self._priority(),',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 2, True, self._priority(),',
     "D-88's answer reading is any packet of the protocol before the close; this refused EstablishConnection's TimeStamp and SE answer no request (there was none), and whether it sets CS is not asked of the reading"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 1, True, self._priority(),',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 0, True, self._priority(),',
     "D-88's answer reading is any packet of the protocol before the close; this refused EstablishConnection's TimeStamp and SE answer no request (there was none), and whether it sets CS is not asked of the reading"),
    ('reference/mqqb_session.py', 'core/ReplaceTrueWithFalse',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 1, True, self._priority(),',
     'self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 1, False, self._priority(),',
     "D-88's answer reading is any packet of the protocol before the close; this refused EstablishConnection's TimeStamp and SE answer no request (there was none), and whether it sets CS is not asked of the reading"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_BitOr',
     'operating_system >> 8 & 1, refused, self._priority(),',
     'operating_system >> 8 | 1, refused, self._priority(),',
     'the response writer keeps only the lowest bit of the value ((session_flag & 1) << 8), and every one of these keeps SE as the lowest bit: x | 1 and the others differ from x & 1 only above it'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_FloorDiv',
     'operating_system >> 8 & 1, refused, self._priority(),',
     'operating_system >> 8 // 1, refused, self._priority(),',
     'the response writer keeps only the lowest bit of the value ((session_flag & 1) << 8), and every one of these keeps SE as the lowest bit: x | 1 and the others differ from x & 1 only above it'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mul',
     'operating_system >> 8 & 1, refused, self._priority(),',
     'operating_system >> 8 * 1, refused, self._priority(),',
     'the response writer keeps only the lowest bit of the value ((session_flag & 1) << 8), and every one of these keeps SE as the lowest bit: x | 1 and the others differ from x & 1 only above it'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Pow',
     'operating_system >> 8 & 1, refused, self._priority(),',
     'operating_system >> 8 ** 1, refused, self._priority(),',
     'the response writer keeps only the lowest bit of the value ((session_flag & 1) << 8), and every one of these keeps SE as the lowest bit: x | 1 and the others differ from x & 1 only above it'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_FloorDiv',
     'self.qm.clock.now_ms() & 0xFFFFFFFF, self._priority(),',
     'self.qm.clock.now_ms() // 0xFFFFFFFF, self._priority(),',
     "the initiator's TimeStamp is its own clock reading, which the acceptor only echoes (3.1.5.3.1) and which only the initiator uses, for a round trip whose RecoverableAckTimeout the reference clamps to 0x1F4 anyway"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'self.qm.clock.now_ms() & 0xFFFFFFFF, self._priority(),',
     'self.qm.clock.now_ms() % 0xFFFFFFFF, self._priority(),',
     "the initiator's TimeStamp is its own clock reading, which the acceptor only echoes (3.1.5.3.1) and which only the initiator uses, for a round trip whose RecoverableAckTimeout the reference clamps to 0x1F4 anyway"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_RShift',
     'self.qm.clock.now_ms() & 0xFFFFFFFF, self._priority(),',
     'self.qm.clock.now_ms() >> 0xFFFFFFFF, self._priority(),',
     "the initiator's TimeStamp is its own clock reading, which the acceptor only echoes (3.1.5.3.1) and which only the initiator uses, for a round trip whose RecoverableAckTimeout the reference clamps to 0x1F4 anyway"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.qm.clock.now_ms() & 0xFFFFFFFF, self._priority(),',
     'self.qm.clock.now_ms() & 4294967296, self._priority(),',
     "the initiator's TimeStamp is its own clock reading, which the acceptor only echoes (3.1.5.3.1) and which only the initiator uses, for a round trip whose RecoverableAckTimeout the reference clamps to 0x1F4 anyway"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.qm.clock.now_ms() & 0xFFFFFFFF, self._priority(),',
     'self.qm.clock.now_ms() & 4294967294, self._priority(),',
     "the initiator's TimeStamp is its own clock reading, which the acceptor only echoes (3.1.5.3.1) and which only the initiator uses, for a round trip whose RecoverableAckTimeout the reference clamps to 0x1F4 anyway"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self._outgoing += wire.connection_parameters_request(0x1F4, self.ack_wait_timeout, self.window_size,',
     'self._outgoing += wire.connection_parameters_request( 501, self.ack_wait_timeout, self.window_size,',
     'RecoverableAckTimeout is eight round trips clamped to 0x1F4 - 0x1D4C0 (3.1.5.3.2); the acceptor cannot know the round trip, so 501 ms, a round trip of 63 ms, is as conforming as the floor'),
)

_ENTRIES += (   # issue 22: mqqb_session.py, counters and comparisons that agree on every value reached
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_NotEq',
     'return self.state == OPEN',
     'return self.state != OPEN',
     "`established` is read only by `mqspec serve`'s MS-MQQB listener (adapters/mqqb/listener.py, when a connection's handshake is over), never on the in-process path the features run against here; tests/test_mqqb_listener.py and the wire suite over mqqb:// judge it"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_Lt',
     'return self.state == OPEN',
     'return self.state < OPEN',
     "`established` is read only by `mqspec serve`'s MS-MQQB listener (adapters/mqqb/listener.py, when a connection's handshake is over), never on the in-process path the features run against here; tests/test_mqqb_listener.py and the wire suite over mqqb:// judge it"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'return self.state == OPEN',
     'return self.state <= OPEN',
     "`established` is read only by `mqspec serve`'s MS-MQQB listener (adapters/mqqb/listener.py, when a connection's handshake is over), never on the in-process path the features run against here; tests/test_mqqb_listener.py and the wire suite over mqqb:// judge it"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_Gt',
     'return self.state == OPEN',
     'return self.state > OPEN',
     "`established` is read only by `mqspec serve`'s MS-MQQB listener (adapters/mqqb/listener.py, when a connection's handshake is over), never on the in-process path the features run against here; tests/test_mqqb_listener.py and the wire suite over mqqb:// judge it"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'return self.state == OPEN',
     'return self.state >= OPEN',
     "`established` is read only by `mqspec serve`'s MS-MQQB listener (adapters/mqqb/listener.py, when a connection's handshake is over), never on the in-process path the features run against here; tests/test_mqqb_listener.py and the wire suite over mqqb:// judge it"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_IsNot',
     'return self.state == OPEN',
     'return self.state is not OPEN',
     "`established` is read only by `mqspec serve`'s MS-MQQB listener (adapters/mqqb/listener.py, when a connection's handshake is over), never on the in-process path the features run against here; tests/test_mqqb_listener.py and the wire suite over mqqb:// judge it"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'self.message_sent_count = (self.message_sent_count + 1) & 0xFFFF',
     'self.message_sent_count = (self.message_sent_count + 1) % 0xFFFF',
     "x % 0xFFFF and x & 0xFFFF agree for every count below 65,535: they part only once 65,535 packets have crossed one session, which no scenario's session comes near (a run of the suite carries at most a few dozen)"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'self.recoverable_message_sent_count = (self.recoverable_message_sent_count + 1) & 0xFFFF',
     'self.recoverable_message_sent_count = (self.recoverable_message_sent_count + 1) % 0xFFFF',
     "x % 0xFFFF and x & 0xFFFF agree for every count below 65,535: they part only once 65,535 packets have crossed one session, which no scenario's session comes near (a run of the suite carries at most a few dozen)"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'self.message_received_count = (self.message_received_count + 1) & 0xFFFF',
     'self.message_received_count = (self.message_received_count + 1) % 0xFFFF',
     "x % 0xFFFF and x & 0xFFFF agree for every count below 65,535: they part only once 65,535 packets have crossed one session, which no scenario's session comes near (a run of the suite carries at most a few dozen)"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count | 1) & 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Add',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) + 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Sub',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) - 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mul',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) * 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Div',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) / 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) % 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_LShift',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) << 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_BitOr',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) | 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 2) & 0xFFFF',
     'the count is read only as zero or not (3.1.6.4: no SessionAck when nothing is unacknowledged) and reset to 0 by each SessionAck; after an increment each of these leaves it non-zero as the original does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'self.recoverable_message_received_count = (self.recoverable_message_received_count + 1) & 0xFFFF',
     'self.recoverable_message_received_count = (self.recoverable_message_received_count + 1) % 0xFFFF',
     "x % 0xFFFF and x & 0xFFFF agree for every count below 65,535: they part only once 65,535 packets have crossed one session, which no scenario's session comes near (a run of the suite carries at most a few dozen)"),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if self.recoverable_msg_ack_flags == 0:',
     'if self.recoverable_msg_ack_flags <= 0:',
     'RecoverableMsgAckFlags is a non-negative bit set, so flags <= 0 holds exactly when flags == 0'),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if self.closed or self.unacked_received_msg_count == 0 and not flagged:',
     'if self.closed or self.unacked_received_msg_count <= 0 and not flagged:',
     'the count is never negative (it starts at 0, is incremented, and is reset to 0), so <= 0 holds exactly when == 0'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'self.send(wire.session_ack((self.message_received_count, first & 0xFFFF, flags, self.message_sent_count,',
     'self.send(wire.session_ack((self.message_received_count, first % 0xFFFF, flags, self.message_sent_count,',
     "x % 0xFFFF and x & 0xFFFF agree for every count below 65,535: they part only once 65,535 packets have crossed one session, which no scenario's session comes near (a run of the suite carries at most a few dozen)"),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_Sub_Mod',
     'if self._order_ack_timer is None or now - self.last_order_ack_send_time < MAXIMUM_ORDER_ACK_DELAY_S:',
     'if self._order_ack_timer is None or now % self.last_order_ack_send_time < MAXIMUM_ORDER_ACK_DELAY_S:',
     'both are seconds since 1970 and the later is less than twice the earlier, so now % last is now - last'),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'or (arriving > incoming and previous == 0))',
     'or (arriving > incoming and previous <= 0))',
     'TxPreviousSequenceNumber is read as an unsigned 32-bit field, so previous <= 0 holds exactly when previous == 0'),
)

_ENTRIES += (   # issue 22: mqqb_arrival.py, comparisons at the edge of a field's values
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'session.count_received(packet.code("DM") == 1)       # MS-MQQB 3.1.5.8.2 / 3.1.5.8.7, D-78',
     'session.count_received(packet.code("DM") >= 1)       # MS-MQQB 3.1.5.8.2 / 3.1.5.8.7, D-78',
     'the reader refuses a DM other than 0 or 1 (MS-MQMQ:2.2.19.2:13), so DM >= 1 holds exactly when DM == 1'),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if packet.code("DQ") == 7:',
     'if packet.code("DQ") >= 7:',
     'DQ is a 3-bit field, so DQ >= 7 holds exactly when DQ == 7'),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if status == 3:',
     'if status >= 3:',
     'Enqueue Message returns rStatus 0 to 3 (MS-MQDMPR 3.1.7.1.9, EnqueueStatus), so status >= 3 holds exactly when status == 3'),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if queue is None or queue.is_journal or queue.queue_type.name == "System":',
     'if queue is None or queue.is_journal or queue.queue_type.name >= "System":',
     "QueueType's names are Private, Public, System and Connector, none after 'System': name >= 'System' holds exactly when name == 'System'"),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if packet.code("AQ") == 0 and self.qm.readings["D-95"] == "cleared":',
     'if packet.code("AQ") <= 0 and self.qm.readings["D-95"] == "cleared":',
     'AQ is an unsigned 3-bit field, so AQ <= 0 holds exactly when AQ == 0'),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_Lt',
     'if packet.code("AQ") == 0:',
     'if packet.code("AQ") < 0:',
     'a packet that names no administration queue (AQ 0) then builds an acknowledgment addressed to the empty name, which Open Queue refuses, so it is discarded (MS-MQQB:3.1.7.15:04) as the skipped check would have; the only trace, an ordinal drawn for it, leaves message identifiers as unique as before (MS-MQMQ:2.2.18.1.3:01)'),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if packet.code("AQ") == 0:',
     'if packet.code("AQ") <= 0:',
     'AQ is an unsigned 3-bit field, so AQ <= 0 holds exactly when AQ == 0'),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'if packet.code("AQ") == 0:',
     'if packet.code("AQ") == 1:',
     'a packet that names no administration queue (AQ 0) then builds an acknowledgment addressed to the empty name, which Open Queue refuses, so it is discarded (MS-MQQB:3.1.7.15:04) as the skipped check would have; the only trace, an ordinal drawn for it, leaves message identifiers as unique as before (MS-MQMQ:2.2.18.1.3:01)'),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'if packet.code("AQ") == 0:',
     'if packet.code("AQ") == -1:',
     'a packet that names no administration queue (AQ 0) then builds an acknowledgment addressed to the empty name, which Open Queue refuses, so it is discarded (MS-MQQB:3.1.7.15:04) as the skipped check would have; the only trace, an ordinal drawn for it, leaves message identifiers as unique as before (MS-MQMQ:2.2.18.1.3:01)'),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if queue.is_journal or queue.queue_type.name == "System" or not message.is_transactional:',
     'if queue.is_journal or queue.queue_type.name >= "System" or not message.is_transactional:',
     "QueueType's names are Private, Public, System and Connector, none after 'System': name >= 'System' holds exactly when name == 'System'"),
)

_ENTRIES += (   # reference/mqqb_arrival.py, issue 22 (its second triage): fields packed to a fixed size, values a test never meets
    ('reference/mqqb_arrival.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'message.set("transaction_header_id", xflags >> 4 & 0xFFFFF)',
     'message.set("transaction_header_id", xflags >> 4 % 0xFFFFF)',
     "transaction_header_id has one reader, packet.py's TransactionHeader writer, which masks it to 20 bits again: xflags >> 4 and xflags >> 4 & 0xFFFFF agree on those bits"),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_NotEq_Gt',
     'if status != HRESULT.MQ_OK:',
     'if status > HRESULT.MQ_OK:',
     'Open Queue returns MQ_OK (0) or an MQ_ERROR_* HRESULT, every one of which is at least 0xC00E0001 as an unsigned number (open_queue.py): > MQ_OK holds exactly when != does'),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'body = _FINAL_ACK_BODY.pack(bytes(message.transactional_message_sequence_identifier or bytes(8))[:8],',
     'body = _FINAL_ACK_BODY.pack(bytes(message.transactional_message_sequence_identifier or bytes( 9))[:8],',
     "_FINAL_ACK_BODY packs TxSequenceID as 8s, which cuts longer bytes to 8 and pads shorter ones with zeros; a peer's sequence identifier is 8 bytes, so bytes(7), bytes(9) and [:9] pack the same 8 bytes"),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'body = _FINAL_ACK_BODY.pack(bytes(message.transactional_message_sequence_identifier or bytes(8))[:8],',
     'body = _FINAL_ACK_BODY.pack(bytes(message.transactional_message_sequence_identifier or bytes( 7))[:8],',
     "_FINAL_ACK_BODY packs TxSequenceID as 8s, which cuts longer bytes to 8 and pads shorter ones with zeros; a peer's sequence identifier is 8 bytes, so bytes(7), bytes(9) and [:9] pack the same 8 bytes"),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'body = _FINAL_ACK_BODY.pack(bytes(message.transactional_message_sequence_identifier or bytes(8))[:8],',
     'body = _FINAL_ACK_BODY.pack(bytes(message.transactional_message_sequence_identifier or bytes(8))[: 9],',
     "_FINAL_ACK_BODY packs TxSequenceID as 8s, which cuts longer bytes to 8 and pads shorter ones with zeros; a peer's sequence identifier is 8 bytes, so bytes(7), bytes(9) and [:9] pack the same 8 bytes"),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'message.source_machine_identifier, struct.unpack("<I", message.identifier[16:20])[0])',
     'message.source_machine_identifier, struct.unpack("<I", message.identifier[16: 21])[0])',
     'a Message identifier is always 20 bytes (the source GUID and a 4-byte ordinal, MS-MQMQ 2.2.18.1.3), so [16:21] is [16:20]; struct.unpack returns a 1-tuple, so [-1] is [0]'),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'message.source_machine_identifier, struct.unpack("<I", message.identifier[16:20])[0])',
     'message.source_machine_identifier, struct.unpack("<I", message.identifier[16:20])[ -1])',
     'a Message identifier is always 20 bytes (the source GUID and a 4-byte ordinal, MS-MQMQ 2.2.18.1.3), so [16:21] is [16:20]; struct.unpack returns a 1-tuple, so [-1] is [0]'),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'body = _ORDER_ACK_BODY.pack(session.incoming_tx_sequence_id, number, max(number - 1, 0), bytes(20))',
     'body = _ORDER_ACK_BODY.pack(session.incoming_tx_sequence_id, number, max(number - 1, 0), bytes( 21))',
     '_ORDER_ACK_BODY packs Reserved as 20s, which cuts 21 zero bytes to 20: the body is the same'),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'body = _ORDER_ACK_BODY.pack(session.incoming_tx_sequence_id, number, max(number - 1, 0), bytes(20))',
     'body = _ORDER_ACK_BODY.pack(session.incoming_tx_sequence_id, number, max(number - 1, 0), bytes( 19))',
     '_ORDER_ACK_BODY packs Reserved as 20s, which pads 19 zero bytes to 20: the body is the same'),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'ordinal = struct.unpack("<I", qm.new_message_identifier()[16:20])[0]',
     'ordinal = struct.unpack("<I", qm.new_message_identifier()[16: 21])[0]',
     "new_message_identifier() returns the queue manager's GUID and a 4-byte ordinal, 20 bytes, so [16:21] is [16:20]; struct.unpack returns a 1-tuple, so [-1] is [0]"),
    ('reference/mqqb_arrival.py', 'core/NumberReplacer',
     'ordinal = struct.unpack("<I", qm.new_message_identifier()[16:20])[0]',
     'ordinal = struct.unpack("<I", qm.new_message_identifier()[16:20])[ -1]',
     "new_message_identifier() returns the queue manager's GUID and a 4-byte ordinal, 20 bytes, so [16:21] is [16:20]; struct.unpack returns a 1-tuple, so [-1] is [0]"),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_NotEq_Gt',
     'session.send(packet, user_message=True, recoverable=message_class != C.MQMSG_CLASS_ORDER_ACK)',
     'session.send(packet, user_message=True, recoverable=message_class > C.MQMSG_CLASS_ORDER_ACK)',
     "the classes that reach the order queue are MQMSG_CLASS_ORDER_ACK (0x00FF) and a FinalAck's reason: ACK_RECEIVE (0x4000) or a NACK (0x8000 and up), all above 0x00FF, so > holds exactly when != does"),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_Gt',
     'if queue.is_journal or queue.queue_type.name == "System" or not message.is_transactional:',
     'if queue.is_journal or queue.queue_type.name > "System" or not message.is_transactional:',
     'no queue type\'s name sorts after "System" (Connector, Private, Public, System), so the mutant never skips a system queue here; and a transactional message in a system queue is always this queue manager\'s own: arrival refuses a system destination (MS-MQQB 3.1.5.8.5), a dead-letter copy of a peer\'s packet is made only of a non-transactional one (3.1.5.8.8), and the source-journal and dead-letter copies of 3.1.5.7 only of messages sent here, for which the next test (the source is this queue manager) returns just as the System test would'),
    ('reference/mqqb_arrival.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'session = next((s for s in reversed(self.sessions) if s.remote_qm_guid == source and s.state == "OPEN"), None)',
     'session = next((s for s in reversed(self.sessions) if s.remote_qm_guid == source and s.state <= "OPEN"), None)',
     'a closed session leaves `sessions` at once, so the states found there are WAITING_EC_MSG, WAITING_CP_MSG and OPEN, and both WAITING_ ones sort after OPEN: <= "OPEN" holds exactly for OPEN'),
)

_ENTRIES += (   # reference/mqqb_session.py, issue 22 (its second triage): fields packed to a fixed size, values a test never meets
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_Add_Sub',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF',
     'self.unacked_received_msg_count = (self.unacked_received_msg_count - 1) & 0xFFFF',
     'UnackedReceivedMsgCount is read only as zero or not (MS-MQQB 3.1.6.4) and reset to 0 by every SessionAck; after n packets the count is n or -n modulo 65536, which are 0 together'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_FloorDiv_Div',
     'self._start_ack_send_timer(self.ack_wait_timeout // 2)',
     'self._start_ack_send_timer(self.ack_wait_timeout / 2)',
     "MS-MQQB 3.1.5.8.2 starts the timer for AckWaitTimeout / 2 without rounding; the exact half and its floor differ by half a millisecond for an odd AckWaitTimeout, below the millisecond every MS-MQQB time-out is given in, and not at all for the suite's 20,000 ms"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'self.recoverable_message_sent_count, self.window_size, 0), self._priority(),',
     'self.recoverable_message_sent_count, self.window_size, 1), self._priority(),',
     'that field is SessionHeader.Reserved, which MS-MQMQ 2.2.20.4 lets a sender set to any value and a receiver ignore'),
)

_ENTRIES += (   # reference/mqqb_packets.py, issue 22 (its second triage): disjoint bits, defaults never read, free fields, bounds a later check keeps
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": ( 14, 7), "RQ": (16, 7)}[name]',
     'nothing calls code("RQ"): the arrival asks for DM, DQ and AQ only (the response queue is rebuilt by the reader itself)'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": ( 12, 7), "RQ": (16, 7)}[name]',
     'nothing calls code("RQ"): the arrival asks for DM, DQ and AQ only (the response queue is rebuilt by the reader itself)'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 6), "RQ": (16, 7)}[name]',
     'the reader refuses an AQ outside {0, 2, 3, 5, 6, 7} before any code() call, and for those values AQ & 6 is 0 exactly when AQ is 0, the only test code("AQ") meets'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": ( 17, 7)}[name]',
     'nothing calls code("RQ"): the arrival asks for DM, DQ and AQ only (the response queue is rebuilt by the reader itself)'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": ( 15, 7)}[name]',
     'nothing calls code("RQ"): the arrival asks for DM, DQ and AQ only (the response queue is rebuilt by the reader itself)'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 8)}[name]',
     'nothing calls code("RQ"): the arrival asks for DM, DQ and AQ only (the response queue is rebuilt by the reader itself)'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]',
     'shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 6)}[name]',
     'nothing calls code("RQ"): the arrival asks for DM, DQ and AQ only (the response queue is rebuilt by the reader itself)'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Gt_NotEq',
     'return self.signature_size > 0',
     'return self.signature_size != 0',
     'SignatureSize is an unsigned 16-bit field, so != 0 holds exactly when > 0 does'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_LtE_Lt',
     'if not BASE.size <= size <= MAX_PACKET:',
     'if not BASE.size < size <= MAX_PACKET:',
     'the only packet it refuses more is one of PacketSize 16, which arrives whole with its BaseHeader; the original frames it and refuses it at once too (an internal packet has no InternalHeader, a UserMessage is under its 120 fixed bytes): the same close, nothing sent'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'if len(packet) < BASE.size + INTERNAL.size:',
     'if len(packet) < BASE.size | INTERNAL.size:',
     '16 | 4 is 20, the same bound'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     'if len(packet) < BASE.size + INTERNAL.size:',
     'if len(packet) < BASE.size ^ INTERNAL.size:',
     '16 ^ 4 is 20, the same bound'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Lt_LtE',
     'if len(packet) < BASE.size + INTERNAL.size:',
     'if len(packet) <= BASE.size + INTERNAL.size:',
     "it refuses in addition only internal packets of exactly 20 bytes, which the original refuses next: PT 1 needs SH and a 36-byte frame, PT 2 and 3 fail read_internal's length check, any other PT is no type: the same close, nothing sent"),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if pt not in kinds or (pt == PT_SESSION_ACK and not flags & SH):',
     'if pt not in kinds or (pt <= PT_SESSION_ACK and not flags & SH):',
     'PT 0 already fails `pt not in kinds`, so in the second test pt <= 1 holds for PT 1 alone, as == does'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if message.label == ORDER_ACK_LABEL and message.base_flags == 0 and _for_order_queue(message.destination):',
     'if message.label == ORDER_ACK_LABEL and message.base_flags <= 0 and _for_order_queue(message.destination):',
     'BaseHeader.Flags is an unsigned 16-bit field, so <= 0 holds exactly when == 0 does'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_NotEq',
     'return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'return "OrderAck" if message.message_class != ORDER_ACK_CLASS else "FinalAck"',
     'packet_kind\'s only caller, the session\'s dispatch, treats an OrderAck and a FinalAck from the peer alike (settled by nothing in OPEN, a close in any other state), and the D-88 test asks only for "UserMessage": telling them apart changes no behaviour'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_Lt',
     'return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'return "OrderAck" if message.message_class < ORDER_ACK_CLASS else "FinalAck"',
     'packet_kind\'s only caller, the session\'s dispatch, treats an OrderAck and a FinalAck from the peer alike (settled by nothing in OPEN, a close in any other state), and the D-88 test asks only for "UserMessage": telling them apart changes no behaviour'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'return "OrderAck" if message.message_class <= ORDER_ACK_CLASS else "FinalAck"',
     'packet_kind\'s only caller, the session\'s dispatch, treats an OrderAck and a FinalAck from the peer alike (settled by nothing in OPEN, a close in any other state), and the D-88 test asks only for "UserMessage": telling them apart changes no behaviour'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_Gt',
     'return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'return "OrderAck" if message.message_class > ORDER_ACK_CLASS else "FinalAck"',
     'packet_kind\'s only caller, the session\'s dispatch, treats an OrderAck and a FinalAck from the peer alike (settled by nothing in OPEN, a close in any other state), and the D-88 test asks only for "UserMessage": telling them apart changes no behaviour'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'return "OrderAck" if message.message_class >= ORDER_ACK_CLASS else "FinalAck"',
     'packet_kind\'s only caller, the session\'s dispatch, treats an OrderAck and a FinalAck from the peer alike (settled by nothing in OPEN, a close in any other state), and the D-88 test asks only for "UserMessage": telling them apart changes no behaviour'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_IsNot',
     'return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'return "OrderAck" if message.message_class is not ORDER_ACK_CLASS else "FinalAck"',
     'packet_kind\'s only caller, the session\'s dispatch, treats an OrderAck and a FinalAck from the peer alike (settled by nothing in OPEN, a close in any other state), and the D-88 test asks only for "UserMessage": telling them apart changes no behaviour'),
    ('reference/mqqb_packets.py', 'core/AddNot',
     'return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'return "OrderAck" if not message.message_class == ORDER_ACK_CLASS else "FinalAck"',
     'packet_kind\'s only caller, the session\'s dispatch, treats an OrderAck and a FinalAck from the peer alike (settled by nothing in OPEN, a close in any other state), and the D-88 test asks only for "UserMessage": telling them apart changes no behaviour'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'start = BASE.size + INTERNAL.size',
     'start = BASE.size | INTERNAL.size',
     '16 | 4 and 16 ^ 4 are 20, the same offset'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     'start = BASE.size + INTERNAL.size',
     'start = BASE.size ^ INTERNAL.size',
     '16 | 4 and 16 ^ 4 are 20, the same offset'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'need = layout.size + (512 if kind == "EstablishConnection" else 0)',
     'need = layout.size | (512 if kind == "EstablishConnection" else 0)',
     'the sizes share no bit (40 is 0b101000, 512 is 0b1000000000; 12 and 16 meet 0), so | and ^ give the sum'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     'need = layout.size + (512 if kind == "EstablishConnection" else 0)',
     'need = layout.size ^ (512 if kind == "EstablishConnection" else 0)',
     'the sizes share no bit (40 is 0b101000, 512 is 0b1000000000; 12 and 16 meet 0), so | and ^ give the sum'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if code == 5:  # MS-MQMQ 2.2.18.1.7.1 PublicQueueFormatName',
     'if code <= 5:  # MS-MQMQ 2.2.18.1.7.1 PublicQueueFormatName',
     'codes 0 - 4 return earlier, so only 5, 6 and 7 reach this test, and <= 5 holds for 5 alone'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'if code == 6:  # MS-MQMQ 2.2.18.1.7.2 PrivateQueueFormatName',
     'if code <= 6:  # MS-MQMQ 2.2.18.1.7.2 PrivateQueueFormatName',
     'codes 0 - 5 return earlier, so only 6 and 7 reach this test, and <= 6 holds for 6 alone'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     'text = _utf16(packet[offset + 2:end])',
     'text = _utf16(packet[offset | 2:end])',
     "every queue field starts on a 4-byte boundary (the UserHeader's fixed part ends at 64, the fields before are 0, 4, 16 or 20 bytes, a direct name is padded to 4), so bit 1 of offset is clear and | 2 and ^ 2 give + 2"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     'text = _utf16(packet[offset + 2:end])',
     'text = _utf16(packet[offset ^ 2:end])',
     "every queue field starts on a 4-byte boundary (the UserHeader's fixed part ends at 64, the fields before are 0, 4, 16 or 20 bytes, a direct name is padded to 4), so bit 1 of offset is clear and | 2 and ^ 2 give + 2"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Sub',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset - PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Div',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset / PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_FloorDiv',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset // PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Mod',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset % PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_RShift',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset >> PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset | PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitAnd',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset & PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     '_within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     '_within(offset ^ PROPERTIES.size, size, clause, "the MessagePropertiesHeader")',
     'the result is discarded and each mutant bound is at most offset + 56, so the mutant never refuses what the original takes; where the original refuses, the Label check just after (offset + 56 + 2 * LabelLength, same clause) refuses too, and every exit between them is the same format error: the same close, nothing stored'),
    ('reference/mqqb_packets.py', 'core/ReplaceFalseWithTrue',
     'def _base(flags: int, body: bytes, session: bytes = b"", session_counted: bool = False) -> bytes:',
     'def _base(flags: int, body: bytes, session: bytes = b"", session_counted: bool = True) -> bytes:',
     'only session_ack passes a session, and it passes session_counted itself; for every other packet len(session) is 0 whatever the default'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'return BASE.pack(VERSION, 0, flags, SIGNATURE, size, INFINITE) + body + session',
     'return BASE.pack(VERSION, 1, flags, SIGNATURE, size, INFINITE) + body + session',
     'that byte is BaseHeader.Reserved, which MS-MQMQ 2.2.19.1 lets a sender set to any value and a receiver ignore'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_Add',
     'return flags | IN | priority & 7',
     'return flags + IN | priority & 7',
     'IN (0x08) shares no bit with the flags passed (0 or SH, 0x10) or the priority (0 or 3), so + is |'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'return flags | IN | priority & 7',
     'return flags ^ IN | priority & 7',
     'IN (0x08) shares no bit with the flags passed (0 or SH, 0x10) or the priority (0 or 3), so ^ is |'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'return flags | IN | priority & 7',
     'return flags | IN ^ priority & 7',
     'IN (0x08) shares no bit with the flags passed (0 or SH, 0x10) or the priority (0 or 3), so ^ is |'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'return flags | IN | priority & 7',
     'return flags | IN | priority % 7',
     'the priority is 0 or 3 (MqqbSession._priority), for which % 7 and & 7 agree'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'return flags | IN | priority & 7',
     'return flags | IN | priority & 6',
     'the priority is 0 or 3 (MqqbSession._priority); & 6 keeps 0 and makes 3 a 2, still non-zero: D-86 nonzero asks for a priority other than 0, not for 3'),
    ('reference/mqqb_packets.py', 'core/ReplaceFalseWithTrue',
     'refused: bool, priority: int = 0, server_class: bool = False) -> bytes:',
     'refused: bool, priority: int = 0, server_class: bool = True) -> bytes:',
     'every caller passes priority and server_class, so the defaults are never read'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'refused: bool, priority: int = 0, server_class: bool = False) -> bytes:',
     'refused: bool, priority: int = 1, server_class: bool = False) -> bytes:',
     'every caller passes priority and server_class, so the defaults are never read'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'refused: bool, priority: int = 0, server_class: bool = False) -> bytes:',
     'refused: bool, priority: int = -1, server_class: bool = False) -> bytes:',
     'every caller passes priority and server_class, so the defaults are never read'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'operating_system = 0x10 | (session_flag & 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     'operating_system = 0x10 ^ (session_flag & 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     '0x10, 0x100 and 0x200 are disjoint bits, so ^ is |'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'operating_system = 0x10 | (session_flag & 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     'operating_system = 0x10 | (session_flag & 1) << 8 ^ (OS_SERVER_CLASS if server_class else 0)',
     '0x10, 0x100 and 0x200 are disjoint bits, so ^ is |'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitAnd_Mul',
     'operating_system = 0x10 | (session_flag & 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     'operating_system = 0x10 | (session_flag * 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     "session_flag is the request's SE bit, 0 or 1, and x * 1 is x"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitAnd_FloorDiv',
     'operating_system = 0x10 | (session_flag & 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     'operating_system = 0x10 | (session_flag // 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     "session_flag is the request's SE bit, 0 or 1, and x // 1 is x"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitAnd_Pow',
     'operating_system = 0x10 | (session_flag & 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     'operating_system = 0x10 | (session_flag ** 1) << 8 | (OS_SERVER_CLASS if server_class else 0)',
     "session_flag is the request's SE bit, 0 or 1, and x ** 1 is x"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_Add',
     'return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_ESTABLISH | (CS if refused else 0)) + header)',
     'return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_ESTABLISH + (CS if refused else 0)) + header)',
     'PT 2 and CS 0x10 are disjoint bits, so + is |'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_ESTABLISH | (CS if refused else 0)) + header)',
     'return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_ESTABLISH ^ (CS if refused else 0)) + header)',
     'PT 2 and CS 0x10 are disjoint bits, so ^ is |'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'def establish_connection_request(client: bytes, server: bytes, timestamp: int, priority: int = 0,',
     'def establish_connection_request(client: bytes, server: bytes, timestamp: int, priority: int = 1,',
     "the one caller (the session's _initiate) passes priority and server_class, so the defaults are never read"),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'def establish_connection_request(client: bytes, server: bytes, timestamp: int, priority: int = 0,',
     'def establish_connection_request(client: bytes, server: bytes, timestamp: int, priority: int = -1,',
     "the one caller (the session's _initiate) passes priority and server_class, so the defaults are never read"),
    ('reference/mqqb_packets.py', 'core/ReplaceFalseWithTrue',
     'server_class: bool = False) -> bytes:',
     'server_class: bool = True) -> bytes:',
     "the one caller (the session's _initiate) passes priority and server_class, so the defaults are never read"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'operating_system = 0x10 | 1 << 8 | (OS_SERVER_CLASS if server_class else 0)  # D-87 the OS bit',
     'operating_system = 0x10 ^ 1 << 8 | (OS_SERVER_CLASS if server_class else 0)  # D-87 the OS bit',
     '0x10, 0x100 and 0x200 are disjoint bits, so ^ is |'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'operating_system = 0x10 | 1 << 8 | (OS_SERVER_CLASS if server_class else 0)  # D-87 the OS bit',
     'operating_system = 0x10 | 1 << 8 ^ (OS_SERVER_CLASS if server_class else 0)  # D-87 the OS bit',
     '0x10, 0x100 and 0x200 are disjoint bits, so ^ is |'),
    ('reference/mqqb_packets.py', 'core/AddNot',
     'operating_system = 0x10 | 1 << 8 | (OS_SERVER_CLASS if server_class else 0)  # D-87 the OS bit',
     'operating_system = 0x10 | 1 << 8 | (OS_SERVER_CLASS if not server_class else 0)  # D-87 the OS bit',
     "the request's OS bit says what the initiator's own operating system is (MS-MQQB 2.2.3.1): either value is a conforming initiator's, and no clause ties the bit of a request to anything"),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'priority: int = 0) -> bytes:',
     'priority: int = 1) -> bytes:',
     'every caller passes the priority, so the default is never read'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'priority: int = 0) -> bytes:',
     'priority: int = -1) -> bytes:',
     'every caller passes the priority, so the default is never read'),
    ('reference/mqqb_packets.py', 'core/ReplaceFalseWithTrue',
     'def session_ack(fields: tuple, priority: int = 0, session_counted: bool = False) -> bytes:',
     'def session_ack(fields: tuple, priority: int = 0, session_counted: bool = True) -> bytes:',
     "the one caller (the session's _send_session_ack) passes priority and session_counted, so the defaults are never read"),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'def session_ack(fields: tuple, priority: int = 0, session_counted: bool = False) -> bytes:',
     'def session_ack(fields: tuple, priority: int = 1, session_counted: bool = False) -> bytes:',
     "the one caller (the session's _send_session_ack) passes priority and session_counted, so the defaults are never read"),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'def session_ack(fields: tuple, priority: int = 0, session_counted: bool = False) -> bytes:',
     'def session_ack(fields: tuple, priority: int = -1, session_counted: bool = False) -> bytes:',
     "the one caller (the session's _send_session_ack) passes priority and session_counted, so the defaults are never read"),
    ('reference/mqqb_packets.py', 'core/ReplaceUnaryOperator_USub_UAdd',
     'address, dq, queue = bytes(16), 7, raw + bytes(-len(raw) % 4)',
     'address, dq, queue = bytes(16), 7, raw + bytes(+len(raw) % 4)',
     'raw (a 2-byte Count, UTF-16 text and its NUL) has an even length, and for even n, n % 4 == -n % 4'),
    ('reference/mqqb_packets.py', 'core/ReplaceUnaryOperator_Delete_USub',
     'address, dq, queue = bytes(16), 7, raw + bytes(-len(raw) % 4)',
     'address, dq, queue = bytes(16), 7, raw + bytes(len(raw) % 4)',
     'raw (a 2-byte Count, UTF-16 text and its NUL) has an even length, and for even n, n % 4 == -n % 4'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'address, dq, queue = bytes(16), 7, raw + bytes(-len(raw) % 4)',
     'address, dq, queue = bytes( 17), 7, raw + bytes(-len(raw) % 4)',
     'USER.pack writes QueueManagerAddress as 16s, which cuts or pads 15 or 17 zero bytes to 16'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'address, dq, queue = bytes(16), 7, raw + bytes(-len(raw) % 4)',
     'address, dq, queue = bytes( 15), 7, raw + bytes(-len(raw) % 4)',
     'USER.pack writes QueueManagerAddress as 16s, which cuts or pads 15 or 17 zero bytes to 16'),
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_NotEq_Gt',
     'final = message_class != ORDER_ACK_CLASS',
     'final = message_class > ORDER_ACK_CLASS',
     "every class the order queue gets is MQMSG_CLASS_ORDER_ACK (0x00FF) or a FinalAck's reason, ACK_RECEIVE (0x4000) or a NACK (0x8000 and up): > 0x00FF holds exactly when != does"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'flags = MP | dq << 10 | (1 << 5 if final else 0)',
     'flags = MP ^ dq << 10 | (1 << 5 if final else 0)',
     "MP, DQ's bits and DM's bit are disjoint, so ^ is |"),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_BitOr_BitXor',
     'flags = MP | dq << 10 | (1 << 5 if final else 0)',
     'flags = MP | dq << 10 ^ (1 << 5 if final else 0)',
     "MP, DQ's bits and DM's bit are disjoint, so ^ is |"),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes(20), 0, 0, len(body), len(body),',
     'props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes( 21), 0, 0, len(body), len(body),',
     'PROPERTIES packs CorrelationID as 20s, which cuts 21 zero bytes to 20'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes(20), 0, 0, len(body), len(body),',
     'props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes( 19), 0, 0, len(body), len(body),',
     'PROPERTIES packs CorrelationID as 20s, which pads 19 zero bytes to 20'),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     'props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes(20), 0, 0, len(body), len(body),',
     'props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes(20), 0, 1, len(body), len(body),',
     "that field is the OrderAck's or FinalAck's ApplicationTag, which MS-MQQB 2.2.4 and 2.2.5 leave free (they fix the Label, MessageSize, Flags, MessageClass and BodyType) and a server does not interpret (MS-MQMQ 2.2.19.3)"),
    ('reference/mqqb_packets.py', 'core/ReplaceUnaryOperator_USub_UAdd',
     'props += bytes(-len(props) % 4)',
     'props += bytes(+len(props) % 4)',
     "the OrderAck's and FinalAck's MessagePropertiesHeader is always 124 bytes (56, a 32-byte label, a 36-byte body), and 124 % 4 == -124 % 4 == 0"),
    ('reference/mqqb_packets.py', 'core/ReplaceUnaryOperator_Delete_USub',
     'props += bytes(-len(props) % 4)',
     'props += bytes(len(props) % 4)',
     "the OrderAck's and FinalAck's MessagePropertiesHeader is always 124 bytes (56, a 32-byte label, a 36-byte body), and 124 % 4 == -124 % 4 == 0"),
)

_ENTRIES += (   # reference/mqqb_packets.py, issue 22 (its second triage): checks a later check covers
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'if qt == QT_PUBLIC:',
     'if qt >= QT_PUBLIC:',
     'a QT above 1 is refused on the line before, so only 0 and 1 reach this test, and >= 1 holds for 1 alone'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Sub',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset - MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Div',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset / MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_FloorDiv',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset // MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Mod',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset % MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_RShift',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset >> MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset | MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitAnd',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset & MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     '_within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     '_within(offset ^ MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")',
     'the result is discarded and each mutant bound is at most offset + 12, so the mutant never refuses what the original takes; where the original refuses (the 12-byte MQFAddressHeader does not fit), the unpack then reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after PacketSize, a HeaderSize under 12 (refused on the next line) or at least 12, which runs past PacketSize at the next _within: the same close either way'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Sub',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset - MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Div',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset / MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_FloorDiv',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset // MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_Mod',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset % MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_RShift',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset >> MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitOr',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset | MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitAnd',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset & MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Add_BitXor',
     '_within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     '_within(offset ^ MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")',
     'the result is discarded and each mutant bound is at most offset + 8, so the mutant never refuses what the original takes; where the original refuses (the 8-byte MQFSignatureHeader does not fit), the unpack reads past PacketSize: struct.error (the same format error) or, with a SessionHeader after it, an ID other than 0x015E (refused) or a header whose end, at least offset + 8, runs past PacketSize at the next _within: the same close'),
)

_ENTRIES += (   # reference/mqqb_session.py, issue 22: the recoverable count since the last SessionAck (D-78, the 16-bit wrap)
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_GtE_Eq',
     'if self._recoverable_since_ack() >= RECOVERABLE_FLAG_BITS:',
     'if self._recoverable_since_ack() == RECOVERABLE_FLAG_BITS:',
     'the count of recoverable packets since the last SessionAck is tested before each one is counted, starts at 0, grows by one and goes back to 0 at every SessionAck (here at 32 at the latest): it is never above 32 when tested, so == 32 holds exactly when >= 32 does'),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_GtE_Is',
     'if self._recoverable_since_ack() >= RECOVERABLE_FLAG_BITS:',
     'if self._recoverable_since_ack() is RECOVERABLE_FLAG_BITS:',
     'the count is never above 32 when tested (see == 32), and CPython keeps one object for each int from -5 to 256, so `is 32` holds exactly when == 32 does'),
    ('reference/mqqb_session.py', 'core/ReplaceBinaryOperator_BitAnd_Mod',
     'return (self.recoverable_message_received_count - self.last_acked_recoverable_msg_seq_number) & 0xFFFF',
     'return (self.recoverable_message_received_count - self.last_acked_recoverable_msg_seq_number) % 0xFFFF',
     'not reached by the suite: % 0xFFFF and & 0xFFFF agree while the difference lies in 0 - 0xFFFE, which it leaves only when the 16-bit counter wraps, after 65,535 recoverable packets on one session; tests/test_mqqb_session_counters.py checks the wrap'),
)

_ENTRIES += (   # reference/mqqb_packets.py, issue 22: D-98's flag test and the acknowledgments' trailing bytes
    ('reference/mqqb_packets.py', 'core/ReplaceBinaryOperator_Mod_BitAnd',
     'props += bytes(-len(props) % 4)',
     'props += bytes(-len(props) & 4)',
     'the header is 124 bytes, so -124 & 4 adds 4 zero bytes after the already aligned MessagePropertiesHeader: a well-formed packet with bytes after its last header, which receivers do not read (D-91) and no rule of MS-MQQB 2.2.4 / 2.2.5 forbids; PacketSize stays a multiple of 4'),
)

_ENTRIES += (   # reference/mqqb_session.py, issue 22: D-98's flag test and the acknowledgments' trailing bytes
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_NotEq_Gt',
     'flagged = self.recoverable_msg_ack_flags != 0 and self.qm.readings["D-98"] == "timer"',
     'flagged = self.recoverable_msg_ack_flags > 0 and self.qm.readings["D-98"] == "timer"',
     'RecoverableMsgAckFlags is a non-negative bit set, so > 0 holds exactly when != 0 does'),
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_NotEq_GtE',
     'flagged = self.recoverable_msg_ack_flags != 0 and self.qm.readings["D-98"] == "timer"',
     'flagged = self.recoverable_msg_ack_flags >= 0 and self.qm.readings["D-98"] == "timer"',
     "the test matters only when the timer fires with UnackedReceivedMsgCount 0, which happens only after an immediate SessionAck, whose packet's bit is set right after it (MS-MQQB 3.1.5.8.7): the flags are then never 0, so >= 0 holds exactly when != 0 does"),
    ('reference/mqqb_session.py', 'core/NumberReplacer',
     'flagged = self.recoverable_msg_ack_flags != 0 and self.qm.readings["D-98"] == "timer"',
     'flagged = self.recoverable_msg_ack_flags != -1 and self.qm.readings["D-98"] == "timer"',
     "the flags are a non-negative bit set, never -1, and they are never 0 when the timer fires with UnackedReceivedMsgCount 0 (only after an immediate SessionAck, whose packet's bit is set right after it): != -1 holds wherever != 0 matters"),
)

_ENTRIES += (   # reference/mqqb_packets.py, issue 22: the algorithms an acknowledgment names for a body nobody signs or encrypts
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     '0, 0, 0, 0) + label + body',
     '0, 1, 0, 0) + label + body',
     "that field is the OrderAck's or FinalAck's HashAlgorithm: MS-MQQB 2.2.4 and 2.2.5 fix none, the packet carries no SecurityHeader and so no signature it would name the hash of (MS-MQMQ 2.2.19.3 reads the field only for a signed packet), and neither the reference's 0 nor 1 is in MS-MQMQ 2.2.19.3's table: no rule tells the two apart"),
    ('reference/mqqb_packets.py', 'core/NumberReplacer',
     '0, 0, 0, 0) + label + body',
     '0, 0, 1, 0) + label + body',
     "that field is the OrderAck's or FinalAck's EncryptionAlgorithm: MS-MQQB 2.2.4 and 2.2.5 fix none, the body is in the clear with no SecurityHeader (MS-MQMQ 2.2.19.3 reads the field only with EB set), and neither the reference's 0 nor 1 is in MS-MQMQ 2.2.19.3's table: no rule tells the two apart"),
)

_ENTRIES += (   # reference/mqqb_packets.py, issue 22: the DIRECT= keyword inside a DirectQueueFormatName (D-99)
    ('reference/mqqb_packets.py', 'core/ReplaceComparisonOperator_Eq_LtE',
     'name = text if text[:7].upper() == "DIRECT=" else "DIRECT=" + text',
     'name = text if text[:7].upper() <= "DIRECT=" else "DIRECT=" + text',
     "a direct name's text begins with DIRECT= or with its protocol (MS-MQMQ 2.1.2: OS, TCP, SPX, IPX, HTTP, HTTPS), and every protocol sorts after DIRECT= in upper case, so <= picks exactly the texts == picks; a text that is neither (empty, or no protocol) names no queue whether the keyword is put back or not, and is refused alike (3.1.5.8.2)"),
)

_ENTRIES += (   # reference/mqqb_session.py, issue 22: counting the OrderAcks and FinalAcks a peer sends (3.1.5.1.1:03)
    ('reference/mqqb_session.py', 'core/ReplaceComparisonOperator_Eq_GtE',
     'self.count_received(message.code("DM") == 1)',
     'self.count_received(message.code("DM") >= 1)',
     "read_user_message has already refused a packet whose DM is neither 0 nor 1 (MS-MQMQ:2.2.19.2:13: ALLOWED_DM, before the session takes it as an OrderAck or FinalAck), so DM is 0 or 1 here and >= 1 holds exactly when == 1 does"),
)

EQUIVALENT_MUTANTS: dict[str, str] = {mutant_key(module, operator, line, changed): reason
                                      for module, operator, line, changed, reason in _ENTRIES if operator != "*"}
EQUIVALENT_LINES: dict[str, str] = {line_key(module, line): reason
                                    for module, operator, line, _, reason in _ENTRIES if operator == "*"}
