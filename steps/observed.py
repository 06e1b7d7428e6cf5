"""The scenario's view of its target: which calls the RPC runtime answers before the method does.

Over DCE/RPC some calls never reach the method.  The server stub refuses a value
the IDL does not allow: a dwAck outside range(1,2), a cbPropagationToken outside
range(0,131072) (RPC_X_INVALID_BOUND), a QUEUE_FORMAT discriminant no union arm is
declared for (RPC_S_INVALID_TAG); MS-MQRR 6 declares them so, and a conforming
stub enforces it.  And a context handle belongs to the association that opened it:
the runtime refuses one it does not know ([C706] 5.1.6, nca_s_fault_context_mismatch
for the strict handles of MS-MQRR 2.2.4), while a server whose runtime passes it on
lets the method fail it, as the method's section also allows.

`ObservedTarget` passes every call through and notes, for the latest call, the
runtime's answer it may draw (`refusal`, in unmarshalling order: the handle comes
first) and whether that answer is the only right one (`strict`).  It tracks the
context handles this client holds: opened, not closed, not from before a restart.
`World.status_is` uses both on targets with the `rpc` capability.

It also keeps the latest calls (CALLS_KEPT) with their arguments and what the
target answered, the evidence a failing scenario's report shows; appending a
reference per call is all it costs while nothing fails.
"""

from __future__ import annotations

import collections
import functools

from mqspec.protocol.hresult import HRESULT, RpcStatus
from mqspec.protocol.idl import CB_PROPAGATION_TOKEN_RANGE, DW_ACK_RANGE

_OPENS = ("open_queue", "open_queue_for_move")
_TAKES_A_HANDLE = frozenset({"close_queue", "create_cursor", "close_cursor", "purge_queue", "start_receive",
                             "cancel_receive", "end_receive", "move_message", "start_transactional_receive",
                             "set_user_acknowledgement_class", "end_transactional_receive"})
_FORGETS = ("restart", "reset", "restart_holding_ports")
CALLS_KEPT = 200   # calls kept per client: the latest ones
_LAST_ARM = 8   # MS-MQMQ 2.2.7: QUEUE_FORMAT_TYPE_SUBQUEUE, the last declared union arm


class Call:
    """One call the scenario made: the method, its arguments, and the answer (PENDING while it waits)."""
    __slots__ = ("method", "args", "kwargs", "result")

    def __init__(self, method: str, args: tuple, kwargs: dict) -> None:
        self.method, self.args, self.kwargs, self.result = method, args, kwargs, PENDING


PENDING = object()   # Call.result of a call not answered yet
_NOT_CALLS = frozenset({"wire_evidence", "machine_format_name"})   # attributes that ask the target nothing


class ObservedTarget:
    def __init__(self, target) -> None:
        self.target = target
        self.held: set[bytes] = set()    # context handles this client opened and has not closed
        self.refusal: int | None = None  # the RPC runtime's answer the latest call may draw
        self.strict = False              # ... and whether the IDL makes that the only right answer
        self.calls: collections.deque[Call] = collections.deque(maxlen=CALLS_KEPT)   # the latest, for evidence

    def __getattr__(self, name: str):
        attribute = getattr(self.target, name)
        if name == "enter_receive":   # a Start*Receive started now and waited for on another thread
            return lambda method, *args: self._enter(method, functools.partial(attribute, method), args)
        if name in _TAKES_A_HANDLE or name in _OPENS or name in _FORGETS or name == "qm_enlist_remote_transaction":
            return lambda *args, **kwargs: self._call(name, attribute, args, kwargs)
        if callable(attribute) and not name.startswith("_") and name not in _NOT_CALLS:
            return lambda *args, **kwargs: self._logged(name, attribute, args, kwargs)
        return attribute

    def _logged(self, name, method, args, kwargs):
        call = Call(name, args, kwargs)
        self.calls.append(call)
        try:
            call.result = method(*args, **kwargs)
        except Exception as error:
            call.result = error
            raise
        return call.result

    def _enter(self, name, method, args):
        """A read entered now: its answer is noted when the other thread has waited for it."""
        self.refusal, self.strict = self._refusal(name, args, {})
        call = Call(name, args, {})
        self.calls.append(call)
        wait = method(*args)

        def waited():
            call.result = wait()
            return call.result
        return waited

    def _call(self, name, method, args, kwargs):
        self.refusal, self.strict = self._refusal(name, args, kwargs)
        return self._held(name, self._logged(name, method, args, kwargs), args, kwargs)

    def _held(self, name, out, args, kwargs):
        """Note the handles an open gave and a close took back."""
        if name in _FORGETS:
            self.held.clear()
        elif name in _OPENS and out.hresult == HRESULT.MQ_OK:
            self.held.add(out.pph_context)
        elif name == "close_queue" and out.hresult == HRESULT.MQ_OK:
            self.held.discard(_argument(args, kwargs, 0, "pph_context"))
        return out

    def _refusal(self, name, args, kwargs) -> tuple[int | None, bool]:
        if name in _TAKES_A_HANDLE:
            handle = args[0] if args else next(iter(kwargs.values()))   # every such method's first argument
            if handle not in self.held:
                return RpcStatus.NCA_S_FAULT_CONTEXT_MISMATCH, False
        if name in ("end_receive", "end_transactional_receive"):
            dw_ack = _argument(args, kwargs, 1, "dw_ack")
            if not DW_ACK_RANGE[0] <= dw_ack <= DW_ACK_RANGE[1]:
                return RpcStatus.RPC_X_INVALID_BOUND, True
        if name == "qm_enlist_remote_transaction":
            size = _argument(args, kwargs, 1, "cb_propagation_token")
            if not CB_PROPAGATION_TOKEN_RANGE[0] <= size <= CB_PROPAGATION_TOKEN_RANGE[1]:
                return RpcStatus.RPC_X_INVALID_BOUND, True
            queue_format = _argument(args, kwargs, 3, "p_queue_format")
        elif name in _OPENS:
            queue_format = _argument(args, kwargs, 0, "p_queue_format")
        else:
            return None, False
        if queue_format is not None and queue_format.m_qft > _LAST_ARM:
            return RpcStatus.RPC_S_INVALID_TAG, True
        return None, False


def _argument(args, kwargs, position: int, name: str):
    return args[position] if len(args) > position else kwargs[name]
