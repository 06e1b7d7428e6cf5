"""Steps for the transaction scenarios (filled in with the scenarios that use them)."""
