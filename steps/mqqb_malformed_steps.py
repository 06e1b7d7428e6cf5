"""Steps that send a packet breaking one structure rule of MS-MQQB 2 or MS-MQMQ 2.2.19 - 2.2.20, whole.

    When "bad" sends a SessionAck whose PacketSize is 24
    Then the target closed the session of "bad"

Each shape is the suite's right packet with one field made wrong (MS-MQQB 3.1.5.1.3: the receiver
discards it and closes the session): a PacketSize below the BaseHeader's 16 bytes or above
MS-MQMQ 2.2.19.1's 4 MB (only the BaseHeader is sent: its PacketSize alone is wrong), a SessionAck
framed with neither 20 nor 36 (D-85), an InternalHeader packet type MS-MQQB 2.2.1 does not define,
a SessionAck without the SH flag its type needs (3.1.5.1.1), a UserMessage too short for the headers
every one has, and EstablishConnection or ConnectionParameters requests of the wrong length
(2.2.3: 512 bytes of padding; 2.2.2: 12 bytes of ConnectionParametersHeader).
"""

from __future__ import annotations

import struct
import time

from pytest_bdd import when

from ..adapters.mqqb.packets import IN, SH, connection_parameters, establish_connection, session_ack
from .mqqb_steps import ACK_TIMEOUT, RECOVERABLE_ACK_TIMEOUT, WINDOW, _peer
from .phrases import phrase
from .world import World

SHAPES = ("a packet whose PacketSize is 12", "a packet whose PacketSize is 0x00400004",
          "a packet whose PacketSize is 0x00400001",
          "a SessionAck whose PacketSize is 24", "an internal packet of type 5", "a SessionAck without the SH flag",
          "a UserMessage whose PacketSize is 32", "an EstablishConnection request without its padding",
          "an EstablishConnection request 4 bytes too long", "a ConnectionParameters request 4 bytes too long",
          "an internal packet whose PacketSize is 16", "a SessionAck without the SH flag, with the reserved flag X9",
          "a UserMessage of the three fixed headers alone")


def _with_size(packet: bytes, size: int) -> bytes:
    return packet[:8] + struct.pack("<I", size) + packet[12:]


def _shape(world: World, remote: str, shape: str) -> bytes:
    peer = _peer(world, remote)
    target = world.target.queue_manager_identifier
    request = establish_connection(peer.guid, target, int(time.monotonic() * 1000))
    ack = session_ack(0, 0, 0, peer.ordinal, peer.recoverable_sent, WINDOW)
    base = struct.pack("<BBHIII", 0x10, 0, 0, 0x524F494C, 16, 0xFFFFFFFF)   # MS-MQMQ 2.2.19.1, flags 0
    shapes = {
        "a packet whose PacketSize is 12": _with_size(base, 12),
        "a packet whose PacketSize is 0x00400004": _with_size(base, 0x00400004),
        "a packet whose PacketSize is 0x00400001": _with_size(base, 0x00400001),
        "a SessionAck whose PacketSize is 24": _with_size(ack, 24),
        "an internal packet of type 5": ack[:16] + struct.pack("<HH", 0, 5) + ack[20:],
        "a SessionAck without the SH flag": _with_size(ack[:2] + struct.pack("<H", IN) + ack[4:], len(ack)),
        "a UserMessage whose PacketSize is 32": _with_size(base, 32) + bytes(16),
        "an internal packet whose PacketSize is 16": _with_size(base[:2] + struct.pack("<H", IN) + base[4:], 16),
        "a SessionAck without the SH flag, with the reserved flag X9": _with_size(
            ack[:2] + struct.pack("<H", IN | 0x0040) + ack[4:], len(ack)),
        # MS-MQMQ 2.2.20: BaseHeader, a 48-byte UserHeader (DQ 0: no queue, MP) and a MessagePropertiesHeader, 120 bytes
        "a UserMessage of the three fixed headers alone": _with_size(base, 120) + peer.guid + target
        + struct.pack("<IIII", 0xFFFFFFFF, int(time.time()), peer.ordinal + 1, 1 << 21) + bytes(56),
        "an EstablishConnection request without its padding": _with_size(request[:-512], len(request) - 512),
        "an EstablishConnection request 4 bytes too long": _with_size(request + bytes(4), len(request) + 4),
        "a ConnectionParameters request 4 bytes too long": _with_size(
            connection_parameters(RECOVERABLE_ACK_TIMEOUT, ACK_TIMEOUT, WINDOW) + bytes(4),
            len(connection_parameters(RECOVERABLE_ACK_TIMEOUT, ACK_TIMEOUT, WINDOW)) + 4),
    }
    assert SH & struct.unpack_from("<H", ack, 2)[0], "the SessionAck the shapes start from has SH"
    return shapes[shape]


@when(phrase('"{remote}" sends {shape}', shape="|".join(SHAPES)))
def sends_malformed(world: World, remote, shape):
    """MS-MQQB 3.1.5.1.3: one packet with one structure rule broken, then a moment for the target to act on it."""
    peer = _peer(world, remote)
    peer.send(_shape(world, remote, shape))
    peer.collect(300, move_clock=False)
