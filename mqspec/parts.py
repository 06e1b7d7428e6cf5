"""Where the parts of the suite lie, in a checkout and when installed.

A checkout keeps features/, spec/, steps/, reference/ and the others as folders at its top, beside mqspec/;
an installed wheel carries them inside the mqspec package.  Either way each one is the subpackage
mqspec.<part> (see mqspec/__init__.py), so its folder is found by asking the import system, without running it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SUITE_PARTS = ("features", "steps", "spec", "protocol")   # what defines the suite: its version hash covers these
SUITE_FILES = (".py", ".feature", ".toml", ".md")          # ... and of their files, those a wheel carries


def part(name: str) -> Path:
    """The folder of mqspec.<name>."""
    spec = importlib.util.find_spec(f"mqspec.{name}")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"mqspec.{name} is not installed with mqspec")
    return Path(next(iter(spec.submodule_search_locations)))
