"""An independent MS-MQRR client shim: `python -m mqspec.shims.independent` (docs/client-shim.md).

Theory of operation
-------------------
A second client of the RemoteRead interface, written apart from the rest of mqspec
(it imports nothing of it) so that the suite's client scenarios can be checked
against a client the suite did not write.  Three layers, bottom up:

* the wire.  impacket's ncacn_ip_tcp transport and DCE/RPC connection carry raw
  request stubs (`DCERPC_v5.call(opnum, stub)`, then `recv()`); every stub is NDR 2.0
  written here with struct (`Stub`) and every response read back with `Reader`.
  An `Association` is one association group with a connection per call in flight:
  the first bind makes the group, each later bind names it ([C706] 12.6.4.3), so
  a context handle is good on all of them and a waiting R_StartReceive never holds
  up the R_CancelReceive for it.  impacket keeps only the text of a fault, so its
  status is read back from the octets the transport heard.  A connection that
  breaks is thrown away; when it was the group's last, the group is gone with its
  handles: the next call binds a new group, and the old handles are refused here.
* the packet.  `rebuild` reads the first packet section (BaseHeader, UserHeader,
  TransactionHeader, SecurityHeader, MessagePropertiesHeader: MS-MQMQ 2.2.19,
  2.2.20; MS-MQRR 2.2.5, 2.2.6) into the message the application gets.  The
  trailing headers (in the section's tail or in the second section) are never read.
* the client (MS-MQRR 3.2).  `Client` keeps the abstract data model of 3.2.1 (a
  handle per open queue, its cursors, its request ids) and turns each application
  operation into the calls 3.2.4 gives it:

      open          R_OpenQueue                                       3.2.4.1
      peek          R_StartReceive with a peek action                 3.2.4.3, 3.2.4.9
      receive       [R_QMEnlistRemoteTransaction] R_Start[Transactional]Receive,
                    then R_End[Transactional]Receive: RR_ACK, or RR_NACK when the
                    packet does not rebuild                           3.2.4.4, 3.2.4.10
      reject        R_SetUserAcknowledgementClass                     3.2.4.5
      move          [enlist] R_OpenQueueForMove, R_MoveMessage, R_CloseQueue   3.2.4.6
      purge         R_PurgeQueue                                      3.2.4.7
      cursor        R_CreateCursor / R_CloseCursor                    3.2.4.8, 3.2.4.12
      cancel        R_CancelReceive                                   3.2.4.11
      close         R_CancelReceive for each waiting read, R_CloseCursor for
                    each cursor, R_CloseQueue                         3.2.4.13

  What a queue's access does not allow is refused before any call (decision D-83).
  A call that fails, by its status, a fault or a broken connection, gives nothing:
  its outputs are never read (MS-MQRR 3.1.4).

The shim loop reads one request a line and answers one reply a line; an operation
with "wait" runs on a thread of its own and is answered "pending" once its
Start*Receive has been sent.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import struct
import sys
import threading
import uuid

from impacket.dcerpc.v5 import rpcrt, transport
from impacket.uuid import uuidtup_to_bin

NAME = "mqspec-independent 1.0"
VERSION = (1, 0, 1)                       # Major, Minor, BuildNumber this client puts in R_OpenQueue
REMOTE_READ = uuidtup_to_bin(("1a9134dd-7b39-45ba-ad88-44d01ca47f28", "1.0"))   # MS-MQRR 1.9
(R_OPEN_QUEUE, R_CLOSE_QUEUE, R_CREATE_CURSOR, R_CLOSE_CURSOR, R_PURGE_QUEUE, R_START_RECEIVE, R_CANCEL_RECEIVE,
 R_END_RECEIVE, R_MOVE_MESSAGE, R_OPEN_QUEUE_FOR_MOVE, R_ENLIST, R_START_TRANSACTIONAL_RECEIVE, R_SET_ACK_CLASS,
 R_END_TRANSACTIONAL_RECEIVE) = range(2, 16)   # MS-MQRR 3.1.4:03: opnum 1 is never sent

MQ_OK = 0
MQ_ERROR = 0xC00E0001
MQ_ERROR_INVALID_PARAMETER = 0xC00E0006
MQ_ERROR_INVALID_HANDLE = 0xC00E0007
MQ_ERROR_ILLEGAL_FORMATNAME = 0xC00E001E
MQ_ERROR_ACCESS_DENIED = 0xC00E0025
MQ_ERROR_TRANSACTION_USAGE = 0xC00E0050
CALL_FAILED = 0x800706BE                  # HRESULT of RPC_S_CALL_FAILED: the connection broke under the call

RECEIVE_ACCESS, MOVE_ACCESS, PEEK_ACCESS = 0x01, 0x04, 0x20
ACCESS = {"receive": RECEIVE_ACCESS, "peek": PEEK_ACCESS}
SHARE = {"deny_none": 0, "deny_receive": 1}          # MQ_DENY_NONE, MQ_DENY_SHARE
RECEIVE, PEEK_CURRENT, PEEK_NEXT = 0x00000000, 0x80000000, 0x80000001
LOOKUP_PEEK = {"current": 0x40000010, "next": 0x40000011, "prev": 0x40000012}
LOOKUP_RECEIVE = {"current": 0x40000020, "next": 0x40000021, "prev": 0x40000022}
RR_NACK, RR_ACK = 1, 2
NACK_RECEIVE_REJECTED = 0xC004            # MQMSG_CLASS_NACK_RECEIVE_REJECTED (MS-MQMQ 2.2.18.1.6)
LARGEST = 0x00400000                      # MS-MQMQ 2.2.19.1: no packet is larger, so no body either
CALL_SECONDS = 60.0                       # how long a call that does not wait may take


class Refusal(Exception):
    """An operation that ends with a status and no (more) calls: a local refusal or a failed call."""

    def __init__(self, status: int, why: str = "") -> None:
        super().__init__(f"0x{status:08X} {why}".strip())
        self.status = status


# -- NDR 2.0, little-endian ([C706] 14; MS-RPCE 2.2.5) -------------------------------------------------
FIELD = re.compile(r"\d*[a-zA-Z]")   # one struct field: "I", "Q", "16s", "2x"


class Stub:
    """The octets of one request stub, written field after field with NDR's alignment."""

    def __init__(self) -> None:
        self.data = bytearray()

    def align(self, size: int) -> Stub:
        self.data += bytes(-len(self.data) % size)
        return self

    def put(self, fmt: str, *values) -> Stub:
        """Primitive fields, each aligned to its own size (NDR 2.0: octet strings to 1)."""
        values = list(values)
        for item in FIELD.findall(fmt):
            size = struct.calcsize("<" + item)
            self.align(1 if item[-1] in "sx" else size)
            self.data += struct.pack("<" + item, *([] if item[-1] == "x" else [values.pop(0)]))
        return self

    def raw(self, octets: bytes, alignment: int = 1) -> Stub:
        self.align(alignment)
        self.data += octets
        return self

    def handle(self, handle: bytes) -> Stub:
        return self.raw(handle, 4)            # a context handle: {unsigned long; uuid}, aligned as its ulong

    def wide_string(self, text: str) -> Stub:
        units = (text + "\0").encode("utf-16-le")
        count = len(units) // 2               # [string] wchar_t*: max count, offset 0, actual count
        return self.put("III", count, 0, count).raw(units)

    def queue_format(self, queue: tuple) -> Stub:
        """QUEUE_FORMAT (MS-MQMQ 2.2.7): the non-encapsulated union sends m_qft again as its tag."""
        kind, suffix, value = queue
        self.align(4).put("BBHB", kind, suffix, 0, kind)
        if kind in (DIRECT, SUBQUEUE):
            return self.put("I", 0x00020000).wide_string(value)   # the unique pointer's referent, then the string
        if kind == PRIVATE:
            return self.raw(value[0], 4).put("I", value[1])       # OBJECTID {GUID Lineage; DWORD Uniquifier}
        return self.raw(value, 4)                                 # a GUID

    def __bytes__(self) -> bytes:
        return bytes(self.data)


class Garbled(ValueError):
    """A response stub that ends too soon."""


class Reader:
    """Fields read in turn: NDR-aligned each to its size (`aligned`), or packed as packet headers are."""

    def __init__(self, data: bytes, aligned: bool = True) -> None:
        self.data, self.at, self.aligned = data, 0, aligned

    def take(self, size: int, alignment: int = 1) -> bytes:
        self.at += -self.at % alignment
        if self.at + size > len(self.data):
            raise Garbled(f"the stub ends at {len(self.data)}, before byte {self.at + size}")
        self.at += size
        return self.data[self.at - size:self.at]

    def get(self, fmt: str):
        values = []
        for item in FIELD.findall(fmt):
            size = struct.calcsize("<" + item)
            values += struct.unpack("<" + item, self.take(size, size if self.aligned and item[-1] not in "sx" else 1))
        return values[0] if len(values) == 1 else tuple(values)


def returned(stub: bytes) -> int:
    """The HRESULT a method returned: the last field of every response of an HRESULT method."""
    if len(stub) < 4:
        raise Refusal(MQ_ERROR, "a response too short to hold its status")
    return struct.unpack_from("<I", stub, len(stub) - 4)[0]


# -- format names to QUEUE_FORMAT (MS-MQMQ 2.1, 2.2.7) ----------------------------------------------------
UNKNOWN, PUBLIC, PRIVATE, DIRECT, MACHINE, SUBQUEUE = 0, 1, 2, 3, 4, 8
SYSTEM_SUFFIXES = {"JOURNAL": 0x81, "DEADLETTER": 0x82, "DEADXACT": 0x83}   # suffix type | QUEUE_FORMAT_FLAG_SYSTEM


def queue_format(format_name: str) -> tuple:
    """(m_qft, m_SuffixAndFlags, union value) of a one-element format name; Refusal when it has none."""
    kind, equals, body = format_name.partition("=")
    kind = kind.strip().upper()
    name, semicolon, suffix = body.rpartition(";") if ";" in body else (body, "", "")
    code = SYSTEM_SUFFIXES.get(suffix.upper(), 0) if semicolon else 0
    try:
        if not equals or not body:
            raise ValueError
        if kind == "DIRECT":
            if semicolon and not code:
                return SUBQUEUE, 0x05, body            # a ";subqueue" name goes whole (QUEUE_SUFFIX_TYPE_SUBQUEUE)
            if code in (0x82, 0x83) and name.upper().endswith("\\SYSTEM$"):
                name = name[:-len("\\SYSTEM$")]        # a machine queue names its computer only
            return DIRECT, code, name if semicolon else body
        if semicolon and not code:
            raise ValueError
        if kind == "PUBLIC":
            return PUBLIC, code, uuid.UUID(name).bytes_le
        if kind == "MACHINE":
            return MACHINE, code, uuid.UUID(name).bytes_le
        if kind == "PRIVATE":
            lineage, _, number = name.partition("\\")
            return PRIVATE, code, (uuid.UUID(lineage).bytes_le, int(number, 16) & 0xFFFFFFFF)
    except ValueError:
        pass
    raise Refusal(MQ_ERROR_ILLEGAL_FORMATNAME, f"{format_name!r} is no format name this client can send")


# -- the association group and its connections ---------------------------------------------------------
class Broken(Exception):
    """The connection went away under a call (no response, no fault)."""


class Connection:
    """One ncacn_ip_tcp connection bound to RemoteRead, in the association group `group` (0: a new one)."""

    def __init__(self, host: str, port: int, group: int) -> None:
        self.transport = transport.DCERPCTransportFactory(f"ncacn_ip_tcp:{host}[{port}]")
        self.transport.set_connect_timeout(10)
        self.heard = bytearray()              # what the transport read during the current call
        send, recv = self.transport.send, self.transport.recv

        def send_naming_group(data, forceWriteAndx=0, forceRecv=0):
            if group and len(data) >= 24 and data[2] == rpcrt.MSRPC_BIND:
                data = data[:20] + struct.pack("<I", group) + data[24:]   # [C706] 12.6.4.3 assoc_group_id
            return send(data, forceWriteAndx, forceRecv)

        def recv_keeping(forceRecv=0, count=0):
            data = recv(forceRecv, count)
            self.heard += data
            return data

        self.transport.send, self.transport.recv = send_naming_group, recv_keeping
        self.dce = self.transport.get_dce_rpc()
        self.dce.connect()
        try:
            ack = self.dce.bind(REMOTE_READ)
            self.group = rpcrt.MSRPCBindAck(ack.getData())["assoc_group"]
        except Exception:
            self.close()
            raise

    def call(self, opnum: int, stub: bytes, timeout: float | None, sent=None) -> bytes:
        """The response stub; Refusal(status) for a fault; Broken when the connection went away."""
        self.transport.get_socket().settimeout(timeout)
        self.heard.clear()
        try:
            self.dce.call(opnum, stub)
            if sent is not None:
                sent()
            return self.dce.recv()
        except rpcrt.DCERPCException:
            status = self.fault_status()
            if status is None:
                raise Broken() from None
            raise Refusal(status, "an RPC fault") from None
        except OSError as error:
            raise Broken() from error

    def fault_status(self) -> int | None:
        """The status of a fault PDU among the octets heard ([C706] 12.6.4.7), None when there is none."""
        at = 0
        while at + 10 <= len(self.heard):
            length = struct.unpack_from("<H", self.heard, at + 8)[0]
            if self.heard[at + 2] == rpcrt.MSRPC_FAULT and at + 28 <= len(self.heard):
                return struct.unpack_from("<I", self.heard, at + 24)[0]
            if length < 16:
                break
            at += length
        return None

    def close(self) -> None:
        with contextlib.suppress(OSError):   # a connection already gone has nothing left to close
            self.transport.disconnect()


class Association:
    """One association group: idle connections to reuse, a new one bound into the group when all are busy."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.group = 0
        self.generation = 0                   # one more each time the group is lost (its handles with it)
        self.idle: list[Connection] = []
        self.live = 0
        self.lock = threading.Lock()

    def connect(self) -> Connection:
        with self.lock:
            if self.idle:
                return self.idle.pop()
            group = self.group
        try:
            connection = Connection(self.host, self.port, group)
        except (rpcrt.DCERPCException, OSError) as error:
            with self.lock:
                if group and group == self.group and not self.live:
                    self.group, self.generation = 0, self.generation + 1   # the group is gone: start afresh
            raise Refusal(CALL_FAILED, f"cannot bind to {self.host}:{self.port}: {error}") from None
        with self.lock:
            self.live += 1
            if not self.group:
                self.group = connection.group
        return connection

    def call(self, opnum: int, stub: Stub, timeout: float | None = CALL_SECONDS, sent=None) -> bytes:
        connection = self.connect()
        try:
            answer = connection.call(opnum, bytes(stub), timeout, sent)
        except Broken:
            connection.close()
            with self.lock:
                self.live -= 1
                if not self.live:                  # the group ended with its last connection
                    self.group, self.generation = 0, self.generation + 1
            raise Refusal(CALL_FAILED, "the connection broke during the call") from None
        except Refusal:
            self.release(connection)
            raise
        self.release(connection)
        return answer

    def release(self, connection: Connection) -> None:
        with self.lock:
            self.idle.append(connection)

    def close(self) -> None:
        with self.lock:
            idle, self.idle = self.idle, []
        for connection in idle:
            connection.close()


# -- rebuilding the message from the packet sections (MS-MQRR 2.2.5, 2.2.6, 3.2.4.3) ----------------------
class Unreadable(ValueError):
    """The sections do not hold a message this client can read: the receive is NACKed."""


FULL_PACKET, BINARY_FIRST, BINARY_SECOND = 0, 1, 2


def rebuild(sections: list, sequence_id: int) -> dict:
    """The application's message from [(SectionBufferType, SectionSizeAlloc, SectionSize, octets)]."""
    if len(sections) not in (1, 2):
        raise Unreadable(f"{len(sections)} sections")
    kind, alloc, size, packet = sections[0]
    if kind not in (FULL_PACKET, BINARY_FIRST) or (kind == FULL_PACKET and len(sections) != 1):
        raise Unreadable(f"a first section of type {kind}")   # SRMP messages are not read by this client
    if len(sections) == 2 and sections[1][0] != BINARY_SECOND:
        raise Unreadable(f"a second section of type {sections[1][0]}")
    if len(packet) != size or alloc < size or (kind == FULL_PACKET and alloc != size):
        raise Unreadable("section sizes that do not agree")   # MS-MQRR 2.2.6
    read = Reader(packet, aligned=False)
    version, _, flags, signature, _, _ = read.get("BBHIII")                  # BaseHeader, MS-MQMQ 2.2.19.1
    if version != 0x10 or signature != 0x524F494C:
        raise Unreadable("no BaseHeader")
    source, _, _, _, message_number, user_flags = read.get("16s16sIIII")    # UserHeader, MS-MQMQ 2.2.19.2
    for shift in (10, 13, 16):                                              # DQ, AQ, RQ
        skip_queue_name(read, user_flags >> shift & 7)
    if user_flags & 1 << 22:                                                # CQ: ConnectorType
        read.take(16)
    transactional = bool(user_flags & 1 << 20)
    if transactional:                                                       # TH, MS-MQMQ 2.2.20.5
        read.take(32 if read.get("I") & 1 else 16)   # Flags read; CG: a ConnectorQMGuid follows the 16 octets
    if user_flags & 1 << 19:                                                # SH, MS-MQMQ 2.2.20.6
        _, sender_id, key, signature_size, cert, provider = read.get("HHHHII")
        for item in (sender_id, key, signature_size, cert, provider):
            read.take(item + -item % 4)
    if not user_flags & 1 << 21:
        raise Unreadable("no MessagePropertiesHeader")
    (_, label_length, message_class, correlation_id, _, app_specific, body_size, _, _, _, _,
     extension_size) = read.get("BBH20sIIIIIIII")                           # MS-MQMQ 2.2.19.3
    label = read.take(2 * label_length).decode("utf-16-le", errors="replace").split("\0")[0]
    read.take(extension_size)
    held = len(packet) - read.at
    if kind == FULL_PACKET and held < body_size:
        raise Unreadable("a full packet without its whole body")
    if kind == BINARY_FIRST and (held > body_size or alloc - size != body_size - held):
        raise Unreadable("a first section whose body does not agree with its sizes")   # MS-MQRR 2.2.6
    body = read.take(min(held, body_size))
    high = (7 - (flags & 7)) << 56 if transactional else 0   # MS-MQDMPR 3.1.7.1.9: the LookupIdentifier's top byte
    return {"body": base64.b64encode(body).decode("ascii"), "label": label, "lookup_id": high | sequence_id,
            "priority": flags & 7, "class": message_class, "app_specific": app_specific, "body_size": body_size,
            "message_id": (source + struct.pack("<I", message_number)).hex(), "correlation_id": correlation_id.hex()}


def skip_queue_name(read: Reader, code: int) -> None:
    """Past one queue of the UserHeader (MS-MQMQ 2.2.18.1.5, 2.2.18.1.7); the packet starts 4-aligned."""
    if code in (2, 3, 4):
        read.take(4)                               # PrivateQueueFormatNameId
    elif code == 5:
        read.take(16)                              # PublicQueueFormatName
    elif code == 6:
        read.take(20, 4)                           # PrivateQueueFormatName: a GUID, 4-aligned, and an id
    elif code == 7:
        read.take(read.get("H"))                   # DirectQueueFormatName: Count octets, then padding to 4
        read.take(-read.at % 4)


# -- the client (MS-MQRR 3.2) -------------------------------------------------------------------------
class OpenQueue:
    """MS-MQRR 3.2.1: a queue's handle, how it was opened, its cursors and the request ids used on it."""

    def __init__(self, handle: bytes, format_name: str, access: int, generation: int) -> None:
        self.handle, self.format_name, self.access, self.generation = handle, format_name, access, generation
        self.cursors: dict[str, int] = {}
        self.last_request = 0
        self.lock = threading.Lock()

    def request_id(self) -> int:
        with self.lock:                            # MS-MQRR 3.1.4.7:05: never one in use on this handle
            self.last_request += 1
            return self.last_request


class Client:
    def __init__(self, host: str, port: int) -> None:
        self.rpc = Association(host, port)
        self.client_id = uuid.uuid4().bytes_le     # MS-MQRR 3.1.4.2:03: one GUID for this client's life
        self.queues: dict[str, OpenQueue] = {}
        self.transactions: dict[str, bytes] = {}
        self.enlisted: set[bytes] = set()
        self.waiting: dict[str, tuple[str, int, str | None]] = {}   # request -> queue, dwRequestId, cursor
        self.lock = threading.Lock()

    # -- what every operation needs -----------------------------------------------------------------
    def queue(self, name: str) -> OpenQueue:
        opened = self.queues.get(name)
        if opened is None:
            raise Refusal(MQ_ERROR_INVALID_HANDLE, f"{name!r} is not open")
        if opened.generation != self.rpc.generation:
            del self.queues[name]                  # MS-MQRR 2.2.4:01: its association is gone, so is the handle
            raise Refusal(MQ_ERROR_INVALID_HANDLE, f"{name!r} was opened on a lost connection")
        return opened

    @staticmethod
    def receiving(opened: OpenQueue) -> None:
        if opened.access != RECEIVE_ACCESS:        # D-83; MS-MQRR 3.1.4.6:01, 3.1.4.7:02, 3.1.4.10:02, 3.1.4.14:02
            raise Refusal(MQ_ERROR_ACCESS_DENIED, "the queue was opened to peek only")

    def call(self, opnum: int, stub: Stub, **how) -> bytes:
        return self.rpc.call(opnum, stub, **how)

    def status_of(self, opnum: int, stub: Stub) -> int:
        """The status of a call whose outputs do not matter: a fault or a broken connection is one too."""
        try:
            return returned(self.call(opnum, stub))
        except Refusal as refusal:                 # MS-MQRR 3.1.4: every failure alike
            return refusal.status

    def opening(self, format_name: str, access: int, share: int) -> Stub:
        """The ten inputs of R_OpenQueue and R_OpenQueueForMove (MS-MQRR 3.1.4.2, 3.1.4.11)."""
        return (Stub().queue_format(queue_format(format_name)).put("II", access, share)
                .raw(self.client_id, 4)            # MS-MQRR 3.1.4.2:03
                .put("i", 1)                       # 3.1.4.2:05: fNonRoutingServer, this client routes nothing
                .put("BBH", *VERSION)              # 3.1.4.2:07: Major, Minor, BuildNumber
                .put("i", 1))                      # 3.1.4.2:08: fWorkgroup, this client is in no domain

    def enlist(self, transaction: str | None, format_name: str) -> bytes | None:
        """The XACTUOW of `transaction`, enlisted once before its first use (MS-MQRR 3.2.4.2:01, 3.1.4.12:02)."""
        if transaction is None:
            return None
        uow = self.transactions.get(transaction)
        if uow is None:
            raise Refusal(MQ_ERROR_TRANSACTION_USAGE, f"no transaction {transaction!r} was begun")
        if uow not in self.enlisted:
            token = b"MQRR" + uow + os.urandom(12)   # stands for the MS-DTCO propagation token
            stub = (Stub().raw(uow).put("I", len(token))                       # 3.1.4.12:03: its size given
                    .put("I", len(token)).raw(token).align(4).queue_format(queue_format(format_name)))
            status = self.status_of(R_ENLIST, stub)   # 3.1.4.12:04: naming the queue it is used with
            if status != MQ_OK:
                raise Refusal(status, "the transaction could not be enlisted")
            self.enlisted.add(uow)
        return uow

    # -- the operations (MS-MQRR 3.2.4) ---------------------------------------------------------------
    def open(self, queue: str, format_name: str, access: str = "receive", share: str = "deny_none", **_) -> dict:
        code = ACCESS[access]
        answer = self.call(R_OPEN_QUEUE, self.opening(format_name, code, SHARE[share]))   # 3.2.4.1:01
        handle = Reader(answer).take(20)           # a void method: a failure came as a fault (3.1.4.2:11)
        self.queues[queue] = OpenQueue(handle, format_name, code, self.rpc.generation)
        return {"status": MQ_OK}

    def close(self, queue: str, **_) -> dict:
        opened = self.queue(queue)
        self.cancel_waiting(queue)                 # MS-MQRR 3.2.4.13:01 SHOULD: waits cancelled, cursors closed
        for cursor in list(opened.cursors):
            self.close_cursor(cursor)
        status = self.status_of(R_CLOSE_QUEUE, Stub().handle(opened.handle))
        self.queues.pop(queue, None)               # 3.2.4.13:02: forgotten whatever R_CloseQueue said
        return {"status": status}

    def cursor(self, queue: str, cursor: str, **_) -> dict:
        opened = self.queue(queue)
        answer = self.call(R_CREATE_CURSOR, Stub().handle(opened.handle))
        status = returned(answer)
        if status == MQ_OK:                        # MS-MQRR 3.1.4.4:03: a failed call's hCursor is not one
            opened.cursors[cursor] = Reader(answer).get("I")   # 3.2.4.8:01
        return {"status": status}

    def cursor_owner(self, cursor: str) -> str:
        for name, opened in list(self.queues.items()):
            if cursor in opened.cursors:
                return name
        raise Refusal(MQ_ERROR_INVALID_HANDLE, f"no open cursor {cursor!r}")

    def close_cursor(self, cursor: str, **_) -> dict:
        queue = self.cursor_owner(cursor)
        opened = self.queue(queue)
        self.cancel_waiting(queue, cursor)         # MS-MQRR 3.2.4.12:01 SHOULD
        h_cursor = opened.cursors.pop(cursor)      # 3.2.4.12:02: forgotten, never used again (3.1.4.5:01)
        return {"status": self.status_of(R_CLOSE_CURSOR, Stub().handle(opened.handle).put("I", h_cursor))}

    def cancel_waiting(self, queue: str, cursor: str | None = None) -> None:
        with self.lock:
            reads = [(name, request_id) for name, (owner, request_id, on) in self.waiting.items()
                     if owner == queue and (cursor is None or on == cursor)]
        for _, request_id in reads:
            self.status_of(R_CANCEL_RECEIVE, Stub().handle(self.queues[queue].handle).put("I", request_id))

    def cancel(self, request: str, **_) -> dict:
        with self.lock:
            found = self.waiting.get(request)
        if found is None:
            raise Refusal(MQ_ERROR_INVALID_PARAMETER, f"no read {request!r} is waiting")
        queue, request_id, _ = found               # MS-MQRR 3.1.4.8:01, 3.2.4.11:01: its handle and dwRequestId
        return {"status": self.status_of(R_CANCEL_RECEIVE, Stub().handle(self.queue(queue).handle)
                                         .put("I", request_id))}

    def read(self, queue: str, *, peek: bool, timeout: int = 0, cursor: str | None = None, next: bool = False,
             lookup_id: int | None = None, seek: str = "current", transaction: str | None = None,
             max_body: int | None = None, max_compound: int | None = None, wait: str | None = None,
             sent=None, **_) -> dict:
        opened = self.queue(queue)
        if not peek:
            self.receiving(opened)                 # D-83
        h_cursor = opened.cursors[cursor] if cursor is not None else 0
        if lookup_id is not None:                  # MS-MQRR 3.1.4.7: a lookup waits for nothing
            action, timeout = (LOOKUP_PEEK if peek else LOOKUP_RECEIVE)[seek], 0
        elif peek:
            action = PEEK_NEXT if next else PEEK_CURRENT
        else:
            action = RECEIVE
        uow = None if peek else self.enlist(transaction, opened.format_name)   # MS-MQRR 3.2.4.4.2 step 1
        request_id = opened.request_id()
        stub = (Stub().handle(opened.handle).put("Q", lookup_id or 0)
                .put("IIII", h_cursor, action, timeout, request_id)
                .put("II", LARGEST if max_body is None else max_body,            # 3.1.4.7:06
                     LARGEST if max_compound is None else max_compound))         # 3.1.4.7:07
        if uow is not None:
            stub.raw(uow)                          # R_StartTransactionalReceive's pTransactionId
        seconds = None if timeout == 0xFFFFFFFF else timeout / 1000 + CALL_SECONDS
        if wait is not None:
            with self.lock:
                self.waiting[wait] = (queue, request_id, cursor)
        try:
            answer = self.call(R_START_RECEIVE if uow is None else R_START_TRANSACTIONAL_RECEIVE, stub,
                               timeout=seconds, sent=sent)
        finally:
            if wait is not None:
                with self.lock:
                    self.waiting.pop(wait, None)
        status = returned(answer)
        if status != MQ_OK:
            return {"status": status}              # MS-MQRR 3.1.4.7: nothing of a failed call is used
        try:
            message, ack = rebuild(*start_outputs(answer)), RR_ACK
        except (Unreadable, Garbled):
            message, ack = None, RR_NACK           # MS-MQRR 3.2.4.4.1:01 step 2, 3.1.4.9:03, 3.1.4.15:02
        if peek:
            return {"status": MQ_OK, "message": message} if message else {"status": MQ_ERROR}
        end = R_END_RECEIVE if uow is None else R_END_TRANSACTIONAL_RECEIVE
        ended = self.status_of(end, Stub().handle(opened.handle).put("II", ack, request_id))   # 3.1.4.7:01
        if message is None:
            return {"status": MQ_ERROR}            # the packet could not be rebuilt: a failure to the application
        if ended != MQ_OK:
            return {"status": ended}               # 3.2.4.4.2:01 step 5 (3.2.4.4.1:02 allows this too)
        return {"status": MQ_OK, "message": message}

    def purge(self, queue: str, **_) -> dict:
        opened = self.queue(queue)
        self.receiving(opened)                     # D-83; MS-MQRR 3.1.4.6:01
        return {"status": self.status_of(R_PURGE_QUEUE, Stub().handle(opened.handle))}   # 3.2.4.7:01

    def begin(self, transaction: str, **_) -> dict:
        uow = uuid.uuid4().bytes_le                # MS-MQRR 2.2.8:02: a unique random XACTUOW each time
        self.transactions[transaction] = uow
        return {"status": MQ_OK, "transaction_id": uow.hex()}

    def reject(self, queue: str, lookup_id: int, **_) -> dict:
        opened = self.queue(queue)
        self.receiving(opened)                     # MS-MQRR 3.1.4.14:02
        stub = Stub().handle(opened.handle).put("Q", lookup_id).put("H", NACK_RECEIVE_REJECTED)   # 3.2.4.5:01
        return {"status": self.status_of(R_SET_ACK_CLASS, stub)}

    def move(self, queue: str, lookup_id: int, to: str, transaction: str | None = None, **_) -> dict:
        opened = self.queue(queue)
        self.receiving(opened)                     # MS-MQRR 3.1.4.10:02
        uow = self.enlist(transaction, to) or bytes(16)   # 3.1.4.10:04: zeros, or an enlisted XACTUOW
        answer = self.call(R_OPEN_QUEUE_FOR_MOVE, self.opening(to, MOVE_ACCESS, SHARE["deny_none"]))  # 3.1.4.11:03
        read = Reader(answer)                      # a fault above: no move context to use (3.1.4.11:09)
        context, handle = read.get("Q"), read.take(20)
        stub = Stub().handle(opened.handle).put("QQ", context, lookup_id).raw(uow)      # 3.1.4.10:03
        status = self.status_of(R_MOVE_MESSAGE, stub)
        self.status_of(R_CLOSE_QUEUE, Stub().handle(handle))   # MS-MQRR 3.1.4.11: closed with R_CloseQueue
        return {"status": status}

    def bye(self, **_) -> dict:
        for queue in list(self.queues):
            with contextlib.suppress(Refusal):   # closed as far as it goes: the process ends anyway
                self.close(queue)
        self.rpc.close()
        return {"status": MQ_OK}


def start_outputs(answer: bytes) -> tuple[list, int]:
    """(the packet sections, pSequenceId) of a Start*Receive that returned MQ_OK (MS-MQRR 3.1.4.7, 2.2.6)."""
    read = Reader(answer)
    _, sequence_id, count, pointer = read.get("IQII")    # pdwArriveTime, pSequenceId (8-aligned), the count
    if not pointer:
        return [], sequence_id
    if read.get("I") != count:
        raise Unreadable("pdwNumberOfSections and the array's size disagree")
    heads = [read.get("HIII") for _ in range(count)]     # SectionType is a 2-octet enum in NDR 2.0
    sections = []
    for kind, alloc, size, buffer_pointer in heads:
        octets = read.take(read.get("I")) if buffer_pointer else b""
        sections.append((kind, alloc, size, octets))
    return sections, sequence_id & 0x00FFFFFFFFFFFFFF


# -- the shim protocol (docs/client-shim.md) ------------------------------------------------------------
class Shim:
    def __init__(self, output) -> None:
        self.output = output
        self.client: Client | None = None
        self.write_lock = threading.Lock()
        self.workers: list[threading.Thread] = []

    def write(self, reply: dict) -> None:
        with self.write_lock:
            self.output.write(json.dumps(reply) + "\n")
            self.output.flush()

    def serve(self, lines) -> int:
        for line in lines:
            if not line.strip():
                continue
            request = json.loads(line)
            number, op = request.get("id"), request.get("op")
            args = {key: value for key, value in request.items() if key not in ("id", "op")}
            if op == "hello":
                self.client = Client(args["server"], int(args["port"]))
                self.write({"id": number, "name": NAME, "version": list(VERSION), "workgroup": True,
                            "routing_server": False})
            elif op == "bye":
                self.write({"id": number, **self.run(op, args)})
                return 0
            elif args.get("wait") is not None:
                self.start_waiting(number, op, args)
            else:
                self.write({"id": number, **self.run(op, args)})
        return 0

    def start_waiting(self, number: int, op: str, args: dict) -> None:
        """Answer `pending` once the call is on its way (or over), the final reply when it is over."""
        announced = threading.Event()

        def announce() -> None:
            if not announced.is_set():
                self.write({"id": number, "pending": True})
                announced.set()

        def work() -> None:
            reply = self.run(op, dict(args, sent=announce))
            announce()
            self.write({"id": number, **reply})

        worker = threading.Thread(target=work, name=f"wait-{args['wait']}", daemon=True)
        self.workers.append(worker)
        worker.start()
        announced.wait()                           # the next request may be its cancel: the read goes first

    def run(self, op: str, args: dict) -> dict:
        client = self.client
        if client is None:
            return {"error": f"{op} before hello"}
        try:
            if op == "bye":
                reply = client.bye()
                for worker in self.workers:
                    worker.join(5)
                return reply
            if op in ("peek", "receive"):
                return client.read(peek=op == "peek", **args)
            if op in ("cursor_peek", "cursor_receive"):
                return client.read(client.cursor_owner(args["cursor"]), peek=op == "cursor_peek", **args)
            if op in ("open", "close", "cursor", "close_cursor", "cancel", "purge", "begin", "reject", "move"):
                return getattr(client, op)(**args)
        except Refusal as refusal:
            return {"status": refusal.status}
        except (Garbled, KeyError, TypeError, ValueError) as error:
            return {"error": f"{op}: {type(error).__name__}: {error}"}
        return {"unimplemented": f"{op}: no such operation in this client"}


def main() -> int:
    return Shim(sys.stdout).serve(sys.stdin)


if __name__ == "__main__":
    sys.exit(main())
