"""`mqspec windows-setup`: the PowerShell script holds every queue a server scenario creates, with its properties.

The script is read as PowerShell text (each `New-MsmqQueue` line and the `Set-MsmqQueueACL` lines after it), and
each scenario's queue steps are read from their own words (`transactional`, `a quota of N KB`, `with journaling`,
the access list's rows), so a queue left out or a property dropped by the generator fails here.
"""

from __future__ import annotations

import re

import pytest

from mqspec.adapters.msmq.queues import rights_names
from mqspec.cli import main
from mqspec.protocol.constants import QueueRights
from mqspec.windows_setup import scenarios

_NEW = re.compile(r"^\$q = New-MsmqQueue -Name '(?P<name>[^']+)' -QueueType Private(?P<flags>.*)$")
_ACL = re.compile(r"^\$q \| Set-MsmqQueueACL -UserName (?P<who>\S+|'[^']+') -(?P<verb>Allow|Deny|Remove) "
                  r"(?P<rights>\S+) \| Out-Null$")
_QUEUE_STEP = re.compile(r'a (?:transactional )?queue "(?P<alias>[^"]+)"(?P<rest>.*)')
_WHO = {"first identity": "$FirstUser", "second identity": "$SecondUser", "Everyone": "'Everyone'",
        "Anonymous Logon": "'ANONYMOUS LOGON'", "Administrators": "'BUILTIN\\Administrators'"}


def _script(capsys, *options) -> str:
    assert main(["windows-setup", *options]) == 0
    return capsys.readouterr().out


def _queues(text: str) -> dict[str, dict]:
    """name -> {"flags": the New-MsmqQueue options, "acl": [(who, verb, rights), ...]} as the script writes them."""
    queues, current = {}, None
    for line in text.splitlines():
        made = _NEW.match(line)
        if made:
            current = queues.setdefault(made["name"], {"flags": made["flags"], "acl": []})
            continue
        acl = _ACL.match(line)
        if acl:
            current["acl"].append((acl["who"], acl["verb"], acl["rights"]))
    return queues


def _wanted(step) -> tuple[str, dict] | None:
    """What a queue step of a scenario asks for, from its own words: (alias, properties)."""
    match = _QUEUE_STEP.fullmatch(step.name)
    if match is None or "owned by the second identity" in match["rest"]:
        return None
    quota = re.search(r"with a quota of (\d+) KB", match["rest"])
    acl = None
    if "with the access list" in match["rest"]:
        _, *rows = step.datatable.raw()
        acl = [(_WHO[trustee], kind.capitalize(), ",".join(rights_names(
            sum(QueueRights[part.strip()] for part in rights.split("|"))))) for kind, trustee, rights in rows]
    return match["alias"], {"transactional": step.name.startswith("a transactional"),
                            "quota": int(quota.group(1)) if quota else None,
                            "journaling": "with journaling" in match["rest"], "acl": acl}


def _matches(queue: dict, wanted: dict) -> bool:
    flags = queue["flags"]
    if ("-Transactional" in flags) != wanted["transactional"] or ("-Journaling" in flags) != wanted["journaling"]:
        return False
    quota = re.search(r"-QueueQuota (\d+)", flags)
    if (int(quota.group(1)) if quota else None) != wanted["quota"]:
        return False
    granted = [entry for entry in queue["acl"] if entry[1] != "Remove"]
    if wanted["acl"] is None:   # Windows' default list, and full control for both accounts
        return not any(entry[1] == "Remove" for entry in queue["acl"]) and \
            set(granted) == {("$FirstUser", "Allow", "FullControl"), ("$SecondUser", "Allow", "FullControl")}
    removed = {entry[0] for entry in queue["acl"] if entry[1] == "Remove"}
    return removed >= {"'Everyone'", "'ANONYMOUS LOGON'", "$Creator"} and granted == wanted["acl"]


def test_every_queue_a_scenario_creates_is_in_the_script_with_its_properties(capsys):
    queues = _queues(_script(capsys))
    missing = []
    checked = 0
    for scenario, steps in scenarios():
        for step in steps:
            wanted = _wanted(step)
            if wanted is None:
                continue
            alias, properties = wanted
            checked += 1
            if not any(_matches(queue, properties) for name, queue in queues.items()
                       if name == f"mqspec-{alias}" or name.startswith(f"mqspec-{alias}-")):
                missing.append(f"{scenario}: {step.name} {properties}")
    assert checked > 1000, "the scenarios' queue steps were not found"
    assert not missing, "\n".join(missing[:10])


def test_the_script_is_powershell_of_the_msmq_module(capsys):
    text = _script(capsys)
    assert text.splitlines()[2].startswith("param([Parameter(Mandatory = $true)][string]$FirstUser")
    assert "Import-Module MSMQ" in text and "$ErrorActionPreference = 'Stop'" in text
    assert len(_queues(text)) >= 60


def test_remove_deletes_every_queue_of_the_prefix(capsys, tmp_path):
    text = _script(capsys, "--remove")
    assert "Get-MsmqQueue -QueueType Private -Name 'mqspec-*' | Remove-MsmqQueue" in text
    out = tmp_path / "remove.ps1"
    assert main(["windows-setup", "--remove", "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == text


def test_an_unwritable_output_is_one_line(capsys, tmp_path):
    assert main(["windows-setup", "--output", str(tmp_path / "no" / "such" / "file.ps1")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mqspec: --output") and len(err.splitlines()) == 1


@pytest.mark.parametrize("rights, names", [(0x000F003F, ["FullControl"]), (0x3, ["ReceiveMessage"]),
                                           (0x6, ["PeekMessage", "WriteMessage"])])
def test_rights_are_written_by_their_messagequeueaccessrights_names(rights, names):
    assert rights_names(rights) == names
