Feature: MSDN Cursor Behavior when Peeking at Messages (PEEK)
  Peek-current reads the message under the cursor and leaves both where they are;
  peek-next moves the cursor on by one; at the end of the queue a peek waits.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"

  @clause:MSDN-CURSOR:PEEK:01
  Scenario: Peek-current neither removes the message nor moves the cursor
    When cursor "c" peeks the current message
    And cursor "c" peeks the current message
    Then the message returned is "m1"
    And "orders" holds "m1", "m2" and "m3"
    When cursor "c" peeks the next message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:PEEK:02
  Scenario: Each peek-next moves one message further and removes nothing
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    Then the message returned is "m2"
    When cursor "c" peeks the current message
    Then the message returned is "m2"
    When cursor "c" peeks the next message
    Then the message returned is "m3"
    And "orders" holds "m1", "m2" and "m3"

  @clause:MSDN-CURSOR:PEEK:03
  Scenario: A peek-next past the last message with no time to wait times out
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MSDN-CURSOR:PEEK:03
  Scenario: A peek-next past the last message waits for the next one to arrive
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And in the background, cursor "c" peeks at the next message with a time-out of 5000 ms as "r"
    And message "m4" is sent to "orders"
    And the background call "r" completes
    Then the message returned is "m4"
    When cursor "c" peeks the current message
    Then the message returned is "m4"

  @clause:MSDN-CURSOR:PEEK:04 @clause:MSDN-CURSOR:PRIO:04
  Scenario: A message that arrives during the wait takes the cursor wherever its priority puts it
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And in the background, cursor "c" peeks at the next message with a time-out of 5000 ms as "r"
    And message "urgent" is sent to "orders" with:
      | priority | 6 |
    And the background call "r" completes
    Then the message returned is "urgent"
    And "orders" holds "urgent", "m1", "m2" and "m3"
    When cursor "c" peeks the next message
    Then the message returned is "m1"
