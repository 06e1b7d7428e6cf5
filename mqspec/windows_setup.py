"""`mqspec windows-setup`: every queue the server scenarios create, as a PowerShell script for a Windows host.

The scenarios are read as pytest-bdd reads them (each outline once per row of its examples, the
background's steps included), and every step that creates a queue through setup_steps and
identity_steps (`a queue "q"`, `a transactional queue "q" with a quota of 2 KB`, `a queue "q"
owned by the first identity with the access list:`, ...) becomes the queue the msmq:// target
maps it onto (adapters/msmq/queues.py).  Queues no script can make (a subqueue, a public
queue, one owned by the second account, one under a path name a scenario spells out) are left
to their scenarios, which are not run, naming it.
"""

from __future__ import annotations

import re
from pathlib import Path

from pytest_bdd.parser import FeatureParser

from mqspec.adapters.msmq.queues import SetupQueue, powershell, setup_queue
from mqspec.protocol.constants import QueueRights

from .parts import part

# step text -> the Create Queue properties it asks for (setup_steps.py, identity_steps.py)
_STEPS = (
    (re.compile(r'a (?P<tx>transactional )?queue "(?P<alias>[^"]*)"'
                r'(?: with a quota of (?P<quota>\d+) KB| (?P<journal>with journaling))?'), None),
    (re.compile(r'a queue "(?P<alias>[^"]*)" owned by the (?P<owner>first|second) identity with the access list:'),
     "table"),
    (re.compile(r'a queue "(?P<alias>[^"]*)" owned by the (?P<owner>first|second) identity, with no access list'),
     "default"),
)
_TRUSTEES = {"first identity": "first", "second identity": "second", "Everyone": "Everyone",
             "Anonymous Logon": "Anonymous Logon", "Administrators": "Administrators"}


def _rights(text: str) -> int:
    total = 0
    for piece in (item.strip() for item in text.split("|")):
        total |= QueueRights[piece] if piece in QueueRights.__members__ else int(piece, 0)
    return total


def asked(step) -> dict | None:
    """The setup_queue arguments of a step that creates a queue; None for any other step."""
    for pattern, security in _STEPS:
        match = pattern.fullmatch(step.name)
        if match is None:
            continue
        found = match.groupdict()
        arguments = {"alias": found["alias"]}
        if security is None:
            arguments.update(transactional=bool(found.get("tx")), journaling=bool(found.get("journal")))
            if found.get("quota"):
                arguments["quota"] = int(found["quota"])
            return arguments
        arguments["owner"] = found["owner"]
        if security == "table":
            _, *rows = step.datatable.raw()
            arguments["acl"] = tuple((kind, _TRUSTEES.get(trustee, trustee), _rights(rights))
                                     for kind, trustee, rights in rows)
        else:
            arguments["acl"] = None
        return arguments
    return None


def scenarios():
    """(scenario name, its rendered steps) of every server scenario, each outline row once."""
    features = part("features")
    for path in sorted(features.rglob("*.feature")):
        if "clients" in path.relative_to(features).parts:
            continue   # client scenarios create their queues on the judge
        feature = FeatureParser(str(path.parent), path.name).parse()
        for template in feature.scenarios.values():
            contexts = [context for examples in template.examples for context in examples.as_contexts()] or [{}]
            for context in contexts:
                yield f"{path.name}: {template.name}", template.render(context).steps


_SUBQUEUE = re.compile(r'a subqueue "(?P<sub>[^"]*)" of "(?P<alias>[^"]*)"')


def setup_queues() -> tuple[list[SetupQueue], dict[str, str]]:
    """Every queue the script makes, and the scenarios whose queues it cannot make, each with the reason."""
    queues, unmade = set(), {}
    for name, steps in scenarios():
        for step in steps:
            arguments = asked(step)
            if arguments is None:
                continue
            made = setup_queue(**arguments)
            if isinstance(made, str):
                unmade[name] = made
            else:
                queues.add(made)
    return sorted(queues), unmade


def subqueues() -> list[tuple[str, str]]:
    """(the script's queue, subqueue name) of every subqueue a scenario names: Windows makes a subqueue as it is
    used (MS-MQDMPR 3.1.1.2), so the script has nothing to do for them; `mqspec serve --as-windows` makes them."""
    found = set()
    for _, steps in scenarios():
        made = {}
        for step in steps:
            arguments = asked(step)
            if arguments is not None:
                queue = setup_queue(**arguments)
                if not isinstance(queue, str):
                    made[arguments["alias"]] = queue.name
            match = _SUBQUEUE.fullmatch(step.name)
            if match and match["alias"] in made:
                found.add((made[match["alias"]], match["sub"]))
    return sorted(found)


def script(remove: bool = False) -> str:
    queues, _ = setup_queues()
    return powershell(queues, remove)


def write(path: str | None, text: str) -> None:
    if path:
        Path(path).write_text(text, encoding="utf-8")
    else:
        print(text, end="")


def make_on(target, accounts: list[str]) -> int:
    """Create the script's queues on an in-process `target` as the script makes them on a host run by
    `accounts[0]` (mqspec serve --as-windows); the number made.  ValueError if one cannot be."""
    queues, _ = setup_queues()
    roles = {"first": accounts[0], "second": accounts[1] if len(accounts) > 1 else accounts[0]}
    for queue in queues:
        dacl = [[kind, roles.get(role, role), rights] for kind, role, rights in queue.entries]
        created = target.create_queue(f"{target.computer_name}\\private$\\{queue.name}",
                                      transactional=queue.transactional, quota=queue.quota,
                                      journaling=queue.journaling, label=queue.label,
                                      security={"owner": accounts[0], "dacl": dacl})
        if created.hresult != 0:
            raise ValueError(f"the setup queue {queue.name} could not be made ({created.hresult:#x})")
    for parent, sub in subqueues():
        created = target.create_queue(f"{target.computer_name}\\private$\\{parent};{sub}")
        if created.hresult != 0:
            raise ValueError(f"the subqueue {parent};{sub} could not be made ({created.hresult:#x})")
    return len(queues)
