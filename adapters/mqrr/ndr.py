"""The NDR codec of the RemoteRead interface (MS-MQRR 6): plain Python values to stub octets and back.

Theory of operation
-------------------
A stub is the NDR 2.0 or NDR64 body of one request or response PDU.  This is
the codec both ends of the project call:

    encode_request(opnum, args, ndr64)   ->  bytes      (client)
    decode_request(opnum, stub, ndr64)   ->  dict       (server)
    encode_response(opnum, out, ndr64)   ->  bytes      (server)
    decode_response(opnum, stub, ndr64)  ->  dict       (client)

The dicts are keyed by the IDL parameter names (hBind omitted); a method that
returns HRESULT or DWORD has "ReturnValue" (unsigned 32-bit) in its response.
Values are plain: ints (LONG signed), context handles, GUIDs and XACTUOWs as
bytes in wire order (20, 16, 16), QUEUE_FORMAT as protocol.queue_format.QueueFormat,
the packet sections as a tuple of protocol.idl.SectionBuffer.

The definition of the wire format is the set of impacket NDR classes in
ndr_types.  The marshalling done here is a hand-written struct-based one
(ndr_calls, ndr_wire), for every opnum, that the test suite proves equal to
those classes byte for byte, pads and referent ids aside, in both syntaxes;
the impacket path itself is ndr_impacket (the tests' oracle; 10 to 300 times
slower, benchmarks/bench_ndr.py).

Unique pointers: a NULL [string] is None; ppPacketSections () is the NULL
pointer (a non-NULL empty array decodes to () too); a pSectionBuffer is NULL
exactly when SectionSize is 0 (it decodes to b"").  pdwNumberOfSections must be
len(ppPacketSections) and cbPropagationToken len(pbPropagationToken): size_is.

Refusals: given bytes, the decoders raise only StubError, with the fault status
an RPC runtime answers: RPC_X_BAD_STUB_DATA, RPC_X_INVALID_BOUND (range()),
RPC_X_ENUM_VALUE_OUT_OF_RANGE (a SectionType above 0x7FFF), NCA_S_OP_RNG_ERROR
(an opnum RemoteRead lacks).  Octets after a complete stub are ignored: a
client MAY pad the stub (MS-RPCE 2.2.2.13).  The encoders raise NullReference
for a [ref] pointer given as None and ValueError for anything else they cannot
marshal (an unknown opnum included); they do not enforce range(): a client
under test must be able to send an out-of-range dwAck.
"""

from __future__ import annotations

from mqspec.protocol.hresult import RpcStatus

from .ndr_calls import CALLS
from .ndr_errors import NullReference, StubError

__all__ = ["NullReference", "StubError", "decode_request", "decode_response", "encode_request", "encode_response"]


def _call(opnum):
    call = CALLS.get(opnum) if isinstance(opnum, int) else None
    if call is None:
        raise ValueError(f"opnum {opnum!r}: RemoteRead has no such method (MS-MQRR 3.1.4)")
    return call


def _stub(stub) -> bytes:
    if type(stub) is bytes:
        return stub
    if isinstance(stub, (bytearray, memoryview)):
        return bytes(stub)
    raise TypeError(f"a stub is bytes, not {type(stub).__name__}")


def encode_request(opnum: int, args: dict, ndr64: bool = False) -> bytes:
    return _call(opnum).encode_request(args, ndr64)


def encode_response(opnum: int, out: dict, ndr64: bool = False) -> bytes:
    return _call(opnum).encode_response(out, ndr64)


def decode_request(opnum: int, stub: bytes, ndr64: bool = False) -> dict:
    call = CALLS.get(opnum) if isinstance(opnum, int) else None
    if call is None:
        raise StubError(RpcStatus.NCA_S_OP_RNG_ERROR, f"opnum {opnum!r}")
    return call.decode_request(_stub(stub), ndr64)


def decode_response(opnum: int, stub: bytes, ndr64: bool = False) -> dict:
    call = CALLS.get(opnum) if isinstance(opnum, int) else None
    if call is None:
        raise StubError(RpcStatus.NCA_S_OP_RNG_ERROR, f"opnum {opnum!r}")
    return call.decode_response(_stub(stub), ndr64)
