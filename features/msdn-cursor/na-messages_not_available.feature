Feature: MSDN Cursor Behavior When Messages are Not Available (NA)
  A cursor marks a place, and the message there can go away or be locked; reading at
  such a cursor fails with MQ_ERROR_MESSAGE_ALREADY_RECEIVED, or with a queue error.

  Background:
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders" is opened with RECEIVE_ACCESS as "h2"
    And cursor "c" is created on "h"
    And cursor "other" is created on "h"

  @clause:MSDN-CURSOR:NA:01
  Scenario Outline: The message under the cursor was received through <by>
    Given "orders" holds "m1" and "m2"
    When cursor "c" peeks the current message
    And cursor "other" peeks the current message
    And <removal>
    And cursor "c" <read>
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    And "orders" holds "m2"

    Examples:
      | by                                | removal                       | read                      |
      | another cursor of the same handle | cursor "other" receives       | peeks the current message |
      | another cursor of the same handle | cursor "other" receives       | receives                  |
      | another handle                    | the client receives from "h2" | peeks the current message |
      | another handle                    | the client receives from "h2" | receives                  |

  @clause:MSDN-CURSOR:NA:02
  Scenario: The message under the cursor expired
    Given message "m1" is sent to "orders" with:
      | time to be received | 5 |
    And "orders" holds "m2"
    When cursor "c" peeks the current message
    And 6 seconds pass
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c" receives
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c" peeks the next message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:NA:02
  Scenario: The message under the cursor was purged
    Given "orders" holds "m1" and "m2"
    When cursor "c" peeks the current message
    And the client purges the queue through "h2"
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c" receives
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED

  @clause:MSDN-CURSOR:NA:03
  Scenario Outline: After the queue was deleted, reads through the cursor find no queue
    Given "orders" holds "m1" and "m2"
    When cursor "c" peeks the current message
    And queue "orders" is deleted
    And cursor "c" <read>
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE

    Examples:
      | read                      |
      | peeks the current message |
      | peeks the next message    |
      | receives                  |

  @clause:MSDN-CURSOR:NA:03 @decision:D-13
  Scenario: A read waiting through the cursor ends when the queue is deleted, at once or at its time-out
    When in the background, cursor "c" peeks at the current message with a time-out of 5000 ms as "r"
    And queue "orders" is deleted
    Then by D-13 the background call "r" ends with MQ_ERROR_QUEUE_DELETED (queue-deleted) or MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available) at once, or with MQ_ERROR_IO_TIMEOUT when its 5000 ms have passed (times-out)
    When cursor "c" peeks the current message
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE

  @clause:MSDN-CURSOR:NA:04
  Scenario: The message under the cursor is locked by a two-phase receive, and free again after RR_NACK
    Given "orders" holds "m1" and "m2"
    When cursor "c" peeks the current message
    And the client starts a receive on "h2" as "r"
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c" receives
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When the client ends "r" with RR_NACK
    And cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MSDN-CURSOR:NA:04
  Scenario: The message under the cursor is locked by another transaction
    Given a transactional queue "ledger"
    And messages "A" and "B" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l1"
    And "ledger" is opened with RECEIVE_ACCESS as "l2"
    And cursor "mine" is created on "l1"
    And cursor "theirs" is created on "l2"
    And the client begins transaction "t"
    When cursor "mine" peeks the current message
    And cursor "theirs" receives in transaction "t"
    And cursor "mine" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "mine" receives
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When transaction "t" is aborted
    And cursor "mine" peeks the current message
    Then the message returned is "A"
