"""The Target: the one interface every scenario talks to.

A Target is a queue manager under test, seen by one client.  It offers the
MS-MQRR methods (without the R_ prefix, in snake_case, parameters and outputs
named after the specification's, in snake_case) and the set-up a test needs that
MS-MQRR lacks: queues, sending, transactions.  Methods never raise for bad input:
every failure comes back as a status in the result (an HRESULT, or the RPC
runtime's fault status when a call travelled over DCE/RPC and was refused there).

What a target can do beyond that is a capability (CAPABILITIES): moving its clock,
restarting, listing messages in every state, opening a second client and losing
its connection, showing RPC faults.  A scenario that needs a capability the target
lacks is reported as not run, naming it; a method of a missing capability raises
TargetCapabilityError.

`read_queue` is built on the MS-MQRR methods alone (a cursor walk with peeks), so
it reads admin, journal and dead-letter queues the same way on every target.
"""

from __future__ import annotations

import functools
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from mqspec.protocol.constants import INFINITE, Access, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.idl import NULL_CONTEXT_HANDLE as NULL_HANDLE, SectionBuffer
from mqspec.protocol.queue_format import QueueFormat, from_format_name

# What a target may offer beyond MS-MQRR and set-up, and what a scenario that needs it is told.
CAPABILITIES = {
    "virtual_time": "elapse() moves the target's clock; nothing else does",
    "real_time": "the target's clock follows the wall clock: timers fire on their own (run_in_real_time() until the "
                 "next reset; elapse() still moves it further ahead)",
    "restart": "restart() stops the queue manager and starts it again from its store",
    "list_messages": "list_messages() shows every message of a queue with its state, Locked ones too",
    "drop_connection": "a second client's connection can be lost abruptly (context handle rundown)",
    "rpc": "calls travel over DCE/RPC, so the RPC runtime's own faults can be seen",
    "reset": "reset() returns the queue manager to its first start: system queues only, empty, no transactions",
    "null_references": "a method can be given NULL where the IDL has a [ref] pointer (no RPC stub can send one)",
    "queue_manager_quota": "set_queue_manager_quota() sets QueueManager.QueueManagerQuota (MS-MQDMPR 3.1.1.1, bytes)",
    "configure": "configure(pending_request_cleanup_ms=N) changes the queue manager's configuration until the next "
                 "reset (MS-MQRR 3.1.2.2: the clean-up period is the system's configuration)",
    "port_conflict": "restart_holding_ports(n) restarts the queue manager while another program holds the first n "
                     "ports of its sequence (MS-MQRR 3.1.4.1), and this client follows it to the port it then serves",
    "mqqb_peer": "mqqb_connect() opens a transport connection to the queue manager's MS-MQQB port, on which the suite "
                 "plays another queue manager (MS-MQQB 2.1.1, 3.1.5.10; adapters/mqqb/connection.py)",
    "identities": "as_identity(name, level) is a client that calls as another of the target's identities, at an RPC "
                  "authentication level (over DCE/RPC: the credentials of a second account); create_queue takes an "
                  "owner and an access list naming them",
    "calls_in_order": "the server takes calls up in the order they arrive, on whichever connection of the association "
                      "(a read sent before a close is waiting when the close runs: D-150)",
    "authentication": "offender(level) is one connection authenticated with the target's account at an RPC level "
                      "(none: unauthenticated), whose requests can be altered after signing or replayed, and whose "
                      "responses are kept as they came (adapters/wire/dcerpc_offending.py): a server with accounts "
                      "(mqrr://...?user=...&password=...)",
    "anonymous": "as_anonymous() is a client whose calls carry no security context (Anonymous Logon), and the target "
                 "takes such calls beside its accounts' (mqspec serve --users --auth-level none)",
    "judge": "the server records every RemoteRead call a client makes and answers chosen calls with faults "
             "(mqspec serve --judge): what certifying a client needs",
    "create_queue": "create_queue() makes any queue a scenario asks for (MS-MQRR cannot; a host certified with "
                    "nothing but the network has only the queues `mqspec windows-setup` made)",
    "delete_queue": "delete_queue() deletes a queue (MS-MQDMPR 3.1.7.1.4), which MS-MQRR and MS-MQQB cannot",
    "internal_transactions": "begin_transaction() and its prepare, commit and abort: transactions of the queue "
                             "manager's own, driven by the suite (MS-MQDMPR 3.1.7.1.8, 3.1.4.3 - 3.1.4.5)",
    "send_status": "send() answers the Enqueue Message status (MS-MQDMPR 3.1.7.1.9) of every send, refused ones "
                   "too, as a local application sees it",
    "local_send": "send() is a local application's send: any format name, properties left unset for the queue "
                  "manager's defaults, and those no MS-MQQB UserMessage carries (AllowPeekWhenLocked)",
}
# What every target had before a host certified through the network alone lacked them (the in-process reference,
# and a server whose control interface sets scenes up).
SET_UP = frozenset({"create_queue", "delete_queue", "internal_transactions", "send_status", "local_send"})


class TargetCapabilityError(RuntimeError):
    """An operation of a capability the target does not offer (see CAPABILITIES)."""

    def __init__(self, target: str, capability: str, detail: str = "") -> None:
        super().__init__(f"{target} does not offer {capability}: {CAPABILITIES[capability]}"
                         + (f" ({detail})" if detail else ""))
        self.target, self.capability, self.detail = target, capability, detail


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


@dataclass(frozen=True)
class ListedMessage:
    """One message as `list_messages` saw it: its position's state and lookup id, and its packet."""
    state: str                 # MessagePosition.State (MS-MQDMPR 3.1.1.11): Available, Locked, PurgePending
    lookup_id: int             # MessagePosition.LookupIdentifier (MS-MQDMPR 3.1.1.11)
    packet: bytes              # the whole packet, as a full-size Start*Receive would return it


@dataclass(frozen=True)
class ListMessagesOut:
    hresult: int
    messages: tuple[ListedMessage, ...] = ()


@dataclass
class MessageProperties:
    """What a sender sets (MS-MQDMPR 3.1.1.12), for `Target.send`."""
    body: bytes = b""
    label: str = ""
    priority: int | None = None             # None: the sender leaves it unset and the target's default applies
    delivery: str = "express"               # or "recoverable"
    message_class: int = 0
    acknowledgements: int = 0               # PA/PR/NA/NR bits (MS-MQMQ 2.2.19.3)
    admin_queue: str = ""
    response_queue: str = ""
    time_to_reach_queue: int | None = None  # None: unset (MS-MQDMPR:3.1.1.12:07 the default then applies)
    time_to_be_received: int | None = None  # None: unset (MS-MQDMPR:3.1.1.12:08 the default then applies)
    privacy_level: int = 0                  # MessagePropertiesHeader.PrivacyLevel asked for (MS-MQMQ 2.2.19.3)
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
    capabilities: frozenset[str] = frozenset()   # keys of CAPABILITIES
    send_insecure_nacks: bool | None = None  # MS-MQQB 3.1.1.3 SendInsecureNacks, when the target says
    settle_seconds: float = 0.05  # how long a call started on another thread needs to reach the server

    # -- identity ---------------------------------------------------------------------------
    @property
    @abstractmethod
    def computer_name(self) -> str: ...

    @property
    @abstractmethod
    def address(self) -> str:
        """An IPv4 address of the queue manager's computer in dotted form, as DIRECT=TCP: names it (MS-MQMQ
        2.1.2)."""

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

    def wire_evidence(self) -> list[dict]:
        """What travelled for this client's latest calls, one dict per PDU (decoded, with its octets as hex), for the
        evidence of a failing scenario; a target with no wire has none."""
        return []

    RECEIVES = ("start_receive", "start_transactional_receive")

    def enter_receive(self, method: str, *args) -> Callable[[], StartReceiveOut]:
        """Start the Start*Receive `method` (a name of RECEIVES) with `args` now, and return what waits for its
        outputs, so a caller knows the call is in before it goes on (a close or a cancel that follows it must find
        it waiting).  This default starts the call only when it is waited for; a target that can enter it at once
        (the reference, a server reached over the wire) says so by overriding this."""
        if method not in self.RECEIVES:
            raise ValueError(f"enter_receive: {method!r} is not one of {', '.join(self.RECEIVES)}")
        return functools.partial(getattr(self, method), *args)

    # -- set-up ------------------------------------------------------------------------------
    @abstractmethod
    def create_queue(self, pathname: str, *, transactional: bool = False, quota: int = INFINITE,
                     journaling: bool = False, label: str = "", security: dict | None = None) -> CreateQueueOut:
        """A new queue; `quota` is in kilobytes (0 to 0xFFFFFFFF, MS-MQDMPR 3.1.1.2; refused otherwise);
        `security` (capability identities) is its owner and access list, {"owner": name, "dacl": [[allow|deny,
        trustee, rights], ...]} (trustees: identities, Everyone, Anonymous Logon)."""

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

    def send_in_own_transaction(self, format_name: str, properties: MessageProperties) -> SendOut:
        """A message sent in a transaction of its own, committed at once: how a scene fills a transactional queue
        on a target without internal_transactions (over MS-MQQB, the sending queue manager's transaction)."""
        raise TargetCapabilityError(self.name, "internal_transactions")

    @abstractmethod
    def connection(self, *, ndr64: bool | None = None) -> "Target":
        """A second client of the same queue manager, with a connection of its own.

        Its context handles are its own (over DCE/RPC, another association), and it
        is released by close() or lost by drop().  Over DCE/RPC `ndr64` chooses the
        transfer syntax it binds with (None: this client's)."""

    # -- capabilities ------------------------------------------------------------------------
    @property
    def identities(self) -> tuple[str, ...]:
        """The names this target can call as (capability identities): this client's first."""
        return ()

    def as_identity(self, name: str, auth_level: str = "privacy") -> "Target":
        """A client of the same queue manager calling as identity `name`, authenticated at `auth_level` (connect,
        integrity or privacy), with a connection of its own (identities)."""
        raise TargetCapabilityError(self.name, "identities")

    def as_anonymous(self) -> "Target":
        """A client of the same queue manager whose calls carry no security context (Anonymous Logon: D-81), on a
        target that takes such calls beside its accounts' (anonymous), with a connection of its own."""
        raise TargetCapabilityError(self.name, "anonymous")

    def offender(self, auth_level: str):
        """One connection to the target's RemoteRead interface, authenticated with the target's account at
        `auth_level` (none, connect, integrity, privacy), that can send offending requests (authentication)."""
        raise TargetCapabilityError(self.name, "authentication")

    def elapse(self, ms: int) -> None:
        """Let `ms` milliseconds pass on the target's clock; due timers fire (virtual_time)."""
        raise TargetCapabilityError(self.name, "virtual_time")

    def run_in_real_time(self) -> None:
        """Let the target's clock follow the wall clock from its current time, so timers fire on their own, until the
        next reset holds it again (real_time)."""
        raise TargetCapabilityError(self.name, "real_time")

    def restart(self) -> None:
        """Stop and start the queue manager from its store (MS-MQDMPR 3.1.3) (restart)."""
        raise TargetCapabilityError(self.name, "restart")

    def list_messages(self, format_name: str) -> ListMessagesOut:
        """Every message of a queue in queue order, with its state (list_messages)."""
        raise TargetCapabilityError(self.name, "list_messages")

    def reset(self) -> None:
        """Start the queue manager afresh, its store emptied: each scenario begins from the same state (reset)."""
        raise TargetCapabilityError(self.name, "reset")

    def configure(self, **settings: int) -> None:
        """Change the queue manager's configuration until the next reset; today one setting,
        pending_request_cleanup_ms (MS-MQRR 3.1.2.2).  An unknown setting is a ValueError (configure)."""
        raise TargetCapabilityError(self.name, "configure")

    def restart_holding_ports(self, count: int) -> None:
        """Restart the queue manager while another program holds the first `count` ports of its sequence
        (the port it serves now, then every 11th); this client then talks to the port it serves after the
        restart, and so do clients it makes later (port_conflict)."""
        raise TargetCapabilityError(self.name, "port_conflict")

    def set_queue_manager_quota(self, quota: int) -> None:
        """QueueManager.QueueManagerQuota becomes `quota` bytes (0 to 0xFFFFFFFF, MS-MQDMPR 3.1.1.1; refused
        otherwise) until the next reset (queue_manager_quota)."""
        raise TargetCapabilityError(self.name, "queue_manager_quota")

    def drop(self) -> None:
        """This client's connection is lost without a word: the server runs its context
        handles down (MS-MQRR 3.1.6) (drop_connection)."""
        raise TargetCapabilityError(self.name, "drop_connection")

    def mqqb_connect(self):
        """A new MqqbConnection (adapters/mqqb/connection.py) to the queue manager's MS-MQQB port, as another
        queue manager opens one to start a session (mqqb_peer)."""
        raise TargetCapabilityError(self.name, "mqqb_peer")

    def judge_calls(self) -> list[dict]:
        """Every RemoteRead call the server recorded since judge_forget, each a dict (adapters/mqrr/judging.py)
        (judge)."""
        raise TargetCapabilityError(self.name, "judge")

    def judge_inject(self, method: str, kind: str, value: int = 0, skip: int = 0, times: int = 1) -> None:
        """Answer the next `times` calls of `method`, after `skip` of them, with `kind`: hresult (the status
        `value`), fault (an RPC fault `value`), drop (the connection closed) or damage (packet sections no
        client can rebuild) (judge)."""
        raise TargetCapabilityError(self.name, "judge")

    def judge_forget(self) -> None:
        """No records and no injections from here on (judge)."""
        raise TargetCapabilityError(self.name, "judge")

    # -- the RPC layer (rpc) ------------------------------------------------------------------
    last_fault: int | None = None   # the RPC fault status the latest call came back with, None: a response

    def rpc_call(self, opnum: int, stub: bytes) -> tuple[int | None, bytes]:
        """Send a RemoteRead request stub as it is: (fault status or None, response stub) (rpc)."""
        raise TargetCapabilityError(self.name, "rpc")

    def probe_bind(self, contexts, port: int | None = None):
        """Bind RemoteRead on a new connection offering `contexts` (lists of transfer syntaxes, see
        adapters/wire/dcerpc_probe.py); the port defaults to this client's (rpc)."""
        raise TargetCapabilityError(self.name, "rpc")

    def close(self) -> None:
        """Release this client (connections, files, threads)."""

    # -- built on the methods above ----------------------------------------------------------
    def read_queue(self, format_name: str, dw_max_body_size: int = 0x400000) -> ReadQueueOut:
        """Every message a peek can see, front to back, by walking a cursor (MS-MQRR only).

        Messages Locked by a pending receive or transaction are invisible to peeks
        (MS-MQDMPR 3.1.7.3.2) and so are not listed."""
        try:
            queue_format = from_format_name(format_name)
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
