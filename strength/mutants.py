"""`mqspec strength --mutants`: Cosmic Ray's mutants of the reference's core against the conformance suite.

Theory of operation
-------------------
Cosmic Ray (an off-the-shelf mutation tool) finds every place where one of its operators
changes the reference's core (CORE below) and records each change as a work item of a
session (an SQLite file, readable with its own `cr-report`), described against a pristine
copy of the project under the results directory, never the tree being edited.

The mutants are judged by the fork server (strength/mutant_server.py): one pytest process
in that copy collects the suite (features/: the scenarios and the machines) once, learns
under coverage which tests run each line, then forks a child per mutant that patches the
mutated function in and runs only the tests that reach the changed lines, stopping at the
first failure (killed by that test).  A change no patch can carry (module or class level)
is carried by importing the reference afresh, with the mutated module, in the child, which
then runs every test until one fails.

The suite runs against the reference under each of its readings of the open decisions
(spec/decisions.md): as it is, then with every decision's second reading at once, then every
third one (READINGS_TARGETS, as tests/test_readings.py runs them), so a rule the reference
applies only under another reading (D-76's new-session, D-88's answer, ...) is judged by the
scenarios that reach it there, not left to look equivalent.  Each target is held to the readings it
names (`--profile reference`): a mutant that makes a target take another reading than it was
told (a well-formed SRMP packet refused where D-90 read was asked for) fails the scenario
that shows it, as a server certified against a profile would.

A mutant is killed when the suite fails (or runs past the time-out), survives when it
passes.  Results go into the session as they come, so a run that is stopped resumes
where it was with the same --results.  --sample N tests N mutants drawn with a fixed seed
(the others are marked skipped), the CI's quick check; without it every mutant runs.
--module restricts a new run to some modules of the core (kept in modules.json, so its
resumption takes the same ones).

A surviving mutant is a gap in the suite (add the scenario) or is equivalent to the
reference; equivalent ones are explained in EQUIVALENT_MUTANTS (equivalent_mutants.py),
keyed by module, operator and the changed line before and after the change, so the
explanation follows the line when code above it moves.  The score is killed / (killed +
survived); the run exits 1 if a survivor is not explained.
"""

from __future__ import annotations

import datetime as _dt
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .equivalent_mutants import explanation
from .run import COPIED, COPIED_FILES, ROOT, StrengthError, make_copy

# The core of the reference: the queue manager's rules, queue security (security.py) and the MS-MQQB session,
# its arrivals and its packets' structure rules (mqqb_session.py, mqqb_arrival.py, mqqb_packets.py).
# Left out: the SQLite store (sqlite_store.py) and the
# persistence log (persistence.py) whose effects only a restart shows, clock.py, the enumerations, the readings
# table, and the format-name and packet codecs (format_name.py, queue_format.py, packet.py), which are
# checked against the specifications' tables by their own scenarios and unit tests.
CORE = ("position_list", "cursor", "queue_manager", "open_queue", "reads", "transactions", "acknowledgment",
        "arrival", "timers", "remote_read", "remote_read_rules", "packet_sections", "adm", "message",
        "security", "mqqb_session", "mqqb_arrival", "mqqb_packets")
SEED = 0

# Cosmic Ray's operators left out, with the reason.  Swapping == for `is` (and back, and their negations) asks
# whether CPython caches small ints, enum members and interned strings, not whether the queue manager follows a
# rule; mutmut, the other tool the issue names, makes no such mutant.  The swaps that invert the test (== for
# `is not`) stay.
LEFT_OUT = {f"core/ReplaceComparisonOperator_{name}": "an equality swapped for an identity of the same sense"
            for name in ("Eq_Is", "NotEq_IsNot", "Is_Eq", "IsNot_NotEq")}
LEFT_OUT_OUTPUT = "left out: "


def _cosmic_ray():
    try:
        from cosmic_ray.commands.init import init
        from cosmic_ray.work_db import WorkDB, use_db
        from cosmic_ray.work_item import WorkerOutcome, WorkResult
    except ImportError:
        raise StrengthError("--mutants needs Cosmic Ray: pip install -e '.[test]' (cosmic-ray>=8.7)") from None
    return init, WorkDB, use_db, WorkerOutcome, WorkResult


def run_mutants(results: Path, jobs: int, sample: int | None, seed: int = SEED, test_timeout: int | None = None,
                progress=None, survivors: bool = False, modules: tuple[str, ...] = ()) -> int:
    init, WorkDB, use_db, WorkerOutcome, WorkResult = _cosmic_ray()
    progress = progress or (lambda line: print(line, flush=True))
    per_test = test_timeout or 120
    where = results / "mutants"
    where.mkdir(parents=True, exist_ok=True)
    session = where / "session.sqlite"
    source = where / "source"
    fresh = not session.is_file()
    if survivors and fresh:
        raise StrengthError(f"--survivors: {results} holds no earlier mutants run (no {session})")
    out = where / (RETEST_OUT if survivors else SERVER_OUT)
    core = _modules(where, modules, fresh)
    if fresh:
        make_copy(source)   # the pristine copy the work items are described against
        with use_db(str(session)) as db:
            init([source / "reference" / f"{name}.py" for name in core], db, {})
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = {item.job_id: item for item in db.work_items}
        _merge(where / SERVER_OUT, db, WorkerOutcome, WorkResult)   # what an interrupted run already judged
        _merge(where / RETEST_OUT, db, WorkerOutcome, WorkResult, again=True)
        _leave_out(db, WorkerOutcome, WorkResult)
        done = {job_id for job_id, _ in db.results}
    if survivors:   # judged again against the suite as it is now; the reference stays the one they were made of
        _refresh_suite(source)
        out.unlink(missing_ok=True)
        gaps = {row["job"] for row in report(session, source, 0.0, jobs, 0.0)["survivors"] if not row["equivalent"]}
        done = set(items) - gaps   # only the survivors nothing explains are judged again
    with use_db(str(session), WorkDB.Mode.open) as db:
        if sample is not None and fresh:
            if sample < 1:
                raise StrengthError(f"--sample {sample}: needs at least 1")
            # drawn from the mutants in source order (job ids are random), so a seed names the same sample
            ordered = sorted((job for job in items if job not in done), key=lambda job: _order(items[job].mutations[0],
                                                                                                source))
            chosen = set(random.Random(seed).sample(ordered, min(sample, len(items))))
            db.set_multiple_results([job for job in items if job not in chosen],
                                    WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
            done = {job_id for job_id, _ in db.results}
        pending = _interleaved(sorted((job for job in items if job not in done),
                                      key=lambda job: _order(items[job].mutations[0], source)), items)
    progress(f"mqspec: mutants: {len(items)} in the reference's core ({', '.join(core)}); "
             f"{len(pending)} to test, {jobs} at a time; session {session}")
    started = time.monotonic()
    if pending:
        _serve(source, where, [items[job] for job in pending], jobs, per_test, progress, out)
    with use_db(str(session), WorkDB.Mode.open) as db:
        _merge(out, db, WorkerOutcome, WorkResult, again=survivors)
    record = report(session, source, time.monotonic() - started, jobs, _baseline_seconds(where), judged=len(pending),
                    core=core)
    (where / "mutants.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    (where / "mutants.md").write_text(markdown(record), encoding="utf-8")
    for line in summary_lines(record):
        progress("mqspec: " + line)
    progress(f"mqspec: mutants: details in {where / 'mutants.md'} and {where / 'mutants.json'}")
    return 1 if record["unexplained"] else 0


SERVER_OUT = "server.jsonl"
MODULES = "modules.json"   # the modules of the core a run began with (--module), kept for its resumption


def _modules(where: Path, asked: tuple[str, ...], fresh: bool) -> tuple[str, ...]:
    """The modules whose mutants the session holds: those asked for a fresh run (all of CORE by default), those a
    resumed run began with; asking a resumed run for others is an error, not a silent change of its score."""
    if fresh:
        core = tuple(name for name in CORE if name in asked) if asked else CORE
        (where / MODULES).write_text(json.dumps(list(core)) + "\n", encoding="utf-8")
        return core
    try:
        core = tuple(json.loads((where / MODULES).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        core = CORE   # a session begun before --module existed: the whole core
    if asked and set(asked) != set(core):
        raise StrengthError(f"--module: {where.parent} is a run over {', '.join(core)}; resume it with those modules "
                            f"or none, or start another with another --results")
    return core
RETEST_OUT = "survivors.jsonl"   # --survivors: verdicts that replace the earlier ones


def readings_targets() -> list[str]:
    """The reference as it is, then with every open decision's second reading at once, then every third one, then
    with D-76 new-session alone: the session the reference opens itself is otherwise judged only beside D-86 nonzero
    and D-87 set, which hide what its own request writes under their first readings."""
    from mqspec.reference.readings import OPEN_DECISIONS
    together = [",".join(f"{decision}:{readings[k]}" for decision, readings in OPEN_DECISIONS.items()
                         if len(readings) > k) for k in range(1, max(map(len, OPEN_DECISIONS.values()), default=1))]
    return ["reference", *(f"reference?readings={readings}&name=reference-readings-{k}"
                           for k, readings in enumerate(together, start=2)),
            "reference?readings=D-76:new-session&name=reference-new-session"]


def _serve(source: Path, where: Path, pending: list, jobs: int, per_test: int, progress, out: Path) -> None:
    """The fork server (strength/mutant_server.py) over the pending mutants in the pristine copy."""
    plan = [{"job": item.job_id, "module": str(mutation.module_path),
             "relative": str(Path(mutation.module_path).relative_to(source)), "operator": mutation.operator_name,
             "operator_args": dict(getattr(mutation, "operator_args", {}) or {}), "occurrence": mutation.occurrence,
             "start": list(mutation.start_pos), "end": list(mutation.end_pos)}
            for item in pending for mutation in item.mutations[:1]]
    (where / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    command = [sys.executable, "-m", "pytest", "features", "-q", "-s", "-p", "no:cacheprovider",
               "-p", "mqspec.strength.pytest_fast", "-p", "mqspec.strength.mutant_server",
               "--mutant-plan", str(where / "plan.json"), "--mutant-out", str(out),
               "--mutant-jobs", str(jobs), "--results", str(where / "server-results"), "--run-id", "mutants",
               f"--timeout={per_test}", "--profile", "reference"]
    for url in readings_targets():
        command += ["--target", url]
    process = subprocess.Popen(command, cwd=source, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    last = "no output"
    for text in process.stdout:
        text = text.rstrip("\n")
        if text.startswith(("mqspec: mutants:", "  [")):
            progress(text)
        if text.strip():
            last = text.strip()
    if process.wait() not in (0, 5):
        raise StrengthError(f"the mutants' test process failed: {last}")
    answered = {row["job"] for row in _rows(out) if row["outcome"] != "process"}
    unanswered = [item.job_id for item in pending if item.job_id not in answered]
    if unanswered:
        raise StrengthError(f"the mutants' test process stopped with {len(unanswered)} mutants unanswered: {last}")


def _rows(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    rows = []
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(text))
        except json.JSONDecodeError:
            continue   # a line cut short by a stopped run: that mutant is tested again
    return rows


def _refresh_suite(source: Path) -> None:
    """The suite of the pristine copy replaced by the suite of the tree (every part but reference/, which the
    mutants are made of)."""
    for name in COPIED:
        if name != "reference":
            shutil.rmtree(source / name, ignore_errors=True)
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in COPIED_FILES:
        shutil.copy2(ROOT / name, source / name)


def _merge(path: Path, db, WorkerOutcome, WorkResult, again: bool = False) -> None:
    """The fork server's verdicts into Cosmic Ray's session; `again`: they replace earlier verdicts (--survivors).
    A "process" row (a fork server before it could import a mutated module, which left the mutant to a copy)
    is no verdict: that mutant stays pending."""
    from cosmic_ray.work_item import TestOutcome
    outcomes = {"killed": TestOutcome.KILLED, "survived": TestOutcome.SURVIVED,
                "incompetent": TestOutcome.INCOMPETENT}
    known = {job for job, _ in db.results}
    for row in _rows(path):
        if (row["job"] in known and not again) or row["outcome"] == "process":
            continue
        if row["outcome"] == "no-test":
            result = WorkResult(worker_outcome=WorkerOutcome.NO_TEST, output=row["output"], diff=row["diff"])
        else:
            result = WorkResult(worker_outcome=WorkerOutcome.NORMAL, test_outcome=outcomes[row["outcome"]],
                                output=row["output"], diff=row["diff"])
        db.set_result(row["job"], result)
        known.add(row["job"])


def _leave_out(db, WorkerOutcome, WorkResult) -> None:
    """Mark the pending mutants of the LEFT_OUT operators skipped, with the reason (Cosmic Ray's own operators
    filter does the same from a configuration file)."""
    for item in list(db.pending_work_items):
        reason = LEFT_OUT.get(item.mutations[0].operator_name)
        if reason:
            db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                  output=LEFT_OUT_OUTPUT + reason))


def _baseline_seconds(where: Path) -> float:
    try:
        return sum(json.loads((where / "baseline.json").read_text(encoding="utf-8"))["durations"])
    except (OSError, ValueError, KeyError):
        return 0.0


def _interleaved(jobs: list[str], items: dict) -> list[str]:
    """The modules' mutants in turn (each module's in source order), so a run stopped early has judged some of
    every module."""
    by_module: dict[str, list[str]] = {}
    for job in jobs:
        by_module.setdefault(str(items[job].mutations[0].module_path), []).append(job)
    queues = list(by_module.values())
    return [queue[index] for index in range(max(map(len, queues), default=0)) for queue in queues
            if index < len(queue)]


def _order(mutation, source: Path) -> tuple:
    return (str(Path(mutation.module_path).relative_to(source)), tuple(mutation.start_pos), mutation.operator_name,
            mutation.occurrence)


def report(session: Path, source: Path, seconds: float, jobs: int, baseline_seconds: float, judged: int = 0,
           core: tuple[str, ...] = CORE) -> dict:
    """The session's verdicts with their explanations; `seconds` and `judged`: what this invocation did (a resumed
    run or --survivors judges only some of the mutants)."""
    _, WorkDB, use_db, WorkerOutcome, _ = _cosmic_ray()
    with use_db(str(session), WorkDB.Mode.open) as db:
        total = db.num_work_items
        completed = db.completed_work_items
    rows, skipped, left_out = [], 0, 0
    for item, result in completed:
        mutation = item.mutations[0]
        if mutation.operator_name in LEFT_OUT:   # also one a run before the operator was left out tested
            left_out += 1
            continue
        if result.worker_outcome == WorkerOutcome.SKIPPED:
            skipped += 1
            continue
        path = Path(mutation.module_path)
        module = str(path.relative_to(source)) if path.is_absolute() else str(path)
        line = _line(source / module if path.is_absolute() else ROOT / module, mutation.start_pos[0])
        changed = _changed_line(result.diff)
        key = f"{module} | {mutation.operator_name} | {line} => {changed}"
        outcome = _outcome(result)
        timed_out = (result.output or "") == "timeout"
        killed_by = (result.output or "").removeprefix("killed by ") if outcome == "killed" else ""
        rows.append({"job": item.job_id, "module": module, "line": mutation.start_pos[0], "source": line,
                     "operator": mutation.operator_name, "occurrence": mutation.occurrence,
                     "outcome": outcome, "timed_out": timed_out, "diff": result.diff or "",
                     "killed_by": killed_by if killed_by != (result.output or "") else "",
                     "key": key, "equivalent": explanation(module, mutation.operator_name, line, changed, source,
                                                           mutation.start_pos)})
    killed = sum(1 for row in rows if row["outcome"] == "killed")
    survived = [row for row in rows if row["outcome"] == "survived"]
    judged = killed + len(survived)
    return {
        "format": "mqspec-mutants/1", "tool": "cosmic-ray", "core": list(core),
        "finished": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "seconds": round(seconds, 1), "judged_now": judged, "jobs": jobs,
        "baseline_seconds": round(baseline_seconds, 1),
        "mutants": total, "tested": len(rows), "skipped": skipped, "left_out": left_out,
        "left_out_operators": LEFT_OUT, "pending": total - len(rows) - skipped - left_out,
        "killed": killed, "survived": len(survived),
        "timed_out": sum(1 for row in rows if row["timed_out"]),
        "other": len(rows) - judged,
        "score": round(100.0 * killed / judged, 1) if judged else None,
        "score_without_equivalent": (round(100.0 * killed / (judged - sum(1 for r in survived if r["equivalent"])), 1)
                                     if judged - sum(1 for r in survived if r["equivalent"]) else None),
        "unexplained": [row["key"] for row in survived if not row["equivalent"]],
        "survivors": sorted(survived, key=lambda row: (row["module"], row["line"])),
        "results": sorted(rows, key=lambda row: (row["module"], row["line"], row["operator"])),
    }


def _changed_line(diff: str | None) -> str:
    """The mutant's version of the line it changes: the first added line of Cosmic Ray's diff."""
    for text in (diff or "").splitlines():
        if text.startswith("+") and not text.startswith("+++"):
            return text[1:].strip()
    return ""


def _outcome(result) -> str:
    """killed / survived / incompetent, or the worker's outcome when no test ran (exception, no-test)."""
    return str(result.test_outcome.value if result.test_outcome else result.worker_outcome.value)


def _line(path: Path, number: int) -> str:
    try:
        return path.read_text(encoding="utf-8").splitlines()[number - 1].strip()
    except (OSError, IndexError):
        return ""


def summary_lines(record: dict) -> list[str]:
    lines = [(f"mutants: score {record['score']}% ({record['killed']} killed, {record['survived']} survived of "
             f"{record['tested']} tested; {record['pending']} pending, {record['skipped']} skipped, "
             f"{record['left_out']} of left-out operators, {record['mutants']} in all); this run judged "
             f"{record['judged_now']} in {record['seconds']:.0f} s")]
    for row in record["survivors"]:
        why = f"equivalent: {row['equivalent']}" if row["equivalent"] else "NOT EXPLAINED"
        lines.append(f"survivor: {row['module']}:{row['line']} {row['operator']} `{row['source']}` ({why})")
    return lines


def markdown(record: dict) -> str:
    lines = ["# Mutation testing of the reference's core (Cosmic Ray) against the conformance suite", "",
             (f"Score: **{record['score']}%**: {record['killed']} killed, {record['survived']} survived of "
             f"{record['tested']} mutants tested ({record['timed_out']} killed by the time-out, {record['other']} "
             f"with no verdict); {record['pending']} not yet tested, {record['skipped']} left out of a sample, "
             f"{record['left_out']} made by operators left out ({'; '.join(sorted(record['left_out_operators']))}: "
             f"{'; '.join(sorted(set(record['left_out_operators'].values())))}); "
             f"{record['mutants']} mutants in all.  Score without the survivors explained as equivalent: "
             f"{record['score_without_equivalent']}%."), "",
             (f"Core: {', '.join('reference/' + name + '.py' for name in record['core'])}.  "
             f"This run judged {record['judged_now']} of them in {record['seconds']:.0f} s with {record['jobs']} jobs "
             f"(a resumed run or --survivors judges only what is left); the unchanged suite takes "
             f"{record['baseline_seconds']:.0f} s."), "", "## Survivors", ""]
    if not record["survivors"]:
        lines.append("None.")
    for row in record["survivors"]:
        lines += [f"### {row['module']}:{row['line']} {row['operator']}", "",
                  f"`{row['source']}`: " + (f"equivalent: {row['equivalent']}" if row["equivalent"]
                                            else "**not explained**"), "", "```diff", row["diff"].strip(), "```", ""]
    return "\n".join(lines) + "\n"
