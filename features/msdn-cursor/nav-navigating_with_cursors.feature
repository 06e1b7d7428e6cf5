Feature: MSDN Navigating with Cursors (NAV)
  A cursor is a bookmark in one queue that lets a reader walk from the front towards the
  end; without one only the front message can be read, and cursors never share a place.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MSDN-CURSOR:NAV:01
  Scenario: A cursor walks the queue from the front, one message at a time
    Given cursor "c" is created on "h"
    When cursor "c" peeks the current message
    Then the message returned is "m1"
    When cursor "c" peeks the next message
    Then the message returned is "m2"
    When cursor "c" peeks the next message
    Then the message returned is "m3"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And "orders" holds "m1", "m2" and "m3"

  @clause:MSDN-CURSOR:NAV:01
  Scenario: A cursor keeps its place when the message there is taken by another reader
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client receives from "h2"
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c" peeks the next message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:NAV:02
  Scenario: Without a cursor a peek always sees the front message
    When the client peeks at "h"
    Then the message returned is "m1"
    When the client peeks at "h"
    Then the message returned is "m1"
    When the client receives from "h"
    And the client peeks at "h"
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:NAV:02
  Scenario: Without a cursor there is no way to peek at the next message
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction            | ulTimeout |
      | 0        | 0       | MQ_ACTION_PEEK_NEXT | 0         |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

  @clause:MSDN-CURSOR:NAV:03 @clause:MSDN-CURSOR:MULTI:01
  Scenario: Cursors of one handle and of another handle each keep their own place
    Given "orders" is opened with PEEK_ACCESS as "other application"
    And cursor "c1" is created on "h"
    And cursor "c2" is created on "h"
    And cursor "c3" is created on "other application"
    When cursor "c1" peeks the current message
    And cursor "c1" peeks the next message
    And cursor "c1" peeks the next message
    And cursor "c3" peeks the current message
    And cursor "c3" peeks the next message
    And cursor "c2" peeks the current message
    Then the message returned is "m1"
    When cursor "c1" peeks the current message
    Then the message returned is "m3"
    When cursor "c3" peeks the current message
    Then the message returned is "m2"

  @clause:MSDN-CURSOR:NAV:03
  Scenario: Many cursors may be open on one queue at once
    Given cursor "c1" is created on "h"
    And cursor "c2" is created on "h"
    And cursor "c3" is created on "h"
    And cursor "c4" is created on "h"
    When cursor "c4" peeks the current message
    And cursor "c4" peeks the next message
    And cursor "c1" peeks the current message
    Then the message returned is "m1"
    When cursor "c4" peeks the current message
    Then the message returned is "m2"
