"""Step sentences with strict fields, so that no two steps can claim the same text.

`phrase('a queue "{alias}" with a quota of {kilobytes:d} KB')` matches the whole
step text; a quoted field never spans a quote, `{x:d}` is a number (given to the
step as an int) and other typed fields take the pattern given by keyword, e.g.
`phrase('transaction "{tx}" is {outcome}', outcome="committed|aborted")`.
"""

from __future__ import annotations

import re

from pytest_bdd import parsers
from pytest_bdd.parsers import StepParser

FIELD = re.compile(r'"\{(\w+)\}"|\{(\w+)(?::(\w+))?\}')


class phrase(StepParser):
    def __init__(self, template: str, **patterns: str) -> None:
        super().__init__(template)
        self.numbers: set[str] = set()
        parts, last = ["^"], 0
        for match in FIELD.finditer(template):
            parts.append(re.escape(template[last:match.start()]))
            quoted, name, kind = match.group(1), match.group(2), match.group(3)
            if quoted:
                parts.append(f'"(?P<{quoted}>[^"]*)"')
            elif kind == "d":
                self.numbers.add(name)
                parts.append(rf"(?P<{name}>\d+)")
            else:
                parts.append(f"(?P<{name}>{patterns.get(name, '.+?')})")
            last = match.end()
        parts.append(re.escape(template[last:]) + "$")
        self.regex = re.compile("".join(parts))

    def parse_arguments(self, name: str):
        match = self.regex.match(name)
        if match is None:
            return None
        return {key: int(value) if key in self.numbers else value for key, value in match.groupdict().items()}

    def is_matching(self, name: str) -> bool:
        return self.regex.match(name) is not None


LABELS = r'"[^"]*"(?:(?:, | and )"[^"]*")*|nothing|no messages'  # "m1", "m2" and "m3"


QUOTED = r'"(?P<{}>[^"]*)"'  # a quoted argument that cannot run past its closing quote


def named(pattern: str):
    """A full-match regular expression where `{name}` stands for a quoted argument called name."""
    return parsers.re(re.sub(r"\{([a-z_]+)\}", lambda match: QUOTED.format(match.group(1)), pattern))
