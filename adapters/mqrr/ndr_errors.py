"""The two ways the MS-MQRR codec refuses: stub data that does not decode, and a NULL [ref] pointer."""

from __future__ import annotations

from mqspec.protocol.hresult import describe


class StubError(Exception):
    """A stub the RPC runtime would refuse; `status` is the fault status it would answer with.

    RPC_X_BAD_STUB_DATA for bytes that do not decode, RPC_X_INVALID_BOUND for a value
    outside an IDL range(), NCA_S_OP_RNG_ERROR for an opnum RemoteRead lacks.
    """

    def __init__(self, status: int, reason: str = "") -> None:
        self.status = status
        self.reason = reason
        super().__init__(f"{describe(status)}: {reason}" if reason else describe(status))


class NullReference(ValueError):
    """A [ref] pointer given as None: MIDL cannot marshal it ([C706] 14.3.10), `parameter` names it."""

    def __init__(self, parameter: str) -> None:
        self.parameter = parameter
        super().__init__(f"{parameter} is a [ref] pointer and cannot be NULL")
