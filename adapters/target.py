"""The Target: the one interface every scenario talks to.

A Target is a queue manager under test.  It offers the MS-MQRR methods (without
the R_ prefix, in snake_case, parameters and outputs named after the
specification's, in snake_case) and the set-up a test needs that MS-MQRR lacks:
queues, sending, transactions, time, restart.  Methods never raise for bad
input: every failure comes back as an HRESULT in the result.

`read_queue` is built on the MS-MQRR methods alone (a cursor walk with peeks), so
it reads admin, journal and dead-letter queues the same way on every target.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from reference.constants import INFINITE, Access, Action, ShareMode
from reference.hresult import HRESULT
from reference.packet_sections import SectionBuffer
from reference.queue_format import QueueFormat, describe

NULL_HANDLE = bytes(20)


class TargetCapabilityError(RuntimeError):
    """A set-up operation the target does not offer (see the capability flags of Target)."""
CLIENT_ID = uuid.UUID("6d717370-6563-4000-8000-636c69656e74").bytes_le  # "mqspec client"


@dataclass(frozen=True)
class OpenQueueOut:
    hresult: int
    pph_context: bytes = NULL_HANDLE


@dataclass(frozen=True)
class OpenQueueForMoveOut:
    hresult: int
    p_move_context: int = 0
    pph_context: bytes = NULL_HANDLE


@dataclass(frozen=True)
class CloseQueueOut:
    hresult: int
    pph_context: bytes = NULL_HANDLE


@dataclass(frozen=True)
class CreateCursorOut:
    hresult: int
    ph_cursor: int = 0


@dataclass(frozen=True)
class StartReceiveOut:
    hresult: int
    pdw_arrive_time: int = 0
    p_sequence_id: int = 0
    pdw_number_of_sections: int = 0
    pp_packet_sections: tuple[SectionBuffer, ...] = ()


@dataclass(frozen=True)
class CreateQueueOut:
    hresult: int
    format_name: str = ""      # a format name that opens the new queue
    pathname: str = ""


@dataclass(frozen=True)
class SendOut:
    hresult: int
    r_status: int | None = None  # the Enqueue Message status (MS-MQDMPR 3.1.7.1.9), when it ran
    message_id: bytes = bytes(20)  # the message's Identifier (OBJECTID: GUID + ordinal), once assigned


@dataclass(frozen=True)
class QueuedMessage:
    """One message as `read_queue` saw it: its sequence id and the packet sections of a peek."""
    p_sequence_id: int
    pdw_arrive_time: int
    pp_packet_sections: tuple[SectionBuffer, ...]


@dataclass(frozen=True)
class ReadQueueOut:
    hresult: int
    messages: tuple[QueuedMessage, ...] = ()


@dataclass
class MessageProperties:
    """What a sender sets (MS-MQDMPR 3.1.1.12), for `Target.send`."""
    body: bytes = b""
    label: str = ""
    priority: int = 3
    delivery: str = "express"               # or "recoverable"
    message_class: int = 0
    acknowledgements: int = 0               # PA/PR/NA/NR bits (MS-MQMQ 2.2.19.3)
    admin_queue: str = ""
    response_queue: str = ""
    time_to_reach_queue: int = 0x54600
    time_to_be_received: int = INFINITE
    sent_time: int = 0                      # 0: the target stamps the current time
    positive_journaling: bool = False
    negative_journaling: bool = False
    allow_peek_when_locked: bool = False
    correlation_id: bytes = bytes(20)
    application_tag: int = 0
    body_type: int = 0
    extension: bytes = b""
    srmp_envelope: str | None = None
    srmp_compound_message: bytes | None = None
    extra: dict = field(default_factory=dict)


class Target(ABC):
    """A queue manager under test; see the module docstring."""

    name: str = "target"
    restartable: bool = False   # offers restart(): waives the restart clauses otherwise
    time_travel: bool = False   # elapse() skips time instead of sleeping
    send_insecure_nacks: bool | None = None  # MS-MQQB 3.1.1.3 SendInsecureNacks, when the target says

    # -- identity ---------------------------------------------------------------------------
    @property
    @abstractmethod
    def computer_name(self) -> str: ...

    @property
    @abstractmethod
    def queue_manager_identifier(self) -> bytes:
        """The queue manager's GUID, in wire (little-endian) byte order."""

    def machine_format_name(self, suffix: str) -> str:
        """MACHINE=<guid>;JOURNAL | DEADLETTER | DEADXACT for this queue manager."""
        return f"MACHINE={uuid.UUID(bytes_le=self.queue_manager_identifier)};{suffix}"

    # -- MS-MQRR (opnums 0, 2-15) -----------------------------------------------------------
    @abstractmethod
    def get_server_port(self) -> int: ...

    @abstractmethod
    def open_queue(self, p_queue_format: QueueFormat | None, dw_access: int, dw_share_mode: int,
                   p_client_id: bytes | None = CLIENT_ID, f_non_routing_server: int = 1, major: int = 6,
                   minor: int = 0, build_number: int = 0, f_workgroup: int = 0) -> OpenQueueOut: ...

    @abstractmethod
    def close_queue(self, pph_context: bytes) -> CloseQueueOut: ...

    @abstractmethod
    def create_cursor(self, ph_context: bytes) -> CreateCursorOut: ...

    @abstractmethod
    def close_cursor(self, ph_context: bytes, h_cursor: int) -> int: ...

    @abstractmethod
    def purge_queue(self, ph_context: bytes) -> int: ...

    @abstractmethod
    def start_receive(self, ph_context: bytes, lookup_id: int, h_cursor: int, ul_action: int,
                      ul_timeout: int, dw_request_id: int, dw_max_body_size: int,
                      dw_max_compound_message_size: int) -> StartReceiveOut: ...

    @abstractmethod
    def cancel_receive(self, ph_context: bytes, dw_request_id: int) -> int: ...

    @abstractmethod
    def end_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int: ...

    @abstractmethod
    def move_message(self, ph_context_from: bytes, ull_context_to: int, lookup_id: int,
                     p_transaction_id: bytes | None) -> int: ...

    @abstractmethod
    def open_queue_for_move(self, p_queue_format: QueueFormat | None, dw_access: int, dw_share_mode: int,
                            p_client_id: bytes | None = CLIENT_ID, f_non_routing_server: int = 1,
                            major: int = 6, minor: int = 0, build_number: int = 0,
                            f_workgroup: int = 0) -> OpenQueueForMoveOut: ...

    @abstractmethod
    def qm_enlist_remote_transaction(self, p_transaction_id: bytes | None, cb_propagation_token: int,
                                     pb_propagation_token: bytes | None,
                                     p_queue_format: QueueFormat | None) -> int: ...

    @abstractmethod
    def start_transactional_receive(self, ph_context: bytes, lookup_id: int, h_cursor: int, ul_action: int,
                                    ul_timeout: int, dw_request_id: int, dw_max_body_size: int,
                                    dw_max_compound_message_size: int,
                                    p_transaction_id: bytes | None) -> StartReceiveOut: ...

    @abstractmethod
    def set_user_acknowledgement_class(self, ph_context: bytes, lookup_id: int, us_class: int) -> int: ...

    @abstractmethod
    def end_transactional_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int: ...

    # -- set-up ------------------------------------------------------------------------------
    @abstractmethod
    def create_queue(self, pathname: str, *, transactional: bool = False, quota: int = INFINITE,
                     journaling: bool = False, label: str = "") -> CreateQueueOut: ...

    @abstractmethod
    def delete_queue(self, format_name: str) -> int: ...

    @abstractmethod
    def send(self, format_name: str, properties: MessageProperties, transaction: bytes | None = None) -> SendOut: ...

    @abstractmethod
    def begin_transaction(self) -> bytes:
        """A new internal transaction; returns its XACTUOW (16 bytes)."""

    @abstractmethod
    def prepare_transaction(self, uow: bytes) -> int:
        """Two-phase prepare (MS-MQDMPR 3.1.4.3 with iSinglePhase False)."""

    @abstractmethod
    def commit_transaction(self, uow: bytes) -> int: ...

    @abstractmethod
    def abort_transaction(self, uow: bytes) -> int: ...

    @abstractmethod
    def elapse(self, ms: int) -> None:
        """Let `ms` milliseconds pass on the target (timers fire)."""

    def restart(self) -> None:
        """Stop and start the queue manager from its store (MS-MQDMPR 3.1.3).

        Only targets with `restartable` set offer it; the suite waives the restart
        clauses for the others and never calls this."""
        raise TargetCapabilityError(f"{self.name} cannot be restarted by the suite")

    def close(self) -> None:
        """Release the target (connections, files, threads)."""

    # -- built on the methods above ----------------------------------------------------------
    def read_queue(self, format_name: str, dw_max_body_size: int = 0x400000) -> ReadQueueOut:
        """Every message a peek can see, front to back, by walking a cursor (MS-MQRR only).

        Messages Locked by a pending receive or transaction are invisible to peeks
        (MS-MQDMPR 3.1.7.3.2) and so are not listed."""
        try:
            queue_format = describe(format_name)
        except ValueError:
            return ReadQueueOut(HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME)
        opened = self.open_queue(queue_format, Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE)
        if opened.hresult != HRESULT.MQ_OK:
            return ReadQueueOut(opened.hresult)
        handle = opened.pph_context
        try:
            cursor = self.create_cursor(handle)
            if cursor.hresult != HRESULT.MQ_OK:
                return ReadQueueOut(cursor.hresult)
            messages = []
            action = Action.MQ_ACTION_PEEK_CURRENT
            while True:
                out = self.start_receive(handle, 0, cursor.ph_cursor, action, 0, 0, dw_max_body_size,
                                         dw_max_body_size)
                if out.hresult != HRESULT.MQ_OK:
                    break  # MQ_ERROR_IO_TIMEOUT: the cursor reached the end
                messages.append(QueuedMessage(out.p_sequence_id, out.pdw_arrive_time, out.pp_packet_sections))
                action = Action.MQ_ACTION_PEEK_NEXT
            return ReadQueueOut(HRESULT.MQ_OK, tuple(messages))
        finally:
            self.close_queue(handle)

    def __enter__(self) -> "Target":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
