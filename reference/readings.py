"""Which reading this queue manager takes of each open decision (spec/decisions.md).

Where the specifications allow more than one behaviour a conforming server may
show, the reference takes the first reading of the decision; a variant of the
reference takes another (`reference?readings=D-03:msdn,D-11:end-sees-arrivals`),
so that the suite can be shown to accept every reading (tests/test_readings.py).
This table is the reference's own copy of the readings: tests/test_readings.py
checks it against the catalogue, and each rule that depends on a reading asks
`readings[decision]` where it branches, citing the decision.
"""

from __future__ import annotations

# decision -> its readings, the reference's first (names as in spec/decisions.md)
OPEN_DECISIONS: dict[str, tuple[str, ...]] = {
    "D-03": ("dmpr", "msdn"), "D-04": ("not-found", "other-failure"), "D-05": ("not-found", "already-received"),
    "D-07": ("count-in-list", "count-when-available"), "D-09": ("sent-time", "enqueue-time"),
    "D-11": ("parked-end", "end-sees-arrivals"), "D-12": ("refuse", "other-failure"),
    "D-13": ("queue-deleted", "not-available", "times-out"), "D-14": ("cancelled", "times-out"),
    "D-17": ("own-handle", "queue-wide"), "D-18": ("tagged", "untagged"), "D-19": ("refuse", "other-failure"),
    "D-20": ("bytes", "windows"), "D-22": ("explicit", "implicit"), "D-23": ("abort-unprepared", "keep-enlisted"),
    "D-24": ("purged", "survives"), "D-26": ("on-removal", "on-delivery"), "D-28": ("inert", "verbatim"),
    "D-30": ("refuse", "accept"), "D-31": ("all", "tagged-only"), "D-32": ("qm-quota", "not-available"),
    "D-35": ("refuse", "accept-then-nack"), "D-36": ("refuse", "accept"), "D-38": ("keep", "remove"),
    "D-40": ("refuse-zero", "accept-zero"), "D-41": ("usage", "param"), "D-42": ("any-is-peek", "refuse-unknown"),
    "D-43": ("open-status", "other-failure"), "D-44": ("invalid-handle", "other-failure"),
    "D-46": ("not-available", "other-failure", "purge-ok"), "D-47": ("status-invalid-handle", "other-failure"),
    "D-48": ("own-handle", "qm-wide"), "D-49": ("check", "no-check"), "D-50": ("sequence", "implicit"),
    "D-52": ("remove", "keep"), "D-54": ("status-not-found", "other-failure"),
    "D-55": ("invalid-parameter", "other-failure"), "D-58": ("any-nonzero-rejects", "refuse"),
    "D-59": ("refuse", "accept"), "D-61": ("padded", "literal"), "D-62": ("header", "data"),
    "D-63": ("reference-encoding", "other-encoding"), "D-64": ("saturate", "wrap"),
    "D-66": ("released", "stays-locked"), "D-67": ("single", "mqf-header"),
    "D-68": ("refuse+nack", "refuse-only"), "D-69": ("as-started", "refuse", "literal"),
    "D-73": ("deny-receive", "refuse-unknown"), "D-74": ("not-available", "literal"),
    "D-76": ("same-session", "new-session"), "D-80": ("access-denied", "queue-not-found"),
    "D-85": ("text", "windows"), "D-86": ("zero", "nonzero"), "D-87": ("clear", "set"), "D-88": ("close", "answer"),
    "D-90": ("read", "refuse"),
    "D-95": ("kept", "cleared"), "D-96": ("kept", "dropped"), "D-98": ("literal", "timer"),
}


class Readings:
    """The reading of every open decision: the reference's, except those `chosen` names."""
    __slots__ = ("_chosen",)

    def __init__(self, chosen: dict[str, str] | None = None) -> None:
        chosen = dict(chosen or {})
        for decision, reading in chosen.items():
            if decision not in OPEN_DECISIONS:
                raise ValueError(f"{decision} is not an open decision (see spec/decisions.md)")
            if reading not in OPEN_DECISIONS[decision]:
                raise ValueError(f"{decision} has no reading {reading!r}; its readings: "
                                 f"{', '.join(OPEN_DECISIONS[decision])}")
        self._chosen = {decision: reading for decision, reading in chosen.items()
                        if reading != OPEN_DECISIONS[decision][0]}

    @classmethod
    def parse(cls, text: str) -> "Readings":
        """'D-03:msdn,D-11:end-sees-arrivals' (ValueError naming what is wrong)."""
        chosen = {}
        for part in filter(None, (item.strip() for item in text.split(","))):
            decision, sep, reading = part.partition(":")
            if not sep:
                raise ValueError(f"{part!r}: write DECISION:READING, e.g. D-03:msdn")
            chosen[decision.strip()] = reading.strip()
        return cls(chosen)

    def __getitem__(self, decision: str) -> str:
        return self._chosen.get(decision) or OPEN_DECISIONS[decision][0]

    def __str__(self) -> str:
        return ",".join(f"{decision}:{reading}" for decision, reading in sorted(self._chosen.items()))
