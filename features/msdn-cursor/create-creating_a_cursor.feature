Feature: MSDN Cursor Behavior when Creating a Cursor (CREATE)
  A new cursor rests before the first message; a peek-current places it on the first
  message, while a peek-next has nothing to move from and is refused.

  Background:
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MSDN-CURSOR:CREATE:01
  Scenario: The first peek-current through a new cursor returns the first message
    Given "orders" holds "m1", "m2" and "m3"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    Then the message returned is "m1"
    When cursor "c" peeks the current message
    Then the message returned is "m1"
    And "orders" holds "m1", "m2" and "m3"

  @clause:MSDN-CURSOR:CREATE:01
  Scenario: A cursor created after the front message left starts at the new front
    Given "orders" holds "m1", "m2" and "m3"
    When the client receives from "h"
    And cursor "c" is created on "h"
    And cursor "c" peeks the current message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:CREATE:02
  Scenario: On an empty queue the first peek-current with no time to wait times out
    Given cursor "c" is created on "h"
    When cursor "c" peeks the current message
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MSDN-CURSOR:CREATE:02
  Scenario: On an empty queue the first peek-current waits for the first message to arrive
    Given cursor "c" is created on "h"
    When in the background, cursor "c" peeks at the current message with a time-out of 5000 ms as "r"
    And message "m1" is sent to "orders"
    And the background call "r" completes
    Then the message returned is "m1"
    When cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MSDN-CURSOR:CREATE:02
  Scenario: On an empty queue the first peek-current gives up when its time-out ends
    Given cursor "c" is created on "h"
    When in the background, cursor "c" peeks at the current message with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MSDN-CURSOR:CREATE:03
  Scenario: A peek-next through a new cursor is refused and does not skip the first message
    Given "orders" holds "m1", "m2" and "m3"
    And cursor "c" is created on "h"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    When cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MSDN-CURSOR:CREATE:04
  Scenario: A receive through a new cursor takes the first message
    Given "orders" holds "m1", "m2" and "m3"
    And cursor "c" is created on "h"
    When cursor "c" receives
    Then the message returned is "m1"
    And "orders" holds "m2" and "m3"
    When cursor "c" peeks the current message
    Then the message returned is "m2"
