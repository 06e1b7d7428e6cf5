"""The DCE/RPC server's API types (re-exported by dcerpc_server) and the fault statuses it chooses.

Kept apart from the server so the connection state machine (dcerpc_connection)
and the server (dcerpc_server) can share them without importing each other.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Protocol

from mqspec.protocol.hresult import RpcStatus, describe

NCA_S_FAULT_UNSPEC = RpcStatus.NCA_S_FAULT_UNSPEC
NCA_S_FAULT_REMOTE_NO_MEMORY = RpcStatus.NCA_S_FAULT_REMOTE_NO_MEMORY
NCA_S_UNSUPPORTED_TYPE = RpcStatus.NCA_S_UNSUPPORTED_TYPE

# [MS-RPCE] 3.3.3.5.1: statuses a server MUST NOT put in a fault PDU (a client may take them
# for a protocol error); an Interface that raises one is answered nca_s_fault_unspec instead.
FORBIDDEN_FAULT_STATUSES = frozenset({
    0x00000000, 0x80000001, 0x80000002, 0x80000003, 0xC0000005, 0xC0000006, 0xC000001D,
    0xC0000096, 0xC00000AA, 0xC00000FD, 0xC0000194, 0xC0000235, 0xC0000409, 0xC0000420,
})

# Faults the runtime raises before the manager runs carry PFC_DID_NOT_EXECUTE ([C706] 12.6.3.1).
NOT_EXECUTED_STATUSES = frozenset({RpcStatus.NCA_S_OP_RNG_ERROR, RpcStatus.NCA_S_UNK_IF})


class Fault(Exception):
    """Raised from Interface.call: the call is answered with a fault PDU carrying ``status``."""

    def __init__(self, status: int):
        status = int(status)
        if not 0 <= status <= 0xFFFFFFFF:
            raise ValueError(f"a fault status is 32 bits, not {status!r}")
        super().__init__(describe(status))
        self.status = status


class Drop(Exception):
    """Raised from Interface.call: the server closes the connection and answers nothing (a judging server's
    injected loss of the connection)."""


@dataclass(eq=False)
class Association:
    """An association group ([C706] 12.4, [MS-RPCE] 3.3.1.1.1): the scope of context handles."""
    id: int                                       # the assoc_group_id handed out in bind_ack
    state: dict = field(default_factory=dict)     # free for the interfaces (their context handles)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)   # guards `state`


class Call:
    """One request, reassembled, as an Interface sees it."""
    __slots__ = ("opnum", "stub", "ndr64", "association", "connection_id", "identity", "_cancelled")

    def __init__(self, opnum: int, stub: bytes, ndr64: bool, association: Association, connection_id: int,
                 identity=None):
        self.opnum = opnum
        self.stub = stub                          # the stub data of every request fragment
        self.ndr64 = ndr64                        # the presentation context's transfer syntax is NDR64
        self.association = association
        self.connection_id = connection_id        # unique per TCP connection
        self.identity = identity                  # dcerpc_auth.Identity of the caller, or None (unauthenticated)
        self._cancelled = None

    @property
    def cancelled(self) -> threading.Event:
        """Set when the client cancels the call or goes away.  Made when first asked for (most calls never
        are); the server asks for it on its own thread before a worker may."""
        event = self._cancelled
        if event is None:
            event = self._cancelled = threading.Event()
        return event


class Interface(Protocol):
    """What the server dispatches to; registered by (uuid, major version)."""
    uuid: str
    version: tuple[int, int]

    def call(self, call: Call) -> bytes:
        """The response stub; raise Fault(status) for a fault."""

    def may_block(self, opnum: int, stub: bytes) -> bool:
        """True when the call may wait a long time: it then runs off the connection's reader."""

    # Optional: admit(call) -> Callable[[], bytes], for a call that may block.  It runs on the loop, so calls are
    # entered in the order they arrive, and starts the call; the function it returns runs on a worker, waits for the
    # call's end and gives the response stub (or raises Fault).  Without it the whole call runs on the worker.

    def call_abandoned(self, call: Call) -> None:
        """The client cancelled the call (co_cancel, orphaned) or its connection died while it ran."""

    def association_ended(self, association: Association) -> None:
        """The last connection of the group closed: run its context handles down."""
