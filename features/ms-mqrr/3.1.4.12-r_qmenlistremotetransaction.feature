Feature: MS-MQRR 3.1.4.12 R_QMEnlistRemoteTransaction (Opnum 12)
  R_QMEnlistRemoteTransaction makes a client's transaction known to the queue
  manager, so that later moves and transactional receives can name it.

  Background:
    Given a transactional queue "ledger"
    And a subqueue "hold" of "ledger"
    And messages "m1" and "m2" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger;hold" is opened for move as "to hold"

  @clause:MS-MQRR:3.1.4.12:05
  Scenario: An enlisted transaction can be named by R_MoveMessage and then committed
    When the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    Then the call returns MQ_OK
    When the client moves "m1" from "h" to "to hold" in transaction "t"
    Then the call returns MQ_OK
    When transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger;hold" holds "m1"

  @clause:MS-MQRR:3.1.4.12:05
  Scenario: Without the enlistment R_MoveMessage does not know the transaction
    Given an XACTUOW "t" that the queue manager has never seen
    When the client moves "m1" from "h" to "to hold" in transaction "t"
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    When transaction "t" is committed
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE

  @clause:MS-MQRR:3.1.4.12:05
  Scenario: Enlisting the same transaction twice keeps one transaction
    When the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    Then the call returns MQ_OK
    When the client moves "m1" from "h" to "to hold" in transaction "t"
    And transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger;hold" holds "m1"
    When transaction "t" is committed
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE

  # D-40: nothing in 3.1.4.12 singles out the all-zero XACTUOW; a server may refuse it or enlist it
  @clause:MS-MQRR:3.1.4.12:05 @decision:D-40
  Scenario: An all-zero transaction identifier is refused as invalid, or enlisted like any other
    When the client enlists the all-zero XACTUOW with R_QMEnlistRemoteTransaction
    Then by D-40 the call returns MQ_ERROR_INVALID_PARAMETER (refuse-zero) or MQ_OK (accept-zero)

  @clause:MS-MQRR:3.1.4.12:06
  Scenario Outline: The queue named in pQueueFormat does not matter
    Given a queue "plain"
    When the client enlists transaction "t" with R_QMEnlistRemoteTransaction and pQueueFormat <queue>
    Then the call returns MQ_OK
    When the client moves "m1" from "h" to "to hold" in transaction "t"
    Then the call returns MQ_OK
    When transaction "t" is committed
    Then "ledger;hold" holds "m1"

    Examples:
      | queue     |
      | NULL      |
      | "ledger"  |
      | "plain"   |
      | of a queue that does not exist |
