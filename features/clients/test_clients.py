"""Binds every client .feature file under this folder to pytest (pytest-bdd)."""

from pytest_bdd import scenarios

scenarios(".")
