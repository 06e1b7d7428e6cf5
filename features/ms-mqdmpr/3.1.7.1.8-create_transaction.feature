Feature: MS-MQDMPR 3.1.7.1.8 Create Transaction
  A transaction identifier the queue manager meets for the first time, when a client
  enlists it (MS-MQRR 3.1.4.12), becomes a Transaction of its own that a later receive,
  commit or abort can find.

  Background:
    Given a transactional queue "ledger"
    And messages "m1" and "m2" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.7.1.8:01
  Scenario: A transaction created by enlisting it can be committed under its identifier
    Given the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    When in transaction "t", the client starts a receive on "h" as "r"
    Then the call returns MQ_OK
    When transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger" holds "m2"

  @clause:MS-MQDMPR:3.1.7.1.8:01
  Scenario: A transaction created by enlisting it can be aborted under its identifier
    Given the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    When in transaction "t", the client starts a receive on "h" as "r"
    And transaction "t" is aborted
    Then the call returns MQ_OK
    And "ledger" holds "m1" and "m2"

  @clause:MS-MQDMPR:3.1.7.1.8:01
  Scenario: An identifier that was never enlisted names no transaction
    Given an XACTUOW "t" that the queue manager has never seen
    When transaction "t" is committed
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
