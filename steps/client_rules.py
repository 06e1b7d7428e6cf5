"""The client clauses of MS-MQRR as rules over the calls a judging server recorded.

Theory of operation
-------------------
A rule reads the records of one scenario (adapters/mqrr/judging.py: each call's
method, association, decoded arguments, status or fault, outputs) together with
what the application asked for (client_world.Asked: which records each
operation spans) and returns the broken promises, one line each, naming the call
by its number.  `RULES` maps each rule's sentence, as scenarios write it after
"Then the client ", to its function; its comment names the clauses.

The facts rules share are worked out once by `Calls`: the handles each
R_OpenQueue / R_OpenQueueForMove gave (only a call that succeeded gives
anything: MS-MQRR 3.1.4.2, the outputs of a failed call are not outputs), when
each was closed, the cursors and move contexts, and the Start*Receive calls
still owed an End.  A handle is live for a call of the same association after
the call that made it and before the R_CloseQueue that succeeded on it.
Nothing here comes from the server's implementation: the vocabulary is
protocol/, the facts are the records.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from mqspec.protocol.constants import Access, Ack, Action, MessageClass, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name

from .client_world import Asked, ClientWorld

RECEIVE_ACTIONS = {Action.MQ_ACTION_RECEIVE, Action.MQ_LOOKUP_RECEIVE_CURRENT, Action.MQ_LOOKUP_RECEIVE_NEXT,
                   Action.MQ_LOOKUP_RECEIVE_PREV}
PEEK_ACTIONS = {Action.MQ_ACTION_PEEK_CURRENT, Action.MQ_ACTION_PEEK_NEXT, Action.MQ_LOOKUP_PEEK_CURRENT,
                Action.MQ_LOOKUP_PEEK_NEXT, Action.MQ_LOOKUP_PEEK_PREV}
STARTS = ("R_StartReceive", "R_StartTransactionalReceive")
ENDS = {"R_StartReceive": "R_EndReceive", "R_StartTransactionalReceive": "R_EndTransactionalReceive"}
# MS-MQRR 3.1.4.2: the methods that take a handle R_OpenQueue gave (R_MoveMessage: its source, phContextFrom)
NEEDS_OPEN_QUEUE = ("R_CreateCursor", "R_CloseCursor", "R_PurgeQueue", "R_StartReceive", "R_CancelReceive",
                    "R_EndReceive", "R_MoveMessage", "R_StartTransactionalReceive", "R_SetUserAcknowledgementClass",
                    "R_EndTransactionalReceive")
ZERO_UOW = "00" * 16
NULL_HANDLE = "00" * 20


# the clause a Start owes its End to (MS-MQRR 3.1.4.7, 3.1.4.13): the cause of a receive never ended
ENDED_BY = {"R_StartReceive": "MS-MQRR:3.1.4.7:01", "R_StartTransactionalReceive": "MS-MQRR:3.1.4.13:01"}


class Problem(str):
    """A broken promise that knows the clause it breaks, when the rule alone cannot say which of its clauses."""

    clause: str | None = None

    def __new__(cls, text: str, clause: str | None = None) -> "Problem":
        problem = super().__new__(cls, text)
        problem.clause = clause
        return problem


def _ok(call: dict) -> bool:
    return call["done"] and call["fault"] is None and not call["dropped"] and call["status"] == HRESULT.MQ_OK


def _handle(call: dict) -> str | None:
    args = call["args"] or {}
    return args.get("phContext") or args.get("phContextFrom") or args.get("pphContext")


@dataclass
class Opened:
    seq: int
    method: str
    association: int
    access: int
    share: int
    queue_format: dict
    closed: int | None = None     # the record number of the R_CloseQueue that closed it


@dataclass
class Calls:
    """What the records of one scenario establish."""
    records: list[dict]
    handles: dict[str, Opened] = field(default_factory=dict)          # handle (hex) -> how it was opened
    move_contexts: dict[int, str] = field(default_factory=dict)       # pMoveContext -> its handle
    # (handle, hCursor) -> [made, closed]
    cursors: dict[tuple[str, int], list[int | None]] = field(default_factory=dict)
    failed_outputs: dict[int, str] = field(default_factory=dict)      # value -> the call whose failure it came from

    def __post_init__(self) -> None:
        for call in self.records:
            method, args, out = call["method"], call["args"] or {}, call["outputs"] or {}
            if method in ("R_OpenQueue", "R_OpenQueueForMove") and _ok(call):
                self.handles[out["pphContext"]] = Opened(call["seq"], method, call["association"], args["dwAccess"],
                                                         args["dwShareMode"], args["pQueueFormat"])
                if method == "R_OpenQueueForMove":
                    self.move_contexts[out["pMoveContext"]] = out["pphContext"]
            elif method == "R_CloseQueue" and _ok(call) and args["pphContext"] in self.handles:
                opened = self.handles[args["pphContext"]]
                if opened.closed is None:
                    opened.closed = call["seq"]
            elif method == "R_CreateCursor" and call["done"] and call["fault"] is None:
                if _ok(call):
                    self.cursors[(args["phContext"], out["phCursor"])] = [call["seq"], None]
                elif "phCursor" in out:
                    self.failed_outputs[out["phCursor"]] = f"#{call['seq']} R_CreateCursor"
            elif method == "R_CloseCursor" and _ok(call):
                made = self.cursors.get((args["phContext"], args["hCursor"]))
                if made is not None and made[1] is None:
                    made[1] = call["seq"]
            elif method in STARTS and call["done"] and call["fault"] is None and not _ok(call):
                if out.get("pSequenceId"):
                    self.failed_outputs[out["pSequenceId"]] = f"#{call['seq']} {method}"

    def live(self, handle: str | None, call: dict) -> Opened | None:
        """The handle's opening when it is live for `call`, else None."""
        opened = self.handles.get(handle or "")
        if opened is None or opened.association != call["association"] or opened.seq >= call["seq"]:
            return None
        if opened.closed is not None and opened.closed < call["seq"]:
            return None
        return opened

    def cursor_live(self, handle: str, h_cursor: int, call: dict) -> bool:
        made = self.cursors.get((handle, h_cursor))
        return made is not None and made[0] < call["seq"] and (made[1] is None or made[1] >= call["seq"])

    def of(self, *methods: str) -> list[dict]:
        return [call for call in self.records if call["method"] in methods]


def _name(call: dict) -> str:
    return f"#{call['seq']} {call['method'] or 'opnum %d' % call['opnum']}"


# -- the rules -------------------------------------------------------------------------------------
def never_opnum_1(world: ClientWorld, calls: Calls) -> list[str]:
    # MS-MQRR:3.1.4:03
    return [f"#{call['seq']}: opnum {call['opnum']}" for call in calls.records if call["opnum"] == 1]


def only_handles_from_opening(world, calls) -> list[str]:
    # MS-MQRR:2.2.4:01, 3.1.4.3:01, 3.1.4.4:01, 3.1.4.7:02 (live, non-NULL), 3.1.4.8:01, 3.1.4.9:02, 3.2.4.13:02
    problems = []
    for call in calls.records:
        handle = _handle(call)
        if handle is None:
            continue
        if handle == NULL_HANDLE:
            problems.append(f"{_name(call)} passed a NULL context handle")
        elif calls.live(handle, call) is None:
            what = "one it had closed" if handle in calls.handles else "one no R_OpenQueue gave it"
            problems.append(f"{_name(call)} passed the handle {handle[8:16]}…, {what}")
    return problems


def opened_by_r_open_queue(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.2:01 (and 3.1.4.13:02, 3.1.4.10:02: the receiving handle comes from R_OpenQueue)
    problems = []
    for call in calls.of(*NEEDS_OPEN_QUEUE):
        opened = calls.live(_handle(call), call)
        if opened is not None and opened.method != "R_OpenQueue":
            problems.append(f"{_name(call)} used a handle of {opened.method} (#{opened.seq}), not of R_OpenQueue")
    return problems


def access_allows(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.6:01, 3.1.4.7:02, 3.1.4.10:02, 3.1.4.13:02, 3.1.4.14:02: receiving needs RECEIVE_ACCESS
    problems = []
    for call in calls.records:
        method, args = call["method"], call["args"] or {}
        receiving = (method == "R_PurgeQueue" or method in ("R_MoveMessage", "R_SetUserAcknowledgementClass",
                                                            "R_StartTransactionalReceive")
                     or (method == "R_StartReceive" and args.get("ulAction") in RECEIVE_ACTIONS))
        opened = calls.live(_handle(call), call) if receiving else None
        if opened is not None and opened.access != Access.RECEIVE_ACCESS:
            problems.append(f"{_name(call)} through a handle opened with dwAccess 0x{opened.access:X} "
                            f"(#{opened.seq}), not RECEIVE_ACCESS")
    return problems


def only_live_cursors(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.5:01, 3.1.4.7:03, 3.2.4.12:02 (a closed cursor is forgotten)
    problems = []
    for call in calls.of("R_StartReceive", "R_StartTransactionalReceive", "R_CloseCursor"):
        args = call["args"] or {}
        h_cursor = args.get("hCursor", 0)
        if h_cursor and not calls.cursor_live(args["phContext"], h_cursor, call):
            problems.append(f"{_name(call)} used hCursor 0x{h_cursor:X}, which R_CreateCursor did not give on that "
                            "handle or which was closed")
    return problems


def ignored_failed_outputs(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.4:03, 3.1.4.2:11, 3.1.4.11:09: the outputs of a failed call are not used
    problems = []
    for call in calls.records:
        args = call["args"] or {}
        for name in ("hCursor", "LookupId"):
            value = args.get(name) or 0
            for candidate in {value, value & 0x00FFFFFFFFFFFFFF}:
                if candidate in calls.failed_outputs:
                    problems.append(f"{_name(call)} passed {name} 0x{value:X}, an output of the failed "
                                    f"{calls.failed_outputs[candidate]}")
    return problems


def paired_every_receive(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.7:01, 3.1.4.9:01, 3.1.4.13:01, 3.1.4.15:01, 3.2.4.4.1:01, 3.2.4.4.2:01
    problems = []
    for start in calls.of(*STARTS):
        args = start["args"] or {}
        if not _ok(start) or args.get("ulAction") not in RECEIVE_ACTIONS:
            continue
        end = ENDS[start["method"]]
        matched = [call for call in calls.records[start["seq"] + 1:]
                   if call["method"] == end and _same_request(call, start)]
        if not matched:
            other = [call for call in calls.records[start["seq"] + 1:]
                     if call["method"] in ENDS.values()
                     and (call["args"] or {}).get("dwRequestId") == args["dwRequestId"]]
            problems.append(Problem(f"{_name(start)} (dwRequestId {args['dwRequestId']}) got a message and no {end} "
                                    "with its handle and dwRequestId followed"
                                    + (f" (the client sent {_name(other[0])} instead)" if other else ""),
                                    ENDED_BY[start["method"]]))
    return problems


def request_ids_unique(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.7:05, 3.1.4.13:04: not reused on the handle until its End or Cancel completed
    problems, last = [], {}
    for call in calls.of(*STARTS):
        args = call["args"] or {}
        key = (args.get("phContext"), args.get("dwRequestId"))
        earlier = last.get(key)
        last[key] = call
        if earlier is None:
            continue
        if not earlier["done"] or earlier["done_at"] > call["at"]:
            problems.append(f"{_name(call)} reused dwRequestId {key[1]} while {_name(earlier)} was still running")
            continue
        owed = _ok(earlier) and (earlier["args"] or {}).get("ulAction") in RECEIVE_ACTIONS
        settled = any(end["method"] in ("R_EndReceive", "R_EndTransactionalReceive", "R_CancelReceive")
                      and _same_request(end, earlier) and end["done"] and end["done_at"] <= call["at"]
                      for end in calls.records[earlier["seq"] + 1:call["seq"]])
        if owed and not settled:
            problems.append(f"{_name(call)} reused dwRequestId {key[1]} before the End of {_name(earlier)}")
    return problems


def end_acks(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.9:03, 3.1.4.15:02: dwAck is RR_ACK (2) or RR_NACK (1)
    return [f"{_name(call)} sent dwAck {(call['args'] or {}).get('dwAck')}"
            for call in calls.of("R_EndReceive", "R_EndTransactionalReceive")
            if (call["args"] or {}).get("dwAck") not in (Ack.RR_ACK, Ack.RR_NACK)]


def ends_match_their_start(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.9:02, 3.1.4.15:02, 3.1.4.8:01: the same handle and dwRequestId as the Start
    problems = []
    for call in calls.of("R_EndReceive", "R_EndTransactionalReceive", "R_CancelReceive"):
        args = call["args"] or {}
        wanted = {"R_EndReceive": ("R_StartReceive",), "R_EndTransactionalReceive": ("R_StartTransactionalReceive",),
                  "R_CancelReceive": STARTS}[call["method"]]
        if not any(start["method"] in wanted and _same_request(call, start) for start in calls.records[:call["seq"]]):
            problems.append(f"{_name(call)} named dwRequestId {args.get('dwRequestId')} on a handle where no "
                            f"{' or '.join(wanted)} used it")
    return problems


def moves_through_move_contexts(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.10:03, 3.1.4.11:01: ullContextTo is a live pMoveContext of R_OpenQueueForMove
    problems = []
    for call in calls.of("R_MoveMessage"):
        context = (call["args"] or {}).get("ullContextTo")
        handle = calls.move_contexts.get(context)
        if handle is None or calls.live(handle, call) is None:
            problems.append(f"{_name(call)} moved to ullContextTo 0x{(context or 0):X}, not a live move context "
                            "R_OpenQueueForMove gave it")
    return problems


def move_transaction_ids(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.10:04: zeros, or an XACTUOW enlisted before
    problems = []
    for call in calls.of("R_MoveMessage"):
        uow = (call["args"] or {}).get("pTransactionId")
        if uow is None:
            problems.append(f"{_name(call)} passed a NULL pTransactionId")
        elif uow != ZERO_UOW and not _enlisted_before(calls, uow, call):
            problems.append(f"{_name(call)} passed XACTUOW {uow}, never enlisted with R_QMEnlistRemoteTransaction")
    return problems


def _enlisted_before(calls: Calls, uow: str, call: dict) -> bool:
    return any(_ok(enlist) and (enlist["args"] or {}).get("pTransactionId") == uow
               for enlist in calls.records[:call["seq"]] if enlist["method"] == "R_QMEnlistRemoteTransaction")


def enlisted_before_use(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.12:02, 3.2.4.2:01
    problems = []
    for call in calls.of("R_StartTransactionalReceive", "R_MoveMessage"):
        uow = (call["args"] or {}).get("pTransactionId")
        if uow and uow != ZERO_UOW and not _enlisted_before(calls, uow, call):
            problems.append(f"{_name(call)} used XACTUOW {uow} before enlisting it")
    return problems


def enlistment_arguments(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.12:03: a transaction id and a propagation token, its size given (its bytes: 3.1.4.12:07, D-160)
    problems = []
    for call in calls.of("R_QMEnlistRemoteTransaction"):
        args = call["args"]
        if args is None:
            problems.append(f"{_name(call)} could not be decoded (fault 0x{call['undecodable']:08X})")
            continue
        if not args.get("pTransactionId") or args["pTransactionId"] == ZERO_UOW:
            problems.append(f"{_name(call)} enlisted no transaction id")
        token = args.get("pbPropagationToken") or ""
        if not token or args.get("cbPropagationToken") != len(token) // 2:
            problems.append(f"{_name(call)} gave a propagation token of {len(token) // 2} bytes with "
                            f"cbPropagationToken {args.get('cbPropagationToken')}")
    return problems


def enlisted_with_its_queue(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.12:04: pQueueFormat names the queue the transaction is used with
    problems = []
    for enlist in calls.of("R_QMEnlistRemoteTransaction"):
        args = enlist["args"] or {}
        uses = []
        for call in calls.records[enlist["seq"] + 1:]:
            if (call["args"] or {}).get("pTransactionId") != args.get("pTransactionId"):
                continue
            if call["method"] == "R_StartTransactionalReceive":
                opened = calls.handles.get(call["args"]["phContext"])
                uses += [opened.queue_format] if opened else []
            elif call["method"] == "R_MoveMessage":
                source = calls.handles.get(call["args"]["phContextFrom"])
                target = calls.handles.get(calls.move_contexts.get(call["args"]["ullContextTo"], ""))
                uses += [opened.queue_format for opened in (source, target) if opened]
        if uses and args.get("pQueueFormat") not in uses:
            problems.append(f"{_name(enlist)} named a queue the transaction was not used with")
    return problems


def acknowledgement_class(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.14:01, :02, :03: after the transactional receive ended, before the commit or abort; usClass
    problems = []
    for call in calls.of("R_SetUserAcknowledgementClass"):
        args = call["args"] or {}
        if args.get("usClass") not in (0, MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED):
            problems.append(f"{_name(call)} sent usClass 0x{args.get('usClass', 0):04X}")
        low = (args.get("LookupId") or 0) & 0x00FFFFFFFFFFFFFF
        received = [start for start in calls.of("R_StartTransactionalReceive")
                    if start["seq"] < call["seq"] and _ok(start) and (start["outputs"] or {}).get("pSequenceId") == low
                    and (start["args"] or {}).get("phContext") == args.get("phContext")]
        if not received:
            problems.append(f"{_name(call)} named LookupId 0x{args.get('LookupId', 0):X}, no message a "
                            "transactional receive on that handle returned")
            continue
        start = received[-1]
        ended = [end for end in calls.of("R_EndTransactionalReceive") if start["seq"] < end["seq"] < call["seq"]
                 and _same_request(end, start)]
        if not ended:
            problems.append(f"{_name(call)} came before the R_EndTransactionalReceive of {_name(start)}")
        uow = start["args"]["pTransactionId"]
        for name, made in world.transactions.items():
            if made == uow and name in world.ended and world.ended[name] <= call["seq"]:
                problems.append(f"{_name(call)} came after the transaction {name!r} ended")
    return problems


def move_opening(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.11:03: dwAccess MQ_MOVE_ACCESS, dwShareMode MQ_DENY_NONE
    return [f"{_name(call)} sent dwAccess 0x{call['args']['dwAccess']:X}, dwShareMode {call['args']['dwShareMode']}"
            for call in calls.of("R_OpenQueueForMove") if call["args"] and
            (call["args"]["dwAccess"] != Access.MQ_MOVE_ACCESS
             or call["args"]["dwShareMode"] != ShareMode.MQ_DENY_NONE)]


def client_id(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.2:03, 3.1.4.11:04: a non-NULL GUID identifying the client: the same one in each call (D-84)
    ids = {call["args"]["pClientId"] for call in calls.of("R_OpenQueue", "R_OpenQueueForMove") if call["args"]}
    problems = ["the client sent the null GUID as pClientId"] if "00" * 16 in ids else []
    if len(ids) > 1:
        problems.append(f"the client identified itself with {len(ids)} different pClientId GUIDs")
    return problems


def _consistent(world: ClientWorld, calls: Calls, fields: tuple, hello_value, what: str) -> list[str]:
    seen = {tuple(call["args"][name] for name in fields)
            for call in calls.of("R_OpenQueue", "R_OpenQueueForMove") if call["args"]}
    if hello_value is not None:
        wrong = sorted(value for value in seen if value != tuple(hello_value))
        return [f"the client sent {what} {value}, not {tuple(hello_value)} as its shim says" for value in wrong]
    return [f"the client sent {len(seen)} different {what}: {sorted(seen)}"] if len(seen) > 1 else []


def versions(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.2:07, 3.1.4.11:06: Major, Minor, BuildNumber are the client's own (hello's version)
    hello = world.shim.hello.get("version")
    return _consistent(world, calls, ("Major", "Minor", "BuildNumber"), hello, "(Major, Minor, BuildNumber)")


def workgroup(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.2:08, 3.1.4.11:07: fWorkgroup TRUE exactly when the client is not in a domain
    said = world.shim.hello.get("workgroup")
    return _consistent(world, calls, ("fWorkgroup",), None if said is None else (1 if said else 0,), "fWorkgroup")


def routing(world, calls) -> list[str]:
    # MS-MQRR:3.1.4.2:05: fNonRoutingServer FALSE for a routing server, otherwise TRUE
    said = world.shim.hello.get("routing_server", False)
    return _consistent(world, calls, ("fNonRoutingServer",), (0 if said else 1,), "fNonRoutingServer")


def fresh_transaction_ids(world, calls) -> list[str]:
    # MS-MQRR:2.2.8:02: a unique random XACTUOW for each internal transaction
    made = list(world.transactions.values())
    shared = len(set(made)) < len(made)
    problems = [f"the transactions {sorted(world.transactions)} share an XACTUOW"] if shared else []
    return problems + [f"the transaction id of {name!r} is all zeros" for name, uow in world.transactions.items()
                       if uow == ZERO_UOW]


def opened_as_asked(world, calls) -> list[str]:
    # MS-MQRR:3.2.4.1:01, 3.2.1:01: one R_OpenQueue per open, with the application's name, access and share mode
    problems = []
    access = {"receive": Access.RECEIVE_ACCESS, "peek": Access.PEEK_ACCESS}
    share = {"deny_none": ShareMode.MQ_DENY_NONE, "deny_receive": ShareMode.MQ_DENY_SHARE}
    for asked in _asked(world, "open"):
        opens = [call for call in _during(calls, asked) if call["method"] == "R_OpenQueue"]
        if len(opens) != 1:
            problems.append(f"open {asked.args['queue']!r}: {len(opens)} R_OpenQueue calls, not 1")
            continue
        args = opens[0]["args"] or {}
        if args.get("pQueueFormat") != _plain_format(asked.args["format_name"]):
            problems.append(f"{_name(opens[0])} named another queue than {asked.args['format_name']}")
        if (args.get("dwAccess"), args.get("dwShareMode")) != (access[asked.args["access"]],
                                                              share[asked.args["share"]]):
            problems.append(f"{_name(opens[0])} sent dwAccess 0x{args.get('dwAccess', 0):X} dwShareMode "
                            f"{args.get('dwShareMode')} for {asked.args['access']}, {asked.args['share']}")
    return problems


def _plain_format(format_name: str) -> dict:
    """The application's format name as the judge records a QUEUE_FORMAT (judging.plain: the GUID as text)."""
    queue_format = from_format_name(format_name)
    return {item.name: (str(getattr(queue_format, item.name)) if item.name == "guid" and
                        getattr(queue_format, item.name) is not None else getattr(queue_format, item.name))
            for item in fields(queue_format)}


def handle_per_queue(world, calls) -> list[str]:
    # MS-MQRR:3.2.1:01: each operation on a queue uses that queue's handle; cursors stay with their handle
    problems, handles, owners = [], {}, {}
    for asked in world.asked:
        window = _during(calls, asked)
        if asked.op == "cursor":
            owners[asked.args["cursor"]] = asked.args["queue"]
        queue = asked.args.get("queue", owners.get(asked.args.get("cursor")))   # a cursor's operations: its queue's
        if asked.op == "open" and asked.status == HRESULT.MQ_OK:
            made = [call for call in window if call["method"] == "R_OpenQueue" and _ok(call)]
            if made:
                handles[asked.args["queue"]] = made[0]["outputs"]["pphContext"]
        elif queue in handles:
            for call in window:
                used = _handle(call)
                other = calls.handles.get(used) if used not in (handles[queue], None) else None
                if call["method"] in NEEDS_OPEN_QUEUE and other is not None and other.method == "R_OpenQueue":
                    problems.append(f"{asked.op} on {queue!r}: {_name(call)} used another queue's handle")
    return problems


def _same_request(call: dict, start: dict) -> bool:
    """An End or Cancel names a Start by both its handle and its dwRequestId (MS-MQRR 3.1.4.8, 3.1.4.9)."""
    mine, theirs = call["args"] or {}, start["args"] or {}
    return (mine.get("phContext"), mine.get("dwRequestId")) == (theirs.get("phContext"), theirs.get("dwRequestId"))


def _asked(world: ClientWorld, op: str) -> list[Asked]:
    return [asked for asked in world.asked if asked.op == op and asked.reply is not None]


def _during(calls: Calls, asked: Asked) -> list[dict]:
    end = asked.last if asked.last is not None else len(calls.records)
    return calls.records[asked.first:end]


def operation_sequences(world, calls) -> list[str]:
    # MS-MQRR:3.2.4.3:01, 3.2.4.4.1:01, 3.2.4.4.2:01, 3.2.4.5:01, 3.2.4.6:01, 3.2.4.7:01, 3.2.4.8:01, 3.2.4.9:01,
    # 3.2.4.10.1:01, 3.2.4.10.2:01, 3.2.4.11:01, 3.2.4.12:02, 3.2.4.13:02: each operation makes its calls
    problems = []
    for asked in world.asked:
        if asked.reply is None or asked.op not in SEQUENCES:
            continue
        problems += [Problem(f"{asked.op} {_shown(asked.args)}: {problem}", getattr(problem, "clause", None))
                     for problem in SEQUENCES[asked.op](world, calls, asked, _during(calls, asked))]
    return problems


def _shown(args: dict) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in args.items() if key not in ("timeout",))


def _starts(window: list[dict]) -> list[dict]:
    return [call for call in window if call["method"] in STARTS]


def _read_sequence(world: ClientWorld, calls: Calls, asked: Asked, window: list[dict]) -> list[str]:
    args, problems = asked.args, []
    peek = asked.op in ("peek", "cursor_peek")
    starts = _starts(window)
    if len(starts) != 1:
        return [f"{len(starts)} Start*Receive calls, not 1"]
    start = starts[0]
    sent = start["args"] or {}
    transactional = args.get("transaction") is not None and not peek
    wanted_method = "R_StartTransactionalReceive" if transactional else "R_StartReceive"
    if start["method"] != wanted_method:
        problems.append(f"{_name(start)}, not {wanted_method}")
    if transactional and sent.get("pTransactionId") != world.transactions.get(args["transaction"]):
        problems.append(f"{_name(start)} did not pass the transaction's XACTUOW")
    cursor = asked.op.startswith("cursor_")
    if cursor != bool(sent.get("hCursor")):
        problems.append(f"{_name(start)} sent hCursor 0x{sent.get('hCursor', 0):X}")
    lookup = args.get("lookup_id")
    if (sent.get("LookupId") or 0) != (lookup or 0):
        problems.append(f"{_name(start)} sent LookupId 0x{sent.get('LookupId', 0):X}, not {lookup or 0:#x}")
    action = sent.get("ulAction")
    if peek and action not in PEEK_ACTIONS or not peek and action not in RECEIVE_ACTIONS:
        problems.append(f"{_name(start)} sent ulAction 0x{action or 0:08X} for a {'peek' if peek else 'receive'}")
    if asked.op == "cursor_peek" and action in PEEK_ACTIONS:
        wanted = Action.MQ_ACTION_PEEK_NEXT if args.get("next") else Action.MQ_ACTION_PEEK_CURRENT
        if action != wanted:
            problems.append(f"{_name(start)} sent ulAction 0x{action:08X}, not 0x{wanted:08X}")
    if lookup is None and sent.get("ulTimeout") != args.get("timeout", 0):
        problems.append(f"{_name(start)} sent ulTimeout {sent.get('ulTimeout')}, not {args.get('timeout', 0)}")
    if "max_body" in args and sent.get("dwMaxBodySize") != args["max_body"]:   # MS-MQRR:3.1.4.7:06
        problems.append(f"{_name(start)} sent dwMaxBodySize {sent.get('dwMaxBodySize')}, not {args['max_body']}")
    if "max_compound" in args and sent.get("dwMaxCompoundMessageSize") != args["max_compound"]:   # 3.1.4.7:07
        problems.append(f"{_name(start)} sent dwMaxCompoundMessageSize {sent.get('dwMaxCompoundMessageSize')}, "
                        f"not {args['max_compound']}")
    ends = [call for call in window if call["method"] in ENDS.values()]
    if peek:
        return problems + [f"{_name(end)} after a peek" for end in ends]
    if _ok(start):
        end_method = ENDS[start["method"]]
        if not any(end["method"] == end_method for end in ends):
            problems.append(Problem(f"no {end_method} before the application was answered",
                                    ENDED_BY[start["method"]]))
        wanted_ack = Ack.RR_NACK if start["injected"] == "damage" else Ack.RR_ACK
        for end in ends:
            if (end["args"] or {}).get("dwAck") != wanted_ack:
                problems.append(f"{_name(end)} sent dwAck {(end['args'] or {}).get('dwAck')}, not "
                                f"{'RR_NACK: the message could not be rebuilt' if wanted_ack == 1 else 'RR_ACK'}")
    return problems


def _one(method: str, check=None):
    def sequence(world: ClientWorld, calls: Calls, asked: Asked, window: list[dict]) -> list[str]:
        made = [call for call in window if call["method"] == method]
        if len(made) != 1:
            return [f"{len(made)} {method} calls, not 1"]
        return check(world, calls, asked, made[0], window) if check else []
    return sequence


def _reject_check(world, calls, asked, call, window) -> list[str]:
    args = call["args"] or {}
    problems = [] if args.get("usClass") == MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED else [
        f"{_name(call)} sent usClass 0x{args.get('usClass', 0):04X}, not MQMSG_CLASS_NACK_RECEIVE_REJECTED"]
    if args.get("LookupId") != asked.args["lookup_id"]:
        problems.append(f"{_name(call)} sent LookupId 0x{args.get('LookupId', 0):X}, not the application's")
    return problems


def _move_check(world, calls, asked, call, window) -> list[str]:
    args = call["args"] or {}
    problems = []
    if not any(other["method"] == "R_OpenQueueForMove" and other["seq"] < call["seq"] for other in window):
        problems.append(f"no R_OpenQueueForMove before {_name(call)}")
    uow = world.transactions.get(asked.args.get("transaction")) if asked.args.get("transaction") else ZERO_UOW
    if args.get("pTransactionId") != uow:
        problems.append(f"{_name(call)} sent pTransactionId {args.get('pTransactionId')}, not {uow}")
    if args.get("LookupId") != asked.args["lookup_id"]:
        problems.append(f"{_name(call)} sent LookupId 0x{args.get('LookupId', 0):X}, not the application's")
    return problems


def _cancel_check(world, calls, asked, call, window) -> list[str]:
    waiting = world.waiting.get(asked.args["request"])
    started = _starts(_during(calls, waiting)) if waiting else []
    if not started or _same_request(call, started[0]):
        return []
    return [f"{_name(call)} cancelled dwRequestId {(call['args'] or {}).get('dwRequestId')}, not the waiting "
            f"read's {(started[0]['args'] or {}).get('dwRequestId')} on its handle"]


SEQUENCES = {
    "peek": _read_sequence, "cursor_peek": _read_sequence, "receive": _read_sequence,
    "cursor_receive": _read_sequence,
    "reject": _one("R_SetUserAcknowledgementClass", _reject_check),
    "move": _one("R_MoveMessage", _move_check),
    "purge": _one("R_PurgeQueue"),
    "cursor": _one("R_CreateCursor"),
    "cancel": _one("R_CancelReceive", _cancel_check),
    "close_cursor": _one("R_CloseCursor"),
    "close": _one("R_CloseQueue"),
}


def closed_waits_first(world, calls) -> list[str]:
    # MS-MQRR:3.2.4.12:01, 3.2.4.13:01 (SHOULD): pending reads cancelled (and cursors closed) before closing
    problems = []
    for asked in world.asked:
        if asked.op not in ("close", "close_cursor") or asked.reply is None:
            continue
        window = _during(calls, asked)
        closing = [call for call in window if call["method"] in ("R_CloseQueue", "R_CloseCursor")]
        if not closing:
            continue
        last = closing[-1]
        for name, waiting in world.waiting.items():
            if waiting.reply is not None and waiting.last is not None and waiting.last <= asked.first:
                continue    # answered before the close was asked
            belongs = waiting.args.get("queue") == asked.args.get("queue") if asked.op == "close" else \
                waiting.args.get("cursor") == asked.args.get("cursor")
            if not belongs:
                continue
            start = _starts(calls.records[waiting.first:])[:1]
            cancelled = start and any(call["method"] == "R_CancelReceive" and call["seq"] < last["seq"] and
                                      _same_request(call, start[0]) for call in window)
            if not cancelled:
                problems.append(f"{_name(last)} closed with the read {name!r} still waiting, not cancelled first")
        if asked.op == "close":
            for (handle, h_cursor), (made, closed) in calls.cursors.items():
                if handle == _handle(last) and (closed is None or closed > last["seq"]):
                    problems.append(f"{_name(last)} closed the queue with hCursor 0x{h_cursor:X} still open")
    return problems


@dataclass(frozen=True)
class Rule:
    function: object
    clauses: tuple[str, ...]


def stubs_decode(world, calls) -> list[str]:
    # MS-MQRR:2.1:04: every request stub is the encoding of its arguments in the syntax bound (MS-RPCE 2.2.5)
    problems = []
    for call in calls.records:
        if call["undecodable"] is None:
            continue
        stub = call.get("stub") or {}
        problems.append(f"{_name(call)} sent a {'NDR64' if call['ndr64'] else 'NDR 2.0'} stub of {stub.get('size')} "
                        f"octets that does not decode ({stub.get('why', '')}; fault 0x{call['undecodable']:08X}): "
                        f"{stub.get('octets', '')[:160]}")
    return problems


RULES = {
    "never called opnum 1": Rule(never_opnum_1, ("MS-MQRR:3.1.4:03",)),
    "sent only request stubs that decode in the transfer syntax it bound": Rule(stubs_decode, ("MS-MQRR:2.1:04",)),
    "used only live handles that opening a queue gave it": Rule(only_handles_from_opening, (
        "MS-MQRR:2.2.4:01", "MS-MQRR:3.1.4.3:01", "MS-MQRR:3.1.4.4:01", "MS-MQRR:3.2.4.13:02")),
    "called R_OpenQueue for every handle it read, cursored, purged or ended with": Rule(opened_by_r_open_queue, (
        "MS-MQRR:3.1.4.2:01",)),
    "received, purged, moved and rejected only through handles opened with RECEIVE_ACCESS": Rule(access_allows, (
        "MS-MQRR:3.1.4.6:01", "MS-MQRR:3.1.4.7:02", "MS-MQRR:3.1.4.10:02", "MS-MQRR:3.1.4.13:02",
        "MS-MQRR:3.1.4.14:02")),
    "used only cursors it had created and not closed": Rule(only_live_cursors, (
        "MS-MQRR:3.1.4.5:01", "MS-MQRR:3.1.4.7:03", "MS-MQRR:3.2.4.12:02")),
    "never used the outputs of a call that failed": Rule(ignored_failed_outputs, (
        "MS-MQRR:3.1.4.4:03", "MS-MQRR:3.1.4.2:11", "MS-MQRR:3.1.4.11:09")),
    "ended every receive that returned a message, by its handle and dwRequestId": Rule(paired_every_receive, (
        "MS-MQRR:3.1.4.7:01", "MS-MQRR:3.1.4.9:01", "MS-MQRR:3.1.4.13:01", "MS-MQRR:3.1.4.15:01")),
    "never reused a dwRequestId on a handle while it was outstanding": Rule(request_ids_unique, (
        "MS-MQRR:3.1.4.7:05", "MS-MQRR:3.1.4.13:04")),
    "sent only RR_ACK or RR_NACK as dwAck": Rule(end_acks, ("MS-MQRR:3.1.4.9:03", "MS-MQRR:3.1.4.15:02")),
    "ended and cancelled with the handle and dwRequestId of a start": Rule(ends_match_their_start, (
        "MS-MQRR:3.1.4.9:02", "MS-MQRR:3.1.4.15:02", "MS-MQRR:3.1.4.8:01")),
    "moved only to live move contexts R_OpenQueueForMove gave it": Rule(moves_through_move_contexts, (
        "MS-MQRR:3.1.4.10:03", "MS-MQRR:3.1.4.11:01")),
    "moved with a transaction id of zeros or one it had enlisted": Rule(move_transaction_ids, (
        "MS-MQRR:3.1.4.10:04",)),
    "enlisted each transaction before using it": Rule(enlisted_before_use, (
        "MS-MQRR:3.1.4.12:02", "MS-MQRR:3.2.4.2:01")),
    "enlisted with a transaction id and a propagation token of the size it gave": Rule(enlistment_arguments, (
        "MS-MQRR:3.1.4.12:03",)),
    "enlisted naming the queue the transaction was used with": Rule(enlisted_with_its_queue, (
        "MS-MQRR:3.1.4.12:04",)),
    "set acknowledgement classes only as MS-MQRR 3.1.4.14 allows": Rule(acknowledgement_class, (
        "MS-MQRR:3.1.4.14:01", "MS-MQRR:3.1.4.14:02", "MS-MQRR:3.1.4.14:03")),
    "opened queues for moving with MQ_MOVE_ACCESS and MQ_DENY_NONE": Rule(move_opening, ("MS-MQRR:3.1.4.11:03",)),
    "identified itself with one non-null GUID": Rule(client_id, ("MS-MQRR:3.1.4.2:03", "MS-MQRR:3.1.4.11:04")),
    "sent its own version numbers": Rule(versions, ("MS-MQRR:3.1.4.2:07", "MS-MQRR:3.1.4.11:06")),
    "said whether it is in a workgroup": Rule(workgroup, ("MS-MQRR:3.1.4.2:08", "MS-MQRR:3.1.4.11:07")),
    "said whether it is a routing server": Rule(routing, ("MS-MQRR:3.1.4.2:05",)),
    "made a new XACTUOW for each transaction": Rule(fresh_transaction_ids, ("MS-MQRR:2.2.8:02",)),
    "opened each queue once, as the application asked": Rule(opened_as_asked, (
        "MS-MQRR:3.2.4.1:01", "MS-MQRR:3.2.1:01")),
    "used each queue's own handle for it": Rule(handle_per_queue, ("MS-MQRR:3.2.1:01",)),
    "made the calls of each operation as MS-MQRR 3.2.4 gives them": Rule(operation_sequences, (
        "MS-MQRR:3.2.4.3:01", "MS-MQRR:3.2.4.4.1:01", "MS-MQRR:3.2.4.4.2:01", "MS-MQRR:3.2.4.5:01",
        "MS-MQRR:3.2.4.6:01", "MS-MQRR:3.2.4.7:01", "MS-MQRR:3.2.4.8:01", "MS-MQRR:3.2.4.9:01",
        "MS-MQRR:3.2.4.10.1:01", "MS-MQRR:3.2.4.10.2:01", "MS-MQRR:3.2.4.11:01", "MS-MQRR:3.2.4.12:02",
        "MS-MQRR:3.2.4.13:02", "MS-MQRR:3.1.4.7:06", "MS-MQRR:3.1.4.7:07", "MS-MQRR:3.1.4.13:05")),
    "cancelled waiting reads and closed cursors before closing": Rule(closed_waits_first, (
        "MS-MQRR:3.2.4.12:01", "MS-MQRR:3.2.4.13:01")),
}


def judge(world: ClientWorld, sentence: str) -> list[str]:
    """The broken promises of one rule over the scenario's records so far."""
    return RULES[sentence].function(world, Calls(world.records()))
