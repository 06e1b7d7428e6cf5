"""pytest plugin of the strength runs: a stateful machine stops at its first failing example.

A strength run asks only whether the suite fails a variant, not for the shortest failing
program: hypothesis' shrink and explain phases (minutes for one failing machine) are left
out by making them absent from the default profile, which the machines' own settings
(steps/machines.py machine_settings) inherit for every option they do not set.  What the
machines generate, and so what they can catch, is unchanged.  Loaded with
`-p strength.pytest_fast` by strength/run.py only; plain runs of the suite never load it.
"""

from __future__ import annotations

from hypothesis import Phase, settings

settings.register_profile("mqspec-strength", phases=(Phase.explicit, Phase.reuse, Phase.generate))
settings.load_profile("mqspec-strength")
