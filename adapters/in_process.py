"""The in-process Target: the reference queue manager, driven under one lock.

Theory of operation
-------------------
The reference core never blocks and never reads the clock itself.  This adapter
gives it a clock (wall_clock.WallClock), which starts held at the real time and
moves only when `elapse` moves it, and a store, and serialises every call under
one lock.  After each call the core's change records go to the store, the
timer driver (the one thread that waits on the lock's Condition) is woken and the
output hooks are told (an MS-MQQB listener writes what its sessions have to send).
A Start*Receive that must wait leaves a continuation on the reference's pending
read request (`receive_later`): whoever ends the wait (a message arrives, a
cancel, a rundown, `elapse` carrying the clock past its time-out) hands the
outputs to that call alone.  `receive` waits for them on an event of its own;
the wire (mqrr/service.py) waits on no thread at all.  No timer depends on how fast
the machine is.  `run_in_real_time()` (capability real_time) releases the clock to
follow the wall clock and starts a TimerDriver (timer_driver.py) that fires the
timers when they are due, until the next `reset`, which holds the clock again.

One `_Core` (queue manager, RemoteRead server, store, lock, clock) can have
several clients: `connection()` gives another InProcessTarget on the same core.
Each client remembers the context handles it opened; `close()` and `drop()` run
them down as the loss of an RPC connection would (MS-MQRR 3.1.6.2), and the
first client's `close()` also closes the store.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

from mqspec.protocol.constants import INFINITE
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.idl import DEFAULT_PORT
from mqspec.protocol.queue_format import QueueFormat
from mqspec.reference import (enumerations as _enumerations, format_name as _format_name,
                       message as _message_module, packet as _packet, queue_manager as _queue_manager,
                       readings as _readings, remote_read as _remote_read, security as _security,
                       sqlite_store as _sqlite_store)

from .target import (
    CLIENT_ID,
    CloseQueueOut,
    CreateCursorOut,
    CreateQueueOut,
    ListedMessage,
    ListMessagesOut,
    MessageProperties,
    OpenQueueForMoveOut,
    OpenQueueOut,
    SendOut,
    StartReceiveOut,
    SET_UP,
    Target,
)
from .timer_driver import TimerDriver
from .wall_clock import WallClock, whole_ms

_WHOLE = 0xFFFFFFFF  # a size limit no packet reaches: list_messages returns whole packets
# configure(): setting -> allowed range (the fWorkgroup policy of D-82: 0 off, 1 on)
_CONFIGURABLE = {"pending_request_cleanup_ms": (1, 0xFFFFFFFF), "workgroup_policy": (0, 1)}
IDENTITIES = ("first", "second")   # the accounts an in-process client may call as (capability identities)
_FIRST = object()                  # InProcessTarget's default caller: the first identity
LEVELS = {"none": 1, "connect": 2, "integrity": 5, "privacy": 6}   # RPC authentication levels, by name
DEFAULT_CLEANUP_MS = _remote_read.DEFAULT_CLEANUP_MS


class Implementation:
    """The modules of the queue manager being hosted: the reference's, or a variant's (strength/)."""

    def __init__(self, enumerations, format_name, message, packet, queue_manager, readings, remote_read,
                 security, sqlite_store) -> None:
        self.enumerations, self.format_name, self.message = enumerations, format_name, message
        self.packet, self.queue_manager, self.readings = packet, queue_manager, readings
        self.remote_read, self.security, self.sqlite_store = remote_read, security, sqlite_store

    @classmethod
    def of(cls, package) -> "Implementation":
        """The same modules of another package loaded from the reference's sources (strength.loader)."""
        import importlib
        return cls(*(importlib.import_module(f"{package.__name__}.{name}") for name in (
            "enumerations", "format_name", "message", "packet", "queue_manager", "readings", "remote_read",
            "security", "sqlite_store")))


REFERENCE = Implementation(_enumerations, _format_name, _message_module, _packet, _queue_manager,
                           _readings, _remote_read, _security, _sqlite_store)


class _Core:
    """What every client of one in-process queue manager shares."""

    def __init__(self, impl: Implementation, store_path, synchronous, options, server_options) -> None:
        self.impl, self.options, self.server_options = impl, options, server_options
        self.first_server_options = dict(server_options)  # what a reset returns to after configure()
        self.first_options = dict(self.options)  # ... and after set_queue_manager_quota()
        self.clock = WallClock()           # held at the real time: elapse moves it, and run_in_real_time releases it
        self.lock = threading.Condition()
        self.driver: TimerDriver | None = None   # fires timers while the clock runs in real time
        self.output_hooks: list = []       # called after anything that may give MS-MQQB sessions bytes to send
        self.store = impl.sqlite_store.SqliteStore(store_path, synchronous=synchronous)
        self.start()

    def start(self) -> None:
        self.qm = self.impl.queue_manager.QueueManager(self.clock, snapshot=self.store.load(), **self.options)
        self.server = self.impl.remote_read.RemoteReadServer(self.qm, **self.server_options)
        self.flush()

    def flush(self) -> None:
        self.store.write(self.qm.take_changes())

    def output_ready(self) -> None:
        """Called with the lock held; a hook only signals (the listener's writes to its wake-up socket)."""
        for hook in list(self.output_hooks):
            hook()

    def run_in_real_time(self) -> None:
        with self.lock:
            self.clock.release()
            if self.driver is None:
                self.driver = TimerDriver(self).start()
            self.lock.notify()

    def stop_driver(self) -> None:
        """Called without the lock (the driver's thread needs it to end)."""
        driver, self.driver = self.driver, None
        if driver is not None:
            driver.stop()

    def restart(self, clear: bool) -> None:
        """A new QueueManager from the store (emptied first when `clear`); the clock runs on, unless `clear`: a
        reset holds a fresh clock at the real time (virtual time, what every scenario starts from)."""
        if clear:
            self.stop_driver()
        with self.lock:
            # Blocked callers learn that their queue manager went away.
            for descriptor in list(self.qm.open_queue_descriptors.values()):
                for waiter in list(descriptor.waiting_message_read_operation_collection):
                    self.qm.waiting_message_read_timer_stop(waiter, HRESULT.MQ_ERROR_OPERATION_CANCELLED)
            self.flush()
            if clear:
                self.store.clear()
                self.server_options = dict(self.first_server_options)  # a reset forgets configure()
                self.options = dict(self.first_options)  # and a quota set since
                self.clock = WallClock()  # a fresh start: the real time, held
            self.start()
            self.lock.notify()
            self.output_ready()   # the old queue manager's sessions are gone: their connections close

    def call(self, method, *args):
        with self.lock:
            self.qm.run_timers()  # timers due at the current instant fire before the call sees the queue
            result = method(*args)
            self.after_call()
            return result

    def after_call(self) -> None:
        """With the lock held: the changes to the store, the timer driver told of a sooner deadline (it is the only
        thread that waits on the Condition), the output hooks told."""
        self.flush()
        if self.driver is not None and self.driver.needs_waking():
            self.lock.notify()
        self.output_ready()

    def receive(self, method, *args) -> StartReceiveOut:
        """A Start*Receive that returns when its call is done."""
        return self.enter(method, *args)()

    def enter(self, method, *args) -> Callable[[], StartReceiveOut]:
        """Run a Start*Receive now (the queue manager holds the read once this returns) and give what waits for
        its end on an event of its own: a message, a cancel, a close, a rundown or elapse() ends the wait, and wakes
        this call only."""
        ended, outputs = threading.Event(), []
        out = self.receive_later(lambda done: (outputs.append(done), ended.set()), method, *args)
        if out is not None:
            return lambda: out

        def wait() -> StartReceiveOut:
            ended.wait()
            return outputs[0]
        return wait

    def receive_later(self, done, method, *args) -> StartReceiveOut | None:
        """A Start*Receive that never blocks: its outputs now, or None and `done(outputs)` once the call ends.
        `done` runs on whichever thread ends the wait, with the lock held: it must only hand the outputs on."""
        with self.lock:
            self.qm.run_timers()
            call = method(*args)
            self.after_call()
            if call.done:
                return _outputs(call)
            request = call.request
            reference_continuation = request.on_complete   # the reference's own: it fills the call's outputs

            def completed(finished) -> None:
                reference_continuation(finished)
                done(_outputs(call))
            request.on_complete = completed   # the reference is sans-I/O: how a waiting read waits is ours
            return None


class InProcessTarget(Target):
    name = "reference"
    capabilities = frozenset({"virtual_time", "restart", "list_messages", "drop_connection", "reset",
                              "null_references", "queue_manager_quota", "configure", "mqqb_peer", "identities",
                              "anonymous", "real_time"}) | SET_UP

    def __init__(self, *, store_path: str | None = None, computer_name: str = "mqspec", seed: int | None = 0,
                 queue_manager_quota: int | None = None, send_insecure_nacks: bool = False,
                 pending_request_cleanup_ms: int = DEFAULT_CLEANUP_MS, port: int = DEFAULT_PORT,
                 synchronous: str = "NORMAL", readings: str = "", variant: str = "", workgroup_policy: int = 0,
                 _core: _Core | None = None, _caller=_FIRST) -> None:
        self.send_insecure_nacks = send_insecure_nacks
        self._owns_core = _core is None
        if _core is None:
            impl = REFERENCE
            if variant:
                from mqspec.strength.variants import load_variant   # a wrong queue manager the suite must reject
                impl = Implementation.of(load_variant(variant))
            options = dict(computer_name=computer_name, seed=seed, queue_manager_quota=queue_manager_quota,
                           send_insecure_nacks=send_insecure_nacks, readings=impl.readings.Readings.parse(readings))
            try:
                _core = _Core(impl, store_path, synchronous, options,
                              dict(port=port, pending_request_cleanup_ms=pending_request_cleanup_ms,
                                   workgroup_policy=workgroup_policy))
            except (sqlite3.Error, impl.sqlite_store.StoreError) as error:   # no such folder, not a store, damaged
                raise ValueError(f"the store {store_path} cannot be used: {error}") from None
        self._core = _core
        # who this client calls as: the first identity at packet privacy, unless as_identity() says otherwise
        self._caller = _core.impl.security.Caller(IDENTITIES[0], 6) if _caller is _FIRST else _caller
        self._handles: set[bytes] = set()   # context handles this client opened and has not closed
        self._closed = False
        labels = [text for text in (str(_core.options["readings"]), variant) if text]
        self.name = f"reference ({', '.join(labels)})" if labels else "reference"

    @property
    def qm(self) -> _queue_manager.QueueManager:
        return self._core.qm

    @property
    def server(self) -> _remote_read.RemoteReadServer:
        return self._core.server

    def _call(self, method, *args):
        return self._core.call(method, *args)

    _ILLEGAL = object()   # _resolve: the text is not a format name

    def _resolve(self, format_name: str):
        """The queue a format name designates, None for none, _ILLEGAL for text that is no format name."""
        names = self._core.impl.format_name
        try:
            return self.qm.resolve_format_name(names.parse_format_name(format_name))
        except names.FormatNameError:
            return self._ILLEGAL

    def _receive(self, method, *args) -> StartReceiveOut:
        return self._core.enter(method, *args)()

    def enter_receive(self, method: str, *args) -> Callable[[], StartReceiveOut]:
        """The read is entered in the queue manager before this returns (Target.enter_receive)."""
        if method not in self.RECEIVES:
            raise ValueError(f"enter_receive: {method!r} is not one of {', '.join(self.RECEIVES)}")
        return self._core.enter(getattr(self.server, "r_" + method), *args)

    # -- identity --------------------------------------------------------------------------
    @property
    def computer_name(self) -> str:
        return self.qm.computer_name

    @property
    def address(self) -> str:
        return self.qm.addresses[0]

    @property
    def queue_manager_identifier(self) -> bytes:
        return self.qm.identifier

    # -- clients ---------------------------------------------------------------------------
    def connection(self, *, ndr64: bool | None = None) -> "InProcessTarget":
        return InProcessTarget(send_insecure_nacks=self.send_insecure_nacks, _core=self._core, _caller=self._caller)

    @property
    def identities(self) -> tuple[str, ...]:
        return IDENTITIES

    def as_identity(self, name: str, auth_level: str = "privacy") -> "InProcessTarget":
        if name not in IDENTITIES or auth_level not in LEVELS:
            raise ValueError(f"an identity of {', '.join(IDENTITIES)} at {', '.join(LEVELS)}, not {name!r} at "
                             f"{auth_level!r}")
        caller = self._core.impl.security.Caller(name, LEVELS[auth_level])   # as the RPC runtime would pass it
        return InProcessTarget(send_insecure_nacks=self.send_insecure_nacks, _core=self._core, _caller=caller)

    def as_anonymous(self) -> "InProcessTarget":
        caller = self._core.impl.security.Caller(None, LEVELS["none"])   # a call with no security context
        return InProcessTarget(send_insecure_nacks=self.send_insecure_nacks, _core=self._core, _caller=caller)

    def calling_as(self, caller: tuple[str | None, int] | None) -> "InProcessTarget":
        """This queue manager as a caller on the wire sees it (mqspec serve): (account or None for Anonymous Logon,
        RPC authentication level) from the RPC security context, or None on a server that authenticates nobody,
        which then checks no access list."""
        who = None if caller is None else self._core.impl.security.Caller(*caller)
        return InProcessTarget(send_insecure_nacks=self.send_insecure_nacks, _core=self._core, _caller=who)

    def rundown(self, ph_context: bytes) -> int:
        """MS-MQRR 3.1.6.1 / 3.1.6.2 for one context handle, as the RPC runtime would raise it."""
        self._handles.discard(ph_context)
        return self._call(self.server.rundown, ph_context)

    def transaction_exists(self, uow: bytes) -> bool:
        """Whether the queue manager still has a transaction of this XACTUOW (the wire's D-79 bookkeeping)."""
        return self._call(lambda: uow in self.qm.transaction_collection)

    def release_unused_transaction(self, uow: bytes) -> bool:
        """D-79: forget an enlisted transaction that no operation has used (its association ran down, or it idled
        past the server's enlistment time-out), by the Transaction Abort event, which for an empty transaction
        only removes it; one with operations, or prepared, stays for its coordinator.  True if released."""
        def release():
            transaction = self.qm.transaction_collection.get(uow)
            if transaction is None or transaction.transactional_operation_collection or transaction.prepared:
                return False
            self.qm.transaction_abort(uow)
            return True
        return self._call(release)

    def drop(self) -> None:
        for handle in list(self._handles):
            self.rundown(handle)

    def mqqb_connect(self):
        from .mqqb.in_process import InProcessMqqbConnection  # capability mqqb_peer
        return InProcessMqqbConnection(self._core)

    def watch_output(self, hook) -> None:
        """Call `hook()` (lock held: it must only signal) whenever MS-MQQB sessions may have bytes to send."""
        self._core.output_hooks.append(hook)

    def unwatch_output(self, hook) -> None:
        if hook in self._core.output_hooks:
            self._core.output_hooks.remove(hook)

    # -- MS-MQRR ---------------------------------------------------------------------------
    def get_server_port(self) -> int:
        return self._call(self.server.r_get_server_port)

    def open_queue(self, p_queue_format, dw_access, dw_share_mode, p_client_id=CLIENT_ID,
                   f_non_routing_server=1, major=6, minor=0, build_number=0, f_workgroup=0) -> OpenQueueOut:
        result = self._call(self.server.r_open_queue, p_queue_format, dw_access, dw_share_mode, p_client_id,
                            f_non_routing_server, major, minor, build_number, f_workgroup, self._caller)
        if result.hresult == HRESULT.MQ_OK:
            self._handles.add(result.pph_context)
        return OpenQueueOut(result.hresult, result.pph_context)

    def open_queue_for_move(self, p_queue_format, dw_access, dw_share_mode,
                            p_client_id=CLIENT_ID, f_non_routing_server=1, major=6,
                            minor=0, build_number=0, f_workgroup=0) -> OpenQueueForMoveOut:
        result = self._call(self.server.r_open_queue_for_move, p_queue_format, dw_access, dw_share_mode,
                            p_client_id, f_non_routing_server, major, minor, build_number, f_workgroup,
                            self._caller)
        if result.hresult == HRESULT.MQ_OK:
            self._handles.add(result.pph_context)
        return OpenQueueForMoveOut(result.hresult, result.p_move_context, result.pph_context)

    def close_queue(self, pph_context: bytes) -> CloseQueueOut:
        out = CloseQueueOut(*self._call(self.server.r_close_queue, pph_context))
        if out.hresult == HRESULT.MQ_OK:
            self._handles.discard(pph_context)
        return out

    def create_cursor(self, ph_context: bytes) -> CreateCursorOut:
        return CreateCursorOut(*self._call(self.server.r_create_cursor, ph_context))

    def close_cursor(self, ph_context: bytes, h_cursor: int) -> int:
        return self._call(self.server.r_close_cursor, ph_context, h_cursor)

    def purge_queue(self, ph_context: bytes) -> int:
        return self._call(self.server.r_purge_queue, ph_context)

    def start_receive(self, ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id,
                      dw_max_body_size, dw_max_compound_message_size) -> StartReceiveOut:
        return self._receive(self.server.r_start_receive, ph_context, lookup_id, h_cursor, ul_action, ul_timeout,
                             dw_request_id, dw_max_body_size, dw_max_compound_message_size)

    def start_receive_later(self, done, *arguments) -> StartReceiveOut | None:
        """start_receive that never blocks: the outputs now, or None and `done(outputs)` when the wait ends (on
        the thread that ends it, which must not be held up: `done` only hands them on)."""
        return self._core.receive_later(done, self.server.r_start_receive, *arguments)

    def start_transactional_receive_later(self, done, *arguments) -> StartReceiveOut | None:
        return self._core.receive_later(done, self.server.r_start_transactional_receive, *arguments)

    def start_transactional_receive(self, ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id,
                                    dw_max_body_size, dw_max_compound_message_size,
                                    p_transaction_id) -> StartReceiveOut:
        return self._receive(self.server.r_start_transactional_receive, ph_context, lookup_id, h_cursor,
                             ul_action, ul_timeout, dw_request_id, dw_max_body_size,
                             dw_max_compound_message_size, p_transaction_id)

    def cancel_receive(self, ph_context: bytes, dw_request_id: int) -> int:
        return self._call(self.server.r_cancel_receive, ph_context, dw_request_id)

    def end_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int:
        return self._call(self.server.r_end_receive, ph_context, dw_ack, dw_request_id)

    def end_transactional_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int:
        return self._call(self.server.r_end_transactional_receive, ph_context, dw_ack, dw_request_id)

    def move_message(self, ph_context_from, ull_context_to, lookup_id, p_transaction_id) -> int:
        return self._call(self.server.r_move_message, ph_context_from, ull_context_to, lookup_id, p_transaction_id)

    def qm_enlist_remote_transaction(self, p_transaction_id, cb_propagation_token, pb_propagation_token,
                                     p_queue_format: QueueFormat | None) -> int:
        return self._call(self.server.r_qm_enlist_remote_transaction, p_transaction_id, cb_propagation_token,
                          pb_propagation_token, p_queue_format)

    def set_user_acknowledgement_class(self, ph_context: bytes, lookup_id: int, us_class: int) -> int:
        return self._call(self.server.r_set_user_acknowledgement_class, ph_context, lookup_id, us_class)

    # -- set-up ----------------------------------------------------------------------------
    def create_queue(self, pathname: str, *, transactional: bool = False, quota: int = INFINITE,
                     journaling: bool = False, label: str = "", security: dict | None = None) -> CreateQueueOut:
        descriptor = self._core.impl.security.QueueSecurity.from_plain(security)   # ValueError: malformed
        _check_u32("a queue's quota (MS-MQDMPR 3.1.1.2, kilobytes)", quota)

        def create():
            attributes = dict(transactional=transactional, quota=quota, journaling=journaling, label=label,
                              security=descriptor)
            status, queue = self.qm.create_queue(pathname, **attributes)
            if status != HRESULT.MQ_OK:
                return CreateQueueOut(status)
            return CreateQueueOut(status, self.qm.queue_format_name(queue), queue.pathname)
        return self._call(create)

    def delete_queue(self, format_name: str) -> int:
        def delete():
            queue = self._resolve(format_name)
            if queue is self._ILLEGAL:
                return HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME
            if queue is None or queue.is_journal or queue.queue_type.name == "System":
                return HRESULT.MQ_ERROR_QUEUE_NOT_FOUND
            return self.qm.delete_queue(queue)
        return self._call(delete)

    def send(self, format_name: str, properties: MessageProperties, transaction: bytes | None = None) -> SendOut:
        def send():
            tx = None
            if transaction is not None:
                tx = self.qm.transaction_collection.get(transaction)
                if tx is None:
                    return SendOut(HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE)
            try:
                message = _message(properties, self._core.impl)
            except (KeyError, ValueError):  # an unknown extra property, or a privacy level MS-MQMQ 2.2.19.3 lacks
                return SendOut(HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE)
            status, result = self.qm.send_message(format_name, message, tx)
            return SendOut(status, result, message.identifier)
        return self._call(send)

    def begin_transaction(self) -> bytes:
        return self._call(lambda: self.qm.create_transaction(self.qm.new_guid()).identifier)

    def prepare_transaction(self, uow: bytes) -> int:
        return self._call(self.qm.transaction_prepare, uow, False)

    def commit_transaction(self, uow: bytes) -> int:
        def commit():
            transaction = self.qm.transaction_collection.get(uow)
            if transaction is not None and not transaction.prepared:
                self.qm.transaction_prepare(uow, True)
            return self.qm.transaction_commit(uow)
        return self._call(commit)

    def abort_transaction(self, uow: bytes) -> int:
        return self._call(self.qm.transaction_abort, uow)

    # -- capabilities ----------------------------------------------------------------------
    def elapse(self, ms: int) -> None:
        ms = whole_ms(ms)   # ValueError for a step that is no whole number of ms (Infinity, NaN, -1, "x", 1.5)
        core = self._core
        with core.lock:
            core.clock.advance(ms)
            core.qm.run_timers()
            core.flush()
            core.lock.notify()
            core.output_ready()

    def run_in_real_time(self) -> None:
        self._core.run_in_real_time()

    def restart(self) -> None:
        self._core.restart(clear=False)
        self._handles.clear()

    def reset(self) -> None:
        self._core.restart(clear=True)
        self._handles.clear()

    def configure(self, **settings: int) -> None:
        for name, value in settings.items():
            if name not in _CONFIGURABLE:
                raise ValueError(f"cannot configure {name!r}; known: {', '.join(_CONFIGURABLE)}")
            low, high = _CONFIGURABLE[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")

        def apply():
            # MS-MQRR:3.1.2.2:02 the clean-up period of entries added from now on; a restart keeps it
            self._core.server_options.update(settings)
            for name, value in settings.items():
                setattr(self.server, name, value)
        self._call(apply)

    def set_queue_manager_quota(self, quota: int) -> None:
        _check_u32("a queue manager quota (MS-MQDMPR 3.1.1.1, bytes)", quota)

        def set_quota():
            self._core.options["queue_manager_quota"] = quota  # a restart keeps it, as a configured value would
            self.qm.queue_manager_quota = quota
        self._call(set_quota)

    def list_messages(self, format_name: str) -> ListMessagesOut:
        def listing():
            queue = self._resolve(format_name)
            if queue is self._ILLEGAL:
                return ListMessagesOut(HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME)
            if queue is None:
                return ListMessagesOut(HRESULT.MQ_ERROR_QUEUE_NOT_FOUND)
            context, packet = self.server.packet_context, self._core.impl.packet
            return ListMessagesOut(HRESULT.MQ_OK, tuple(
                ListedMessage(position.state.name, position.message_reference.lookup_identifier,
                              packet.packet_sections(packet.build_packet(position.message_reference, context),
                                                     _WHOLE, _WHOLE)[0].p_section_buffer)
                for position in queue.message_position_list.positions()))
        return self._call(listing)

    def close(self) -> None:
        """Run down what this client still holds, as a closed connection would; the first client also
        closes the store."""
        if self._closed:
            return
        self._closed = True
        self.drop()
        if self._owns_core:
            self._core.stop_driver()
            with self._core.lock:
                self._core.flush()
                self._core.store.close()


def _check_u32(what: str, value) -> None:
    """ValueError unless `value` fits the 32 bits MS-MQDMPR gives quotas (issue 20: 2**70 and -1 were taken)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 0xFFFFFFFF:
        raise ValueError(f"{what} is a whole number from 0 to 0xFFFFFFFF, not {value!r}")


def _extra_value(name: str, value, impl: Implementation):
    """`value` if it has the type of the property's default (ValueError otherwise: a message that could not be
    stored or read back is refused, never kept)."""
    default = impl.message.EXTRA_DEFAULTS[name]   # KeyError: no such property
    kinds = (str, bytes, int, type(None)) if default is None else (bytes, bytearray) if isinstance(
        default, bytes) else (type(default),)
    if not isinstance(value, kinds) or isinstance(value, bool) != isinstance(default, bool):
        raise ValueError(f"property {name} cannot be {type(value).__name__}")
    return value


def _outputs(call) -> StartReceiveOut:
    return StartReceiveOut(call.hresult, call.pdw_arrive_time, call.p_sequence_id, call.pdw_number_of_sections,
                           call.pp_packet_sections)


def _message(p: MessageProperties, impl: Implementation):
    guarantee = impl.enumerations.DeliveryGuarantee
    # MS-MQDMPR:3.1.1.12:07/:08 a property the sender leaves unset keeps the Message's default
    chosen = {name: value for name, value in (("priority", p.priority), ("time_to_reach_queue", p.time_to_reach_queue),
                                              ("time_to_be_received", p.time_to_be_received)) if value is not None}
    message = impl.message.Message(
        p.body, label=p.label, message_class=p.message_class,
        delivery_guarantee=guarantee.Recoverable if p.delivery == "recoverable" else guarantee.Express,
        acknowledgements_requested=p.acknowledgements, administration_queue_format_name=p.admin_queue,
        response_queue_format_name=p.response_queue, sent_time=p.sent_time,
        positive_journaling_requested=p.positive_journaling, negative_journaling_requested=p.negative_journaling,
        allow_peek_when_locked=p.allow_peek_when_locked, correlation_identifier=p.correlation_id,
        application_tag=p.application_tag, body_type=p.body_type, extension=p.extension,
        privacy_level=impl.enumerations.PrivacyLevel(p.privacy_level), **chosen)
    if p.srmp_envelope is not None:
        message.set("soap_envelope", p.srmp_envelope)
        message.set("soap_compound_message", p.srmp_compound_message or b"")
    for name, value in p.extra.items():
        message.set(name, _extra_value(name, value, impl))
    return message
