Feature: MS-MQDMPR 3.1.3 Initialization
  Starting the queue manager gives it its system queues and ends every transaction
  that was not prepared for a two-phase commit, as an abort would end it.

  @clause:MS-MQDMPR:3.1.3:01
  Scenario Outline: The system queues exist from the start
    When "<queue>" is opened with PEEK_ACCESS as "s"
    Then the call returns MQ_OK
    When "<queue>" is opened with RECEIVE_ACCESS as "r"
    Then the call returns MQ_OK

    Examples:
      | queue                               |
      | the dead-letter queue               |
      | the transactional dead-letter queue |
      | the system journal                  |

  # MS-MQDMPR:3.1.3:01 the transactional dead-letter queue keeps transactional messages, so a transaction reads it
  @clause:MS-MQDMPR:3.1.3:01
  Scenario: The transactional dead-letter queue can be received from inside a transaction
    Given a transactional queue "orders"
    And these messages were committed to "orders":
      | label | time to be received | dead letter |
      | m     | 10                  | yes         |
    And 11 seconds pass
    And "the transactional dead-letter queue" is opened with RECEIVE_ACCESS as "dlq"
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "dlq" as "r"
    Then the message returned is "m"

  @clause:MS-MQDMPR:3.1.3:01
  Scenario Outline: The system queues exist again after a restart
    When the queue manager restarts
    And "<queue>" is opened with PEEK_ACCESS as "s"
    Then the call returns MQ_OK

    Examples:
      | queue                               |
      | the dead-letter queue               |
      | the transactional dead-letter queue |
      | the system journal                  |

  @clause:MS-MQDMPR:3.1.3:02
  Scenario Outline: A transaction that was not prepared is aborted when the queue manager starts
    Given a transactional queue "ledger"
    And a subqueue "hold" of "ledger"
    And messages "m1", "m2" and "m3" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger;hold" is opened for move as "to hold"
    And <creation>
    And the client sends "new" to "ledger" in transaction "t"
    And the client moves "m3" from "h" to "to hold" in transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    Then "ledger" holds "m2"
    When the queue manager restarts
    Then "ledger" holds "m1", "m2" and "m3"
    And "ledger;hold" holds nothing
    When transaction "t" is committed
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    And "ledger" holds "m1", "m2" and "m3"

    Examples:
      | creation                          |
      | the client begins transaction "t" |

  @clause:MS-MQDMPR:3.1.3:02 @decision:D-23
  Scenario: A transaction enlisted with R_QMEnlistRemoteTransaction is aborted at start, or left to its coordinator
    Given a transactional queue "ledger"
    And a subqueue "hold" of "ledger"
    And messages "m1", "m2" and "m3" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger;hold" is opened for move as "to hold"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    And the client sends "new" to "ledger" in transaction "t"
    And the client moves "m3" from "h" to "to hold" in transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    Then "ledger" holds "m2"
    When the queue manager restarts
    Then by D-23 "ledger" holds "m1", "m2" and "m3" (abort-unprepared) or "m2" (keep-enlisted)
    And "ledger;hold" holds nothing
    When transaction "t" is committed
    Then by D-23 the call returns MQ_ERROR_TRANSACTION_SEQUENCE (abort-unprepared) or MQ_OK (keep-enlisted)
    And by D-23 "ledger" holds "m1", "m2" and "m3" (abort-unprepared) or "m2" and "new" (keep-enlisted)
    And by D-23 "ledger;hold" holds nothing (abort-unprepared) or "m3" (keep-enlisted)

  @clause:MS-MQDMPR:3.1.3:02
  Scenario: A prepared transaction is not aborted when the queue manager starts
    Given a transactional queue "ledger"
    And messages "m1" were committed to "ledger"
    And the client begins transaction "t"
    And the client sends "new" to "ledger" in transaction "t"
    And transaction "t" is prepared
    When the queue manager restarts
    Then "ledger" holds "m1"
    When transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger" holds "m1" and "new"
