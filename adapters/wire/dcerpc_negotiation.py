"""Presentation context negotiation for bind and alter_context: which p_cont_elem is accepted on
which transfer syntax ([C706] 12.6.4.3-4, [MS-RPCE] 3.3.1.5.3 and 3.3.1.5.6), and the fragment sizes.

Policy: NDR 2.0 whenever an element (or another element for the same abstract syntax, as Windows
clients send them) offers it; NDR64 only when nothing offers NDR 2.0; the bind time feature
negotiation element answered negotiate_ack with KeepConnectionOnOrphanSupported at most.
"""

from __future__ import annotations

import struct

from . import dcerpc_pdu as pdu_
from .dcerpc_pdu import MAX_FRAG, NDR20, NDR64, NO_SYNTAX

MAX_CONTEXTS = 1024            # presentation contexts per connection (p_cont_id is u16: bound it lower)


def frag_size(proposed: int) -> int:
    """A negotiated fragment size: at least MustRecvFragSize ([C706] Table K-2), at most what we
    receive, a multiple of 8 (as Windows truncates it) so stub chunks keep NDR alignment."""
    return max(pdu_.MUST_RECV_FRAG_SIZE, min(proposed, MAX_FRAG)) & ~7


def negotiate(registry, elements, contexts, allow_features):
    """The p_result_list for a bind or alter_context ([C706] 12.6.4.3-4, [MS-RPCE] 3.3.1.5.3, 3.3.1.5.6).

    Adds the accepted presentation contexts to ``contexts`` (p_cont_id -> (iface, ndr64)).
    Returns (results, accepted interfaces, feature bits or None, protocol error or None).
    """
    # Windows clients offer NDR 2.0 and NDR64 in separate elements: NDR64 then loses (the policy).
    ndr20_offered = {abstract for _, abstract, transfers in elements if NDR20 in transfers}
    results, accepted, features = [], [], None
    for p_cont_id, abstract, transfers in elements:
        if not transfers:
            return None, None, None, f"p_cont_id {p_cont_id} proposes no transfer syntax"
        first = transfers[0]
        if allow_features and first[:8] == pdu_.FEATURE_PREFIX and first[16:] == pdu_.FEATURE_VERSION:
            if features is not None:       # [MS-RPCE] 3.3.1.5.3: at most one such element
                return None, None, None, "two bind time feature negotiation elements"
            features = first[8] & pdu_.KEEP_CONNECTION_ON_ORPHAN   # the only feature we implement
            results.append((pdu_.NEGOTIATE_ACK, features, NO_SYNTAX))
            continue
        entry = registry.get(abstract[:18])                   # uuid + major version
        if entry is None or struct.unpack_from("<H", abstract, 18)[0] > entry[1]:
            results.append((pdu_.PROVIDER_REJECTION, pdu_.ABSTRACT_SYNTAX_NOT_SUPPORTED, NO_SYNTAX))
            continue
        if NDR20 in transfers:
            chosen = NDR20
        elif NDR64 in transfers and abstract not in ndr20_offered:
            chosen = NDR64
        else:
            results.append((pdu_.PROVIDER_REJECTION, pdu_.PROPOSED_TRANSFER_SYNTAXES_NOT_SUPPORTED, NO_SYNTAX))
            continue
        context = (entry[0], chosen is NDR64)
        existing = contexts.get(p_cont_id)
        if existing is not None and existing != context:
            return None, None, None, f"p_cont_id {p_cont_id} already names another syntax"
        if existing is None and len(contexts) >= MAX_CONTEXTS:
            results.append((pdu_.PROVIDER_REJECTION, pdu_.LOCAL_LIMIT_EXCEEDED, NO_SYNTAX))
            continue
        contexts[p_cont_id] = context
        accepted.append(entry[0])
        results.append((pdu_.ACCEPTANCE, 0, chosen))
    return results, accepted, features, None
