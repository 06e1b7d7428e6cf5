"""The set-up and control channel: what MS-MQRR cannot do, as a second RPC interface of ours.

Theory of operation
-------------------
MS-MQRR reads queues; it cannot create them, send, run transactions, move the
clock or restart the queue manager.  Microsoft's protocol test suites reach such
operations through a "SUT control adapter" beside the protocol adapter; this is
ours.  It is an RPC interface of its own (CONTROL_UUID v1.0) served on the same
port as RemoteRead, with one operation, Invoke (opnum 0), whose request stub is a
UTF-8 JSON object {"op": NAME, "args": {...}} and whose response stub is a UTF-8
JSON object: {"result": ...} or {"error": TEXT, "capability": NAME-or-null}.
Bytes travel as {"$bytes": BASE64}.  The operations (OPERATIONS) are the set-up
and capability methods of adapters.target.Target, with the same arguments; the
protocol path (RemoteRead) never goes through here.

A request larger than MAX_REQUEST or holding more than MAX_TOKENS JSON separators is
refused before it is parsed (it would hold the event loop), and one larger than INLINE
is parsed and run on a worker; a request that is no such JSON or nests deeper than
MAX_DEPTH faults RPC_X_BAD_STUB_DATA; an argument not of its operation's type and range
is answered with one error line (control_args.py).  On a server with accounts (--users), only its operators may run
anything but `identity` and `await_rundown` (decision D-130).  docs/control.md describes
the interface for anyone writing a control adapter for another server (for a
live Windows host, PowerShell's MSMQ cmdlets over WinRM would play this part).
"""

from __future__ import annotations

import base64
import dataclasses
import json

from mqspec.protocol.hresult import RpcStatus, describe

from ..target import MessageProperties, Target, TargetCapabilityError
from ..wire.dcerpc_server import Call, Fault
from .control_args import ArgumentError, check

CALL_TIMEOUT = 120.0   # seconds a control operation may take before the client gives up on it

# A request's bounds, checked before it is parsed (issue 20: a million keys held the loop 2.8 s): the largest
# packet (4 MiB, MS-MQMQ 2.2.19.1) as a base64 body with room to spare, and far more separators than any
# operation's arguments have; then a nesting no argument needs (900 levels was a traceback).  A request above
# INLINE is parsed and run on a worker, not on the event loop.
MAX_REQUEST = 6 * 1024 * 1024
INLINE = 64 * 1024
MAX_TOKENS = 65_536
MAX_DEPTH = 8

CONTROL_UUID = "8d90968b-24de-490f-92d6-144f3cd39f32"
CONTROL_VERSION = (1, 0)
INVOKE = 0

# Invoke's operations: the Target methods a control client may call, and whether the hosted
# target needs a capability for them.
OPERATIONS = {
    "identity": None, "create_queue": None, "delete_queue": None, "send": None,
    "begin_transaction": None, "prepare_transaction": None, "commit_transaction": None,
    "abort_transaction": None, "elapse": "virtual_time", "run_in_real_time": "real_time", "restart": "restart",
    "list_messages": "list_messages",
    "reset": "reset", "await_rundown": None, "configure": "configure", "restart_holding_ports": "port_conflict",
    "set_queue_manager_quota": "queue_manager_quota",
    "judge_calls": "judge", "judge_inject": "judge", "judge_forget": "judge",
}


WAITING = frozenset({"await_rundown", "restart_holding_ports"})   # they wait on the server's event loop
ANYONE = frozenset({"identity", "await_rundown"})   # what a caller who is no operator may still ask (D-130)


def dumps(value) -> bytes:
    return json.dumps(_encode(value), separators=(",", ":")).encode("utf-8")


def loads(data: bytes):
    return _decode(json.loads(data.decode("utf-8")))


def parse_request(stub: bytes) -> tuple[str, dict]:
    """(op, args) of a request stub; ValueError for one that is too large, too deep or not a request."""
    if len(stub) > MAX_REQUEST:
        raise ValueError(f"a control request of {len(stub)} bytes (at most {MAX_REQUEST})")
    if sum(stub.count(separator) for separator in (b",", b":", b"[", b"{")) > MAX_TOKENS:
        raise ValueError(f"a control request of more than {MAX_TOKENS} JSON separators")
    try:
        request = _decode(json.loads(stub.decode("utf-8")), MAX_DEPTH)
    except RecursionError:   # nesting deeper than the JSON decoder goes
        raise ValueError("a control request nested too deep") from None
    if not isinstance(request, dict) or not isinstance(request.get("op"), str):
        raise ValueError("a control request is {\"op\": NAME, \"args\": {...}}")
    op, args = request["op"], request.get("args", {})
    if op not in OPERATIONS or not isinstance(args, dict):
        raise ValueError(f"unknown operation {op!r}")
    return op, args


def _encode(value):
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": base64.b64encode(bytes(value)).decode("ascii")}
    if dataclasses.is_dataclass(value):
        return {field.name: _encode(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    return value


def _decode(value, depth: int = 64):
    if depth < 0 and isinstance(value, (dict, list)):
        raise ValueError("nested too deep")
    if isinstance(value, dict):
        if set(value) == {"$bytes"}:
            if not isinstance(value["$bytes"], str):
                raise ValueError("$bytes holds base64 text")
            return base64.b64decode(value["$bytes"], validate=True)
        return {key: _decode(item, depth - 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item, depth - 1) for item in value]
    return value


class ControlError(RuntimeError):
    """The control channel refused an operation; the message says why (`status`: the RPC fault, if one)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ControlClient:
    """The client side: `invoke(op, **args)` runs one operation over a connection pool to the interface.

    Any object with this `invoke` and `close` can stand in for it (another server's control adapter)."""

    def __init__(self, pool, target_name: str) -> None:
        self.pool, self.target_name = pool, target_name

    def invoke(self, op: str, **args):
        status, answer = self.pool.call(INVOKE, dumps({"op": op, "args": args}), CALL_TIMEOUT)
        if status is not None:
            raise ControlError(f"control operation {op!r} failed: {describe(status)}", status)
        reply = loads(answer)
        if "error" in reply:
            if reply.get("capability"):
                raise TargetCapabilityError(self.target_name, reply["capability"])
            raise ControlError(reply["error"])
        return reply["result"]

    def close(self) -> None:
        self.pool.close()


class ControlService:
    """The server side: Invoke runs the operation on the hosted in-process target."""

    uuid = CONTROL_UUID
    version = CONTROL_VERSION

    def __init__(self, target: Target, capabilities: frozenset[str], remote_read,
                 operators: frozenset[str] | None = None) -> None:
        self.target = target
        self.operators = operators         # D-130: the accounts that may run operations (None: every caller)
        self.capabilities = capabilities   # what the wire client may announce (see identity)
        self.remote_read = remote_read     # forgets handles on restart; knows when an association ended
        self.restart_holding_ports = None  # serve() sets it where it can choose its port again (port_conflict)
        self.mqqb_port = None              # serve() sets it where it listens for MS-MQQB sessions (mqqb_peer)

    def call(self, call: Call) -> bytes:
        if call.opnum != INVOKE:
            raise Fault(RpcStatus.NCA_S_OP_RNG_ERROR)
        try:
            op, args = parse_request(call.stub)
        except (ValueError, UnicodeDecodeError):   # binascii.Error and json's errors are ValueErrors
            raise Fault(RpcStatus.RPC_X_BAD_STUB_DATA) from None
        needed = OPERATIONS[op]
        if needed is not None and needed not in self.capabilities:
            return dumps({"error": f"the served target does not offer {needed}", "capability": needed})
        refused = self._refused(call, op)
        if refused is not None:
            return dumps({"error": refused, "capability": None})
        try:
            check(op, args)
            return dumps({"result": self._run(op, args)})
        except ArgumentError as error:
            return dumps({"error": str(error), "capability": None})
        except TargetCapabilityError as error:
            return dumps({"error": str(error), "capability": error.capability})
        except (TypeError, ValueError) as error:  # arguments that do not fit the operation
            return dumps({"error": f"{op}: {error}", "capability": None})

    def _refused(self, call: Call, op: str) -> str | None:
        """D-130: on a server with accounts only an operator sets scenes up; anyone may ask who the server is and
        wait for a rundown (what every client does as it closes), which change nothing."""
        if self.operators is None or op in ANYONE:
            return None
        who = call.identity.user if call.identity is not None else None
        if who is not None and who.lower() in self.operators:
            return None
        caller = f"user {who!r}" if who is not None else "an unauthenticated caller"
        return f"{op}: {caller} is not an operator of this server (mqspec serve --operators)"

    def _run(self, op: str, args: dict):
        target = self.target
        if op == "identity":
            return {"name": target.name, "computer_name": target.computer_name,
                    "queue_manager_identifier": target.queue_manager_identifier,
                    "capabilities": sorted(self.capabilities), "send_insecure_nacks": target.send_insecure_nacks,
                    "mqqb_port": self.mqqb_port}
        if op == "await_rundown":
            return self.remote_read.await_association_end(args["association"], args["timeout_ms"])
        if op == "restart_holding_ports":
            return self.restart_holding_ports(**args)   # the port RemoteRead is served on afterwards
        if op.startswith("judge_"):
            return getattr(self.remote_read, op)(**args)   # the judging server's records and injections
        if op == "send":
            args = dict(args, properties=MessageProperties(**args["properties"]))
        result = getattr(target, op)(**args)
        if op in ("restart", "reset"):
            self.remote_read.forget_all()
        return result

    def may_block(self, opnum: int, stub: bytes) -> bool:
        """Operations that wait for the server's event loop (an association's rundown, a move to another port),
        and large requests (their parse and copy), run on a worker; the rest inline."""
        if len(stub) > INLINE:
            return len(stub) <= MAX_REQUEST   # a larger one is refused at once, on the loop, without a parse
        # a look for the operations' names, not a parse: a request parsed here and again in call() costs twice
        return any(f'"{op}"'.encode() in stub for op in WAITING)

    def holds_state(self, association) -> bool:
        return False

    def call_abandoned(self, call: Call) -> None:
        """Nothing here waits, so nothing is left to cancel."""

    def association_ended(self, association) -> None:
        """Control calls hold no state between calls."""
