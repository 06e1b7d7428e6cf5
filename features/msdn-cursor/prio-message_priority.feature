Feature: MSDN Cursor Behavior and Message Priority (PRIO)
  Messages are kept by priority, highest first, and by arrival within a priority, so a
  new message may land in front of a cursor or behind it.

  Background:
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"

  @clause:MSDN-CURSOR:PRIO:01
  Scenario: New messages are placed by priority, in front of the cursor or behind it
    Given message "a" is sent to "orders" with:
      | priority | 3 |
    And message "b" is sent to "orders" with:
      | priority | 3 |
    When cursor "c" peeks the current message
    And message "high" is sent to "orders" with:
      | priority | 5 |
    And message "low" is sent to "orders" with:
      | priority | 1 |
    Then "orders" holds "high", "a", "b" and "low"
    When cursor "c" peeks the next message
    Then the message returned is "b"
    When cursor "c" peeks the next message
    Then the message returned is "low"

  @clause:MSDN-CURSOR:PRIO:02
  Scenario: A cursor resting on a message never sees a later message of higher priority
    Given message "a" is sent to "orders" with:
      | priority | 3 |
    And message "b" is sent to "orders" with:
      | priority | 3 |
    When cursor "c" peeks the current message
    And message "high" is sent to "orders" with:
      | priority | 5 |
    And cursor "c" peeks the next message
    Then the message returned is "b"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And "orders" holds "high", "a" and "b"

  @clause:MSDN-CURSOR:PRIO:03
  Scenario: Later messages of the same or a lower priority come after the cursor and are seen
    Given message "a" is sent to "orders" with:
      | priority | 3 |
    And message "b" is sent to "orders" with:
      | priority | 3 |
    When cursor "c" peeks the current message
    And message "same" is sent to "orders" with:
      | priority | 3 |
    And message "low" is sent to "orders" with:
      | priority | 0 |
    And cursor "c" peeks the next message
    Then the message returned is "b"
    When cursor "c" peeks the next message
    Then the message returned is "same"
    When cursor "c" peeks the next message
    Then the message returned is "low"

  @clause:MSDN-CURSOR:PRIO:04
  Scenario: A cursor waiting at the end moves to a new message of higher priority at the front
    Given message "a" is sent to "orders" with:
      | priority | 3 |
    When cursor "c" peeks the current message
    And in the background, cursor "c" peeks at the next message with a time-out of 5000 ms as "r"
    And message "high" is sent to "orders" with:
      | priority | 7 |
    And the background call "r" completes
    Then the message returned is "high"
    When cursor "c" peeks the next message
    Then the message returned is "a"

  @clause:MSDN-CURSOR:PRIO:05
  Scenario: Higher priorities come first and equal priorities keep their arrival order
    Given message "x" is sent to "orders" with:
      | priority | 1 |
    And message "y" is sent to "orders" with:
      | priority | 3 |
    And message "z" is sent to "orders" with:
      | priority | 1 |
    And message "w" is sent to "orders" with:
      | priority | 5 |
    And message "v" is sent to "orders" with:
      | priority | 3 |
    Then "orders" holds "w", "y", "v", "x" and "z"

  @clause:MSDN-CURSOR:PRIO:05
  Scenario Outline: The first message of a priority goes after every message of a higher priority
    Given message "queued" is sent to "orders" with:
      | priority | <queued> |
    When message "new" is sent to "orders" with:
      | priority | <new> |
    Then "orders" holds <order>

    Examples:
      | queued | new | order              |
      | 3      | 1   | "queued" and "new" |
      | 0      | 1   | "new" and "queued" |
      | 1      | 1   | "queued" and "new" |
