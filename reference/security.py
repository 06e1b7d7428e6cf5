"""Queue security: who may open a queue, and for what (MS-MQDMPR 3.1.1.2 Security, 3.1.7.1.3.1; MS-MQMQ 2.2.24;
MS-MQRR 2.1, 3.1.4.2).

Theory of operation
-------------------
A queue's Security is an owner and an ordered access list (DACL) of entries
(allow or deny, trustee, MQQUEUEACCESSMASK rights).  Trustees are account names
as the server's authentication knows them, or the two well-known ones, Everyone
and Anonymous Logon.  A Caller is who makes a call: an account name (None for a
caller with no security context: Anonymous Logon) and the RPC authentication
level it came at.

`granted(security, caller, wanted)` walks the list in order as a Windows access
check does: a deny entry for the caller that names a wanted right refuses; allow
entries add their rights; the check passes once every wanted right is allowed.
Everyone matches every authenticated caller, not an anonymous one (D-81); an
account name matches without regard to case.

The default Security (Create Default Queue Security Descriptor, 3.1.7.1.3.1) for a
creator who is not a domain user (this server knows local accounts only): owner
Anonymous Logon, Everyone granted MQSEC_QUEUE_GENERIC_ALL.  So a queue created
without a Security is open to every authenticated caller, and only an explicit
list refuses anybody.

What a refused open answers, and where the check sits (after the queue is found,
before Open Queue and its sharing rules), is remote_read's: D-80, D-81.
"""

from __future__ import annotations

from dataclasses import dataclass

from mqspec.protocol.constants import QueueRights

EVERYONE = "Everyone"                 # S-1-1-0
ANONYMOUS = "Anonymous Logon"         # S-1-5-7
ALLOW, DENY = "allow", "deny"


@dataclass(frozen=True)
class Caller:
    """Who makes a call: an account (None: no security context, Anonymous Logon) and its RPC level."""
    name: str | None
    auth_level: int = 6               # RPC_C_AUTHN_LEVEL_PKT_PRIVACY


@dataclass(frozen=True)
class QueueSecurity:
    """A queue's security descriptor: its owner and its access list, (kind, trustee, rights) in order."""
    owner: str
    dacl: tuple[tuple[str, str, int], ...]

    @classmethod
    def from_plain(cls, plain: dict | None) -> QueueSecurity:
        """From {"owner": name or None, "dacl": [[allow|deny, trustee, rights], ...] or None} (the control
        interface's form; what is missing takes the default, 3.1.7.1.3.1); ValueError for a malformed one."""
        if plain is None:
            return DEFAULT
        if not isinstance(plain, dict) or set(plain) - {"owner", "dacl"}:
            raise ValueError("security is a table of owner and dacl")
        owner = plain.get("owner") or DEFAULT.owner
        entries = plain.get("dacl")
        if entries is None:
            return cls(owner, DEFAULT.dacl)   # MS-MQDMPR:3.1.7.1.3.1:01 only what was not supplied takes the default
        dacl = []
        for entry in entries:
            if (not isinstance(entry, (list, tuple)) or len(entry) != 3 or entry[0] not in (ALLOW, DENY)
                    or not isinstance(entry[1], str) or not entry[1]
                    or not isinstance(entry[2], int) or not 0 <= entry[2] <= 0xFFFFFFFF):
                raise ValueError(f"an access list entry is [allow|deny, trustee, rights], not {entry!r}")
            dacl.append((entry[0], entry[1], entry[2]))
        return cls(str(owner), tuple(dacl))

    def plain(self) -> dict:
        return {"owner": self.owner, "dacl": [list(entry) for entry in self.dacl]}


# MS-MQDMPR:3.1.7.1.3.1:02 a creator who is not a domain user: Anonymous Logon owns it, Everyone has full control
DEFAULT = QueueSecurity(ANONYMOUS, ((ALLOW, EVERYONE, int(QueueRights.MQSEC_QUEUE_GENERIC_ALL)),))


def _matches(trustee: str, caller: Caller) -> bool:
    if caller.name is None:
        return trustee == ANONYMOUS    # D-81 anonymous-apart: Everyone is every authenticated caller
    return trustee == EVERYONE or trustee.lower() == caller.name.lower()


def granted(security: QueueSecurity, caller: Caller, wanted: int) -> bool:
    """Whether the access list gives `caller` every right of `wanted` (an ordered walk, deny entries first met
    refusing)."""
    allowed = 0
    for kind, trustee, rights in security.dacl:
        if not _matches(trustee, caller):
            continue
        if kind == DENY and rights & wanted & ~allowed:
            return False
        if kind == ALLOW:
            allowed |= rights
            if allowed & wanted == wanted:
                return True
    return False
