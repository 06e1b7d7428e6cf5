Feature: MS-MQDMPR 3.1.4.5 Transaction Abort
  Aborting undoes a transaction: messages it received or moved are free again where
  they were, unless purged or expired meanwhile, and messages it sent never appear.

  Background:
    Given a transactional queue "ledger"
    And a subqueue "hold" of "ledger"
    And a queue "admin"
    And these messages were committed to "ledger":
      | label | acknowledgements | admin queue |
      | m1    | nack receive     | admin       |
      | m2    | nack receive     | admin       |
      | m3    | nack receive     | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger;hold" is opened for move as "to hold"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction

  @clause:MS-MQDMPR:3.1.4.5:01
  Scenario: A message received in the transaction is available again, in its old place
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | LookupId   | ulAction                  |
      | id of "m2" | MQ_LOOKUP_RECEIVE_CURRENT |
    And the client ends transactional "r" with RR_ACK
    Then "ledger" holds "m1" and "m3"
    When transaction "t" is aborted
    Then the call returns MQ_OK
    And "ledger" holds "m1", "m2" and "m3"
    And the acknowledgment classes for "m2" in "admin" are none
    When the client receives from "h"
    And the client receives from "h"
    Then the message returned is "m2"

  @clause:MS-MQDMPR:3.1.4.5:01
  Scenario: A message moved in the transaction is back in its own queue
    When the client moves "m1" from "h" to "to hold" in transaction "t"
    And transaction "t" is aborted
    Then "ledger" holds "m1", "m2" and "m3"
    And "ledger;hold" holds nothing

  @clause:MS-MQDMPR:3.1.4.5:01
  Scenario Outline: A message the queue was purged of meanwhile is deleted, not given back
    When <operation>
    And the client purges the queue behind "h"
    Then "ledger" holds nothing
    When transaction "t" is aborted
    Then the call returns MQ_OK
    And "ledger" holds nothing
    And "ledger;hold" holds nothing
    And the acknowledgment classes for "m1" in "admin" are MQMSG_CLASS_NACK_Q_PURGED

    Examples:
      | operation                                                       |
      | the client takes the front message of "h" in transaction "t" as "r" |
      | the client moves "m1" from "h" to "to hold" in transaction "t"      |

  @clause:MS-MQDMPR:3.1.4.5:01
  Scenario: A message that expired while the transaction held it is deleted, not given back
    Given a transactional queue "short"
    And these messages were committed to "short":
      | label | acknowledgements | admin queue | time to be received |
      | brief | nack receive     | admin       | 2                   |
    And "short" is opened with RECEIVE_ACCESS as "hs"
    When the client starts R_StartTransactionalReceive on "hs" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And 3 seconds pass
    And transaction "t" is aborted
    Then "short" holds nothing
    And the acknowledgment classes for "brief" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT

  @clause:MS-MQDMPR:3.1.4.5:02
  Scenario: Messages sent in the transaction never appear
    When the client sends "n1" and "n2" to "ledger" in transaction "t"
    And transaction "t" is aborted
    Then the call returns MQ_OK
    And "ledger" holds "m1", "m2" and "m3"
    When the client begins transaction "u"
    And the client sends "n3" to "ledger" in transaction "u"
    And transaction "u" is committed
    Then "ledger" holds "m1", "m2", "m3" and "n3"

  @clause:MS-MQDMPR:3.1.4.5:02
  Scenario: A reader waiting on an empty queue is not woken by a send that is aborted
    Given a transactional queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "he"
    And the client enlists transaction "reader" with R_QMEnlistRemoteTransaction
    When the client starts a transactional receive on "he" in transaction "reader" that waits up to INFINITE ms in the background as "w"
    And the client sends "ghost" to "empty" in transaction "t"
    And transaction "t" is aborted
    And the client begins transaction "u"
    And the client sends "real" to "empty" in transaction "u"
    And transaction "u" is committed
    And the background call "w" completes
    Then the message returned is "real"
