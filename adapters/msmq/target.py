"""The msmq:// Target: a Windows host certified with nothing but the network.

Theory of operation
-------------------
A Windows host offers a network client MS-MQRR (RemoteRead over DCE/RPC, authenticated) and
MS-MQQB (another queue manager's sessions on TCP 1801), and nothing that sets a scene: no
queue can be created, no clock moved, no transaction begun from outside.  `MsmqTarget` is the
MS-MQRR client (adapters/mqrr/client.py) with, in place of mqspec's control interface, what
these two protocols allow:

- queues: a scenario's queue is mapped onto the one the setup script made with exactly its
  properties (queues.py); a queue the script cannot make, or one created twice, is not run
  (capability create_queue); deleting one is not possible (delete_queue);
- sending: every message goes to the host as a UserMessage on the suite's own MS-MQQB session
  (sender.py), the suite playing the sending queue manager, in real time; the send then looks
  for it in its queue over MS-MQRR for up to SEEN_WITHIN_S: a message seen there was enqueued
  (Enqueue Message status 0, MS-MQDMPR 3.1.7.1.9), one not seen has a status the target cannot
  tell (World.status then says not run, send_status).  A transactional queue is filled with
  messages each a transaction of the sending queue manager (send_in_own_transaction);
  transactions of the host's own are not reachable (internal_transactions);
- time: the host's clock is the wall clock (real_time, always on); short waits are waited out
  by the steps, longer ones are not run (virtual_time);
- its queue manager GUID: from the host's answer to the session's EstablishConnection;
- sessions the host opens back to the suite (D-76 new-session, administration acknowledgments
  for the suite's queues) arrive at the suite's own MS-MQQB port, the Acceptor (acceptor.py),
  when the URL names one;
- between scenarios the queues a scenario used, their journals and the machine's dead-letter
  and journal queues are purged over MS-MQRR (there is no reset).

The clients of one scenario (connection(), as_identity()) share one `_Scene`: the queues used and
whether anything was sent, which the first client's close() purges.  The MS-MQQB session and the
acceptor are the process's (`_Session`, one per host), as a real peer queue manager keeps its own.
"""

from __future__ import annotations

import re
import struct
import threading
import time

from mqspec.protocol.constants import INFINITE, Access, ShareMode
from mqspec.protocol.hresult import HRESULT, RpcStatus
from mqspec.protocol.queue_format import from_format_name
from ..mqqb.packets import Outgoing

from ..mqqb.tcp import TcpMqqbConnection
from ..mqrr.client import MqrrTarget
from ..mqrr.control import OPERATIONS
from ..target import CreateQueueOut, MessageProperties, SendOut, TargetCapabilityError
from ..wire.dcerpc_client import ConnectError, Credentials
from .acceptor import Acceptor
from .queues import setup_queue
from .sender import MqqbSender, SessionError, suite_guid

SEEN_WITHIN_S = 1.0         # how long a send looks for its message in its queue before its status is unknown
SEEN_POLL_S = 0.02
SETTLE_FLOOR_S = 0.25       # the least time a background call is given to reach the host (World.in_background)
PURGE_TRIES = 50            # opens of a queue to purge while a closed client's exclusive handle is run down
OFFERED = frozenset({"rpc", "mqqb_peer", "real_time"})
DEFAULT_PRIORITY = 3        # MS-MQDMPR 3.1.1.12 Priority's default, which the sending queue manager writes
RECOVERABLE = 1             # MS-MQMQ 2.2.19.2 UserHeader.Flags.DM
SENTINEL = "orders"         # a queue every setup script makes: its absence means the script was not run
_PATHNAME = re.compile(r"[^\\]+\\private\$\\mqs[0-9a-f]{6}-(?P<alias>[^\\;]+)(?:;(?P<sub>[^\\;]+))?",
                       re.IGNORECASE)


class _NoControl:
    """What stands in for mqspec's control interface (control.ControlClient): nothing.  An operation of a
    capability is refused with TargetCapabilityError; the rundown of a closed client cannot be awaited (the purge
    after a scenario waits for it where it must: a handle that denied sharing)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def invoke(self, op: str, **args):
        if op == "await_rundown":
            return True
        raise TargetCapabilityError(self.name, OPERATIONS[op])   # MsmqTarget answers the others itself

    def close(self) -> None:
        """Nothing to release."""


class _Session:
    """The suite's sending queue manager towards one host, kept for the process: its MS-MQQB session (its GUID
    and MessageIDs go on from scenario to scenario, as a real peer's would) and its acceptor."""

    def __init__(self, host: str, mqqb_port: int, computer: str, acceptor: tuple[str, int] | None,
                 timeout: float) -> None:
        self.computer, self.mqqb_port = computer, mqqb_port
        self.sender = MqqbSender(host, mqqb_port, suite_guid(), timeout)
        self.acceptor = Acceptor(*acceptor) if acceptor else None
        self.lock = threading.Lock()            # one UserMessage written at a time
        self.checked = False                    # the setup script's queues were found


_SESSIONS: dict[tuple, _Session] = {}


def _session(host: str, mqqb_port: int, computer: str, acceptor: tuple[str, int] | None,
             timeout: float) -> _Session:
    key = (host, mqqb_port, computer, acceptor)
    if key not in _SESSIONS:
        _SESSIONS[key] = _Session(host, mqqb_port, computer, acceptor, timeout)
    return _SESSIONS[key]


class _Scene:
    """What the clients of one scenario share: the session, the queues it created, whether it sent."""

    def __init__(self, session: _Session) -> None:
        self.session = session
        self.computer, self.mqqb_port = session.computer, session.mqqb_port
        self.sender, self.acceptor, self.lock = session.sender, session.acceptor, session.lock
        self.used: dict[str, str] = {}          # format name -> alias, of the queues the scenario created
        self.sent = False                       # a message went to the host: there is something to purge
        self.journaled: set[str] = set()        # those of them that keep a journal
        self.answered: set[str] = set()         # administration queues its messages named (acknowledgments)
        self.peers = False                      # a peer of the scenario sent what it chose


class _PeerConnection(TcpMqqbConnection):
    """The suite's connection to the host's MS-MQQB port for a Peer of the scenarios; sessions the host opened to
    the suite's acceptor are what it opened to this peer (D-76 new-session)."""

    def __init__(self, host: str, port: int, acceptor: Acceptor | None) -> None:
        super().__init__(host, port)
        self._acceptor = acceptor

    def opened_by_target(self):
        return self._acceptor.take_new() if self._acceptor is not None else []


class MsmqTarget(MqrrTarget):
    def __init__(self, host: str, port: int, *, credentials: Credentials = Credentials(), ndr64: bool = False,
                 connect_timeout: float = 5.0, second: Credentials | None = None, mqqb_port: int = 1801,
                 computer: str = "", acceptor: tuple[str, int] | None = None, _scene: _Scene | None = None) -> None:
        name = f"msmq://{host}:{port}"
        self._owns_scene = _scene is None
        if _scene is None:
            try:
                _scene = _Scene(_session(host, mqqb_port, computer or host.split(".")[0], acceptor, connect_timeout))
            except (SessionError, OSError) as error:
                raise ConnectError(str(error)) from None
        self._scene = _scene
        identity = {"name": "network only", "computer_name": _scene.computer,
                    "queue_manager_identifier": _scene.sender.host_guid, "capabilities": sorted(OFFERED),
                    "send_insecure_nacks": None, "mqqb_port": mqqb_port}
        super().__init__(host, port, credentials=credentials, ndr64=ndr64, connect_timeout=connect_timeout,
                         second=second, _control=_NoControl(name), _identity=identity)
        self.name = name
        # a call started on another thread reaches a host across a network, or a loaded one, later than one bind
        self.settle_seconds = max(self.settle_seconds, SETTLE_FLOOR_S)
        self.capabilities = OFFERED | ({"identities"} if len(self._accounts) == 2 else set())
        self._roles = {account: role for account, role in zip(self._accounts, ("first", "second"))}
        if self._owns_scene and not _scene.session.checked:
            self._check_setup()
            _scene.session.checked = True

    def _check_setup(self) -> None:
        made = setup_queue(SENTINEL)
        opened = self.open_queue(from_format_name(self._format_name(made.name)), Access.PEEK_ACCESS,
                                 ShareMode.MQ_DENY_NONE)
        if opened.hresult == HRESULT.MQ_OK:
            self.close_queue(opened.pph_context)
            return
        self.close()
        raise ConnectError(f"{self.host} has no queue {made.name} ({opened.hresult:#x}): run the script "
                           "`mqspec windows-setup` prints on the host first")

    def _format_name(self, name: str) -> str:
        return f"DIRECT=OS:{self._scene.computer}\\private$\\{name}"

    # -- queues: the setup script's ---------------------------------------------------------------
    def create_queue(self, pathname: str, *, transactional: bool = False, quota: int = INFINITE,
                     journaling: bool = False, label: str = "", security: dict | None = None) -> CreateQueueOut:
        match = _PATHNAME.fullmatch(pathname)
        if match is None:
            raise TargetCapabilityError(self.name, "create_queue", f"the queue {pathname!r} is none of the script's")
        if match["sub"]:
            return self._subqueue(match["alias"], match["sub"])
        owner, acl = "first", None
        if security is not None:
            owner = self._roles.get(security.get("owner"), security.get("owner"))
            entries = security.get("dacl")
            acl = None if entries is None else tuple((kind, self._roles.get(trustee, trustee), rights)
                                                     for kind, trustee, rights in entries)
            if entries is None:
                raise TargetCapabilityError(self.name, "create_queue", "a queue that takes the default access list "
                                            "of an owner the script cannot choose")
        made = setup_queue(match["alias"], transactional=transactional, quota=quota, journaling=journaling,
                           label=label, owner=owner, acl=acl)
        if isinstance(made, str):
            raise TargetCapabilityError(self.name, "create_queue", made)
        format_name = self._format_name(made.name)
        self._check_made(made.name, format_name)
        if format_name in self._scene.used:
            raise TargetCapabilityError(self.name, "create_queue", f"{made.name} created twice in one scenario")
        self._scene.used[format_name] = match["alias"]
        if made.journaling:
            self._scene.journaled.add(format_name)
        return CreateQueueOut(HRESULT.MQ_OK, format_name, f"{self._scene.computer}\\private$\\{made.name}")

    def _subqueue(self, alias: str, sub: str) -> CreateQueueOut:
        """A subqueue of a queue the scenario made: Windows makes subqueues as they are used, and
        `mqspec serve --as-windows` those of the script's queues that scenarios name."""
        parents = [name for name, used in self._scene.used.items() if used == alias]
        if not parents:
            raise TargetCapabilityError(self.name, "create_queue", f"a subqueue of {alias!r}, which it has not made")
        format_name = f"{parents[0]};{sub}"
        self._check_made(format_name.rpartition("\\")[2], format_name)
        self._scene.used[format_name] = f"{alias};{sub}"
        return CreateQueueOut(HRESULT.MQ_OK, format_name, format_name.partition(":")[2])

    def _check_made(self, name: str, format_name: str) -> None:
        """The host has the queue (an open that is refused for want of access finds it too)."""
        opened = self.open_queue(from_format_name(format_name), Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE)
        if opened.hresult == HRESULT.MQ_OK:
            self.close_queue(opened.pph_context)
        elif opened.hresult not in (HRESULT.MQ_ERROR_ACCESS_DENIED, RpcStatus.RPC_S_ACCESS_DENIED):
            raise TargetCapabilityError(self.name, "create_queue", f"the host has no queue {name} "
                                        f"({opened.hresult:#x}): no scenario declares it in a step mqspec "
                                        "windows-setup reads")

    def delete_queue(self, format_name: str) -> int:
        raise TargetCapabilityError(self.name, "delete_queue")

    # -- sending: a UserMessage of the suite's queue manager --------------------------------------
    def send(self, format_name: str, properties: MessageProperties, transaction: bytes | None = None) -> SendOut:
        if transaction is not None:
            raise TargetCapabilityError(self.name, "internal_transactions")
        return self._send(format_name, properties, None)

    def send_in_own_transaction(self, format_name: str, properties: MessageProperties) -> SendOut:
        with self._scene.lock:
            header = self._scene.sender.next_transaction()
        return self._send(format_name, properties, header)

    def _send(self, format_name: str, p: MessageProperties, transaction: tuple | None) -> SendOut:
        if p.allow_peek_when_locked or p.extra or p.srmp_compound_message is not None or p.privacy_level or \
                p.srmp_envelope is not None or (p.acknowledgements and not p.admin_queue) or p.positive_journaling:
            raise TargetCapabilityError(self.name, "local_send", "a property only a local application's send "
                                        "writes as the scenario means it (peek when locked, privacy level, SRMP, "
                                        "acknowledgments with no administration queue, positive journaling, whose "
                                        "copy is the source queue manager's, extra properties)")
        sender = self._scene.sender
        with self._scene.lock:
            message_id = sender.next_message_id()
            out = Outgoing(
                source=sender.guid, destination_qm=sender.host_guid, message_id=message_id,
                destination=format_name, admin=p.admin_queue, response=p.response_queue,
                priority=DEFAULT_PRIORITY if p.priority is None else p.priority,
                delivery=RECOVERABLE if p.delivery == "recoverable" else 0,
                positive_journaling=p.positive_journaling, negative_journaling=p.negative_journaling,
                time_to_reach_queue=INFINITE if p.time_to_reach_queue is None else p.time_to_reach_queue,
                time_to_be_received=INFINITE if p.time_to_be_received is None else p.time_to_be_received,
                sent_time=p.sent_time or int(time.time()), transaction=transaction,
                acknowledgements=p.acknowledgements, label=p.label, message_class=p.message_class,
                correlation_id=p.correlation_id, body=p.body, body_type=p.body_type,
                application_tag=p.application_tag, extension=p.extension, srmp_envelope=p.srmp_envelope)
            try:
                sender.send(out)
            except (ValueError, struct.error) as error:   # a name or label no UserMessage field carries
                raise TargetCapabilityError(self.name, "local_send", f"a UserMessage cannot name it: {error}") \
                    from None
            except SessionError as error:
                raise ConnectError(str(error)) from None
        self._scene.sent = True
        if p.admin_queue:
            self._scene.answered.add(p.admin_queue)
        identifier = sender.guid + message_id.to_bytes(4, "little")   # MS-MQMQ 2.2.18.1.3 OBJECTID
        return SendOut(HRESULT.MQ_OK, 0 if self._seen(format_name, identifier) else None, identifier)

    def _seen(self, format_name: str, identifier: bytes) -> bool:
        """The message is in its queue (MS-MQMQ 2.2.19.2: SourceQueueManager at 16, MessageID at 56 of the
        packet's first section)."""
        deadline = time.monotonic() + SEEN_WITHIN_S
        while True:
            listed = self.read_queue(format_name)
            for message in listed.messages:
                header = message.pp_packet_sections[0].p_section_buffer if message.pp_packet_sections else b""
                if header[16:32] == identifier[:16] and header[56:60] == identifier[16:]:
                    return True
            if listed.hresult != HRESULT.MQ_OK or time.monotonic() >= deadline:
                return False
            time.sleep(SEEN_POLL_S)

    # -- what a host reached through the network cannot do ----------------------------------------
    def begin_transaction(self) -> bytes:
        raise TargetCapabilityError(self.name, "internal_transactions")

    def prepare_transaction(self, uow: bytes) -> int:
        raise TargetCapabilityError(self.name, "internal_transactions")

    def commit_transaction(self, uow: bytes) -> int:
        raise TargetCapabilityError(self.name, "internal_transactions")

    def abort_transaction(self, uow: bytes) -> int:
        raise TargetCapabilityError(self.name, "internal_transactions")

    def run_in_real_time(self) -> None:
        """The host's clock is the wall clock already."""

    def drop(self) -> None:
        raise TargetCapabilityError(self.name, "drop_connection")

    def mqqb_connect(self):
        self._scene.sent = self._scene.peers = True   # the scenario's peers send to the host: purge it all
        return _PeerConnection(self.host, self._scene.mqqb_port, self._scene.acceptor)

    # -- identity ---------------------------------------------------------------------------------
    @property
    def computer_name(self) -> str:
        return self._scene.computer

    @property
    def queue_manager_identifier(self) -> bytes:
        return self._scene.sender.host_guid

    # -- clients ----------------------------------------------------------------------------------
    def connection(self, *, ndr64: bool | None = None) -> "MsmqTarget":
        return MsmqTarget(self.host, self.port, credentials=self._options["credentials"],
                          ndr64=self.ndr64 if ndr64 is None else ndr64,
                          connect_timeout=self._options["connect_timeout"], _scene=self._scene)

    def as_identity(self, name: str, auth_level: str = "privacy") -> "MsmqTarget":
        return MsmqTarget(self.host, self.port, credentials=self._identity_credentials(name, auth_level),
                          ndr64=self.ndr64, connect_timeout=self._options["connect_timeout"], _scene=self._scene)

    def close(self) -> None:
        super().close()   # its handles run down first: one that denies sharing would keep the purge out
        if self._owns_scene and self._scene.sent:
            self._empty_queues()

    def _empty_queues(self) -> None:
        """No reset: what the scenario left in its queues, the journals of those that keep one and the machine's
        queues is purged over MS-MQRR, then the administration queues again (a purge raises acknowledgments), each
        by the first account that may."""
        used = list(self._scene.used)
        again = used if self._scene.peers else [name for name in used if name in self._scene.answered]
        names = used + [name + ";JOURNAL" for name in used if ";" not in name and name in self._scene.journaled] + \
            [self.machine_format_name(suffix) for suffix in ("DEADLETTER", "DEADXACT", "JOURNAL")] + again
        clients = [self.connection()]
        try:
            for name in names:
                if clients[0]._purge(name):
                    continue
                if len(clients) == 1 and len(self._accounts) == 2:
                    clients.append(self.as_identity(list(self._accounts)[1]))
                for client in clients[1:]:
                    client._purge(name)
        finally:
            for client in clients:
                client.close()

    def _purge(self, format_name: str) -> bool:
        for _ in range(PURGE_TRIES):   # a closed client's handle that denied sharing goes at the host's rundown
            opened = self.open_queue(from_format_name(format_name), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE)
            if opened.hresult != HRESULT.MQ_ERROR_SHARING_VIOLATION:
                break
            time.sleep(SEEN_POLL_S)
        if opened.hresult != HRESULT.MQ_OK:
            return opened.hresult not in (HRESULT.MQ_ERROR_ACCESS_DENIED, RpcStatus.RPC_S_ACCESS_DENIED)
        try:
            return self.purge_queue(opened.pph_context) == HRESULT.MQ_OK
        finally:
            self.close_queue(opened.pph_context)
