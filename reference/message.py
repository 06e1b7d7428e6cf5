"""The Message ADM element (MS-MQDMPR 3.1.1.12).

A Message holds what a sender set and what the queue manager stamped on it.  It
is kept small because a million of them may be queued: the attributes every
event reads are slots; the rarely used ones live in `extra` (a dict, or None)
and are read through properties with their specification defaults.
"""

from __future__ import annotations

from mqspec.protocol.constants import INFINITE, AcknowledgementsRequested, MessageClass

from .enumerations import DeliveryGuarantee, PrivacyLevel

DEFAULT_PRIORITY = 3  # MS-MQDMPR:3.1.1.12:02 priority 0..7, default 3
DEFAULT_TIME_TO_REACH_QUEUE = 0x54600  # MS-MQDMPR:3.1.1.12:07 four days
LABEL_MAX_CHARS = 249  # MS-MQDMPR:3.1.1.12:06
NULL_IDENTIFIER = bytes(20)  # OBJECTID with GUID_NULL lineage and uniquifier 0

# Rare attributes and their defaults (MS-MQDMPR 3.1.1.12, MS-MQRR 2.2.5.3).
EXTRA_DEFAULTS = {
    "application_deadletter_queue": "",
    "authentication_level": 0,
    "tracing_requested": False,
    "final_ack_required": False,
    "first_in_transaction": False,
    "last_in_transaction": False,
    "transaction_sequence_number": 0,
    "transaction_previous_sequence_number": 0,
    "soap_envelope": None,        # str: the SRMP envelope (MS-MQRR 2.2.5.1.2.1)
    "soap_compound_message": None,  # bytes: the SRMP compound message (MS-MQRR 2.2.5.1.2.2)
    "soap_body_offset": 0,         # where the message body starts inside soap_compound_message
    "abort_counter": 0,
    "move_counter": 0,
    "last_move_time": 0,           # milliseconds since 1970, 0 if never moved
    "subqueue_name": "",
    "target_subqueue_name": "",
    "deadletter_path_name": None,
    "transaction_header_id": 0,    # TransactionHeader.Flags.ID, unique per transaction (MS-MQMQ 2.2.20.5)
    "acknowledgement_class": 0,    # SubqueueHeader.AcknowledgementClass (MS-MQRR 2.2.5.3)
    "destination_multi_queue_format_name": "",  # MS-MQDMPR 3.1.7.1.27, set on copies only under D-67 mqf-header
    # What a SecurityHeader and a MessagePropertiesHeader carried in (MS-MQDMPR 3.1.7.1.31), for the packet
    # a read returns (reference/security_header.py); None: the sender named none and the default applies (D-97)
    "hash_algorithm": None,
    "encryption_algorithm": None,
    "security_header_flags": None,  # MS-MQMQ 2.2.20.6 Flags as received, None when no SecurityHeader came
    "sender_identifier_type": 0,    # SecurityHeader.Flags.ST: 0 None, 1 Sid, 2 QueueManagerIdentifier
    "sender_identifier": b"",
    "symmetric_key": b"",
    "sender_certificate": b"",
    "authentication_provider_type": 0,
    "authentication_provider_name": None,  # None: the SecurityHeader had no ProviderInfo
}


class Message:
    # Slots in order of use on the enqueue/receive path: the first ones share a cache line.
    __slots__ = (
        "lookup_identifier", "size", "delivery_guarantee", "acknowledgements_requested",
        "positive_journaling_requested", "negative_journaling_requested", "message_position_reference",
        "priority", "time_to_be_received", "time_to_reach_queue", "sent_time", "arrival_time",
        "transactional_message_sequence_identifier", "extra", "label", "body", "extension",
        "administration_queue_format_name", "response_queue_format_name", "destination_queue_format_name",
        "identifier", "message_class", "correlation_identifier", "application_tag", "body_type",
        "privacy_level", "allow_peek_when_locked", "transaction_identifier",
    )

    def __init__(self, body: bytes = b"", *, label: str = "", priority: int = DEFAULT_PRIORITY,
                 delivery_guarantee: DeliveryGuarantee = DeliveryGuarantee.Express,
                 message_class: int = MessageClass.MQMSG_CLASS_NORMAL,
                 acknowledgements_requested: int = AcknowledgementsRequested.NONE,
                 administration_queue_format_name: str = "",
                 response_queue_format_name: str = "",
                 destination_queue_format_name: str = "",
                 time_to_reach_queue: int = DEFAULT_TIME_TO_REACH_QUEUE,
                 time_to_be_received: int = INFINITE,
                 sent_time: int = 0, identifier: bytes = NULL_IDENTIFIER,
                 extension: bytes = b"", correlation_identifier: bytes = NULL_IDENTIFIER,
                 application_tag: int = 0, body_type: int = 0,
                 privacy_level: PrivacyLevel = PrivacyLevel.None_,
                 allow_peek_when_locked: bool = False,
                 positive_journaling_requested: bool = False,
                 negative_journaling_requested: bool = False,
                 transactional_message_sequence_identifier: bytes | None = None,
                 extra: dict | None = None) -> None:
        self.lookup_identifier = 0
        self.identifier = identifier
        self.priority = priority
        self.delivery_guarantee = delivery_guarantee
        self.message_class = message_class
        self.acknowledgements_requested = acknowledgements_requested
        self.administration_queue_format_name = administration_queue_format_name
        self.response_queue_format_name = response_queue_format_name
        self.destination_queue_format_name = destination_queue_format_name
        self.time_to_reach_queue = time_to_reach_queue
        self.time_to_be_received = time_to_be_received
        self.sent_time = sent_time
        self.arrival_time = 0
        self.body = body
        self.label = label
        self.extension = extension
        self.correlation_identifier = correlation_identifier
        self.application_tag = application_tag
        self.body_type = body_type
        self.privacy_level = privacy_level
        self.allow_peek_when_locked = allow_peek_when_locked
        self.positive_journaling_requested = positive_journaling_requested
        self.negative_journaling_requested = negative_journaling_requested
        self.transactional_message_sequence_identifier = transactional_message_sequence_identifier
        self.transaction_identifier = None
        self.size = 0
        self.message_position_reference = None
        self.extra = extra

    def get(self, name: str):
        """A rare attribute, or its default."""
        extra = self.extra
        if extra is not None and name in extra:
            return extra[name]
        return EXTRA_DEFAULTS[name]

    def set(self, name: str, value) -> None:
        if name not in EXTRA_DEFAULTS:
            raise KeyError(name)
        if self.extra is None:
            self.extra = {}
        self.extra[name] = value

    @property
    def is_recoverable(self) -> bool:
        return self.delivery_guarantee == DeliveryGuarantee.Recoverable

    @property
    def is_transactional(self) -> bool:
        return self.transactional_message_sequence_identifier is not None

    @property
    def is_srmp(self) -> bool:
        # MS-MQRR:2.2.5.1:05 an SRMP message carries both the envelope and the compound message
        return self.get("soap_envelope") is not None and self.get("soap_compound_message") is not None

    @property
    def source_machine_identifier(self) -> bytes:
        # The OBJECTID lineage is the GUID of the queue manager that accepted the message.
        return self.identifier[:16]

    def copy(self) -> "Message":
        """A new Message with the same attributes, not yet in any queue."""
        twin = Message.__new__(Message)
        for name in Message.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.lookup_identifier = 0
        twin.message_position_reference = None
        twin.transaction_identifier = None
        twin.extra = dict(self.extra) if self.extra else None
        return twin

    def __repr__(self) -> str:
        return (f"Message(lookup_identifier=0x{self.lookup_identifier:016X}, priority={self.priority}, "
                f"label={self.label!r}, body={len(self.body)} bytes)")
