Feature: MS-MQDMPR 3.1.7.1.8 Create Transaction
  A transaction identifier the queue manager meets for the first time, in a transactional
  receive, becomes a Transaction of its own that a later commit or abort can find.

  Background:
    Given a transactional queue "ledger"
    And messages "m1" and "m2" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And an XACTUOW "t" that the queue manager has never seen

  @clause:MS-MQDMPR:3.1.7.1.8:01
  Scenario: A transaction created by a transactional receive can be committed under its identifier
    When in transaction "t", the client starts a receive on "h" as "r"
    Then the call returns MQ_OK
    When transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger" holds "m2"

  @clause:MS-MQDMPR:3.1.7.1.8:01
  Scenario: A transaction created by a transactional receive can be aborted under its identifier
    When in transaction "t", the client starts a receive on "h" as "r"
    And transaction "t" is aborted
    Then the call returns MQ_OK
    And "ledger" holds "m1" and "m2"

  @clause:MS-MQDMPR:3.1.7.1.8:01
  Scenario: An identifier that no receive used names no transaction
    When transaction "t" is committed
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
