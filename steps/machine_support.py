"""What the stateful machines share besides the machine base: scripts, ledger, log, decoding.

Theory of operation
-------------------
* `Script` keeps one example as Gherkin steps in the suite's vocabulary and renders
  it as a scenario that replays against any target (see steps/machines.py).
* `Ledger` follows every label by what the target answered, not by the model: a
  label is visible, held by a pending receive or an open transaction, sent in an
  open transaction, or gone (received, purged, aborted), and never two of these.
* `log_file` opens $MQSPEC_RESULTS/machines.ndjson once per process.
* `label_and_priority` decodes a returned packet with the suite's own reader,
  cached by the packet's bytes (a peek walk returns the same packets every step).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

from mqspec.protocol.hresult import HRESULT

from .packet_reader import read_sections

QUEUE, HANDLE = "q", "h"
MAX_SIZE = 0x10000  # our messages have empty bodies; anything above the headers will do
LOG_NAME = "machines.ndjson"


def hresult_name(value: int) -> str:
    try:
        return HRESULT(value).name
    except ValueError:
        return f"0x{value:08X}"


def quoted(labels: list[str]) -> str:
    """'"m1", "m2" and "m3"', as steps.values.labels reads it back; 'nothing' when empty."""
    if not labels:
        return "nothing"
    names = [f'"{label}"' for label in labels]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- decoding ---------------------------------------------------------------------------------
_decoded: dict[tuple, tuple[str, int]] = {}


def label_and_priority(sections) -> tuple[str, int]:
    """Label and priority of a returned packet (steps.packet_reader), cached by the sections' bytes:
    equal bytes decode equally, and a peek walk returns the same packets step after step."""
    key = tuple((s.section_buffer_type, s.section_size_alloc, s.section_size, bytes(s.p_section_buffer))
                for s in sections)
    if key not in _decoded:
        if len(_decoded) > 50_000:
            _decoded.clear()
        message = read_sections(sections, MAX_SIZE, MAX_SIZE)
        _decoded[key] = (message.label, message.priority)
    return _decoded[key]


# -- the Gherkin script of one example ---------------------------------------------------------
@dataclass
class ScriptStep:
    lines: list[tuple[str, str]]        # (keyword, text); keyword "|" for a table row
    visible_after: list[str] = field(default_factory=list)  # what the model says a peek walk sees after it
    refers: list[str] = field(default_factory=list)   # labels named by lookup id
    returns: str | None = None          # the label the step's call handed back


@dataclass
class Script:
    """The example so far as a scenario.

    A scenario names messages by label and finds their lookup ids by peeking
    (steps/world.py): a message named by lookup id must have been returned by a
    call or seen by a peek walk before.  `render` therefore adds a `"q" holds ...`
    check after the first step that left such a message visible."""
    machine: str
    setup: list[str]
    steps: list[ScriptStep] = field(default_factory=list)

    def add(self, step: ScriptStep) -> None:
        self.steps.append(step)

    def _walks(self) -> set[int]:
        """Indexes of the steps after which a peek walk must teach the scenario some lookup ids."""
        walks, known = set(), set()
        for j, step in enumerate(self.steps):
            for label in step.refers:
                if label in known:
                    continue
                i = next((i for i in range(j) if label in self.steps[i].visible_after), None)
                if i is not None:
                    walks.add(i)
                    known.update(self.steps[i].visible_after)
            if step.returns:
                known.add(step.returns)
        return walks

    def render(self, tags: list[str], title: str, final: list[tuple[str, str]] = ()) -> str:
        walks = self._walks()
        out = ["  " + " ".join(f"@clause:{tag}" for tag in tags)] if tags else []
        out.append(f"  Scenario: {title}")
        previous = None

        def emit(keyword: str, text: str) -> None:
            nonlocal previous
            if keyword in ("|", "#"):
                out.append(f"      {text}" if keyword == "|" else f"    # {text}")
                return
            shown = "And" if keyword == previous else keyword
            previous = keyword
            out.append(f"    {shown} {text}")

        for line in self.setup:
            emit("Given", line)
        for index, step in enumerate(self.steps):
            for keyword, text in step.lines:
                emit(keyword, text)
            if index in walks:
                emit("Then", f'"{QUEUE}" holds {quoted(step.visible_after)}')
        for keyword, text in final:
            emit(keyword, text)
        return "\n".join(out)


# -- results log -------------------------------------------------------------------------------
_logs: dict[str, object] = {}


def log_file():
    directory = os.environ.get("MQSPEC_RESULTS")
    if not directory:
        return None
    path = os.path.join(directory, LOG_NAME)
    if path not in _logs:
        os.makedirs(directory, exist_ok=True)
        _logs[path] = open(path, "a", encoding="utf-8")
    return _logs[path]


# -- the observable ledger -----------------------------------------------------------------------
@dataclass
class Ledger:
    """Where every sent label is, by what the target said, not by the model."""
    sent: list[str] = field(default_factory=list)
    held: dict[str, str] = field(default_factory=dict)         # label -> request or transaction
    uncommitted: dict[str, str] = field(default_factory=dict)  # label -> transaction of its send
    received: set[str] = field(default_factory=set)
    purged: set[str] = field(default_factory=set)
    aborted: set[str] = field(default_factory=set)
    purge_hit: set[str] = field(default_factory=set)           # held or uncommitted at a purge
    visible: list[str] = field(default_factory=list)           # the last peek walk

    def out(self) -> set[str]:
        return self.received | self.purged | self.aborted

    def release(self, label: str, deleted: bool) -> None:
        self.held.pop(label, None)
        if label in self.purge_hit:
            self.purged.add(label)
        elif deleted:
            self.received.add(label)

    def purge(self) -> None:
        self.purged.update(self.visible)
        self.purge_hit.update(self.held)
        self.purge_hit.update(self.uncommitted)

    def finish(self, tx: str, committed: bool) -> None:
        for label in [label for label, owner in self.held.items() if owner == tx]:
            self.release(label, deleted=committed)
        for label in [label for label, owner in self.uncommitted.items() if owner == tx]:
            del self.uncommitted[label]
            if not committed:
                self.aborted.add(label)
            elif label in self.purge_hit:
                self.purged.add(label)

    def problems(self, visible: list[str]) -> list[str]:
        found = []
        twice = sorted(label for label, count in Counter(visible).items() if count > 1)
        if twice:
            found.append(f"listed twice: {quoted(twice)}")
        stray = sorted(set(visible) - set(self.sent))
        if stray:
            found.append(f"never sent: {quoted(stray)}")
        back = sorted(set(visible) & (self.out() | set(self.held) | set(self.uncommitted)))
        if back:
            found.append(f"visible although received, purged, aborted, held or uncommitted: {quoted(back)}")
        lost = [label for label in self.sent if label not in set(visible) | self.out() | set(self.held)
                | set(self.uncommitted)]
        if lost:
            found.append(f"lost (neither queued, held, received, purged nor aborted): {quoted(lost)}")
        return found


_catalogue_ids: set[str] | None = None


def in_catalogue(clause: str) -> bool:
    global _catalogue_ids
    if _catalogue_ids is None:
        try:
            from mqspec.catalogue import load_catalogue
            _catalogue_ids = set(load_catalogue().clauses)
        except Exception:  # the catalogue is optional for a replay script
            _catalogue_ids = set()
    return clause in _catalogue_ids
