"""A target's identity as people see it: its URL without secrets.

A target may also carry a name of its own (`?name=acme`, or certify's --name): `target_name` is what a
gate matches a baseline's target with, so a baseline made on one port or host gates a run on another.

Target URLs may carry credentials (`?password=...`, `hash=LM:NT`).  Nothing the
suite prints or writes may repeat them (an error line, run.json, junit.xml, a
report), and a certification record must name the same target whatever password
reached it, so every target URL shown or written passes through `target_identity`.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

SECRET_OPTIONS = frozenset({"password", "hash", "second_password", "second_hash"})


def target_identity(url: str) -> str:
    """`url` with its secret options removed (the rest, order included, kept as written)."""
    if "?" not in url:
        return url
    parts = urlsplit(url)
    if not parts.query:
        return url
    options = [(name, value) for name, value in parse_qsl(parts.query, keep_blank_values=True)
               if name.lower() not in SECRET_OPTIONS]
    if len(options) == len(parse_qsl(parts.query, keep_blank_values=True)):
        return url
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(options, safe=":/"), parts.fragment))


CLIENT = "client "   # a client under test is the target "client <the name its shim gave>"


def client_target(name: str) -> str:
    return CLIENT + name


def target_side(target: str) -> str:
    """Which side of MS-MQRR a target plays, so it is judged only by that side's clauses: "client" or "server"."""
    return "client" if target.startswith(CLIENT) else "server"


def target_name(target: str) -> str:
    """The name a target is known by across runs: its `name` option; else its identity without user or port
    (mqrr://127.0.0.1:2114 is mqrr://127.0.0.1); a client, its shim's name."""
    if target.startswith(CLIENT) or "?" not in target and "://" not in target:
        return target
    parts = urlsplit(target)
    options = parse_qsl(parts.query, keep_blank_values=True)
    named = [value for key, value in options if key == "name" and value]
    if named:
        return named[-1]
    kept = [(key, value) for key, value in options if key.lower() not in SECRET_OPTIONS and key != "name"]
    host = parts.hostname or ""
    netloc = f"[{host}]" if ":" in host else host
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(kept, safe=":/"), ""))
