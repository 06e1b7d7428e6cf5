"""Steps for the cursor scenarios of the MSDN pages (filled in with the scenarios that use them)."""
