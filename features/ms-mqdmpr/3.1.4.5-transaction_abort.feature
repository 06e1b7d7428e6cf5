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

  # a queue deleted meanwhile took its messages with it (3.1.7.1.4); the abort gives back the rest
  @clause:MS-MQDMPR:3.1.4.5:01
  Scenario: A receive whose queue was deleted before the abort does not stop the receives after it
    Given a transactional queue "other"
    And messages "o1" were committed to "other"
    And "other" is opened with RECEIVE_ACCESS as "ho"
    When the client takes the front message of "h" in transaction "t" as "r1"
    And the client takes the front message of "ho" in transaction "t" as "r2"
    And queue "ledger" is deleted
    And transaction "t" is aborted
    Then the call returns MQ_OK
    And "other" holds "o1"

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

  # MS-MQDMPR:3.1.1.12:03 a transactional message is recoverable, so its aborted send must leave the store too
  @clause:MS-MQDMPR:3.1.4.5:02
  Scenario: A message whose send was aborted does not come back after a restart
    When the client sends "n1" to "ledger" in transaction "t"
    And transaction "t" is aborted
    And the queue manager restarts
    Then "ledger" holds "m1", "m2" and "m3"

  # A peek may stop on the uncommitted "x", Locked but allowing peeks (3.1.7.3.2); once the abort takes
  # it away, the cursor resting there still finds what is filed after it, as for any removed message (D-06).
  @clause:MS-MQDMPR:3.1.4.5:02
  Scenario: A cursor resting on a message whose send is aborted moves on to the next message sent
    Given cursor "c" is created on "h"
    When message "x" is sent to "ledger" in transaction "t" with:
      | peek when locked | yes |
    And cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    Then the message returned is "x"
    When transaction "t" is aborted
    And the client begins transaction "u"
    And the client sends "y" to "ledger" in transaction "u"
    And transaction "u" is committed
    And cursor "c" peeks the next message
    Then the message returned is "y"

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
