"""Targets: what the conformance suite talks to.

`connect(url)` returns a Target (see TARGET_HELP for the URL forms and options).
"""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, unquote, urlsplit

from mqspec.identity import target_identity

from .target import CAPABILITIES, MessageProperties, Target, TargetCapabilityError

__all__ = ["connect", "TargetError", "Target", "TargetCapabilityError", "CAPABILITIES", "MessageProperties",
           "TARGET_HELP"]

TARGET_HELP = """\
target URLs:
  reference[?option=value&...]      a fresh in-process reference queue manager
      store=PATH                    keep recoverable state in this SQLite file (default: in memory)
      synchronous=FULL|NORMAL|OFF   SQLite synchronous mode of the store (default NORMAL: a killed
                                    process loses nothing; FULL also survives a power loss, and
                                    costs the suite about 2.5 times as long)
      computer_name=NAME            the queue manager's computer name (default mqspec)
      seed=N                        seed of its identifiers and handles (default 0; random: unforeseeable)
      queue_manager_quota=N         QueueManager.Quota in bytes (default 0x00100000; 4 GB with D-20:windows)
      send_insecure_nacks=0|1       MS-MQQB SendInsecureNacks (default 0)
      pending_request_cleanup_ms=N  MS-MQRR Pending Request Cleanup Timer (default 300000)
      port=N                        the port R_GetServerPort answers (default 2103)
      readings=D-NN:NAME,...        a variant taking another reading of open decisions
                                    (spec/decisions.md; the suite must pass with every one)
      variant=NAME                  a wrong queue manager the suite must reject (strength/variants.py)
      workgroup_policy=0|1          1: a client in a domain (fWorkgroup FALSE) must open at packet privacy (D-82)
  mqrr://HOST[:PORT][?option=value&...]   a server speaking MS-MQRR over ncacn_ip_tcp (default port 2103)
      user=NAME domain=NAME         NTLM credentials (or MQSPEC_USER, MQSPEC_DOMAIN)
      password=TEXT | hash=[LM:]NT  (or MQSPEC_PASSWORD, MQSPEC_HASH)
      auth=connect|integrity|privacy|none   RPC authentication level (default: privacy with
                                    credentials, none without)
      second_user=NAME second_password=TEXT | second_hash=[LM:]NT [second_domain=NAME]
                                    a second account: scenarios of two identities (access lists)
      ndr64=0|1                     bind with the NDR64 transfer syntax (default 0: NDR 2.0)
      connect_timeout=SECONDS       how long to wait for the server (default 5)
    Set-up (queues, sending, transactions, time) goes through the mqspec control interface
    on the same port, which `mqspec serve` offers; `mqspec docs control` describes it.
  msmq://HOST[:PORT][?option=value&...]   a Windows host (or `mqspec serve --as-windows`) with nothing but
                                    the network: MS-MQRR at PORT (default 2103), MS-MQQB at mqqb_port; the
                                    queues of `mqspec windows-setup`'s script (README: Certifying Windows MSMQ)
      user= domain= password= hash= auth= second_user= second_password= second_hash= second_domain=
      ndr64= connect_timeout=       as for mqrr:// (auth: privacy by default, as Windows asks)
      mqqb_port=N                   the host's MS-MQQB port (default 1801)
      computer=NAME                 the host's computer name, as its queues' path names carry it
                                    (default: the first label of HOST)
      acceptor=ADDRESS:PORT         where the suite listens for the sessions the host opens back to it
                                    (its OrderAcks and FinalAcks, D-76); the host must reach it"""


class TargetError(ValueError):
    """A target URL that cannot be used; the message says why in one line."""


def _flag(text: str) -> bool:
    if text.lower() in ("1", "true", "yes"):
        return True
    if text.lower() in ("0", "false", "no"):
        return False
    raise ValueError


def _count(low: int, high: int | None = None):
    def convert(text: str) -> int:
        value = int(text, 0)
        if value < low or (high is not None and value > high):
            raise ValueError
        return value
    convert.__name__ = f"whole number from {low}" + (f" to {high}" if high is not None else "")
    return convert


def _choice(*allowed: str):
    def convert(text: str) -> str:
        if text.upper() not in allowed:
            raise ValueError
        return text.upper()
    convert.__name__ = " or ".join(allowed)
    return convert


def _seed(text: str) -> int | None:
    """A whole number, or `random`: identifiers and handles nobody can foresee (what mqspec serve takes)."""
    return None if text == "random" else _count(0)(text)


_flag.__name__ = "0 or 1"
_seed.__name__ = "whole number from 0, or random"
def _hash(value: str) -> str:
    """An NTLM hash as [LM:]NT: 32 hex digits each (an LM part may be left empty)."""
    lm, _, nt = value.rpartition(":")
    if not all(len(part) == 32 and all(c in "0123456789abcdefABCDEF" for c in part) for part in (nt, *(lm and [lm]))):
        raise ValueError(value)
    return value


_hash.__name__ = "[LM:]NT hash of 32 hex digits each"
_REFERENCE_OPTIONS = {
    "store": ("store_path", str), "computer_name": ("computer_name", str), "seed": ("seed", _seed),
    "queue_manager_quota": ("queue_manager_quota", _count(0)), "send_insecure_nacks": ("send_insecure_nacks", _flag),
    "pending_request_cleanup_ms": ("pending_request_cleanup_ms", _count(1, 0xFFFFFFFF)),
    "port": ("port", _count(1, 65535)), "synchronous": ("synchronous", _choice("FULL", "NORMAL", "OFF")),
    "readings": ("readings", str), "variant": ("variant", str),
    "workgroup_policy": ("workgroup_policy", _count(0, 1)),
}
_MQRR_OPTIONS = {
    "user": ("user", str), "domain": ("domain", str), "password": ("password", str), "hash": ("hash", _hash),
    "auth": ("auth", _choice("NONE", "CONNECT", "INTEGRITY", "PRIVACY")), "ndr64": ("ndr64", _flag),
    "connect_timeout": ("connect_timeout", float), "second_user": ("second_user", str),
    "second_password": ("second_password", str), "second_hash": ("second_hash", _hash),
    "second_domain": ("second_domain", str),
}
_ENVIRONMENT = {"user": "MQSPEC_USER", "domain": "MQSPEC_DOMAIN", "password": "MQSPEC_PASSWORD",
                "hash": "MQSPEC_HASH"}


def _options(url: str, query: str, table: dict) -> dict:
    options = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key == "name":   # the target's own name in records and the gate (mqspec.identity.target_name)
            continue
        if key not in table:
            raise TargetError(f"unknown option {key!r} in {target_identity(url)!r}; known: {', '.join(sorted(table))}")
        name, kind = table[key]
        try:
            options[name] = kind(value)
        except ValueError:
            shown = "that" if "password" in key or "hash" in key else repr(value)   # a secret is never repeated
            raise TargetError(f"option {key!r} in {target_identity(url)!r} needs a {kind.__name__}, "
                              f"not {shown}") from None
    return options


def connect(url: str) -> Target:
    parts = urlsplit(url)
    scheme = parts.scheme or parts.path
    if scheme == "reference" and not parts.netloc:
        from .in_process import InProcessTarget
        options = _options(url, parts.query, _REFERENCE_OPTIONS)
        try:
            return InProcessTarget(**options)
        except ValueError as error:   # a readings= or variant= value that names nothing
            raise TargetError(f"{target_identity(url)!r}: {error}") from None
    if scheme == "mqrr":
        return _connect_mqrr(url, parts)
    if scheme == "msmq":
        return _connect_msmq(url, parts)
    raise TargetError(f"unknown target {target_identity(url)!r}: expected 'reference[?option=value&...]', "
                      f"'mqrr://host[:port][?option=value&...]' or 'msmq://host[:port][?option=value&...]'")


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError
    return host, int(port)


_address.__name__ = "HOST:PORT"
_MSMQ_OPTIONS = dict(_MQRR_OPTIONS, mqqb_port=("mqqb_port", _count(1, 65535)), computer=("computer", str),
                     acceptor=("acceptor", _address))


def _connect_msmq(url: str, parts) -> Target:
    from .msmq.target import MsmqTarget
    from .wire.dcerpc_client import ConnectError
    port, options, credentials, second = _endpoint(url, parts, _MSMQ_OPTIONS)
    try:
        return MsmqTarget(parts.hostname, port, credentials=credentials, ndr64=options.get("ndr64", False),
                          connect_timeout=options.get("connect_timeout", 5.0), second=second,
                          mqqb_port=options.get("mqqb_port", 1801), computer=options.get("computer", ""),
                          acceptor=options.get("acceptor"))
    except (ConnectError, OSError) as error:
        raise TargetError(f"{target_identity(url)}: {error}") from None


def _connect_mqrr(url: str, parts) -> Target:
    from .mqrr.client import MqrrTarget
    from .wire.dcerpc_client import ConnectError
    from .mqrr.control import ControlError
    port, options, credentials, second = _endpoint(url, parts, _MQRR_OPTIONS)
    try:
        return MqrrTarget(parts.hostname, port, credentials=credentials, ndr64=options.get("ndr64", False),
                          connect_timeout=options.get("connect_timeout", 5.0), second=second)
    except (ConnectError, ControlError) as error:
        raise TargetError(f"{target_identity(url)}: {error}") from None


def _endpoint(url: str, parts, table: dict):
    """The port, the options, the credentials and the second account of an mqrr:// or msmq:// URL."""
    from .wire.dcerpc_client import Credentials
    if not parts.hostname:
        raise TargetError(f"{target_identity(url)!r} names no host: write {parts.scheme}://host[:port]")
    try:
        port = parts.port or 2103
    except ValueError:
        raise TargetError(f"{target_identity(url)!r}: the port must be a number from 1 to 65535") from None
    options = _options(url, parts.query, table)
    for name, variable in _ENVIRONMENT.items():
        if name not in options and os.environ.get(variable):
            options[name] = os.environ[variable]
            if name == "hash":
                try:
                    _hash(options[name])
                except ValueError:
                    raise TargetError(f"{variable} needs a {_hash.__name__}, not that") from None
    user = unquote(parts.username) if parts.username else options.get("user", "")
    lm_hash, _, nt_hash = options.get("hash", "").rpartition(":")
    credentials = Credentials(user=user, domain=options.get("domain", ""), password=options.get("password", ""),
                              lm_hash=lm_hash, nt_hash=nt_hash,
                              auth_level=options.get("auth", "PRIVACY" if user else "NONE").lower())
    second = None
    if options.get("second_user"):   # a second account: capability identities
        if not user:
            raise TargetError(f"{target_identity(url)!r}: second_user needs a first user (user=...)")
        second_lm, _, second_nt = options.get("second_hash", "").rpartition(":")
        second = Credentials(user=options["second_user"], domain=options.get("second_domain", credentials.domain),
                             password=options.get("second_password", ""), lm_hash=second_lm, nt_hash=second_nt,
                             auth_level=credentials.auth_level)
    return port, options, credentials, second
