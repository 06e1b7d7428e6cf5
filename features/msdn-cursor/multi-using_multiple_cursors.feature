Feature: MSDN Cursor Behavior when Using Multiple Cursors (MULTI)
  Cursors on one queue move independently; a transaction that aborts does not take a
  cursor back, and a cursor whose message another cursor took can still move on.

  Background:
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MSDN-CURSOR:MULTI:01
  Scenario: Reading through one cursor does not move another
    Given "orders" holds "m1", "m2" and "m3"
    And cursor "c1" is created on "h"
    And cursor "c2" is created on "h"
    When cursor "c1" peeks the current message
    And cursor "c1" peeks the next message
    And cursor "c1" peeks the next message
    And cursor "c2" peeks the current message
    And cursor "c2" peeks the next message
    And cursor "c2" receives
    Then the message returned is "m2"
    When cursor "c1" peeks the current message
    Then the message returned is "m3"

  @clause:MSDN-CURSOR:MULTI:02
  Scenario: A cursor stays past a message whose transactional receive was aborted
    Given a transactional queue "ledger"
    And messages "A" and "B" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And cursor "c" is created on "l"
    And the client begins transaction "t"
    When cursor "c" peeks the current message
    And cursor "c" receives in transaction "t"
    Then the message returned is "A"
    When transaction "t" is aborted
    Then "ledger" holds "A" and "B"
    When cursor "c" peeks the current message
    Then the message returned is "B"

  @clause:MSDN-CURSOR:MULTI:04
  Scenario: A cursor whose message another cursor took cannot read there but can move on
    Given "orders" holds "m1", "m2", "m3" and "m4"
    And cursor "c1" is created on "h"
    And cursor "c2" is created on "h"
    When cursor "c2" peeks the current message
    And cursor "c2" peeks the next message
    And cursor "c2" peeks the next message
    Then the message returned is "m3"
    When cursor "c1" receives
    And cursor "c1" receives
    And cursor "c1" receives
    Then the message returned is "m3"
    When cursor "c2" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c2" receives
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c2" peeks the next message
    Then the message returned is "m4"

  # D-06: a removed message keeps its place while any cursor rests there, so a message filed after that
  # place later ("n" at priority 3, between "x" at 5 and "y" at 1) is the next one from it, even after
  # the cursor that took the message has moved on.
  @clause:MSDN-CURSOR:MULTI:04
  Scenario: A cursor whose message another cursor took moves on to a message filed after it later
    Given message "x" is sent to "orders" with:
      | priority | 5 |
    And message "y" is sent to "orders" with:
      | priority | 1 |
    And cursor "c1" is created on "h"
    And cursor "c2" is created on "h"
    When cursor "c1" peeks the current message
    And cursor "c2" receives
    Then the message returned is "x"
    When cursor "c2" receives
    Then the message returned is "y"
    When message "n" is sent to "orders" with:
      | priority | 3 |
    And cursor "c1" peeks the next message
    Then the message returned is "n"
