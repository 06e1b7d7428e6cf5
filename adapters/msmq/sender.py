"""The suite's sending queue manager: one MS-MQQB session to the host's port 1801, as an initiator.

Theory of operation
-------------------
A Windows host takes messages from another queue manager over MS-MQQB and from nothing else
a network client can reach, so the msmq:// target sends every message of a scene as such a
queue manager would: it opens a TCP connection to the host's MS-MQQB port (MS-MQQB 2.1.1),
writes an EstablishConnection (3.1.5.2.3) naming the NULL GUID as the server (the host's is
not known yet) and reads the host's GUID from the answer's ServerGuid (2.2.3.1), then, when
the answer accepted it, ConnectionParameters (3.1.5.3.2).  A host that refuses a NULL server
GUID (CS set) is asked again on a new connection with the GUID it just named.

UserMessages are written with the suite's own packet writer (adapters/mqqb/packets.py; written
from the field tables alone, it shares nothing with the reference), each with the next
MessageID of this session (MS-MQQB 3.1.1.3).  What the host sends back on the session
(SessionAcks, OrderAcks, FinalAcks under D-76 same-session) is read before each send and let go:
the scenarios judge a host's acknowledgments on sessions of their own peers (steps/mqqb_steps.py),
so the host's packets here are not acknowledged (it may send them again).
"""

from __future__ import annotations

import struct
import time
import uuid

from ..mqqb.packets import (
    Outgoing,
    Received,
    Stream,
    connection_parameters,
    decode,
    establish_connection,
    user_message,
)

from ..mqqb.tcp import TcpMqqbConnection

NULL_GUID = bytes(16)
CS_REFUSED = 0x10                        # MS-MQQB 2.2.1 InternalHeader.Flags.CS
RECOVERABLE_ACK_TIMEOUT, ACK_TIMEOUT, WINDOW = 500, 20_000, 64  # MS-MQQB 2.2.2.1 the smallest time-outs allowed
HANDSHAKE_WAIT_MS = 5000


class SessionError(ConnectionError):
    """The host's MS-MQQB port did not take a session; the message says why in one line."""


class MqqbSender:
    """One session to `host:port`; `guid` is the suite's queue manager GUID (MS-MQQB 3.1.1.3 RemoteQMGuid to the
    host), `host_guid` the host's, learnt from its answer."""

    def __init__(self, host: str, port: int, guid: bytes, timeout: float = 5.0) -> None:
        self.host, self.port, self.guid, self.timeout = host, port, guid, timeout
        self._ordinal = 0
        self._tx_sequence_id = struct.pack("<II", 1, int(time.time()) & 0xFFFFFFFF)  # MS-MQMQ 2.2.18.1.2
        self._tx_number = 0
        self.host_guid = self._open(NULL_GUID)

    def _open(self, server: bytes) -> bytes:
        try:
            self._connection = TcpMqqbConnection(self.host, self.port, self.timeout)
        except OSError as error:
            raise SessionError(f"nothing takes MS-MQQB sessions at {self.host}:{self.port} ({error.strerror or error})"
                               "; give the host's port as mqqb_port=N (Windows: 1801)") from None
        self._stream = Stream()
        self._connection.send(establish_connection(self.guid, server, int(time.monotonic() * 1000)))
        answer = self._expect("EstablishConnection")
        host_guid = bytes(answer.fields[1])   # MS-MQQB 2.2.3.1 ServerGuid: the acceptor's own
        if answer.internal_flags & CS_REFUSED:
            self._connection.close()
            if server == NULL_GUID and host_guid != NULL_GUID:
                return self._open(host_guid)   # a host that wants its own GUID named: it just told us
            raise SessionError(f"{self.host}:{self.port} refused the MS-MQQB session (EstablishConnection CS)")
        self._connection.send(connection_parameters(RECOVERABLE_ACK_TIMEOUT, ACK_TIMEOUT, WINDOW))
        self._expect("ConnectionParameters")
        return host_guid

    def _expect(self, kind: str) -> Received:
        deadline = time.monotonic() + HANDSHAKE_WAIT_MS / 1000
        while time.monotonic() < deadline and not self._connection.seen_closed:
            for packet in self._take(HANDSHAKE_WAIT_MS):
                if packet.kind == kind:
                    return packet
        raise SessionError(f"{self.host}:{self.port} sent no {kind} answer on MS-MQQB"
                           + (" and closed the connection" if self._connection.seen_closed else ""))

    def _take(self, wait_ms: int) -> list[Received]:
        packets = [decode(packet) for packet in self._stream.feed(self._connection.receive(wait_ms))]
        if self._stream.broken:
            raise SessionError(f"{self.host}:{self.port}: {self._stream.broken}")
        return packets

    def next_message_id(self) -> int:
        self._ordinal += 1
        return self._ordinal

    def next_transaction(self) -> tuple:
        """A TransactionHeader of the suite's one sequence: (FA, TxSequenceID, number, previous) (MS-MQMQ 2.2.20.5)."""
        self._tx_number += 1
        return (False, self._tx_sequence_id, self._tx_number, self._tx_number - 1)

    def send(self, out: Outgoing) -> None:
        """Write one UserMessage; a closed session is opened again first (MS-MQQB 3.1.5.9: the host may close an
        idle one)."""
        self.poll()
        if self._connection.seen_closed:
            self._open(self.host_guid)
        self._connection.send(user_message(out))

    def poll(self) -> list[Received]:
        """What the host sent on the session since the last look (its SessionAcks, and its OrderAcks and FinalAcks
        under D-76 same-session), read so that it never waits on the suite; none is acknowledged."""
        return self._take(0)

    def close(self) -> None:
        self._connection.close()


def suite_guid() -> bytes:
    """The GUID of the queue manager the suite plays, new for each target (MS-MQQB 3.1.1.3)."""
    return uuid.uuid4().bytes_le
