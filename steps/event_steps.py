"""Steps for the event scenarios (filled in with the scenarios that use them)."""
