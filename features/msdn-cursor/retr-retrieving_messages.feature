Feature: MSDN Cursor Behavior when Retrieving Messages (RETR)
  A receive through a cursor removes the message there and the queue manager moves that
  cursor on for the next peek-current or receive-current; a peek-next there is an error.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"

  @clause:MSDN-CURSOR:RETR:01
  Scenario: Receive-current after receive-current takes the messages in turn
    When cursor "c" peeks the current message
    And cursor "c" receives
    Then the message returned is "m1"
    When cursor "c" receives
    Then the message returned is "m2"
    When cursor "c" receives
    Then the message returned is "m3"
    And "orders" holds nothing

  @clause:MSDN-CURSOR:RETR:01 @clause:MSDN-CURSOR:RETR:04
  Scenario: With the cursor on A, receive-current takes A and the next peek-current shows B
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" receives
    Then the message returned is "m2"
    When cursor "c" peeks the current message
    Then the message returned is "m3"
    And "orders" holds "m1" and "m3"

  @clause:MSDN-CURSOR:RETR:02
  Scenario: A receive through one cursor leaves another cursor on the removed message
    Given cursor "other" is created on "h"
    When cursor "other" peeks the current message
    And cursor "c" peeks the current message
    And cursor "c" receives
    And cursor "other" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "other" peeks the next message
    Then the message returned is "m2"
    When cursor "c" peeks the current message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:RETR:03
  Scenario: A peek-next right after a receive is refused instead of skipping a message
    When cursor "c" peeks the current message
    And cursor "c" receives
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    When cursor "c" peeks the current message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:RETR:03
  Scenario: A receive-current right after a receive is allowed and takes the following message
    When cursor "c" peeks the current message
    And cursor "c" receives
    And cursor "c" receives
    Then the message returned is "m2"
    And "orders" holds "m3"

  @clause:MSDN-CURSOR:RETR:05 @decision:D-03
  Scenario Outline: Once the last message is taken, a read with no time to wait finds the end of the queue
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" receives
    And <read>
    Then <outcome>

    Examples:
      | read                                 | outcome                                                                                |
      | cursor "c" peeks the current message | the call returns MQ_ERROR_IO_TIMEOUT                                                   |
      | cursor "c" receives                  | by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn) |

  @clause:MSDN-CURSOR:RETR:05
  Scenario: Once the last message is taken, the next receive-current waits for a new message
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" receives
    And in the background, cursor "c" receives with a time-out of 5000 ms as "r"
    And message "m4" is sent to "orders"
    And the background call "r" completes
    Then the message returned is "m4"
    When the client ends "r" with RR_ACK
    Then "orders" holds "m1" and "m2"

  @clause:MSDN-CURSOR:RETR:05
  Scenario: Once the last message is taken, a waiting read ends when its time-out runs out
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" receives
    And in the background, cursor "c" peeks at the current message with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MSDN-CURSOR:RETR:06
  Scenario: A message arriving while the cursor waits after the last receive takes it even at the front
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" receives
    And in the background, cursor "c" peeks at the current message with a time-out of 5000 ms as "r"
    And message "urgent" is sent to "orders" with:
      | priority | 6 |
    And the background call "r" completes
    Then the message returned is "urgent"
    When cursor "c" peeks the next message
    Then the message returned is "m1"
