"""Binds every server .feature file under this folder to pytest (pytest-bdd); clients/ binds its own."""

from pytest_bdd import scenarios

scenarios("ms-mqdmpr", "ms-mqmq", "ms-mqqb", "ms-mqrr", "msdn-cursor")
