"""The `mqspec` command line."""

from __future__ import annotations

import argparse
import sys

from . import __version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mqspec", description="MSMQ conformance suite")
    parser.add_argument("--version", action="version", version=f"mqspec {__version__}")
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
