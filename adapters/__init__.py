"""Targets: what the conformance suite talks to.

`connect(url)` returns a Target:

    reference                      a fresh in-process reference queue manager
    reference?store=PATH&...       the same, keeping its store in PATH (options below)

Options of `reference`: store (SQLite file; in memory when absent), computer_name,
seed, queue_manager_quota (bytes), send_insecure_nacks (0/1),
pending_request_cleanup_ms, port, synchronous (SQLite: FULL, NORMAL, OFF).
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from .target import CAPABILITIES, MessageProperties, Target, TargetCapabilityError

__all__ = ["connect", "TargetError", "Target", "TargetCapabilityError", "CAPABILITIES", "MessageProperties"]

_REFERENCE_OPTIONS = {
    "store": ("store_path", str), "computer_name": ("computer_name", str), "seed": ("seed", int),
    "queue_manager_quota": ("queue_manager_quota", int), "send_insecure_nacks": ("send_insecure_nacks", bool),
    "pending_request_cleanup_ms": ("pending_request_cleanup_ms", int), "port": ("port", int),
    "synchronous": ("synchronous", str),
}


class TargetError(ValueError):
    """A target URL that cannot be used; the message says why in one line."""


def connect(url: str) -> Target:
    parts = urlsplit(url)
    scheme = parts.scheme or parts.path
    if scheme != "reference":
        raise TargetError(f"unknown target {url!r}: expected 'reference' or 'reference?option=value&...'")
    options = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key not in _REFERENCE_OPTIONS:
            raise TargetError(f"unknown option {key!r} in {url!r}; known: {', '.join(sorted(_REFERENCE_OPTIONS))}")
        name, kind = _REFERENCE_OPTIONS[key]
        try:
            options[name] = value not in ("0", "false", "") if kind is bool else kind(value)
        except ValueError:
            raise TargetError(f"option {key!r} in {url!r} needs a {kind.__name__}, not {value!r}") from None
    if options.get("synchronous", "FULL").upper() not in ("FULL", "NORMAL", "OFF"):
        raise TargetError(f"option 'synchronous' in {url!r} must be FULL, NORMAL or OFF")
    from .in_process import InProcessTarget
    return InProcessTarget(**options)
