"""Steps for the pending scenarios (filled in with the scenarios that use them)."""
