Feature: MSDN Cursor Behavior when Reaching the End of the Queue (END)
  The end of the queue is a place after the last message; a cursor there waits for a
  new message or its time-out, and cannot be moved further.

  Background:
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"

  @clause:MSDN-CURSOR:END:01
  Scenario: A peek at the end holds no message and waits until its time-out runs out
    Given "orders" holds "m1"
    When cursor "c" peeks the current message
    And in the background, cursor "c" peeks at the next message with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MSDN-CURSOR:END:01
  Scenario: A peek at the end waits for a new message
    Given "orders" holds "m1"
    When cursor "c" peeks the current message
    And in the background, cursor "c" peeks at the next message with a time-out of 5000 ms as "r"
    And message "m2" is sent to "orders"
    And the background call "r" completes
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:END:02
  Scenario: A peek-next right after the last message was received through the cursor is refused
    Given "orders" holds "m1", "m2" and "m3"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" receives
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION

  @clause:MSDN-CURSOR:END:02
  Scenario: A second peek-next past the end is refused
    Given "orders" holds "m1"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION

  @clause:MSDN-CURSOR:END:03
  Scenario: A cursor on an empty queue is at the end, and a new message is the next it sees
    When cursor "c" peeks the current message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "m1" is sent to "orders"
    And cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MSDN-CURSOR:END:03
  Scenario: A peek-next past the last message puts the cursor at the end
    Given "orders" holds "m1"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "m2" is sent to "orders"
    And cursor "c" peeks the current message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:END:03
  Scenario: Receiving the last message leaves the cursor at the end
    Given "orders" holds "m1"
    When cursor "c" peeks the current message
    And cursor "c" receives
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "m2" is sent to "orders"
    And cursor "c" peeks the current message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:END:04
  Scenario: A receive waiting at the end is captured by a message inserted before the rest of the queue
    Given "orders" holds "m1" and "m2"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" receives
    And in the background, cursor "c" receives with a time-out of 5000 ms as "r"
    And message "urgent" is sent to "orders" with:
      | priority | 6 |
    And the background call "r" completes
    Then the message returned is "urgent"
    When the client ends "r" with RR_ACK
    And cursor "c" receives
    Then the message returned is "m1"
    And "orders" holds nothing

  @clause:MSDN-CURSOR:END:05 @decision:D-03
  Scenario Outline: A read at the end with a time-out of zero fails at once
    Given "orders" holds "m1"
    When cursor "c" peeks the current message
    And cursor "c" receives
    And <read>
    Then <outcome>

    # MSDN gives MQ_ERROR_IO_TIMEOUT for both; MS-MQDMPR 3.2.7.4 gives a cursor receive
    # that must not wait MQ_ERROR_MESSAGE_NOT_FOUND: D-03 allows either.
    Examples:
      | read                                 | outcome                                                                                |
      | cursor "c" peeks the current message | the call returns MQ_ERROR_IO_TIMEOUT                                                   |
      | cursor "c" receives                  | by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn) |

  @clause:MSDN-CURSOR:END:05
  Scenario Outline: A read waiting at the end fails with MQ_ERROR_IO_TIMEOUT when its time-out runs out
    Given "orders" holds "m1"
    When cursor "c" peeks the current message
    And cursor "c" receives
    And in the background, cursor "c" <read> with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And "orders" holds nothing

    Examples:
      | read                         |
      | peeks at the current message |
      | receives                     |
