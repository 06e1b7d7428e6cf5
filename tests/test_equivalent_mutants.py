"""strength/equivalent_mutants.py: every explanation still names a line of the reference, and a change to the test of
a two-reading decision's only branch is recognised as choosing its other reading, and a removed @property as
unread when nothing reads it (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqspec.strength.equivalent_mutants import _ENTRIES, _tree, explanation, reading_test

ROOT = Path(__file__).resolve().parents[1]


def where(module: str, text: str) -> tuple[int, int]:
    for number, line in enumerate((ROOT / module).read_text(encoding="utf-8").splitlines(), start=1):
        if text in line:
            return number, line.index(text)
    raise AssertionError(f"{text!r} is not in {module}")


@pytest.mark.parametrize("module, line", sorted({(module, line) for module, _, line, _, _ in _ENTRIES}))
def test_every_explanation_names_a_line_the_reference_still_has(module, line):
    lines = {text.strip() for text in (ROOT / module).read_text(encoding="utf-8").splitlines()}
    assert line in lines, f"{module} no longer has `{line}`: the explanation has lapsed, remove it"


def test_a_reading_test_that_holds_for_the_same_readings_is_explained():
    module = "reference/mqqb_session.py"
    line, column = where(module, 'self.qm.readings["D-88"] == "answer"')
    at = (line, column + len('self.qm.readings["D-88"] '))
    # D-88's readings are close and answer: <= "answer" holds for answer alone, as == does
    assert "D-88" in reading_test(ROOT, module, "core/ReplaceComparisonOperator_Eq_LtE", at)
    assert "D-88" in explanation(module, "core/ReplaceComparisonOperator_Eq_LtE", "", "", ROOT, at)


def test_a_reading_test_that_takes_another_reading_is_not_explained():
    module = "reference/mqqb_session.py"
    line, column = where(module, 'self.qm.readings["D-88"] == "answer"')
    at = (line, column + len('self.qm.readings["D-88"] '))
    # >= "answer" holds for close too: the reference would take another reading, which --profile reference fails
    assert reading_test(ROOT, module, "core/ReplaceComparisonOperator_Eq_GtE", at) == ""
    assert reading_test(ROOT, module, "core/ReplaceComparisonOperator_Eq_NotEq", at) == ""
    assert reading_test(ROOT, module, "core/NumberReplacer", at) == ""   # not a comparison change
    assert reading_test(ROOT, module, "core/ReplaceComparisonOperator_Eq_LtE", (line, 0)) == ""   # not the test


def test_a_removed_property_decorator_is_explained_only_when_nothing_reads_the_attribute(tmp_path):
    (tmp_path / "reference").mkdir()
    (tmp_path / "adapters").mkdir()
    (tmp_path / "reference" / "model.py").write_text(
        "class Queue:\n    @property\n    def active(self):\n        return True\n\n"
        "    @property\n    def size(self):\n        return 0\n", encoding="utf-8")
    (tmp_path / "reference" / "user.py").write_text("def f(queue):\n    return queue.size\n", encoding="utf-8")
    (tmp_path / "adapters" / "in_process.py").write_text("x = 1\n", encoding="utf-8")
    unread = explanation("reference/model.py", "core/RemoveDecorator", "@property", "", tmp_path, (2, 4))
    assert "nothing reads .active" in unread
    assert explanation("reference/model.py", "core/RemoveDecorator", "@property", "", tmp_path, (6, 4)) == ""
    assert explanation("reference/model.py", "core/NumberReplacer", "@property", "", tmp_path, (2, 4)) == ""
    (tmp_path / "adapters" / "in_process.py").write_text("def g(q):\n    return q.active\n", encoding="utf-8")
    _tree.cache_clear()
    assert explanation("reference/model.py", "core/RemoveDecorator", "@property", "", tmp_path, (2, 4)) == ""
