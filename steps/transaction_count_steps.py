"""Steps that run many transactions, for what only shows after thousands of them.

    Given the client has begun and committed 5000 transactions that sent nothing

A TransactionHeader's ID has 20 bits and the TxSequenceID's Ordinal 32 (MS-MQMQ 2.2.20.5, 2.2.18.1.2), so a
queue manager has room for about a million transactions before either field must wrap; a few thousand
empty transactions show a numbering that outgrows its field far sooner.
"""

from __future__ import annotations

from pytest_bdd import given

from mqspec.protocol.hresult import HRESULT, describe

from .phrases import phrase


@given(phrase("the client has begun and committed {count:d} transactions that sent nothing"))
def many_empty_transactions(world, count):
    for number in range(1, count + 1):
        status = world.target.commit_transaction(world.target.begin_transaction())
        assert status == HRESULT.MQ_OK, f"committing empty transaction {number} of {count} returned {describe(status)}"
