"""Transactions: MS-MQDMPR 3.1.7.1.8 Create Transaction and 3.1.4.3 - 3.1.4.5.

Theory of operation
-------------------
A Transaction is a FIFO of TransactionalOperations, each naming a Locked
position: an uncommitted Enqueue, a Dequeue (with the reason its removal will
carry) or a Move.  Commit replays the list forward and makes each operation
final; Abort undoes each one.  Positions purged meanwhile (PurgePending) are
deleted rather than restored; positions whose queue was deleted meanwhile are
already gone and are skipped.  Every transaction and operation is recorded for
the store, so a restart finds them (MS-MQDMPR:3.1.1.1:03) and aborts those that
were never prepared for two-phase commit (MS-MQDMPR:3.1.3:02, D-23).
"""

from __future__ import annotations

from mqspec.protocol.constants import MessageClass
from mqspec.protocol.hresult import HRESULT

from .adm import Transaction, TransactionalOperation
from .enumerations import MessagePositionState, OperationType

AVAILABLE = MessagePositionState.Available
DELETED = MessagePositionState.Deleted
PURGE_PENDING = MessagePositionState.PurgePending
NACK_Q_PURGED = MessageClass.MQMSG_CLASS_NACK_Q_PURGED
NACK_RECEIVE_TIMEOUT = MessageClass.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT


class TransactionEvents:
    def create_transaction(self, transaction_identifier: bytes | None) -> Transaction:
        self._transaction_ids += 1
        # MS-MQMQ:2.2.20.5:01 a 20-bit ID unique among this queue manager's transactions
        transaction = Transaction(transaction_identifier, (self._transaction_ids - 1) % 0xFFFFF + 1)  # MS-MQDMPR:3.1.7.1.8:01
        if transaction_identifier is not None:
            self.transaction_collection[transaction_identifier] = transaction
            self.persistence.record_transaction(transaction)
        return transaction

    def add_operation(self, transaction: Transaction, kind: str, position, *, target=None,
                      reason: int | None = None) -> None:
        operation = TransactionalOperation(OperationType(kind), position, target, reason)
        operations = transaction.transactional_operation_collection
        operations.append(operation)
        self.persistence.record_operation(transaction, operation, len(operations) - 1)

    def withdraw_dequeue(self, position) -> None:
        """The transaction that holds `position` by a Dequeue forgets it (D-66 released: MS-MQRR 3.1.4.15's
        RR_NACK); the store gets the shortened list afresh, since it keeps operations by index."""
        for transaction in self.transaction_collection.values():
            operations = transaction.transactional_operation_collection
            kept = [op for op in operations if not (op.message_position_reference is position
                                                    and op.operation_type is OperationType.Dequeue)]
            if len(kept) == len(operations):
                continue
            operations[:] = kept
            position.message_reference.transaction_identifier = None
            self.persistence.record_transaction_ended(transaction)
            self.persistence.record_transaction(transaction)
            for index, operation in enumerate(kept):
                self.persistence.record_operation(transaction, operation, index)
            return

    def transaction_prepare(self, transaction_identifier: bytes, single_phase: bool = True) -> int:
        transaction = self.transaction_collection.get(transaction_identifier)
        if transaction is None:
            return HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE  # MS-MQDMPR:3.1.4.3:01
        transaction.single_phase = single_phase
        transaction.prepared = True
        operations = transaction.transactional_operation_collection
        if operations:
            # MS-MQDMPR:3.1.4.3:02 mark the first and last messages of the transaction
            first = operations[0].message_position_reference.message_reference
            last = operations[-1].message_position_reference.message_reference
            first.set("first_in_transaction", True)
            last.set("last_in_transaction", True)
            for message in {id(first): first, id(last): last}.values():
                if message.delivery_guarantee:
                    self.persistence.record_attributes(message)
        self.persistence.record_transaction(transaction)
        return HRESULT.MQ_OK

    def transaction_commit(self, transaction_identifier: bytes) -> int:
        transaction = self.transaction_collection.get(transaction_identifier)
        if transaction is None:
            return HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE  # MS-MQDMPR:3.1.4.4:01
        # MS-MQDMPR:3.1.4.4:02 operations in FIFO order
        operations = transaction.transactional_operation_collection
        expired = {op.message_position_reference for op in operations if op.dequeue_reason == NACK_RECEIVE_TIMEOUT}
        for operation in operations:
            position = operation.message_position_reference
            if position.state == DELETED:
                continue
            queue = position.queue_reference
            position.message_reference.transaction_identifier = None
            kind = operation.operation_type
            if kind is OperationType.Enqueue:
                if position.state == PURGE_PENDING and self.readings["D-24"] == "purged":
                    self.message_position_deleted(queue, position, NACK_Q_PURGED)  # D-24 purged
                elif position in expired:
                    # D-25 a message that expired before the commit is never offered to a reader
                    self.message_position_deleted(queue, position, NACK_RECEIVE_TIMEOUT)
                else:
                    self.message_position_available(queue, position)
            elif kind is OperationType.Dequeue:
                self.message_position_deleted(queue, position, operation.dequeue_reason)
            else:
                self.complete_move(position, operation.target_queue_reference)
        self._end_transaction(transaction)  # MS-MQDMPR:3.1.4.4:03
        return HRESULT.MQ_OK

    def transaction_abort(self, transaction_identifier: bytes) -> int:
        transaction = self.transaction_collection.get(transaction_identifier)
        if transaction is None:
            return HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE
        operations = transaction.transactional_operation_collection
        expired = {op.message_position_reference for op in operations if op.dequeue_reason == NACK_RECEIVE_TIMEOUT}
        for operation in operations:
            position = operation.message_position_reference
            if position.state == DELETED:
                continue
            queue = position.queue_reference
            message = position.message_reference
            message.transaction_identifier = None
            kind = operation.operation_type
            if kind is OperationType.Enqueue:
                self.discard_uncommitted(queue, position)  # MS-MQDMPR:3.1.4.5:02
            elif position.state == PURGE_PENDING:
                self.message_position_deleted(queue, position, NACK_Q_PURGED)  # MS-MQDMPR:3.1.4.5:01, D-16
            elif position in expired:
                self.message_position_deleted(queue, position, NACK_RECEIVE_TIMEOUT)  # D-25 it has expired
            else:
                message.set("abort_counter", message.get("abort_counter") + 1)
                message.set("target_subqueue_name", "")
                self.message_position_available(queue, position)  # MS-MQDMPR:3.1.4.5:01
        self._end_transaction(transaction)
        return HRESULT.MQ_OK

    def _end_transaction(self, transaction: Transaction) -> None:
        transaction.transactional_operation_collection.clear()
        self.transaction_collection.pop(transaction.identifier, None)
        self.persistence.record_transaction_ended(transaction)

    def abort_unprepared_transactions(self) -> None:
        """MS-MQDMPR:3.1.3:02 at start, single-phase transactions do not survive (D-23)."""
        keep_enlisted = self.readings["D-23"] == "keep-enlisted"
        for identifier, transaction in list(self.transaction_collection.items()):
            # D-23 keep-enlisted: only SinglePhase ones go; an enlisted, unprepared one waits for MS-DTC
            if transaction.single_phase or (not transaction.prepared and not keep_enlisted):
                self.transaction_abort(identifier)
