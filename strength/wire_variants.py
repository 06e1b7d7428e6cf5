"""Wrong servers of the wire's security: the DCE/RPC server's authentication and level checks, each misread once.

Theory of operation
-------------------
The queue manager's wrong versions (variants.py) are loaded from reference/; what a
server that authenticates its callers must refuse on the wire lives in adapters/wire/
instead (dcerpc_auth.py: verifiers, sealing, sequence numbers; dcerpc_connection.py:
the level the server demands).  A wire variant is a change of one of those modules'
text (each old text must occur exactly once), loaded as a module of its own and put in
place of the real one's names (`served_with`) for as long as a server runs in this
process, so the real modules hold no wrong code.  tests/test_wire_strength.py serves
each at auth=privacy with accounts and runs the suite's RPC security scenarios against
it over the wire: every one must fail a scenario of the clause it misreads.
"""

from __future__ import annotations

import contextlib
import sys
import types
from dataclasses import dataclass
from pathlib import Path

WIRE = Path(__file__).resolve().parents[1] / "adapters" / "wire"
PACKAGE = "mqspec.adapters.wire"


@dataclass(frozen=True)
class WireVariant:
    name: str
    clause: str               # the clause it misreads
    text: str                 # what it gets wrong, in one line
    module: str               # dcerpc_auth or dcerpc_connection
    old: str
    new: str


WIRE_VARIANTS = {variant.name: variant for variant in (
    WireVariant("level-unchecked", "MS-MQRR:2.1:05",
                "serves a call below the authentication level it demands, a call with no security context included",
                "dcerpc_connection", "        if level < self.server.min_auth_level:",
                "        if False:  # misreading: the level is the client's business"),
    WireVariant("verifier-unchecked", "MS-MQRR:2.1:06",
                "computes a request's signature (its sequence number moves on) and never compares it with the verifier",
                "dcerpc_auth", "        if not hmac.compare_digest(direction.token(message), token):",
                "        if direction.token(message) is None:  # misreading: the signature is the client's affair"),
    WireVariant("response-not-sealed", "MS-MQRR:2.1:07",
                "signs its responses at packet privacy but sends their stubs in the clear",
                "dcerpc_auth", "                sealed = direction.rc4(body)            # [MS-NLMP] 3.4.3:",
                "                sealed = body  # misreading: sealing is for requests:"),
    WireVariant("replayed-request-served", "MS-MQRR:2.1:08",
                "checks a request's signature at the sequence number the request carries, not its own count",
                "dcerpc_auth", "        token, body = pdu[frag_length - TOKEN:frag_length], pdu[stub_start:start]\n",
                "        token, body = pdu[frag_length - TOKEN:frag_length], pdu[stub_start:start]\n"
                "        self.ntlm.client.seq = int.from_bytes(token[12:16], 'little')  # misreading: its number\n"),
)}


def load(variant: WireVariant) -> types.ModuleType:
    """The variant's module: the real one's text with the change, as a module of its own in the same package."""
    path = WIRE / f"{variant.module}.py"
    source = path.read_text(encoding="utf-8")
    if source.count(variant.old) != 1:
        raise ValueError(f"{variant.name}: its old text occurs {source.count(variant.old)} times in {path}")
    module = types.ModuleType(f"{PACKAGE}._wrong_{variant.module}")
    module.__package__ = PACKAGE
    module.__file__ = str(path)
    sys.modules[module.__name__] = module   # dataclasses look their module up while the class is made
    exec(compile(source.replace(variant.old, variant.new), str(path), "exec"), module.__dict__)
    return module


@contextlib.contextmanager
def served_with(name: str):
    """While inside, DCE/RPC servers started in this process run the wire variant `name`."""
    from mqspec.adapters.wire import dcerpc_connection, dcerpc_server
    variant = WIRE_VARIANTS[name]
    wrong = load(variant)
    if variant.module == "dcerpc_connection":
        places = [(dcerpc_server, "Connection", wrong.Connection)]
    else:   # the connection uses the context, its failures and its trailer reader: all from the wrong module
        places = [(dcerpc_connection, attribute, getattr(wrong, attribute))
                  for attribute in ("SecurityContext", "AuthFailure", "parse_trailer")]
    kept = [(owner, attribute, getattr(owner, attribute)) for owner, attribute, _ in places]
    try:
        for owner, attribute, value in places:
            setattr(owner, attribute, value)
        yield variant
    finally:
        for owner, attribute, value in kept:
            setattr(owner, attribute, value)
