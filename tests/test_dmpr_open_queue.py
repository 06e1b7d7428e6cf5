"""MS-MQDMPR 3.1.7.1.5 Open Queue: format-name resolution, access checks for each kind of name,
multiple-element names (3.1.7.3.8), the three sharing rules, journal and system queues (D-15,
D-19, D-30)."""

from __future__ import annotations

import uuid

import pytest

from mqspec.reference.enumerations import QueueAccessType as A, QueueShareMode as M
from tests.conftest import COMPUTER, H, make_queue, open_descriptor

OK = H.MQ_OK
VIOLATION = H.MQ_ERROR_SHARING_VIOLATION
UNSUPPORTED = H.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION
NOT_FOUND = H.MQ_ERROR_QUEUE_NOT_FOUND
R, P, S, PA = A.ReceiveAccess, A.PeekAccess, A.SendAccess, A.PeekAdminAccess
NONE, DENY = M.DenyNone, M.DenyReceive


def guid(qm) -> uuid.UUID:
    return uuid.UUID(bytes_le=qm.identifier)


def status(qm, name, access=R, share=NONE):
    return qm.open_queue(name, access, share)[0]


# -- a successful open ------------------------------------------------------------------

def test_open_creates_a_descriptor(qm):
    """MS-MQDMPR:3.1.7.1.5 step 6 / MS-MQDMPR:3.1.1.16:01 / D-15: the descriptor records access,
    share mode, queue and format name, has QM-unique Handle and ContextValue and joins the
    queue's OpenQueueDescriptorCollection."""
    queue, fn = make_queue(qm)
    d1 = open_descriptor(qm, fn, P, DENY)
    d2 = open_descriptor(qm, fn, S)
    assert d1.access_type is P and d1.share_mode is DENY
    assert d1.queue_reference is queue and d1.format_name == fn and not d1.multiple
    assert d1.handle != d2.handle and d1.context_value != d2.context_value
    assert queue.open_queue_descriptor_collection == [d1, d2]
    assert qm.open_queue_descriptors[d1.handle] is d1


@pytest.mark.parametrize("form", ["direct", "direct-dot", "direct-tcp", "private", "lower"])
def test_every_name_form_of_a_local_queue(qm, form):
    """MS-MQDMPR:3.1.7.1.5:02 / MS-MQMQ:2.1.2:01 / MS-MQMQ:2.1.4:01 / MS-MQDMPR:3.1.7.1.5 step 4: DIRECT=OS / DIRECT=TCP / PRIVATE= names of this computer resolve to
    the queue; keywords are case-insensitive (MS-MQMQ 2.1)."""
    queue, fn = make_queue(qm)
    name = {
        "direct": fn,
        "direct-dot": "DIRECT=OS:.\\private$\\orders",
        "direct-tcp": "DIRECT=TCP:127.0.0.1\\private$\\orders",
        "private": f"PRIVATE={guid(qm)}\\{queue.private_queue_number:x}",
        "lower": "direct=os:MQSPEC\\PRIVATE$\\Orders",
    }[form]
    assert open_descriptor(qm, name).queue_reference is queue


def test_public_queue_by_guid(qm):
    """MS-MQDMPR:3.1.7.1.5:02 / MS-MQMQ:2.1.3:01 / MS-MQDMPR:3.1.7.1.5 step 4: PUBLIC=<queue guid> and its ;JOURNAL form."""
    status_, queue = qm.create_queue(f"{COMPUTER}\\pub")
    name = f"PUBLIC={uuid.UUID(bytes_le=queue.identifier)}"
    assert open_descriptor(qm, name).queue_reference is queue
    assert open_descriptor(qm, name + ";JOURNAL").queue_reference is queue.journal_queue_reference
    assert open_descriptor(qm, f"DIRECT=OS:{COMPUTER}\\pub").queue_reference is queue


@pytest.mark.parametrize("name", [
    f"DIRECT=OS:{COMPUTER}\\private$\\missing",
    "DIRECT=OS:elsewhere\\private$\\orders",              # D-19 another computer
    "DIRECT=TCP:10.9.9.9\\private$\\orders",
    "PRIVATE=11111111-2222-3333-4444-555555555555\\1",    # another queue manager
    "PUBLIC=11111111-2222-3333-4444-555555555555",
    f"DIRECT=OS:{COMPUTER}\\orders",                       # public name of a private queue
    f"DIRECT=OS:{COMPUTER}\\private$\\orders;nosuchsub",
])
@pytest.mark.parametrize("access", [R, P, S])
def test_queue_not_found(qm, name, access):
    """MS-MQDMPR:3.1.7.1.5:02 / D-19: a name that designates no queue of this QM gives
    MQ_ERROR_QUEUE_NOT_FOUND (for sending too: the reference has no outgoing queues)."""
    make_queue(qm)
    assert qm.open_queue(name, access, NONE) == (NOT_FOUND, None)


def test_private_number_of_other_manager_not_found(qm):
    """MS-MQDMPR:3.1.7.1.5:02 the right number with another computer GUID is not this queue."""
    queue, _ = make_queue(qm)
    other = uuid.UUID(int=guid(qm).int ^ 1)
    assert status(qm, f"PRIVATE={other}\\{queue.private_queue_number:x}") == NOT_FOUND
    assert status(qm, f"PRIVATE={guid(qm)}\\{queue.private_queue_number + 100:x}") == NOT_FOUND


def test_illegal_format_name(qm):
    """MS-MQDMPR:3.1.7.1.5:02 / MS-MQMQ:2.1.2:01 / MS-MQDMPR:3.1.7.1.5 step 1: a string that is no format name fails (MQ_ERROR_ILLEGAL_FORMATNAME)."""
    for name in ("", "orders", "DIRECT=", "FOO=bar", "PRIVATE=xyz\\1"):
        assert qm.open_queue(name, R, NONE) == (H.MQ_ERROR_ILLEGAL_FORMATNAME, None)


def test_distribution_list_is_unsupported(qm):
    """D-19: a DL= name gives MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION (no directory)."""
    assert status(qm, "DL=11111111-2222-3333-4444-555555555555", S) == UNSUPPORTED


# -- access rules per kind of name (MS-MQDMPR:3.1.7.1.5:03) ----------------------------------

@pytest.mark.parametrize("name", ["DIRECT=HTTP://mqspec/msmq/private$/orders",
                                  "DIRECT=HTTPS://mqspec/msmq/private$/orders",
                                  "MULTICAST=234.1.1.1:8001"])
@pytest.mark.parametrize("access", [R, P, PA, A.ReceiveAdminAccess, A.MoveAccess])
def test_http_and_multicast_names_only_send(qm, name, access):
    """MS-MQDMPR:3.1.7.1.5:03 HTTP/HTTPS direct names and multicast names allow only SendAccess."""
    make_queue(qm)
    assert status(qm, name, access) == UNSUPPORTED


@pytest.mark.parametrize("name", ["DIRECT=HTTP://mqspec/msmq/private$/orders", "MULTICAST=234.1.1.1:8001"])
def test_http_and_multicast_send_passes_the_access_check(qm, name):
    """MS-MQDMPR:3.1.7.1.5:03 / D-19: SendAccess passes the check; the name then does not resolve to
    a local queue (no outgoing queues here)."""
    assert status(qm, name, S) == NOT_FOUND


@pytest.mark.parametrize("suffix", ["JOURNAL", "DEADLETTER", "DEADXACT"])
def test_machine_names_never_send(qm, suffix):
    """MS-MQDMPR:3.1.7.1.5:03 a machine format name with SendAccess:
    MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION; reading it is fine."""
    assert status(qm, f"MACHINE={guid(qm)};{suffix}", S) == UNSUPPORTED
    assert status(qm, f"MACHINE={guid(qm)};{suffix}", R) == OK


# -- journal and system queues (MS-MQMQ 2.1, D-30) ----------------------------------------------

def test_system_queues_through_machine_names(qm):
    """MS-MQMQ:2.1.6:01 / MS-MQDMPR:3.1.3:01 / MS-MQDMPR:3.1.7.1.5 step 4 (MS-MQMQ 2.1.6): MACHINE=<guid>;JOURNAL / ;DEADLETTER /
    ;DEADXACT are the system journal, dead-letter and transactional dead-letter queues."""
    g = guid(qm)
    assert open_descriptor(qm, f"MACHINE={g};JOURNAL").queue_reference is qm.system_journal_queue
    assert open_descriptor(qm, f"machine={g};deadletter").queue_reference is qm.system_deadletter_queue
    assert open_descriptor(qm, f"MACHINE={g};DEADXACT").queue_reference is qm.system_transactional_deadletter_queue
    assert status(qm, f"MACHINE={uuid.UUID(int=g.int ^ 1)};JOURNAL") == NOT_FOUND


def test_system_queues_through_direct_names(qm):
    """MS-MQMQ:2.1.2:01 / MS-MQDMPR:3.1.3:01 / MS-MQDMPR:3.1.7.1.5 step 4 (MS-MQMQ 2.1.2): DIRECT=...\\SYSTEM$;suffix."""
    assert open_descriptor(qm, f"DIRECT=OS:{COMPUTER}\\SYSTEM$;JOURNAL").queue_reference is qm.system_journal_queue
    assert open_descriptor(qm, "DIRECT=TCP:127.0.0.1\\SYSTEM$;DEADLETTER").queue_reference is qm.system_deadletter_queue
    assert open_descriptor(qm, f"DIRECT=OS:{COMPUTER}\\system$;deadxact").queue_reference is \
        qm.system_transactional_deadletter_queue


def test_queue_journal_through_suffix(qm):
    """MS-MQDMPR:3.1.7.1.3:02 / MS-MQMQ:2.1.4:01 / MS-MQDMPR:3.1.7.1.5 step 4: <name>;JOURNAL opens the queue's own journal queue, for DIRECT
    and PRIVATE names."""
    queue, fn = make_queue(qm)
    journal = queue.journal_queue_reference
    assert open_descriptor(qm, fn + ";JOURNAL").queue_reference is journal
    assert open_descriptor(qm, f"PRIVATE={guid(qm)}\\{queue.private_queue_number:08x};journal").queue_reference is journal


@pytest.mark.parametrize("name", [
    "DIRECT=OS:mqspec\\private$\\orders;JOURNAL", "DIRECT=OS:mqspec\\SYSTEM$;JOURNAL",
    "DIRECT=OS:mqspec\\SYSTEM$;DEADLETTER", "DIRECT=OS:mqspec\\SYSTEM$;DEADXACT",
    "DIRECT=OS:mqspec\\private$\\orders;JOURNAL,DIRECT=OS:mqspec\\private$\\other",
])
def test_read_only_queues_refuse_send(qm, name):
    """D-30: opening a journal, dead-letter or other system queue for sending (also inside a
    multiple-element name) gives MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION."""
    make_queue(qm)
    make_queue(qm, "other")
    assert qm.open_queue(name, S, NONE) == (UNSUPPORTED, None)


@pytest.mark.parametrize("access", [R, P])
def test_machine_name_without_suffix_is_refused(qm, access):
    """D-71 / MS-MQDMPR:3.1.7.1.5:02 / MS-MQMQ:2.2.7:02: MACHINE=<guid> with no ;JOURNAL /
    ;DEADLETTER / ;DEADXACT designates no queue: opening it for reading gives
    MQ_ERROR_QUEUE_NOT_FOUND (it used to raise KeyError)."""
    assert qm.open_queue(f"MACHINE={guid(qm)}", access, NONE) == (NOT_FOUND, None)
    assert qm.open_queue(f"MACHINE={guid(qm)}", S, NONE) == (UNSUPPORTED, None)


# -- multiple-element names (MS-MQDMPR:3.1.7.1.5:01, 3.1.7.3.8:01) ------------------------------

@pytest.fixture
def two(qm):
    qa, fa = make_queue(qm, "a")
    qb, fb = make_queue(qm, "b")
    return qa, fa, qb, fb


@pytest.mark.parametrize("access", [R, P, PA, A.MoveAccess, A.ReceiveAdminAccess])
def test_multiple_element_names_only_send(qm, two, access):
    """MS-MQDMPR:3.1.7.1.5:01 a multiple-element name opened for anything but sending:
    MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION."""
    qa, fa, qb, fb = two
    assert qm.open_queue(f"{fa},{fb}", access, NONE) == (UNSUPPORTED, None)
    assert not qa.active and not qb.active


def test_multiple_element_names_only_deny_none(qm, two):
    """MS-MQDMPR:3.1.7.1.5:01 a multiple-element name with DenyReceive: MQ_ERROR_UNSUPPORTED_ACCESS_MODE."""
    qa, fa, qb, fb = two
    assert qm.open_queue(f"{fa},{fb}", S, DENY) == (H.MQ_ERROR_UNSUPPORTED_ACCESS_MODE, None)


def test_multiple_element_descriptor(qm, two):
    """MS-MQDMPR:3.1.7.1.5:01 / MS-MQDMPR:3.1.1.16:02 the parent is Multiple, SendAccess, DenyNone,
    with NULL QueueReference, and holds one child descriptor per element."""
    qa, fa, qb, fb = two
    status_, parent = qm.open_queue(f"{fb},{fa}", S, NONE)
    assert status_ == OK
    assert parent.multiple and parent.queue_reference is None
    assert parent.access_type is S and parent.share_mode is NONE
    assert [c.queue_reference for c in parent.open_queue_descriptor_collection] == [qa, qb]
    assert all(not c.multiple and c.open_queue_descriptor_collection == []
               for c in parent.open_queue_descriptor_collection)
    assert parent.format_name == f"{fa},{fb}"  # sorted (3.1.7.3.8)


def test_multiple_element_duplicates_removed(qm, two):
    """MS-MQDMPR:3.1.7.3.8:01 duplicates (case-insensitive) are removed; a name that reduces to
    one element opens as a single queue."""
    qa, fa, qb, fb = two
    status_, parent = qm.open_queue(f"{fa},{fb},{fa.upper()},{fb}", S, NONE)
    assert status_ == OK and len(parent.open_queue_descriptor_collection) == 2
    status_, single = qm.open_queue(f"{fa},{fa.lower()}", S, NONE)
    assert status_ == OK and not single.multiple and single.queue_reference is qa


def test_multiple_element_failure_closes_what_was_opened(qm, two):
    """MS-MQDMPR:3.1.7.1.5:01 / MS-MQDMPR:3.1.7.1.5 step 2: an element that fails to open fails the whole open, and the
    parent (with the children opened so far) is closed."""
    qa, fa, qb, fb = two
    missing = f"DIRECT=OS:{COMPUTER}\\private$\\zzz"
    before = dict(qm.open_queue_descriptors)
    assert qm.open_queue(f"{fa},{fb},{missing}", S, NONE) == (NOT_FOUND, None)
    assert not qa.active and not qb.active
    assert qm.open_queue_descriptors == before


# -- sharing rules (MS-MQDMPR:3.1.7.1.5:04 - 06, D-15) -----------------------------------------

# (existing access, existing share, new access, new share, expected)
SHARING = [
    # rule 1: an existing Receive + DenyReceive
    (R, DENY, R, NONE, VIOLATION), (R, DENY, R, DENY, VIOLATION), (R, DENY, P, DENY, VIOLATION),
    (R, DENY, S, DENY, VIOLATION), (R, DENY, P, NONE, OK), (R, DENY, S, NONE, OK),
    # rule 2: an existing Peek / PeekAdmin + DenyReceive
    (P, DENY, R, NONE, VIOLATION), (P, DENY, R, DENY, VIOLATION), (PA, DENY, R, NONE, VIOLATION),
    (P, DENY, P, DENY, OK), (P, DENY, P, NONE, OK), (P, DENY, S, NONE, OK), (PA, DENY, P, DENY, OK),
    # rule 3: an existing Receive + DenyNone
    (R, NONE, R, DENY, VIOLATION), (R, NONE, P, DENY, VIOLATION), (R, NONE, S, DENY, VIOLATION),
    (R, NONE, R, NONE, OK), (R, NONE, P, NONE, OK),
    # no rule applies
    (P, NONE, R, DENY, OK), (S, NONE, R, DENY, OK), (S, DENY, R, DENY, OK), (P, NONE, R, NONE, OK),
]


@pytest.mark.parametrize("old_access, old_share, new_access, new_share, expected", SHARING,
                         ids=[f"{a.name}+{b.name}->{c.name}+{d.name}" for a, b, c, d, _ in SHARING])
def test_sharing_rules(qm, old_access, old_share, new_access, new_share, expected):
    """MS-MQDMPR:3.1.7.1.5:04 / 3.1.7.1.5:05 / 3.1.7.1.5:06 / D-15: the sharing rules against the
    descriptors already open, first matching rule wins; a refused open creates no descriptor."""
    queue, fn = make_queue(qm)
    open_descriptor(qm, fn, old_access, old_share)
    result, descriptor = qm.open_queue(fn, new_access, new_share)
    assert result == expected
    assert (descriptor is None) == (expected != OK)
    assert len(queue.open_queue_descriptor_collection) == (2 if expected == OK else 1)


def test_first_matching_rule_wins(qm):
    """MS-MQDMPR:3.1.7.1.5:05 / MS-MQDMPR:3.1.7.1.5:06 / MS-MQDMPR:3.1.7.1.5 step 5 (digest: first matching rule wins): with a Peek+DenyReceive
    descriptor present rule 2 decides, so a Peek+DenyReceive open succeeds although rule 3 (an
    existing Receive+DenyNone descriptor) would refuse it. The pair cannot arise through Open Queue
    itself, so the second descriptor is attached directly."""
    queue, fn = make_queue(qm)
    open_descriptor(qm, fn, R, NONE)
    queue.attach(qm._new_descriptor(P, DENY, queue, fn))
    assert status(qm, fn, P, DENY) == OK
    assert status(qm, fn, R, NONE) == VIOLATION  # rule 2 refuses a receiver


def test_sharing_is_per_queue_and_ends_with_close(qm):
    """MS-MQDMPR:3.1.7.1.5:04 / MS-MQDMPR:3.1.7.1.5 step 5 / 3.1.7.1.6:02: only the same queue's descriptors count, and a
    closed descriptor no longer does."""
    queue, fn = make_queue(qm)
    other, other_fn = make_queue(qm, "other")
    exclusive = open_descriptor(qm, fn, R, DENY)
    assert status(qm, other_fn, R, DENY) == OK
    assert status(qm, fn, R, NONE) == VIOLATION
    qm.close_queue(exclusive)
    assert status(qm, fn, R, NONE) == OK


def test_sharing_applies_to_journal_queues(qm):
    """MS-MQDMPR:3.1.7.1.5:04 / MS-MQDMPR:3.1.7.1.5 step 5 applies to whatever queue the name resolves to."""
    queue, fn = make_queue(qm)
    open_descriptor(qm, fn + ";JOURNAL", R, DENY)
    assert status(qm, fn + ";JOURNAL", R, NONE) == VIOLATION
    assert status(qm, fn, R, NONE) == OK
