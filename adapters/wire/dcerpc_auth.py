"""Authentication on the DCE/RPC server: NTLM (auth_type 10) and SPNEGO carrying NTLM (9), at the levels connect,
packet integrity and packet privacy ([MS-RPCE] 2.2.1.1.7-8, 2.2.2.11-12, 3.3.1.5.2; [MS-NLMP]; [MS-SPNG]).

Theory of operation
-------------------
A connection has at most one security context (no security context multiplexing is
offered): the one its bind starts.  The legs:

    WINNT (3 legs)   bind: NEGOTIATE          -> bind_ack: CHALLENGE
                     auth3: AUTHENTICATE      -> (no reply; a failure faults the first request)
    SPNEGO (even)    bind: NegTokenInit(NEGOTIATE)  -> bind_ack: NegTokenResp(accept-incomplete, NTLM, CHALLENGE)
                     alter_context: NegTokenResp(AUTHENTICATE, mechListMIC)
                                              -> alter_context_resp: NegTokenResp(accept-completed, mechListMIC)
                     (a NegTokenInit whose first mechanism is not NTLM gets accept-incomplete without a token,
                     and the client sends NEGOTIATE in an alter_context first: two more legs)

The NTLM messages are read and written here with struct (impacket's Structures cost
milliseconds a handshake, on the event loop, and the suite opens thousands of connections),
with impacket's constants and NTOWFv2; the server side of the exchange (challenge, NTLMv2
proof, key exchange, MIC) is assembled here from them.  The per-PDU signatures and sealing
are ntlm_security's (C crypto underneath: that is what a sealed call costs).  Only
NTLMv2 with extended session security is accepted; NTLMv1, LM and anonymous
logons are refused.  SPNEGO's first token is parsed by impacket; its later tokens
(a client's mechListMIC, the server's accept-completed with a MIC) by the small DER
reader and writer below, which impacket's classes lack.

Per PDU, once the context is complete ([MS-RPCE] 3.3.1.5.2.2; NTLM signs every
buffer with extended session security, [MS-NLMP] 3.4.6.1):

    connect      requests may carry no verifier (or one of this context, not checked); responses carry none
    integrity    (and the levels pkt, call, which NTLM serves the same way) the signature covers the whole
                 PDU but the token: header, stub, auth padding, sec_trailer
    privacy      as integrity, and the stub with its padding is RC4-sealed (data first, then the checksum)

Each direction has its own keys, RC4 state and sequence number, from 0 for WINNT;
after SPNEGO's mechListMICs (each direction's number 0) the RC4 states start over
and the numbers go on from 1.  Every fragment carries and consumes one number.
Faults carry no verifier.  What fails is an AuthFailure saying how to answer it:
a bind_nak reason, or a fault status, and whether to close the connection
(``close``): the answers Windows gives (see the research digest quoted in the
module's tests).
"""

from __future__ import annotations

import hmac
import secrets
import struct
import time
from dataclasses import dataclass
from pathlib import Path

from impacket import ntlm
from impacket.spnego import SPNEGO_NegTokenInit, SPNEGO_NegTokenResp, TypesMech, asn1encode

from mqspec.protocol.hresult import RpcStatus

from .ntlm_security import Direction, rc4k

SPNEGO, WINNT = 9, 10                          # [MS-RPCE] 2.2.1.1.7 auth_type
CONNECT, CALL, PKT, INTEGRITY, PRIVACY = 2, 3, 4, 5, 6   # [MS-RPCE] 2.2.1.1.8 auth_level
LEVELS = {"none": 1, "connect": CONNECT, "integrity": INTEGRITY, "privacy": PRIVACY}
TRAILER = {True: struct.Struct("<BBBBI"), False: struct.Struct(">BBBBI")}   # [MS-RPCE] 2.2.2.11 sec_trailer
TOKEN = 16                                      # [MS-NLMP] 2.2.2.9 NTLMSSP_MESSAGE_SIGNATURE
ACCESS_DENIED = 5                               # nca_s_fault_access_denied / rpc_s_access_denied
SEC_PKG_ERROR = 0x721                           # RPC_S_SEC_PKG_ERROR: a verifier that does not verify
NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED, NAK_INVALID_CHECKSUM = 8, 9   # [MS-RPCE] 2.2.2.5
NTLM_OID = TypesMech["NTLMSSP - Microsoft NTLM Security Support Provider"]
MIC_PRESENT = 0x2                               # [MS-NLMP] 2.2.2.1 MsvAvFlags
FILETIME_EPOCH = 116444736000000000             # 1601-01-01 to 1970-01-01 in 100 ns units
REQUIRED = ntlm.NTLMSSP_NEGOTIATE_EXTENDED_SESSIONSECURITY
SIGNATURE = b"NTLMSSP\0"                         # [MS-NLMP] 2.2.1
_U32 = struct.Struct("<I")


class AuthFailure(Exception):
    """A leg or a verifier that fails: answered with bind_nak `nak`, or a fault `status` (DID_NOT_EXECUTE when
    `not_executed`), and the connection closed when `close`."""

    def __init__(self, why: str, *, status: int | None = None, nak: int | None = None, close: bool = True,
                 not_executed: bool = True) -> None:
        super().__init__(why)
        self.status, self.nak, self.close, self.not_executed = status, nak, close, not_executed


@dataclass(frozen=True)
class Identity:
    """Who made a call, as the security context established it."""
    user: str
    domain: str
    auth_type: int
    auth_level: int


class Users:
    """The accounts a server accepts: a name (matched without regard to case) and its NT hash."""

    def __init__(self, accounts: dict[str, bytes]) -> None:
        self.accounts = {name.lower(): nt_hash for name, nt_hash in accounts.items()}

    @classmethod
    def from_file(cls, path: str | Path) -> Users:
        """One account a line: `name:password`, or `name::NTHASH` (32 hex digits); blank lines and lines
        starting with # are skipped.  ValueError naming the line at fault."""
        accounts = {}
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, sep, secret = line.partition(":")
            if not sep or not name.strip():
                raise ValueError(f"{path}, line {number}: write name:password or name::NTHASH")
            if secret.startswith(":"):
                try:
                    nt_hash = bytes.fromhex(secret[1:].strip())
                except ValueError:
                    nt_hash = b""
                if len(nt_hash) != 16:
                    raise ValueError(f"{path}, line {number}: an NT hash is 32 hexadecimal digits")
            else:
                nt_hash = ntlm.compute_nthash(secret)
            accounts[name.strip()] = nt_hash
        if not accounts:
            raise ValueError(f"{path}: no account in it")
        return cls(accounts)

    def nt_hash(self, name: str) -> bytes | None:
        return self.accounts.get(name.lower())


def _filetime() -> bytes:
    return struct.pack("<q", FILETIME_EPOCH + int(time.time() * 10_000_000))


class Ntlm:
    """The server side of one NTLM exchange, then its per-message security ([MS-NLMP] 3.2.5, 3.4)."""

    def __init__(self, users: Users, computer_name: str) -> None:
        self.users, self.computer_name = users, computer_name
        self.negotiate = self.challenge_message = b""
        self.server_challenge = secrets.token_bytes(8)
        self.flags = 0
        self.mic_present = False                # the AUTHENTICATE_MESSAGE carried its own MIC (MsvAvFlags 0x2)
        self.client: Direction | None = None    # client -> server
        self.server: Direction | None = None    # server -> client

    def challenge(self, negotiate: bytes) -> bytes:
        """The CHALLENGE_MESSAGE answering a NEGOTIATE_MESSAGE ([MS-NLMP] 3.2.5.1.1)."""
        # [MS-NLMP] 2.2.1.1: signature, type 1, flags, then two field descriptors: 32 bytes at least
        if len(negotiate) < 32 or negotiate[:8] != SIGNATURE or _U32.unpack_from(negotiate, 8)[0] != 1:
            raise AuthFailure("NTLM: malformed NEGOTIATE_MESSAGE (not a NEGOTIATE_MESSAGE)", nak=0)
        asked = _U32.unpack_from(negotiate, 12)[0]
        if not asked & REQUIRED:
            raise AuthFailure("NTLM: the client does not offer extended session security (NTLMv1 is refused)",
                              nak=0)
        # [MS-NLMP] 2.2.1.2: what the client asked for and the server supports, and what a server always says
        kept = asked & (ntlm.NTLMSSP_NEGOTIATE_56 | ntlm.NTLMSSP_NEGOTIATE_128 | ntlm.NTLMSSP_NEGOTIATE_KEY_EXCH
                        | ntlm.NTLMSSP_NEGOTIATE_SIGN | ntlm.NTLMSSP_NEGOTIATE_SEAL | ntlm.NTLMSSP_NEGOTIATE_ALWAYS_SIGN
                        | REQUIRED | ntlm.NTLMSSP_NEGOTIATE_UNICODE)
        if not kept & ntlm.NTLMSSP_NEGOTIATE_UNICODE:
            kept |= ntlm.NTLM_NEGOTIATE_OEM
        self.flags = kept | (ntlm.NTLMSSP_NEGOTIATE_VERSION | ntlm.NTLMSSP_NEGOTIATE_TARGET_INFO
                             | ntlm.NTLMSSP_TARGET_TYPE_SERVER | ntlm.NTLMSSP_NEGOTIATE_NTLM
                             | ntlm.NTLMSSP_REQUEST_TARGET)
        name = self.computer_name.encode("utf-16le")
        # [MS-NLMP] 2.2.2.1 AV_PAIRs: the names (a standalone server is its own domain), the time (without it a
        # client sends no MIC, 3.1.5.1.2), MsvAvEOL
        pairs = b"".join(struct.pack("<HH", av_id, len(value)) + value for av_id, value in (
            (ntlm.NTLMSSP_AV_HOSTNAME, name), (ntlm.NTLMSSP_AV_DOMAINNAME, name), (ntlm.NTLMSSP_AV_DNS_HOSTNAME, name),
            (ntlm.NTLMSSP_AV_DNS_DOMAINNAME, name), (ntlm.NTLMSSP_AV_TIME, _filetime()), (ntlm.NTLMSSP_AV_EOL, b"")))
        # [MS-NLMP] 2.2.1.2 CHALLENGE_MESSAGE: TargetName and TargetInfo after the 56-byte header; 2.2.2.10 Version
        header = SIGNATURE + struct.pack("<IHHII8s8sHHI", 2, len(name), len(name), 56, self.flags,
                                         self.server_challenge, bytes(8), len(pairs), len(pairs), 56 + len(name))
        version = struct.pack("<BBH3sB", 10, 0, 20348, b"\0\0\0", 15)
        self.negotiate, self.challenge_message = bytes(negotiate), header + version + name + pairs
        return self.challenge_message

    def authenticate(self, message: bytes, level: int) -> tuple[str, str]:
        """Check an AUTHENTICATE_MESSAGE ([MS-NLMP] 3.2.5.1.2, 3.3.2) and derive the session keys; returns
        (user, domain).  AuthFailure when it does not prove a known account's password."""
        try:
            # [MS-NLMP] 2.2.1.3: signature, type 3, six field descriptors, the flags: 64 bytes at least
            if len(message) < 64 or message[:8] != SIGNATURE or _U32.unpack_from(message, 8)[0] != 3:
                raise ValueError("not an AUTHENTICATE_MESSAGE")
            flags = _U32.unpack_from(message, 60)[0]
            encoding = "utf-16le" if flags & ntlm.NTLMSSP_NEGOTIATE_UNICODE else "cp437"
            user, domain = _field(message, 36).decode(encoding), _field(message, 28).decode(encoding)
            response, encrypted_key = _field(message, 20), _field(message, 52)   # NtChallengeResponse, the key
        except ValueError as error:   # UnicodeDecodeError too
            raise AuthFailure(f"NTLM: malformed AUTHENTICATE_MESSAGE ({type(error).__name__})",
                              status=ACCESS_DENIED) from None
        if not user and len(response) == 0:
            raise AuthFailure("NTLM: anonymous logon refused", status=ACCESS_DENIED)
        if len(response) <= 24:   # [MS-NLMP] 3.3.1: 24 bytes is NTLMv1
            raise AuthFailure(f"NTLM: {user!r} answered with NTLMv1, which is refused", status=ACCESS_DENIED)
        nt_hash = self.users.nt_hash(user)
        if nt_hash is None:
            raise AuthFailure(f"NTLM: unknown user {user!r}", status=ACCESS_DENIED)
        proof, blob = response[:16], response[16:]
        for tried in (domain, ""):   # [MS-NLMP] 3.2.5.1.2: a client may have computed it with an empty domain
            key = ntlm.NTOWFv2(user, "", tried, nt_hash)
            if hmac.compare_digest(ntlm.hmac_md5(key, self.server_challenge + blob), proof):
                break
        else:
            raise AuthFailure(f"NTLM: wrong password for {user!r}", status=ACCESS_DENIED)
        base_key = ntlm.hmac_md5(key, proof)               # SessionBaseKey = KeyExchangeKey for NTLMv2
        flags &= self.flags
        if flags & ntlm.NTLMSSP_NEGOTIATE_KEY_EXCH and flags & (ntlm.NTLMSSP_NEGOTIATE_SIGN
                                                                 | ntlm.NTLMSSP_NEGOTIATE_SEAL):
            if len(encrypted_key) != 16:
                raise AuthFailure("NTLM: key exchange without an EncryptedRandomSessionKey", status=ACCESS_DENIED)
            exported = rc4k(base_key, encrypted_key)
        else:
            exported = base_key
        pairs = _av_pairs(blob[28:])
        self.mic_present = bool(struct.unpack("<I", pairs.get(ntlm.NTLMSSP_AV_FLAGS, bytes(4))[:4])[0] & MIC_PRESENT)
        if self.mic_present:
            mic = message[72:88]
            zeroed = message[:72] + bytes(16) + message[88:]
            expected = ntlm.hmac_md5(exported, self.negotiate + self.challenge_message + zeroed)
            if not hmac.compare_digest(mic, expected):
                raise AuthFailure(f"NTLM: the MIC of {user!r}'s AUTHENTICATE_MESSAGE does not verify",
                                  status=ACCESS_DENIED)
        if level >= PKT and not flags & ntlm.NTLMSSP_NEGOTIATE_SIGN:   # [MS-RPCE] 3.3.1.5.2.2 capabilities
            raise AuthFailure("NTLM: integrity asked for, signing not negotiated", status=SEC_PKG_ERROR)
        if level >= PRIVACY and not flags & ntlm.NTLMSSP_NEGOTIATE_SEAL:
            raise AuthFailure("NTLM: privacy asked for, sealing not negotiated", status=SEC_PKG_ERROR)
        self.flags = flags
        self.client, self.server = Direction(flags, exported, "Client"), Direction(flags, exported, "Server")
        return user, domain


def _field(message: bytes, at: int) -> bytes:
    """The payload a field descriptor (Len, MaxLen, BufferOffset) at `at` points to ([MS-NLMP] 2.2.1.3);
    ValueError when it runs past the message."""
    length, _, offset = struct.unpack_from("<HHI", message, at)
    if offset + length > len(message):
        raise ValueError("a field runs past the message")
    return message[offset:offset + length]


def _av_pairs(data: bytes) -> dict[int, bytes]:
    """The AV_PAIR list of an NTLMv2_CLIENT_CHALLENGE ([MS-NLMP] 2.2.2.1), up to MsvAvEOL."""
    pairs, at = {}, 0
    while at + 4 <= len(data):
        kind, length = struct.unpack_from("<HH", data, at)
        if kind == ntlm.NTLMSSP_AV_EOL:
            break
        pairs[kind] = data[at + 4:at + 4 + length]
        at += 4 + length
    return pairs


# -- the DER that SPNEGO's later tokens need (RFC 4178 4.2.2) ------------------------------------------------
def _der(data: bytes, at: int) -> tuple[int, bytes, int]:
    """(tag, value, end) of the DER element at `at`; ValueError if it runs past `data`."""
    if at + 2 > len(data):
        raise ValueError("DER element cut short")
    tag, length, at = data[at], data[at + 1], at + 2
    if length & 0x80:
        count = length & 0x7F
        if not 0 < count <= 4 or at + count > len(data):
            raise ValueError("DER length out of range")
        length, at = int.from_bytes(data[at:at + count], "big"), at + count
    if at + length > len(data):
        raise ValueError("DER element cut short")
    return tag, data[at:at + length], at + length


def neg_token_resp(token: bytes) -> dict[int, bytes]:
    """The fields of a client's NegTokenResp (RFC 4178 4.2.2): {0: negState, 1: supportedMech, 2: responseToken,
    3: mechListMIC}, each the content of its explicit tag's inner element."""
    tag, body, _ = _der(token, 0)
    if tag != 0xA1:
        raise ValueError("not a NegTokenResp")
    tag, sequence, _ = _der(body, 0)
    if tag != 0x30:
        raise ValueError("NegTokenResp without its SEQUENCE")
    fields, at = {}, 0
    while at < len(sequence):
        tag, inner, at = _der(sequence, at)
        if not 0xA0 <= tag <= 0xA3:
            continue   # an extension: ignored
        fields[tag - 0xA0] = _der(inner, 0)[1]
    return fields


def _completed(mic: bytes | None) -> bytes:
    """NegTokenResp{negState accept-completed, mechListMIC} (RFC 4178 4.2.2)."""
    body = b"\xa0" + asn1encode(b"\x0a" + asn1encode(b"\x00"))
    if mic is not None:
        body += b"\xa3" + asn1encode(b"\x04" + asn1encode(mic))
    return b"\xa1" + asn1encode(b"\x30" + asn1encode(body))


def _mech_list(mechanisms) -> bytes:
    """DER of the client's MechTypeList, the data its mechListMIC signs (RFC 4178 5)."""
    return b"\x30" + asn1encode(b"".join(b"\x06" + asn1encode(oid) for oid in mechanisms))


class SecurityContext:
    """The one security context of a connection ([MS-RPCE] 3.3.1.1.2) and the protection of its PDUs."""

    def __init__(self, auth_type: int, auth_level: int, context_id: int, users: Users, computer_name: str) -> None:
        if auth_type not in (WINNT, SPNEGO):
            raise AuthFailure(f"auth_type {auth_type} is not served (WINNT 10 and GSS_NEGOTIATE 9 are)",
                              nak=NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED)
        if auth_level not in (CONNECT, CALL, PKT, INTEGRITY, PRIVACY):
            raise AuthFailure(f"auth_level {auth_level} is not a level to authenticate at", nak=0)
        self.auth_type, self.auth_level, self.context_id = auth_type, auth_level, context_id
        self.ntlm = Ntlm(users, computer_name)
        self.identity: Identity | None = None
        self.failure: AuthFailure | None = None   # an auth3 that failed: the first request hears it
        self.complete = False
        self.mechanisms = ()                       # SPNEGO: the client's mechanism list

    @property
    def signs(self) -> bool:
        return self.auth_level >= CALL

    # -- the legs ---------------------------------------------------------------------------------------
    def bind_leg(self, token: bytes) -> bytes:
        """The bind's token in, the bind_ack's token out."""
        if self.auth_type == WINNT:
            return self.ntlm.challenge(token)
        try:
            init = SPNEGO_NegTokenInit(token)
            self.mechanisms = tuple(init["MechTypes"])
            optimistic = init.fields.get("MechToken")
        except Exception as error:  # noqa: BLE001 - impacket's parser raises any kind on malformed input
            raise AuthFailure(f"SPNEGO: malformed NegTokenInit ({type(error).__name__})", nak=0) from None
        if NTLM_OID not in self.mechanisms:
            raise AuthFailure("SPNEGO: the client offers no NTLM, the only mechanism served",
                              nak=NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED)
        reply = SPNEGO_NegTokenResp()
        reply["NegState"] = b"\x01"                               # accept-incomplete
        reply["SupportedMech"] = NTLM_OID
        if self.mechanisms[0] == NTLM_OID and optimistic:
            reply["ResponseToken"] = self.ntlm.challenge(optimistic)
        return reply.getData()

    def auth3_leg(self, token: bytes) -> None:
        """WINNT's third leg; a failure is kept for the first request ([MS-RPCE] 3.3.1.5.2.1: no reply here)."""
        if self.auth_type != WINNT or self.complete or not self.ntlm.challenge_message:
            self.failure = AuthFailure("auth3 where no NTLM leg was pending", status=RpcStatus.NCA_S_PROTO_ERROR)
            return
        try:
            self._authenticated(self.ntlm.authenticate(token, self.auth_level))
        except AuthFailure as failure:
            self.failure = failure

    def alter_leg(self, token: bytes) -> bytes:
        """SPNEGO's later legs: NEGOTIATE (after a non-NTLM first choice) or AUTHENTICATE with the mechListMIC."""
        if self.auth_type != SPNEGO or self.complete:
            raise AuthFailure("alter_context authenticating a finished or non-SPNEGO context", status=ACCESS_DENIED)
        try:
            fields = neg_token_resp(token)
        except ValueError as error:
            raise AuthFailure(f"SPNEGO: malformed NegTokenResp ({error})", status=SEC_PKG_ERROR) from None
        inner = fields.get(2)
        if inner is None:
            raise AuthFailure("SPNEGO: NegTokenResp without a responseToken", status=SEC_PKG_ERROR)
        if not self.ntlm.challenge_message:
            reply = SPNEGO_NegTokenResp()
            reply["NegState"] = b"\x01"
            reply["SupportedMech"] = NTLM_OID
            reply["ResponseToken"] = self.ntlm.challenge(inner)
            return reply.getData()
        try:
            identity = self.ntlm.authenticate(inner, self.auth_level)
        except AuthFailure as failure:
            raise AuthFailure(str(failure), status=SEC_PKG_ERROR) from None
        mic = fields.get(3)
        listed = _mech_list(self.mechanisms)
        signs = self.ntlm.flags & ntlm.NTLMSSP_NEGOTIATE_SIGN
        if mic is None and signs and (self.ntlm.mic_present or self.mechanisms[0] != NTLM_OID):
            # RFC 4178 5 (NTLM not the first choice), [MS-SPNG] note on NTLM (its own MIC sent): a list
            # whose MIC was stripped could have been edited on the way
            raise AuthFailure("SPNEGO: the client's mechListMIC is missing", status=SEC_PKG_ERROR)
        if mic is not None and signs:
            # [MS-SPNG] 3.3.5.1: a mechanism with integrity checks the list; one without (NTLM that did not
            # negotiate signing, at connect level) has nothing to check it with, and sends no MIC back
            if not hmac.compare_digest(self.ntlm.client.token(listed), mic):
                raise AuthFailure("SPNEGO: the client's mechListMIC does not verify", status=SEC_PKG_ERROR)
            answer = self.ntlm.server.token(listed)
            # [MS-SPNG] 3.2.5.1: the MICs took number 0 each way; the RC4 states start over for the calls
            self.ntlm.client.restart_rc4()
            self.ntlm.server.restart_rc4()
        else:
            answer = None
        self._authenticated(identity)
        return _completed(answer)

    def _authenticated(self, user_domain: tuple[str, str]) -> None:
        user, domain = user_domain
        self.identity = Identity(user, domain, self.auth_type, self.auth_level)
        self.complete = True

    # -- per PDU ---------------------------------------------------------------------------------------------
    def trailer(self, pad: int) -> bytes:
        return TRAILER[True].pack(self.auth_type, self.auth_level, pad, 0, self.context_id)

    def open_request(self, pdu: bytes, little: bool, frag_length: int, auth_length: int, stub_start: int) -> bytes:
        """The stub of one request fragment, verified (and unsealed); AuthFailure when it may not be served."""
        if self.failure is not None:
            raise self.failure
        if not self.complete:
            raise AuthFailure("a request before the security context was complete",
                              status=RpcStatus.NCA_S_PROTO_ERROR)
        if not auth_length:
            if self.signs:
                raise AuthFailure(f"a request without a verifier on a context at level {self.auth_level}",
                                  status=RpcStatus.NCA_S_PROTO_ERROR, not_executed=False)
            return pdu[stub_start:]                    # [MS-RPCE] 3.3.1.5.4: connect level, no verifier
        start = frag_length - auth_length - 8
        if start < stub_start:
            raise AuthFailure("a sec_trailer inside the request header", status=RpcStatus.NCA_S_PROTO_ERROR,
                              not_executed=False)
        auth_type, auth_level, pad, _reserved, context_id = TRAILER[little].unpack_from(pdu, start)
        if (auth_type, auth_level, context_id) != (self.auth_type, self.auth_level, self.context_id):
            raise AuthFailure(f"a request's sec_trailer ({auth_type}, {auth_level}, {context_id}) is not its "
                              "context's", status=ACCESS_DENIED, not_executed=False)
        if pad > start - stub_start:
            raise AuthFailure("auth_pad_length longer than the stub", status=RpcStatus.NCA_S_PROTO_ERROR,
                              not_executed=False)
        if not self.signs:
            return pdu[stub_start:start - pad]        # a connect-level token is not checked
        if auth_length != TOKEN:
            raise AuthFailure(f"an NTLM verifier of {auth_length} bytes", status=SEC_PKG_ERROR, not_executed=False)
        token, body = pdu[frag_length - TOKEN:frag_length], pdu[stub_start:start]
        direction = self.ntlm.client
        if self.auth_level >= PRIVACY:
            body = direction.rc4(body)                 # [MS-NLMP] 3.4.3: the data first, then the checksum
        message = pdu[:stub_start] + body + pdu[start:frag_length - TOKEN]
        if not hmac.compare_digest(direction.token(message), token):
            raise AuthFailure("a request's verifier does not verify", status=SEC_PKG_ERROR, not_executed=False)
        return body[:len(body) - pad]

    def seal_response(self, call_id: int, p_cont_id: int, stub: bytes, max_xmit_frag: int,
                      cancel_count: int = 0) -> bytes:
        """Every response fragment of one call, each padded to 16, signed (and sealed) at this context's level."""
        room = (max_xmit_frag - 24 - 8 - TOKEN) & ~15
        total, out, offset = len(stub), [], 0
        while True:
            chunk = stub[offset:offset + room]
            last = offset + room >= total
            pad = -len(chunk) % 16
            body = chunk + bytes(pad)
            flags = (1 if offset == 0 else 0) | (2 if last else 0)          # PFC_FIRST_FRAG, PFC_LAST_FRAG
            frag_length = 24 + len(body) + 8 + TOKEN
            header = struct.pack("<BBBB4sHHIIHBB", 5, 0, 2, flags, b"\x10\0\0\0", frag_length, TOKEN, call_id,
                                 total - offset, p_cont_id, cancel_count, 0)
            trailer = self.trailer(pad)
            direction = self.ntlm.server
            if self.auth_level >= PRIVACY:
                sealed = direction.rc4(body)            # [MS-NLMP] 3.4.3: seal, then sign the plain text
                out.append(header + sealed + trailer + direction.token(header + body + trailer))
            else:
                out.append(header + body + trailer + direction.token(header + body + trailer))
            offset += room
            if last:
                return b"".join(out)


def parse_trailer(pdu: bytes, little: bool, frag_length: int, auth_length: int, body_end: int):
    """(auth_type, auth_level, pad, context_id, token) of a bind, alter_context or auth3 PDU; ValueError when the
    sec_trailer does not fit in it."""
    start = frag_length - auth_length - 8
    if start < body_end:
        raise ValueError("the sec_trailer overlaps the PDU body")
    auth_type, auth_level, pad, _reserved, context_id = TRAILER[little].unpack_from(pdu, start)
    return auth_type, auth_level, pad, context_id, pdu[start + 8:frag_length]

