"""pytest plugin of the strength runs: a stateful machine stops at its first failing example.

A strength run asks only whether the suite fails a variant, not for the shortest failing
program: hypothesis' shrink and explain phases (minutes for one failing machine) are left
out by making them absent from the default profile, which the machines' own settings
(steps/machines.py machine_settings) inherit for every option they do not set.  What the
machines generate, and so what they can catch, is unchanged.  Nor does it write the
evidence of each failing scenario (mqspec/evidence.py): a variant fails dozens.  Loaded with
`-p strength.pytest_fast` by strength/run.py only; plain runs of the suite never load it.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

settings.register_profile("mqspec-strength", phases=(Phase.explicit, Phase.reuse, Phase.generate))
settings.load_profile("mqspec-strength")


@pytest.hookimpl(trylast=True)
def pytest_configure(config) -> None:
    if config.pluginmanager.has_plugin("mqspec-evidence"):
        config.pluginmanager.unregister(name="mqspec-evidence")
