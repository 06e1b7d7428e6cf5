"""mqspec installed as a user installs it: a wheel, a fresh virtual environment, an empty directory.

The wheel is built from this checkout and holds one top-level package; installed (pip's cache makes the
dependencies quick) into a virtual environment outside the checkout, it certifies from a directory with nothing
in it: the reference in process, and `mqspec serve` over MS-MQRR.  Its verdicts are the checkout's, clause by
clause, for the same clauses, and it carries the same suite (the version hash run.json records).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from mqspec.catalogue import load_catalogue
from mqspec.pytest_plugin import suite_version
from mqspec.reports.tally import tally
from tests.serving import served

ROOT = Path(__file__).resolve().parent.parent
CHECKOUT = (sys.executable, "-m", "mqspec.cli")
IN_PROCESS = ("MS-MQRR:3.1.4.7:16", "MS-MQDMPR:3.1.7.1.10:01", "MS-MQRR:2.1:01")
OVER_THE_WIRE = ("MS-MQRR:3.1.4.9:04", "MS-MQRR:2.2.4.1:01", "MS-MQRR:3.1.4.2:02")
CLIENT = ("MS-MQRR:3.1.4.7:01", "MS-MQRR:3.2.4.4.1:01", "MS-MQRR:3.1.4.2:07")   # clauses of the client side
PARTS = ("mqspec", "protocol", "reference", "adapters", "steps", "features", "spec", "reports", "strength", "shims",
         "docs")

pytestmark = pytest.mark.slow


def run(command, cwd: Path) -> subprocess.CompletedProcess:
    """`command` in `cwd`, with nothing of this checkout's environment (no PYTHONPATH, no pytest or mqspec
    variables) to help it."""
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("PYTHONPATH", "VIRTUAL_ENV") and not name.startswith(("PYTEST_", "MQSPEC_"))}
    return subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, timeout=900, env=environment)


def build_wheel(into: Path) -> Path:
    """The wheel of a copy of this checkout's sources (setuptools builds in the source tree, where a stale build/
    of an earlier wheel would otherwise carry modules the checkout no longer has)."""
    source = into / "source"
    for part in PARTS:
        shutil.copytree(ROOT / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(into),
                 str(source)], into)
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = into.glob("mqspec-*.whl")
    return wheel


def certify(mqspec, cwd: Path, results: Path, clauses, *options: str) -> subprocess.CompletedProcess:
    return run([*mqspec, "certify", "--results", str(results), *options,
                *[argument for clause in clauses for argument in ("--clause", clause)]], cwd)


def verdict_lines(output: str) -> list[str]:
    """The per-target clause counts and failing clauses certify prints, without the run's id."""
    return [re.sub(r" in run \S+$", "", line.strip()) for line in output.splitlines()
            if re.match(r"\s+(.+?: clauses |FAILED )", line)]


def verdicts(results: Path) -> dict:
    model = tally(results, load_catalogue())
    return {target: model["matrix"][target] for target in model["targets"]}


def test_the_wheel_holds_one_top_level_package_and_the_whole_suite(tmp_path):
    names = zipfile.ZipFile(build_wheel(tmp_path)).namelist()
    assert {name.split("/")[0] for name in names} == {"mqspec", "mqspec-0.1.0.dist-info"}
    checkout = {"mqspec/" + (path.relative_to(ROOT / "mqspec") if part == "mqspec" else
                             path.relative_to(ROOT)).as_posix()
                for part in PARTS for path in (ROOT / part).rglob("*")
                if path.is_file() and "__pycache__" not in path.parts and "go-msrpc" not in path.parts}
    # every module, scenario, clause file, decision, document and asset of the checkout, and nothing else (the Go
    # shim of shims/go-msrpc is built from a checkout by make, not installed)
    assert {name for name in names if name.startswith("mqspec/")} == checkout


def install(where: Path) -> tuple[str, ...]:
    """The command `mqspec` of a fresh virtual environment, under `where`, with the wheel of this checkout."""
    wheel = build_wheel(where)
    venv.create(where / "venv", with_pip=True)
    bin_dir = where / "venv" / "bin"
    done = run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                str(wheel)], where)
    assert done.returncode == 0, done.stderr[-3000:]
    return (str(bin_dir / "mqspec"),)


def test_the_installed_tool_certifies_from_an_empty_directory_as_the_checkout_does(tmp_path):
    """One test (one virtual environment, one pytest-xdist worker): in process with the report, over the wire
    against the installed `mqspec serve`, and the plain pytest form."""
    (tmp_path / "install").mkdir()
    installed = install(tmp_path / "install")
    empty = tmp_path / "empty"
    empty.mkdir()
    version = run([*installed, "--version"], empty)
    assert version.stdout == f"mqspec 0.1.0 (suite {suite_version()})\n", version.stdout + version.stderr
    for name, document in (("shim", "client-shim.md"), ("control", "control.md")):   # the docs travel in the wheel
        shown = run([*installed, "docs", name], empty)
        assert shown.returncode == 0 and shown.stdout == (ROOT / "docs" / document).read_text(encoding="utf-8")

    # the in-process reference: the installed tool with its report (Spark), the checkout's verdicts without one
    mine = certify(installed, empty, empty / "results" / "installed", IN_PROCESS)
    theirs = certify(CHECKOUT, ROOT, tmp_path / "checkout", IN_PROCESS, "--no-report")
    assert mine.returncode == 0, mine.stdout + mine.stderr
    assert theirs.returncode == 0, theirs.stdout + theirs.stderr
    assert verdict_lines(mine.stdout) and verdict_lines(mine.stdout) == verdict_lines(theirs.stdout)
    assert verdicts(empty / "results" / "installed") == verdicts(tmp_path / "checkout")
    assert (empty / "results" / "installed" / "report" / "report.html").is_file()
    record = json.loads((empty / "results" / "installed" / "run.json").read_text(encoding="utf-8"))
    assert record["suite_version"] == suite_version()

    # over the wire: the installed server, certified by the installed tool and by the checkout
    with served(mqspec=installed, cwd=empty) as url:
        mine = certify(installed, empty, empty / "results" / "wire", OVER_THE_WIRE, "--target", url, "--no-report")
        theirs = certify(CHECKOUT, ROOT, tmp_path / "checkout-wire", OVER_THE_WIRE, "--target", url, "--no-report")
    assert mine.returncode == 0, mine.stdout + mine.stderr
    assert theirs.returncode == 0, theirs.stdout + theirs.stderr
    assert verdict_lines(mine.stdout) and verdict_lines(mine.stdout) == verdict_lines(theirs.stdout)
    shown = verdicts(empty / "results" / "wire")
    assert shown == verdicts(tmp_path / "checkout-wire")
    assert all(shown[url][clause]["verdict"] == "passed" for clause in OVER_THE_WIRE), shown[url]
    assert sorted(path.name for path in empty.iterdir()) == ["results"]   # certify wrote nothing else there

    # the plain pytest form, as the README shows it
    python = str(Path(installed[0]).with_name("python"))
    plain = run([python, "-m", "pytest", "-p", "mqspec.pytest_plugin", "--pyargs", "mqspec.features", "--clause",
                 IN_PROCESS[0], "-q", "--results", str(empty / "results" / "pytest")], empty)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert re.search(r"\b[1-9][0-9]* passed", plain.stdout), plain.stdout
    assert (empty / "results" / "pytest" / "junit.xml").is_file()

    # a client: each installed shim through the installed `mqspec shim` (as a pipx user, whose python cannot
    # import mqspec, runs them), judged by a judge the installed tool serves in its own process
    for shim in ("mqrr", "independent"):
        results = empty / "results" / f"client-{shim}"
        client = certify(installed, empty, results, CLIENT, "--client", f"{installed[0]} shim {shim}",
                         "--no-report")
        assert client.returncode == 0, client.stdout + client.stderr
        ((target, shown),) = verdicts(results).items()
        assert list((results / "shims").glob("*.stderr")), "each scenario's shim stderr is kept in the results"
        assert target.startswith("client mqspec-") and all(shown[c]["verdict"] == "passed" for c in CLIENT), shown
