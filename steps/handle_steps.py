"""Steps for the handle scenarios (filled in with the scenarios that use them)."""
