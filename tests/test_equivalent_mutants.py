"""strength/equivalent_mutants.py: every explanation still names a line of the reference, and a change to the test of
a two-reading decision's only branch is recognised as choosing its other reading, and a removed @property as
unread when nothing reads it (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqspec.strength.equivalent_mutants import _ENTRIES, _tree, explanation, reading_switch

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


def test_a_change_to_the_only_test_of_a_two_reading_decision_chooses_the_other_reading():
    module = "reference/acknowledgment.py"
    line, column = where(module, 'self.readings["D-28"] == "inert"')
    operator_at = (line, column + len('self.readings["D-28"] '))
    assert "D-28" in reading_switch(ROOT, module, "core/ReplaceComparisonOperator_Eq_NotEq", operator_at)
    assert "D-28" in reading_switch(ROOT, module, "core/AddNot", (line, column))
    assert "D-28" in explanation(module, "core/AddNot", "", "", ROOT, (line, column))


def test_other_changes_near_a_reading_are_not_explained_by_it():
    module = "reference/acknowledgment.py"
    line, column = where(module, "message.is_transactional or self.readings[\"D-26\"]")
    compare = column + len('message.is_transactional or self.readings["D-26"] ')
    # D-26 branches in two places: one flipped alone mixes its readings
    assert reading_switch(ROOT, module, "core/ReplaceComparisonOperator_Eq_NotEq", (line, compare)) == ""
    line, column = where(module, 'self.readings["D-28"] == "inert"')
    # a number or a statement elsewhere on the line is not the test
    assert reading_switch(ROOT, module, "core/NumberReplacer", (line, column)) == ""
    assert reading_switch(ROOT, module, "core/AddNot", (line, column + 1)) == ""


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
