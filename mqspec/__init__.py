"""mqspec: an executable specification and conformance suite for MSMQ.

Everything installs under this one name: mqspec.reference, mqspec.protocol, mqspec.adapters, mqspec.steps,
mqspec.features, mqspec.spec, mqspec.reports, mqspec.strength and mqspec.shims.  A checkout keeps those parts as folders at
its top, beside this package's own folder, and pyproject.toml's package-dir maps them into the package when a
wheel is built.  In a checkout (a folder with pyproject.toml and reference/ beside this one) the same mapping
is made here, relative to this file, so that a checkout or a copy of one (mqspec strength takes copies)
imports its own parts and never those of another tree.
"""

from pathlib import Path

__version__ = "0.1.0"

_checkout = Path(__file__).resolve().parent.parent
if (_checkout / "pyproject.toml").is_file() and (_checkout / "reference").is_dir():
    __path__.append(str(_checkout))  # noqa: F821 - a package's own __path__
