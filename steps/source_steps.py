"""Steps about where a message comes from: the queue manager that sent it and when it was sent.

    Given another queue manager "low" whose GUID is {a GUID} with an MS-MQQB session to the target
    Then every copy of "m1" in "the dead-letter queue" was sent about now
    Then the TxSequenceIDs of "x1", "x2" and "x3" never go down in Ordinal or TimeStamp

A message's Identifier carries the GUID of the queue manager that accepted it (MS-MQMQ 2.2.18.1.3), and
MS-MQDMPR 3.1.1.12 journals it in that source queue manager's queues.  A random GUID lets a server that
orders GUIDs where it should only compare them pass by chance; a GUID at each end of the range does not.
The session is set up as `another queue manager "remote" with an MS-MQQB session to the target` does.
A journal or dead-letter copy is the message as it was sent, so its SentTime is the original's
(MS-MQMQ 2.2.19.2); "every copy" holds of none, for the readings under which no copy is made.
A TxSequenceID is two numbers that only grow, Ordinal and TimeStamp (MS-MQMQ 2.2.18.1.2): the messages
are named in the order their transactions ran, and each field is compared with the one before.
"""

from __future__ import annotations

import struct
import time
import uuid

from pytest_bdd import given, then

from .mqqb_steps import open_session
from .packet_steps import _raw
from .phrases import LABELS, phrase
from .transaction_steps import _copies
from .values import labels

GUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
ABOUT_NOW = 15 * 60  # seconds: the target's clock and the suite's may differ, as packet_steps allows


@given(phrase('another queue manager "{remote}" whose GUID is {guid} with an MS-MQQB session to the target',
              guid=GUID))
def peer_with_guid(world, remote, guid, request):
    # laid out as Peer keeps a random one: a GUID structure's bytes
    open_session(world, remote, request, guid=uuid.UUID(guid).bytes_le)


@then(phrase('every copy of "{label}" in "{alias}" was sent about now'))
def copies_sent_about_now(world, label, alias):
    now = time.time()
    for copy in _copies(world, alias, label):
        assert abs(copy.sent_time - now) < ABOUT_NOW, \
            f"the copy of {label!r} in {alias!r} has SentTime {copy.sent_time}, the test's clock says {int(now)}"


@then(phrase("the TxSequenceIDs of {names} never go down in Ordinal or TimeStamp", names=LABELS))
def sequences_never_go_down(world, names):
    before = None
    for label in labels(names):
        raw = _raw(world, label)
        assert "tx sequence id" in raw, f"the packet of {label!r} has no TransactionHeader"
        ordinal, stamp = struct.unpack("<II", raw["tx sequence id"])  # MS-MQMQ 2.2.18.1.2 Ordinal, then TimeStamp
        if before is not None:
            assert ordinal >= before[1] and stamp >= before[2], \
                (f"{before[0]!r} has Ordinal 0x{before[1]:08X} and TimeStamp 0x{before[2]:08X}, the later {label!r} "
                 f"Ordinal 0x{ordinal:08X} and TimeStamp 0x{stamp:08X}")
        before = (label, ordinal, stamp)
