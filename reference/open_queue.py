"""Open Queue, Close Queue and Enqueue Message To An Open Queue (MS-MQDMPR 3.1.7.1.5,
3.1.7.1.6, 3.1.7.1.27), with format-name resolution against this queue manager.

Theory of operation
-------------------
A format name is parsed (format_name.py), expanded (a multiple-element name is
sorted and de-duplicated, 3.1.7.3.8), checked against the access it is opened
with, resolved to one of this queue manager's queues and checked against the
sharing modes of the descriptors already open on that queue.  The reference
hosts no outgoing queues: a name that does not resolve here is reported as
MQ_ERROR_QUEUE_NOT_FOUND (D-19).
"""

from __future__ import annotations

from mqspec.protocol.hresult import HRESULT

from .adm import OpenQueueDescriptor, Queue
from .enumerations import QueueAccessType as A, QueueShareMode as M, QueueType
from .format_name import FormatName, FormatNameError, parse_format_name

_SYSTEM_SUFFIX_QUEUES = {"JOURNAL": "system_journal_queue", "DEADLETTER": "system_deadletter_queue",
                         "DEADXACT": "system_transactional_deadletter_queue"}


class OpenQueueEvents:
    def open_queue(self, format_name: str, required_access: A, shared_mode: M):
        """MS-MQDMPR 3.1.7.1.5 Open Queue; returns (rStatus, rOpenQueueDescriptor)."""
        try:
            name = parse_format_name(format_name)
        except FormatNameError:
            return HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME, None
        if name.kind == "DL":
            if self.readings["D-19"] == "other-failure":
                return HRESULT.MQ_ERROR, None  # D-19 other-failure: 3.1.7.1.5 names no code for it
            return HRESULT.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION, None  # D-19 no directory to expand it
        if name.kind == "MULTIPLE":
            return self._open_multiple(name, required_access, shared_mode)
        # MS-MQDMPR:3.1.7.1.5:03 names that only allow sending, and machine names that never do
        send_only = (name.kind == "MULTICAST" or (name.kind == "DIRECT" and name.protocol in ("HTTP", "HTTPS")))
        if send_only and required_access != A.SendAccess:
            return HRESULT.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION, None
        if name.kind == "MACHINE" and required_access == A.SendAccess:
            return HRESULT.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION, None
        queue = self.resolve_format_name(name)
        if queue is None:
            return HRESULT.MQ_ERROR_QUEUE_NOT_FOUND, None  # MS-MQDMPR:3.1.7.1.5:02, D-19
        if (required_access == A.SendAccess and (queue.is_journal or queue.queue_type.name == "System")
                and self.readings["D-30"] == "refuse"):
            return HRESULT.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION, None  # D-30 refuse: read-only queues
        status = _sharing_status(queue, required_access, shared_mode)
        if status != HRESULT.MQ_OK:
            return status, None
        descriptor = self._new_descriptor(required_access, shared_mode, queue, name.text)
        queue.attach(descriptor)
        return HRESULT.MQ_OK, descriptor

    def _new_descriptor(self, access: A, share: M, queue: Queue | None, text: str,
                        multiple: bool = False) -> OpenQueueDescriptor:
        # MS-MQDMPR:3.1.1.16:01 Handle and ContextValue are unique in the queue manager
        handle = self.new_handle(self.open_queue_descriptors)
        descriptor = OpenQueueDescriptor(handle, handle, access, share, queue, text, multiple)
        self.open_queue_descriptors[handle] = descriptor
        return descriptor

    def _open_multiple(self, name: FormatName, access: A, share: M):
        # MS-MQDMPR:3.1.7.1.5:01 only sending, only DenyNone
        if access != A.SendAccess:
            return HRESULT.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION, None
        if share != M.DenyNone:
            return HRESULT.MQ_ERROR_UNSUPPORTED_ACCESS_MODE, None
        # MS-MQDMPR:3.1.7.3.8:01 sorted, without case-insensitive duplicates
        unique = {element.text.upper(): element.text for element in name.elements}
        elements = [unique[key] for key in sorted(unique)]
        if len(elements) == 1:
            return self.open_queue(elements[0], access, share)
        parent = self._new_descriptor(access, share, None, ",".join(elements), multiple=True)
        for element in elements:
            status, child = self.open_queue(element, access, share)
            if status == HRESULT.MQ_OK and (child.queue_reference.is_journal
                                            or child.queue_reference.queue_type.name == "System"):
                # MS-MQMQ:2.1.7:01 read-only queues may not be in a list, whatever D-30 says of a lone name
                self.close_queue(child)
                status = HRESULT.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION
            if status != HRESULT.MQ_OK:
                self.close_queue(parent)
                return status, None
            parent.open_queue_descriptor_collection.append(child)
        return HRESULT.MQ_OK, parent

    def resolve_format_name(self, name: FormatName) -> Queue | None:
        """The local queue a single-element format name designates, or None."""
        if name.kind == "MACHINE":
            if name.guid.bytes_le != self.identifier or name.suffix is None:
                return None  # D-71 a machine name without a suffix names no queue
            return getattr(self, _SYSTEM_SUFFIX_QUEUES[name.suffix])
        if name.kind == "PRIVATE":
            if name.guid.bytes_le != self.identifier:
                return None
            # MS-MQMQ:2.1.4:01 the number names a private queue; a public queue has none (its 0 is no number)
            queue = next((q for q in self.queue_collection.values()
                          if q.private_queue_number == name.private_queue_number and q.parent is None
                          and q.queue_type is QueueType.Private), None)
        elif name.kind == "PUBLIC":
            queue = next((q for q in self.queue_collection.values()
                          if q.identifier == name.guid.bytes_le and q.parent is None), None)
        elif name.kind == "DIRECT":
            if not self._is_this_computer(name):
                return None
            if name.queue_name is None:
                return getattr(self, _SYSTEM_SUFFIX_QUEUES[name.suffix])
            key = ("private$\\" if name.private else "") + name.queue_name.lower()
            queue = self.queue_collection.get(key)
        else:
            return None
        if queue is None:
            return None
        if name.subqueue:
            subqueue = queue.subqueue_collection.get(name.subqueue.lower())
            if subqueue is None and self.readings["D-22"] == "implicit":
                # D-22 implicit: a subqueue comes into being when it is first named
                subqueue = self.create_queue(f"{queue.pathname};{name.subqueue}")[1]
            return subqueue
        if name.suffix == "JOURNAL":
            return queue.journal_queue_reference
        return queue

    def _is_this_computer(self, name: FormatName) -> bool:
        if name.protocol == "TCP":
            return name.address in self.addresses
        if name.protocol == "OS":
            return name.address.lower() in (self.computer_name.lower(), ".", "localhost")
        return False

    def close_queue(self, queue_desc: OpenQueueDescriptor) -> None:
        """MS-MQDMPR 3.1.7.1.6 Close Queue."""
        self.open_queue_descriptors.pop(queue_desc.handle, None)
        if queue_desc.multiple:
            for child in queue_desc.open_queue_descriptor_collection:
                self.close_queue(child)
            return
        queue = queue_desc.queue_reference
        if queue is None and self.readings["D-13"] == "times-out":
            return  # D-13 times-out: a deleted queue's descriptor is simply dropped (3.1.7.1.6), its waits run on
        # MS-MQDMPR:3.1.7.1.6:01 waiting reads end cancelled (D-31 all: untagged ones too; tagged-only:
        # an untagged read stays, detached, until its timer ends it)
        tagged_only = self.readings["D-31"] == "tagged-only"
        for waiter in list(queue_desc.waiting_message_read_operation_collection):
            if waiter.tag is not None or not tagged_only:
                self.waiting_message_read_timer_stop(waiter, HRESULT.MQ_ERROR_OPERATION_CANCELLED)
        # MS-MQDMPR:3.1.7.1.6:02 close its cursors and detach the descriptor
        for cursor in list(queue_desc.cursor_collection.values()):
            self.close_cursor(cursor)
        if queue is not None:
            queue.detach(queue_desc)

    def enqueue_message_to_an_open_queue(self, queue_desc: OpenQueueDescriptor, message,
                                         transaction=None) -> int:
        """MS-MQDMPR 3.1.7.1.27; returns the Enqueue Message status."""
        if not queue_desc.multiple:
            if queue_desc.queue_reference is None:
                # D-32 qm-quota: a deleted queue accepts nothing, reported like a refusal by the queue manager
                # (status 2); not-available: the sender is told the queue is gone (MQ_ERROR_QUEUE_NOT_AVAILABLE)
                return (HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE if self.readings["D-32"] == "not-available"
                        else 2)
            return self.enqueue_message(queue_desc.queue_reference, message, transaction)
        # MS-MQDMPR:3.1.7.1.27:01 one copy per element, stopping at the first failure
        for child in queue_desc.open_queue_descriptor_collection:
            copy = message.copy()
            copy.destination_queue_format_name = child.format_name
            if self.readings["D-67"] == "mqf-header":
                # D-67 mqf-header: 3.1.7.1.27 keeps iMessage.DestinationMultiQueueFormatName on each copy
                copy.set("destination_multi_queue_format_name", queue_desc.format_name)
            status = self.enqueue_message_to_an_open_queue(child, copy, transaction)
            if status != 0:
                return status
        return 0


def _sharing_status(queue: Queue, access: A, share: M) -> int:
    """MS-MQDMPR 3.1.7.1.5 sharing checks; the first matching rule decides.  Each rule asks whether an open
    descriptor of some (AccessType, ShareMode) exists: the queue's counts of them answer in O(1)."""
    modes = queue.open_modes
    if modes[A.ReceiveAccess, M.DenyReceive]:
        # MS-MQDMPR:3.1.7.1.5:04
        if share == M.DenyReceive or access == A.ReceiveAccess:
            return HRESULT.MQ_ERROR_SHARING_VIOLATION
    elif modes[A.PeekAccess, M.DenyReceive] or modes[A.PeekAdminAccess, M.DenyReceive]:
        # MS-MQDMPR:3.1.7.1.5:05
        if access == A.ReceiveAccess:
            return HRESULT.MQ_ERROR_SHARING_VIOLATION
    elif modes[A.ReceiveAccess, M.DenyNone]:
        # MS-MQDMPR:3.1.7.1.5:06
        if share == M.DenyReceive:
            return HRESULT.MQ_ERROR_SHARING_VIOLATION
    return HRESULT.MQ_OK
