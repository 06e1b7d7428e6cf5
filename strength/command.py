"""The `mqspec strength` subcommand: its arguments and what it does (mqspec/cli.py only wires it)."""

from __future__ import annotations

import argparse
import os
import sys

DESCRIPTION = """\
Run the conformance suite (features/: every scenario and stateful machine) against each
wrong queue manager of strength/variants.py, and against the unchanged reference as the
control, several at a time.  Print and write (strength.json, strength.md in the results
directory) the variant x clause table: which scenarios and machines caught each variant
and under which clause tags, with the kill rate overall, by area and by section.  Exit
status 1 if a variant survives (each survivor named on one line), 2 for bad input.

With --mutants, run the off-the-shelf mutation tool (Cosmic Ray) over the reference's
core instead: every mutant, or a random --sample of them, each against the suite."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help="run only this variant (repeatable; default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="suite runs at once (default: one per core)")
    parser.add_argument("--results", metavar="DIR",
                        help="where to write the runs and the table (default: ./results/strength-<time>)")
    parser.add_argument("--quick", action="store_true",
                        help="stop each variant's run at its first failure (proves kills; the table then lists "
                             "one catching test per variant)")
    parser.add_argument("--clause", action="append", default=[], metavar="ID",
                        help="run only the scenarios and machines of this clause (repeatable; default: all)")
    parser.add_argument("--test-timeout", type=int, default=None, metavar="S",
                        help="seconds a single test may take before it fails (default 120)")
    parser.add_argument("--list", action="store_true", help="list the variants and those removed as equivalent")
    parser.add_argument("--mutants", action="store_true",
                        help="mutation testing of reference/ with Cosmic Ray instead of the named variants")
    parser.add_argument("--sample", type=int, metavar="N", help="with --mutants: test N mutants drawn at random")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="with --sample: the draw's seed")
    parser.add_argument("--module", action="append", default=[], metavar="NAME",
                        help="with --mutants: only this module of the core (repeatable, e.g. security; default: "
                             "the whole core; a resumed run keeps the modules it began with)")
    parser.add_argument("--survivors", action="store_true",
                        help="with --mutants and the --results of an earlier run: judge its surviving mutants that "
                             "nothing explains again, against the suite as it is now (after new scenarios)")


def strength_command(args: argparse.Namespace) -> int:
    from .run import StrengthError, check_checkout
    try:
        if args.list:
            return _list()
        check_checkout()
        if args.jobs < 1:
            raise StrengthError(f"--jobs {args.jobs}: needs at least 1")
        if args.test_timeout is not None and args.test_timeout < 1:
            raise StrengthError(f"--test-timeout {args.test_timeout}: needs at least 1 second")
        if args.mutants:
            return _mutants(args)
        if args.sample is not None or args.survivors or args.module:
            raise StrengthError("--sample, --survivors and --module go with --mutants")
        return _variants(args)
    except StrengthError as error:
        print(f"mqspec: {error}", file=sys.stderr)
        return 2


def _list() -> int:
    from .variants import EQUIVALENT, VARIANTS
    for variant in VARIANTS.values():
        print(f"{variant.name:44} {variant.area:18} {variant.clause:26} {variant.text}")
    for name, reason in EQUIVALENT.items():
        print(f"{name:44} removed as equivalent: {reason}")
    return 0


def _variants(args) -> int:
    from .run import TEST_TIMEOUT, check_clauses, check_loadable, results_directory, run_strength, select, summary_lines
    variants = select(args.variant)
    check_clauses(args.clause)
    check_loadable(variants)
    results = results_directory(args.results)
    print(f"mqspec: strength: the suite against {len(variants)} variants and the reference, {args.jobs} at a time; "
          f"results in {results}", flush=True)
    record = run_strength(variants, results, args.jobs, quick=args.quick, clauses=args.clause,
                          test_timeout=args.test_timeout or TEST_TIMEOUT,
                          progress=lambda line: print("  " + line, flush=True))
    for line in summary_lines(record):
        print("mqspec: " + line)
    print(f"mqspec: table in {results / 'strength.md'} and {results / 'strength.json'}")
    return 0 if not record["survivors"] and not record["errors"] and record["control"]["status"] != "error" else 1


def _mutants(args) -> int:
    from .mutants import run_mutants
    from .run import results_directory
    if args.variant or args.quick or args.clause:
        from .run import StrengthError
        raise StrengthError("--mutants takes none of --variant, --quick and --clause")
    from .mutants import CORE
    unknown = [name for name in args.module if name not in CORE]
    if unknown:
        from .run import StrengthError
        raise StrengthError(f"--module {unknown[0]}: not a module of the core ({', '.join(CORE)})")
    if args.survivors and (args.sample is not None or not args.results):
        from .run import StrengthError
        raise StrengthError("--survivors needs the --results directory of an earlier mutants run, and no --sample")
    return run_mutants(results_directory(args.results), jobs=args.jobs, sample=args.sample, seed=args.seed,
                       test_timeout=args.test_timeout, survivors=args.survivors, modules=tuple(args.module))
