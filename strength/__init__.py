"""Suite strength: wrong queue managers the conformance suite must reject (issue 9).

A variant is the reference with one small, named change that models a plausible
misreading of one clause (variants.py).  It is built by loading the reference's
sources again under another package name with the change applied (loader.py), so
the reference itself holds no wrong code and every variant is a few lines of data.
A variant is reachable as the target `reference?variant=NAME`; where the open
decisions' readings must pass the suite, these must fail it.
"""
