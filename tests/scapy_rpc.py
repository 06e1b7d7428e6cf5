"""An independent DCE/RPC client for the tests: scapy's, with raw stubs.

scapy implements bind, NTLM (auth_type 10), SPNEGO carrying NTLM (9), signing,
sealing and fragmentation on its own, so a server of ours that it talks to is
checked against a stack we did not write.  The caller gives and gets stub bytes.
`call(...)` is one bound call; `RawDceRpcClient` keeps an association.  A few
settings scapy does not expose (the assoc_group_id of a bind, the presentation
contexts offered, its verification trailer) and a defect of scapy 2.8.0 (a
protected PDU with an empty stub is neither verified nor unsealed, so NTLM's RC4
state falls behind) are handled here.  Needs the `cryptography` package (impacket
brings it).
"""

import logging
import uuid as _uuid
from typing import Optional, Tuple

from scapy.config import conf
from scapy.error import log_runtime
from scapy.layers.dcerpc import (
    DCE_C_AUTHN_LEVEL,
    DCE_RPC_INTERFACES,
    DCERPC_Transport,
    DceRpc5,
    DceRpc5AbstractSyntax,
    DceRpc5AlterContext,
    DceRpc5AlterContextResp,
    DceRpc5Bind,
    DceRpc5BindAck,
    DceRpc5BindNak,
    DceRpc5Context,
    DceRpc5Fault,
    DceRpc5Request,
    DceRpc5Response,
    DceRpc5TransferSyntax,
    DceRpcOp,
    NDRPacket,
    register_dcerpc_interface,
)
from scapy.fields import StrField
from scapy.layers.gssapi import SSP
from scapy.packet import NoPayload
from scapy.layers.msrpce.rpcclient import DCERPC_Client
from scapy.layers.ntlm import NTLMSSP
from scapy.layers.spnego import SPNEGOSSP

# scapy logs warnings (e.g. "Unknown RPC interface", "Socket ... failed");
# keep the log quiet.
log_runtime.setLevel(logging.ERROR)

LEVELS = {
    "none": DCE_C_AUTHN_LEVEL.NONE,            # 1
    "connect": DCE_C_AUTHN_LEVEL.CONNECT,      # 2
    "integrity": DCE_C_AUTHN_LEVEL.PKT_INTEGRITY,  # 5
    "privacy": DCE_C_AUTHN_LEVEL.PKT_PRIVACY,  # 6
}

BTFN_UUID = _uuid.UUID("6cb71c2c-9812-4540-0300-000000000000")  # bitmask 0x03


class DceRpcBindError(Exception):
    """bind / alter_context (incl. the SPNEGO 3rd leg) was refused.

    kind: "bind_nak" | "fault" | "rejected_context" | "no_answer" | "auth"
    reason: provider_reject_reason (bind_nak), status (fault), or a result
    """

    def __init__(self, kind, reason=None, pkt=None):
        self.kind, self.reason, self.pkt = kind, reason, pkt
        super().__init__("%s %s" % (kind, "" if reason is None else hex(reason)
                                    if isinstance(reason, int) else reason))


class RawStub(NDRPacket):
    """Opaque stub: the whole PDU body as one byte string (no NDR parsing)."""
    fields_desc = [StrField("stub", b"")]


class _RawOpnums(dict):
    """opnum table answering RawStub for every opnum.  Without it scapy's
    DceRpcSession.in_pkt raises IndexError('Layer [Raw] not found') on an
    EMPTY request/response stub of an opnum the interface does not know."""

    def __missing__(self, opnum):
        return DceRpcOp(RawStub, RawStub)


def get_interface(if_uuid, version: str, name: Optional[str] = None):
    """Return scapy's DceRpcInterface for (uuid, "maj.min"), registering it
    (raw stubs for every opnum) if needed.  Registration is REQUIRED: the
    client/server sessions look the bound interface up in the global
    DCE_RPC_INTERFACES (unregistered => server bind_nak, client crash in
    sr1_req on session.rpc_bind_interface=None)."""
    if_uuid = _uuid.UUID(str(if_uuid))
    major, minor = map(int, version.split("."))
    key = (if_uuid, (minor << 16) | major)
    if key not in DCE_RPC_INTERFACES:
        register_dcerpc_interface(
            name=name or "if_%s_v%s" % (if_uuid, version),
            uuid=if_uuid, version=version, opnums={},
        )
    iface = DCE_RPC_INTERFACES[key]
    if not isinstance(iface.opnums, _RawOpnums):
        iface.opnums = _RawOpnums()   # raw for every opnum (global change!)
    return iface


def stub_bytes(payload) -> bytes:
    """Raw stub bytes of a DceRpc5Request/DceRpc5Response payload."""
    if isinstance(payload, RawStub):
        return payload.stub
    return bytes(payload)  # Raw, or NoPayload (b"") for an empty stub


def fix_empty_stub_verification(session):
    """Work around a scapy 2.8.0 bug: DceRpcSession.in_pkt skips signature
    verification / unsealing when a protected request/response has an EMPTY
    stub.  With NTLM the RC4 sealing state then falls 8 bytes behind, and the
    NEXT signed PDU on that connection fails with ValueError("ERROR:
    Checksums don't match").  This verifies such PDUs (keeping RC4 in step).
    Works for a client or a server session."""
    if getattr(session, "_empty_stub_fix", False):
        return
    orig = session.in_pkt

    def in_pkt(pkt, commit=True):
        if (
            session.sspcontext is not None
            and session.auth_level in (DCE_C_AUTHN_LEVEL.PKT_INTEGRITY,
                                       DCE_C_AUTHN_LEVEL.PKT_PRIVACY)
            and isinstance(pkt.payload, (DceRpc5Request, DceRpc5Response))
            and pkt.auth_verifier is not None
            and pkt.auth_verifier.is_protected()
            and conf.raw_layer not in pkt.payload
        ):
            body = pkt.auth_padding or b""
            hdr = pkt.copy()
            sec_trailer = hdr.auth_verifier
            alen = len(sec_trailer.auth_value)
            hdr.auth_padding = None
            hdr.auth_verifier = None
            hdr.payload.payload = NoPayload()
            hdr.vt_trailer = None
            hs = session.header_sign
            if session.auth_level == DCE_C_AUTHN_LEVEL.PKT_PRIVACY:
                session.ssp.GSS_UnwrapEx(session.sspcontext, [
                    SSP.WRAP_MSG(conf_req_flag=False, sign=hs, data=bytes(hdr)),
                    SSP.WRAP_MSG(conf_req_flag=True, sign=True, data=body),
                    SSP.WRAP_MSG(conf_req_flag=False, sign=hs,
                                 data=bytes(sec_trailer)[:-alen]),
                ], pkt.auth_verifier.auth_value)
            else:
                session.ssp.GSS_VerifyMICEx(session.sspcontext, [
                    SSP.MIC_MSG(sign=hs, data=bytes(hdr)),
                    SSP.MIC_MSG(sign=True, data=body),
                    SSP.MIC_MSG(sign=hs, data=bytes(sec_trailer)[:-alen]),
                ], pkt.auth_verifier.auth_value)
        return orig(pkt, commit)

    session.in_pkt = in_pkt
    session._empty_stub_fix = True


class RawDceRpcClient(DCERPC_Client):
    """DCERPC_Client + a few knobs scapy does not expose directly.

    :param assoc_group_id: value put in the bind PDU (0 = new group)
    :param header_sign: "scapy" (default scapy behaviour: advertise
        PFC_SUPPORT_HEADER_SIGN and sign the header whatever the server
        answers), "auto" (advertise, but sign only if the bind_ack /
        alter_context_resp echoes the flag, as [MS-RPCE] says),
        "off" (never advertise, never sign), "force" (always sign).
    :param syntaxes: "ndr32", "ndr64" or "both" (presentation contexts
        offered in the bind)
    :param btfn: also offer the Bind Time Feature Negotiation context
        (scapy always does by default)
    :param vt_trailer: keep scapy's [MS-RPCE] verification trailer on the
        first request after a bind (it is appended to the stub bytes!)
    :param fix_empty_stub: install fix_empty_stub_verification() (see there)
    """

    def __init__(self, *args, assoc_group_id=0, header_sign="scapy",
                 syntaxes="ndr32", btfn=True, vt_trailer=False,
                 fix_empty_stub=True, **kwargs):
        self.req_assoc_group_id = assoc_group_id
        self.header_sign_mode = header_sign
        self.syntaxes = syntaxes
        self.btfn = btfn
        self.keep_vt_trailer = vt_trailer
        self.fix_empty_stub = fix_empty_stub
        self.last_bind_resp = None
        if header_sign == "off":
            kwargs["support_header_signing"] = False
        kwargs.setdefault("ndr64", syntaxes != "ndr32")
        super().__init__(*args, **kwargs)

    def connect(self, *args, **kwargs):
        super().connect(*args, **kwargs)
        if self.fix_empty_stub:
            fix_empty_stub_verification(self.sock.session)

    # -- presentation contexts --------------------------------------------
    def _get_bind_context(self, interface):
        if interface in self.contexts:
            return self.contexts[interface]
        syn = {"ndr32": [("NDR 2.0", 2)], "ndr64": [("NDR64", 1)],
               "both": [("NDR 2.0", 2), ("NDR64", 1)]}[self.syntaxes]
        if self.btfn:
            syn.append((BTFN_UUID, 1))
        ctxs = []
        for ts_uuid, ts_ver in syn:
            ctxs.append(DceRpc5Context(
                cont_id=self.next_cont_id,
                abstract_syntax=DceRpc5AbstractSyntax(
                    if_uuid=interface.uuid, if_version=interface.if_version),
                transfer_syntaxes=[DceRpc5TransferSyntax(
                    if_uuid=ts_uuid, if_version=ts_ver)],
            ))
            self.next_cont_id += 1
        self.contexts[interface] = ctxs
        return ctxs

    # -- hook every bind / alter_context exchange -------------------------
    def sr1(self, pkt, **kwargs):
        if isinstance(pkt, (DceRpc5Bind, DceRpc5AlterContext)):
            pkt.assoc_group_id = self.req_assoc_group_id
            if self.header_sign_mode == "off" and "pfc_flags" in kwargs:
                kwargs["pfc_flags"] = "PFC_FIRST_FRAG+PFC_LAST_FRAG"
        resp = super().sr1(pkt, **kwargs)
        if isinstance(pkt, (DceRpc5Bind, DceRpc5AlterContext)):
            self.last_bind_resp = resp
            if resp is not None and (DceRpc5BindAck in resp or
                                     DceRpc5AlterContextResp in resp):
                echoed = bool(int(resp[DceRpc5].pfc_flags) & 0x04)
                sess = self.sock.session
                if self.header_sign_mode == "auto":
                    sess.header_sign = echoed and sess.support_header_signing
                elif self.header_sign_mode == "off":
                    sess.header_sign = False
                elif self.header_sign_mode == "force":
                    sess.header_sign = True
        return resp

    def bind_or_raise(self, interface):
        ok = self.bind(interface)
        if not self.keep_vt_trailer:
            # scapy appends an (unaligned) verification trailer to the stub
            # of the 1st request after a bind; suppress it.
            self._first_time_on_interface = False
        if ok:
            return
        r = self.last_bind_resp
        if r is None:
            raise DceRpcBindError("no_answer")
        if DceRpc5BindNak in r:
            raise DceRpcBindError("bind_nak", r[DceRpc5BindNak].provider_reject_reason, r)
        if DceRpc5Fault in r:
            raise DceRpcBindError("fault", r[DceRpc5Fault].status, r)
        if DceRpc5BindAck in r or DceRpc5AlterContextResp in r:
            results = [(c.result, c.reason) for c in r.results]
            if any(res == 0 for res, _ in results):
                raise DceRpcBindError("auth", "SSP rejected the server token", r)
            raise DceRpcBindError("rejected_context", results, r)
        raise DceRpcBindError("unexpected", r.summary(), r)

    def raw_call(self, opnum: int, stub: bytes, timeout=None) -> Tuple[Optional[int], bytes]:
        """Send one request with a raw stub; return (fault_status|None, stub).

        Uses send()+recv() instead of sr1() so that errors surface as
        exceptions (sr1 swallows them and returns None):
          EOFError            server closed the connection
          TimeoutError        no answer within the socket timeout
          ValueError          bad signature ("Checksums don't match") or
                              unprotected answer at integrity/privacy level
        """
        sess = self.session
        req = DceRpc5Request(cont_id=sess.cont_id, opnum=opnum,
                             alloc_hint=len(stub)) / conf.raw_layer(load=stub)
        vt = None
        if self._first_time_on_interface:  # only if vt_trailer=True
            from scapy.layers.dcerpc import (DceRpcSecVT, DceRpcSecVTCommand,
                                             DceRpcSecVTPcontext)
            self._first_time_on_interface = False
            vt = DceRpcSecVT(commands=[
                DceRpcSecVTCommand(SEC_VT_COMMAND_END=1) / DceRpcSecVTPcontext(
                    InterfaceId=sess.rpc_bind_interface.uuid,
                    Version=sess.rpc_bind_interface.if_version,
                    TransferSyntax="NDR64" if self.ndr64 else "NDR 2.0",
                    TransferVersion=1 if self.ndr64 else 2)])
            req.alloc_hint += len(vt)
        if timeout is not None:
            self.sock.ins.settimeout(timeout)
        self.send(req, vt_trailer=vt)
        call_id = self.call_ids[sess.assoc_group_id]
        while True:
            resp = self.sock.recv()  # returns None for non-last fragments
            if resp is None:
                continue
            if resp[DceRpc5].call_id != call_id:
                continue
            break
        if DceRpc5Fault in resp:
            return int(resp[DceRpc5Fault].status), b""
        if DceRpc5Response in resp:
            return None, stub_bytes(resp[DceRpc5Response].payload)
        raise ValueError("unexpected PDU: %s" % resp.summary())


def make_ssp(ssp: str, user: str, domain: str, password: Optional[str] = None,
             nt_hash: Optional[bytes] = None):
    """NTLMSSP (auth_type 10) or SPNEGOSSP([NTLMSSP]) (auth_type 9)."""
    # UPN "user@domain" or "domain\\user"; with UPN=user alone scapy uses the
    # NetBIOS domain the server put in its CHALLENGE.
    upn = "%s@%s" % (user, domain) if domain else user
    kw = {"HASHNT": nt_hash} if nt_hash is not None else {"PASSWORD": password}
    ntlm = NTLMSSP(UPN=upn, **kw)
    if ssp == "ntlm":
        return ntlm
    if ssp == "spnego":
        return SPNEGOSSP([ntlm])
    raise ValueError(ssp)


def call(host, port, uuid, version, opnum, stub: bytes, user=None, domain=None,
         password=None, ssp="ntlm", level="connect", *, nt_hash=None,
         ndr="ndr32", header_sign="scapy", assoc_group_id=0, vt_trailer=False,
         timeout=5, verb=False) -> Tuple[Optional[int], bytes]:
    """Bind (optionally authenticated), send one request, return
    (fault_status or None, response stub bytes).

    user=None or level="none" => unauthenticated bind.
    Raises DceRpcBindError if the bind / alter_context is refused.
    """
    auth = user is not None and level != "none"
    kwargs = {}
    if auth:
        kwargs["ssp"] = make_ssp(ssp, user, domain, password, nt_hash)
        kwargs["auth_level"] = LEVELS[level]
    cli = RawDceRpcClient(
        DCERPC_Transport.NCACN_IP_TCP, verb=verb, syntaxes=ndr,
        header_sign=header_sign, assoc_group_id=assoc_group_id,
        vt_trailer=vt_trailer, **kwargs)
    cli.connect(host, port=port, timeout=timeout)
    try:
        cli.bind_or_raise(get_interface(uuid, version))
        return cli.raw_call(opnum, stub)
    finally:
        cli.sock.close()
