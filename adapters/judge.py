"""The judging server as the client scenarios see it.

A client under test talks MS-MQRR to a judging server (`mqspec serve --judge`, or
one this module starts in the suite's own process on loopback).  The scenarios
use it three ways, all over the wire: as a Target for set-up (queues, messages,
and the transaction coordinator's commit and abort, which MS-MQRR leaves to
MS-DTCO), for the calls it recorded, and for the faults it is to inject.  See
adapters/mqrr/judging.py for the server side and docs/client-shim.md.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from . import TargetError, connect
from .target import Target


class Judge:
    def __init__(self, target: Target, stop=None) -> None:
        if "judge" not in target.capabilities:
            target.close()
            raise TargetError(f"{target.name} is not a judging server: start it with `mqspec serve --judge`")
        self.target = target
        self._stop = stop                # stops the server this process started
        self.host, self.port = target.host, target.port

    @property
    def computer_name(self) -> str:
        return self.target.computer_name

    def calls(self) -> list[dict]:
        """Every RemoteRead call recorded since the scenario began, in arrival order."""
        return self.target.judge_calls()

    def inject(self, method: str, kind: str, value: int = 0, *, skip: int = 0, times: int = 1) -> None:
        self.target.judge_inject(method, kind, value, skip, times)

    def begin_scenario(self) -> None:
        """A queue manager as at its first start, no records, no injections."""
        if "reset" in self.target.capabilities:
            self.target.reset()
        self.target.judge_forget()

    def close(self) -> None:
        self.target.close()
        if self._stop is not None:
            self._stop()


def open_judge(url: str | None = None) -> Judge:
    """The judging server at `url` (mqrr://host:port), or, without one, a reference served on loopback here;
    TargetError when it cannot be reached or does not judge."""
    if url:
        if urlsplit(url).scheme != "mqrr":
            raise TargetError(f"--judge {url!r}: give the mqrr://host:port of `mqspec serve --judge`")
        return Judge(connect(url))
    from .serve import serve
    hosted = connect("reference?seed=random")
    served = serve(hosted, "127.0.0.1", 0, judge=True, log=lambda line: None)

    def stop() -> None:
        served.stop()
        hosted.close()

    try:
        return Judge(connect(f"mqrr://127.0.0.1:{served.port}"), stop)
    except BaseException:
        stop()
        raise
