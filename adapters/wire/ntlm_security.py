"""NTLM session security on DCE/RPC PDUs, both ends: signing and sealing at wire speed ([MS-NLMP] 3.4,
[MS-RPCE] 2.2.2.11-12, 3.3.1.5.2).

Theory of operation
-------------------
Once an NTLM context is established, each direction of a connection has a signing key, an RC4
stream keyed with its sealing key, and a sequence number from 0 ([MS-NLMP] 3.4.4-3.4.5).
Only NTLMv2 with extended session security is used (the server refuses the rest), where the
signature of a message is ([MS-NLMP] 3.4.4.2, MAC with extended session security):

    version 1 | checksum = HMAC_MD5(SigningKey, SeqNum | message)[0..7], RC4-encrypted with the
              | direction's stream when key exchange was negotiated | SeqNum

On a DCE/RPC PDU the message signed is the whole PDU but its 16-byte token: header, stub, auth
padding, sec_trailer; at packet privacy the stub with its padding is RC4-sealed first, then the
checksum goes through the same stream ([MS-NLMP] 3.4.3).  `Direction` does exactly this with C
underneath (hmac and hashlib's HMAC-MD5, `cryptography`'s ARC4): a few microseconds a PDU, where
impacket's MAC/SEAL build a Structure per signature and pyspnego's wrap_iov builds IOV lists
(benchmarks/bench_ntlm.py measures the three side by side).  The server (dcerpc_auth) and the
client (`NtlmSession`, below) share it.

`NtlmSession` is the client side on a raw connection: pyspnego, the maintained NTLM
implementation, makes the NEGOTIATE and AUTHENTICATE messages (NTLMv2, a MIC, key exchange);
this module frames them into the bind and the auth3 (WINNT, [MS-RPCE] 3.3.1.5.2.1: three legs),
derives the two directions from pyspnego's exported session key and the negotiated flags the
AUTHENTICATE carries, then signs or seals requests and checks and opens responses at the level
asked (connect: no verifier at all, [MS-RPCE] 3.3.1.5.4).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import struct

from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
from cryptography.hazmat.primitives.ciphers import Cipher

KEY_EXCH = 0x40000000                           # [MS-NLMP] 2.2.2.5 NTLMSSP_NEGOTIATE_KEY_EXCH
NEGOTIATE_128, NEGOTIATE_56 = 0x20000000, 0x80000000
TOKEN = 16                                      # [MS-NLMP] 2.2.2.9.1 NTLMSSP_MESSAGE_SIGNATURE
WINNT = 10                                      # [MS-RPCE] 2.2.1.1.7 RPC_C_AUTHN_WINNT
LEVELS = {"connect": 2, "integrity": 5, "privacy": 6}   # [MS-RPCE] 2.2.1.1.8
INTEGRITY, PRIVACY = 5, 6
_VERSION = b"\x01\x00\x00\x00"
_SEQ = struct.Struct("<I")
_HEADER = struct.Struct("<BBBB4sHHI")           # [C706] 12.6.3.1 common header
_REQUEST = struct.Struct("<BBBB4sHHIIHH")       # ... and alloc_hint, p_cont_id, opnum ([C706] 12.6.4.9)
_TRAILER = struct.Struct("<BBBBI")              # [MS-RPCE] 2.2.2.11 sec_trailer
_DREP = b"\x10\x00\x00\x00"
_BIND, _AUTH3, _REQUEST_TYPE = 11, 16, 0
_MAGIC = {("sign", "Client"): b"session key to client-to-server signing key magic constant\x00",
          ("sign", "Server"): b"session key to server-to-client signing key magic constant\x00",
          ("seal", "Client"): b"session key to client-to-server sealing key magic constant\x00",
          ("seal", "Server"): b"session key to server-to-client sealing key magic constant\x00"}


class VerifierError(OSError):
    """A response whose NTLM signature does not verify: nothing in it can be trusted, the connection is done."""


def _rc4(key: bytes):
    return Cipher(ARC4(key), mode=None).encryptor().update


def rc4k(key: bytes, data: bytes) -> bytes:
    """RC4K(key, data) ([MS-NLMP] 6): one message under a key of its own."""
    return _rc4(key)(data)


class Direction:
    """One direction's session security: signing key, RC4 stream, sequence number ([MS-NLMP] 3.4)."""
    __slots__ = ("key_exch", "rc4", "seal_key", "seq", "sign_key")

    def __init__(self, flags: int, exported_session_key: bytes, usage: str) -> None:
        # [MS-NLMP] 3.4.5.2 SIGNKEY, 3.4.5.3 SEALKEY (extended session security: the only kind accepted)
        self.sign_key = hashlib.md5(exported_session_key + _MAGIC["sign", usage]).digest()
        seal = exported_session_key if flags & NEGOTIATE_128 else exported_session_key[:7 if flags & NEGOTIATE_56
                                                                                         else 5]
        self.seal_key = hashlib.md5(seal + _MAGIC["seal", usage]).digest()
        self.key_exch = bool(flags & KEY_EXCH)
        self.seq = 0
        self.rc4 = _rc4(self.seal_key)

    def token(self, message: bytes) -> bytes:
        """The signature of `message` at this direction's next number ([MS-NLMP] 3.4.4.2, with ESS)."""
        seq = _SEQ.pack(self.seq)
        self.seq += 1
        checksum = hmac.new(self.sign_key, seq + message, hashlib.md5).digest()[:8]
        return _VERSION + (self.rc4(checksum) if self.key_exch else checksum) + seq

    def restart_rc4(self) -> None:
        self.rc4 = _rc4(self.seal_key)


@functools.lru_cache(maxsize=32)
def ntlm_secret(password: str, lm_hash: str = "", nt_hash: str = "") -> str:
    """A credential as pyspnego takes a hash, LM:NT in hexadecimal: the NT hash made once, not per connection.
    ValueError when a hash given is not 16 bytes in hexadecimal."""
    from impacket.ntlm import compute_nthash
    for given in (lm_hash, nt_hash):
        if given and (len(given) != 32 or not all(c in "0123456789abcdefABCDEF" for c in given)):
            raise ValueError("an LM or NT hash is 32 hexadecimal digits")
    return f"{lm_hash or '0' * 32}:{nt_hash or compute_nthash(password).hex()}"


class NtlmSession:
    """The client side of NTLM on one raw connection, at the level of `credentials` (dcerpc_client.Credentials):
    the bind's NEGOTIATE, the auth3's AUTHENTICATE, then requests signed or sealed and responses checked."""

    CONTEXT_ID = 7    # auth_context_id: any number, the same on every PDU of the connection

    def __init__(self, credentials, host: str = "unspecified") -> None:
        import spnego  # only an authenticating client needs it
        self.level = LEVELS[credentials.auth_level]
        user = f"{credentials.domain}\\{credentials.user}" if credentials.domain else credentials.user
        secret = ntlm_secret(credentials.password, credentials.lm_hash, credentials.nt_hash)
        self.context = spnego.client(user, secret, hostname=host, service="host", protocol="ntlm",
                                     options=spnego.NegotiateOptions.use_ntlm,
                                     context_req=spnego.ContextReq.integrity | spnego.ContextReq.confidentiality
                                     | spnego.ContextReq.replay_detect | spnego.ContextReq.sequence_detect)
        self.out: Direction | None = None     # client -> server
        self.into: Direction | None = None    # server -> client

    def _trailer(self, pad: int) -> bytes:
        return _TRAILER.pack(WINNT, self.level, pad, 0, self.CONTEXT_ID)

    def bind(self, body: bytes, call_id: int = 1) -> bytes:
        """A bind PDU of `body` (max frags, group, contexts; 4-aligned) carrying the NEGOTIATE_MESSAGE."""
        token = self.context.step()
        return (_HEADER.pack(5, 0, _BIND, 0x03, _DREP, 16 + len(body) + 8 + len(token), len(token), call_id) + body
                + self._trailer(0) + token)

    def auth3(self, bind_ack: bytes, call_id: int = 1) -> bytes:
        """The auth3 PDU answering the bind_ack's CHALLENGE_MESSAGE; ValueError when there is none to answer."""
        auth_length = struct.unpack_from("<H", bind_ack, 10)[0]
        if not auth_length:
            raise ValueError("the bind_ack carries no NTLM challenge")
        try:
            token = self.context.step(bind_ack[len(bind_ack) - auth_length:])
        except Exception as error:  # noqa: BLE001 - pyspnego raises its own kinds, and struct's, on a bad message
            raise ValueError(f"the server's NTLM challenge is malformed ({type(error).__name__})") from None
        flags = struct.unpack_from("<I", token, 60)[0]   # [MS-NLMP] 2.2.1.3 NegotiateFlags, as negotiated
        key = self.context.session_key                   # ExportedSessionKey ([MS-NLMP] 3.1.5.1.2)
        self.out, self.into = Direction(flags, key, "Client"), Direction(flags, key, "Server")
        return (_HEADER.pack(5, 0, _AUTH3, 0x03, _DREP, 16 + 4 + 8 + len(token), len(token), call_id) + b"    "
                + self._trailer(0) + token)   # [MS-RPCE] 2.2.2.10 rpc_auth_3: 4 pad octets, then the verifier

    def room(self, max_xmit_frag: int) -> int:
        """The most stub bytes one request fragment carries at this level."""
        if self.level < INTEGRITY:
            return max(8, (max_xmit_frag - 24) & ~7)
        return max(16, (max_xmit_frag - 24 - 8 - TOKEN) & ~15)

    def request(self, call_id: int, p_cont_id: int, opnum: int, stub: bytes, flags: int = 0x03,
                alloc_hint: int | None = None) -> bytes:
        """One request fragment at the session's level (connect: no verifier, [MS-RPCE] 3.3.1.5.4)."""
        hint = len(stub) if alloc_hint is None else alloc_hint
        if self.level < INTEGRITY:
            return _REQUEST.pack(5, 0, _REQUEST_TYPE, flags, _DREP, 24 + len(stub), 0, call_id, hint, p_cont_id,
                                 opnum) + stub
        pad = -len(stub) % 16
        body = stub + bytes(pad) if pad else stub
        head = _REQUEST.pack(5, 0, _REQUEST_TYPE, flags, _DREP, 24 + len(body) + 8 + TOKEN, TOKEN, call_id, hint,
                             p_cont_id, opnum)
        trailer = self._trailer(pad)
        if self.level >= PRIVACY:
            sealed = self.out.rc4(body)   # [MS-NLMP] 3.4.3: the data first, then the checksum, one stream
            return head + sealed + trailer + self.out.token(head + body + trailer)
        return head + body + trailer + self.out.token(head + body + trailer)

    def stub(self, response: bytes) -> bytes:
        """A response fragment's stub, its signature checked (and unsealed at privacy), its padding dropped;
        VerifierError when it does not verify."""
        auth_length = struct.unpack_from("<H", response, 10)[0]
        if self.level < INTEGRITY:
            return response[24:len(response) - (auth_length + 8 if auth_length else 0)]
        start = len(response) - auth_length - 8
        if auth_length != TOKEN or start < 24:
            raise VerifierError(f"a response at level {self.level} with a verifier of {auth_length} bytes")
        body, trailer, token = response[24:start], response[start:start + 8], response[start + 8:]
        if self.level >= PRIVACY:
            body = self.into.rc4(body)
        if not hmac.compare_digest(self.into.token(response[:24] + body + trailer), token):
            raise VerifierError("a response's verifier does not verify")
        if trailer[2] > len(body):
            raise VerifierError("a response's auth_pad_length is longer than its stub")
        return body[:len(body) - trailer[2]]
