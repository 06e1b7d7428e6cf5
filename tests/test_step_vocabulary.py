"""The step vocabulary is unambiguous: every step of every scenario matches one definition.

pytest-bdd picks one of several matching definitions without a word, so a broad
sentence can silently run instead of the one a scenario meant.  This test renders
every scenario (outlines with each Examples row) and counts the matches; a data
table under a step whose definition takes none would be dropped silently, so it
counts as a problem too.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

from pytest_bdd.feature import get_features
from pytest_bdd.steps import step_function_context_registry

from mqspec import pytest_plugin

ROOT = Path(__file__).resolve().parent.parent


def _definitions():
    for module in pytest_plugin.pytest_plugins:
        importlib.import_module(module)
    return list(step_function_context_registry.values())


def _parameters(definition) -> set[str]:
    return set(inspect.signature(definition.step_func).parameters)


def test_every_step_matches_exactly_one_definition():
    definitions = _definitions()
    problems, seen = [], set()
    features = get_features(sorted(str(path) for path in (ROOT / "features").rglob("*.feature")))
    for feature in features:
        for template in feature.scenarios.values():
            contexts = [row for examples in template.examples for row in examples.as_contexts()] or [{}]
            for context in contexts:
                for step in template.render(context).steps:
                    key = (step.type, step.name)
                    if key in seen:
                        continue
                    seen.add(key)
                    hits = [d for d in definitions
                            if d.type in (None, step.type) and d.parser.is_matching(step.name)]
                    where = f"{Path(feature.filename).relative_to(ROOT)}: {step.type} {step.name!r}"
                    if len(hits) != 1:
                        names = ", ".join(f"{d.step_func.__module__}.{d.step_func.__name__}" for d in hits)
                        problems.append(f"{where} matches {len(hits)}: {names or 'nothing'}")
                    elif step.datatable is not None and "datatable" not in _parameters(hits[0]):
                        # a table under a step that takes none is ignored without a word (Examples rows cut off)
                        problems.append(f"{where} has a data table its definition never reads")
    assert len(seen) > 500, "the features seem to be missing"
    assert not problems, "\n".join(problems[:30])
