"""The queues a host certified through the network alone holds: their names, properties and access lists.

MS-MQRR cannot create a queue, so an administrator makes the suite's queues once on the host
(`mqspec windows-setup` prints the PowerShell that does) and the msmq:// target maps each
queue a scenario asks for onto one of them.  The mapping is a name: `setup_queue` turns what a
scenario asks (its alias and the properties of Create Queue, MS-MQDMPR 3.1.7.1.3) into the
name of the one queue that has exactly those properties, `mqspec-<alias>` plus a suffix per
property (-tx, -q<KB>k, -j, -acl<hash>), or into the reason no script can make it.

Access lists name roles, not accounts: "first" and "second" (the target URL's two accounts,
the script's -FirstUser and -SecondUser), Everyone, Anonymous Logon and Administrators.  A queue a scenario
creates without one gets Windows' default list (the owner's full control, Everyone's generic
write, Anonymous Logon's write) plus full control for both accounts; a queue with one gets
exactly its entries (the script removes the defaults first).  The script's queues are owned by
the account that runs it, which must be the first: a queue owned by the second cannot be made.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from mqspec.protocol.constants import INFINITE, QueueRights

PREFIX = "mqspec"
ROLES = ("first", "second", "Everyone", "Anonymous Logon", "Administrators")
# MS-MQMQ 2.2.24 rights, by the names of System.Messaging.MessageQueueAccessRights (the same values), composites first
RIGHT_NAMES = (
    (QueueRights.MQSEC_QUEUE_GENERIC_ALL, "FullControl"), (QueueRights.MQSEC_QUEUE_GENERIC_READ, "GenericRead"),
    (QueueRights.MQSEC_QUEUE_GENERIC_WRITE, "GenericWrite"), (QueueRights.MQSEC_RECEIVE_MESSAGE, "ReceiveMessage"),
    (QueueRights.MQSEC_RECEIVE_JOURNAL_MESSAGE, "ReceiveJournalMessage"),
    (QueueRights.MQSEC_DELETE_MESSAGE, "DeleteMessage"), (QueueRights.MQSEC_PEEK_MESSAGE, "PeekMessage"),
    (QueueRights.MQSEC_WRITE_MESSAGE, "WriteMessage"), (QueueRights.MQSEC_DELETE_JOURNAL_MESSAGE, "DeleteJournalMessage"),
    (QueueRights.MQSEC_SET_QUEUE_PROPERTIES, "SetQueueProperties"),
    (QueueRights.MQSEC_GET_QUEUE_PROPERTIES, "GetQueueProperties"), (QueueRights.MQSEC_DELETE_QUEUE, "DeleteQueue"),
    (QueueRights.MQSEC_GET_QUEUE_PERMISSIONS, "GetQueuePermissions"),
    (QueueRights.MQSEC_CHANGE_QUEUE_PERMISSIONS, "ChangeQueuePermissions"),
    (QueueRights.MQSEC_TAKE_QUEUE_OWNERSHIP, "TakeQueueOwnership"),
)
# Windows' default access list of a new queue, beside its owner's full control (MS-MQDMPR 3.1.7.1.3.1)
WINDOWS_DEFAULT = (("allow", "Everyone", int(QueueRights.MQSEC_QUEUE_GENERIC_WRITE)),
                   ("allow", "Anonymous Logon", int(QueueRights.MQSEC_WRITE_MESSAGE)))
BOTH_ACCOUNTS = (("allow", "first", int(QueueRights.MQSEC_QUEUE_GENERIC_ALL)),
                 ("allow", "second", int(QueueRights.MQSEC_QUEUE_GENERIC_ALL)))
_ALIAS = re.compile(r"[a-z0-9][a-z0-9 -]{0,60}")


@dataclass(frozen=True, order=True)
class SetupQueue:
    """One private queue of the script: its name on the host and its Create Queue properties."""
    name: str
    transactional: bool = False
    quota: int = INFINITE          # kilobytes (MS-MQDMPR 3.1.1.2 Quota)
    journaling: bool = False
    label: str = ""
    acl: tuple | None = None       # ((kind, role, rights), ...) exactly; None: Windows' default and both accounts

    @property
    def entries(self) -> tuple:
        """The access list the queue ends up with (beside its owner's), by role."""
        return WINDOWS_DEFAULT + BOTH_ACCOUNTS if self.acl is None else self.acl


def setup_queue(alias: str, *, transactional: bool = False, quota: int = INFINITE, journaling: bool = False,
                label: str = "", owner: str = "first", acl: tuple | None = None) -> SetupQueue | str:
    """The script's queue for a scenario's `alias` with these properties, or why the script cannot make it."""
    if not _ALIAS.fullmatch(alias):
        return f"a queue called {alias!r}: the script makes queues of plain lower-case names"
    if owner != "first":
        return f"a queue owned by the {owner} account: the script's queues are owned by the first, who runs it"
    if acl is not None and any(role not in ROLES for _, role, _ in acl):
        return ("an access list naming an account other than the target's two, Everyone, Anonymous Logon and "
                "Administrators")
    name = f"{PREFIX}-{alias.replace(' ', '_')}"
    if transactional:
        name += "-tx"
    if quota != INFINITE:
        name += f"-q{quota}k"
    if journaling:
        name += "-j"
    if label:
        name += "-l" + hashlib.sha256(label.encode()).hexdigest()[:8]
    if acl is not None:
        name += "-acl" + hashlib.sha256(repr(tuple(map(tuple, acl))).encode()).hexdigest()[:8]
    return SetupQueue(name, transactional, quota, journaling, label, None if acl is None else tuple(map(tuple, acl)))


def rights_names(rights: int) -> list[str]:
    """MessageQueueAccessRights names whose values add up to `rights` (MS-MQMQ 2.2.24), composites first."""
    names, left = [], rights
    for value, name in RIGHT_NAMES:
        if left & value == value:
            names.append(name)
            left &= ~value
    if left:
        raise ValueError(f"rights 0x{rights:08X} hold bits no MessageQueueAccessRights name has")
    return names


_TRUSTEE = {"first": "$FirstUser", "second": "$SecondUser", "Everyone": "'Everyone'",
            "Anonymous Logon": "'ANONYMOUS LOGON'", "Administrators": "'BUILTIN\\Administrators'"}


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def powershell(queues: list[SetupQueue], remove: bool = False) -> str:
    """The script that makes `queues` on a Windows host (or, `remove`, deletes them), to be run there as the first
    account, an administrator: `.\\mqspec-setup.ps1 -FirstUser HOST\\alice -SecondUser HOST\\bob`."""
    lines = [f"# mqspec windows-setup{' --remove' if remove else ''}: "
             f"{'removes' if remove else 'makes'} the {len(queues)} private queues of the conformance suite",
             "# (README: Certifying Windows MSMQ).  Run it on the host, in an elevated PowerShell.",
             "param([Parameter(Mandatory = $true)][string]$FirstUser, [Parameter(Mandatory = $true)][string]$SecondUser)"
             if not remove else "param()",
             "$ErrorActionPreference = 'Stop'", "Import-Module MSMQ"]
    if remove:
        lines.append(f"Get-MsmqQueue -QueueType Private -Name '{PREFIX}-*' | Remove-MsmqQueue")
        return "\n".join(lines) + "\n"
    lines.append("$Creator = [Security.Principal.WindowsIdentity]::GetCurrent().Name")
    for queue in sorted(queues):
        options = [f"-Name {_quoted(queue.name)}", "-QueueType Private"]
        if queue.transactional:
            options.append("-Transactional")
        if queue.quota != INFINITE:
            options.append(f"-QueueQuota {queue.quota}")
        if queue.journaling:
            options.append("-Journaling")
        if queue.label:
            options.append(f"-Label {_quoted(queue.label)}")
        lines.append(f"$q = New-MsmqQueue {' '.join(options)}")
        if queue.acl is not None:   # exactly the scenario's list: the defaults go first
            for trustee in ("'Everyone'", "'ANONYMOUS LOGON'", "$Creator"):
                lines.append(f"$q | Set-MsmqQueueACL -UserName {trustee} -Remove FullControl | Out-Null")
        for kind, role, rights in queue.entries if queue.acl is not None else BOTH_ACCOUNTS:
            verb = "-Allow" if kind == "allow" else "-Deny"
            lines.append(f"$q | Set-MsmqQueueACL -UserName {_TRUSTEE[role]} {verb} {','.join(rights_names(rights))}"
                         " | Out-Null")
    return "\n".join(lines) + "\n"
