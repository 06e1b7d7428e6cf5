Feature: MSDN Cursor Behavior Due to Errors (ERR)
  A failed read never sends a cursor back to the start; a failure to read the message
  at the cursor leaves the cursor there, while a peek-next moves it even when cut short.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"

  # D-49: the receive through a peeking handle is refused (check), or takes "m2" (no-check), after which the
  # cursor's current message is the next one still there
  @clause:MSDN-CURSOR:ERR:01 @clause:MSDN-CURSOR:ERR:02 @decision:D-49
  Scenario: A refused receive leaves the cursor on its message
    Given "orders" is opened with PEEK_ACCESS as "p"
    And cursor "pc" is created on "p"
    When cursor "pc" peeks the current message
    And cursor "pc" peeks the next message
    And cursor "pc" receives
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    When cursor "pc" peeks the current message
    Then by D-49 the message returned is "m2" (check) or "m3" (no-check)

  @clause:MSDN-CURSOR:ERR:01
  Scenario: A refused peek-next after a receive does not send the cursor back to the start
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" receives
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    When cursor "c" peeks the current message
    Then the message returned is "m3"

  @clause:MSDN-CURSOR:ERR:01
  Scenario: A time-out at the end does not send the cursor back to the start
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When cursor "c" peeks the current message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "m4" is sent to "orders"
    And cursor "c" peeks the current message
    Then the message returned is "m4"

  @clause:MSDN-CURSOR:ERR:02
  Scenario: Failing to read a message that is gone leaves the cursor at its place
    Given cursor "other" is created on "h"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "other" peeks the current message
    And cursor "other" peeks the next message
    And cursor "other" receives
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When cursor "c" peeks the next message
    Then the message returned is "m3"

  @clause:MSDN-CURSOR:ERR:03
  Scenario: A peek-next that cannot hand over the whole body still moves the cursor
    Given a queue "bodies"
    And message "b1" is sent to "bodies" with:
      | body size | 200 |
    And message "b2" is sent to "bodies" with:
      | body size | 200 |
    And "bodies" is opened with RECEIVE_ACCESS as "hb"
    And cursor "cb" is created on "hb"
    When cursor "cb" peeks the current message
    And R_StartReceive is called on "hb" with:
      | hCursor | ulAction            | dwMaxBodySize | dwMaxCompoundMessageSize |
      | cb      | MQ_ACTION_PEEK_NEXT | 16            | 16                       |
    Then the message returned is "b2"
    When cursor "cb" peeks the current message
    Then the message returned is "b2"

  # a cursor is never valid with a handle of another queue, whatever the reading of D-48
  @clause:MSDN-CURSOR:ERR:04
  Scenario: Using the cursor through a handle of another queue fails and leaves it alone
    Given a queue "elsewhere"
    And "elsewhere" holds "e1"
    And "elsewhere" is opened with RECEIVE_ACCESS as "h2"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And R_StartReceive is called on "h2" with:
      | hCursor | ulAction            |
      | c       | MQ_ACTION_PEEK_NEXT |
    Then the call returns STATUS_INVALID_HANDLE
    When R_StartReceive is called on "h2" with:
      | hCursor | ulAction          |
      | c       | MQ_ACTION_RECEIVE |
    Then the call returns STATUS_INVALID_HANDLE
    And "orders" holds "m1", "m2" and "m3"
    And "elsewhere" holds "e1"
    When cursor "c" peeks the current message
    Then the message returned is "m2"

  # D-48: MS-MQRR 3.1.4.7 finds the cursor among all of the queue manager's; through another handle of its
  # own queue the call fails and leaves the cursor alone (own-handle), or moves it as its own handle would
  @clause:MSDN-CURSOR:ERR:04 @decision:D-48
  Scenario: Using the cursor through another handle of its queue fails and leaves it alone, or moves it
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And R_StartReceive is called on "h2" with:
      | hCursor | ulAction            |
      | c       | MQ_ACTION_PEEK_NEXT |
    Then by D-48 the message returned is "m3" (qm-wide) or the call fails (own-handle)
    And where D-48 is own-handle, the call returns STATUS_INVALID_HANDLE
    When cursor "c" peeks the current message
    Then by D-48 the message returned is "m2" (own-handle) or "m3" (qm-wide)
    And "orders" holds "m1", "m2" and "m3"

  # D-44: MS-MQRR 3.1.4.7 asks only for "a failure HRESULT" for a queue handle it does not find
  @clause:MSDN-CURSOR:ERR:04 @decision:D-44
  Scenario: Using the cursor through a handle the server never issued fails and leaves it alone
    Given a queue handle "forged" that the server never issued
    When cursor "c" peeks the current message
    And R_StartReceive is called on "forged" with:
      | hCursor | ulAction            |
      | c       | MQ_ACTION_PEEK_NEXT |
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    When cursor "c" peeks the current message
    Then the message returned is "m1"

  # Over MS-MQRR the buffer check is the client's: a client that cannot hand the message over whole
  # ends the receive with RR_NACK (MS-MQRR 3.2.4.4.1), so "not removed" is the server's answer to that.
  # Where a cursor that received stands afterwards is MS-MQDMPR 3.2's (Unread), not this clause's.
  @clause:MSDN-CURSOR:ERR:05
  Scenario Outline: A receive whose body did not fit, ended with RR_NACK, removes nothing (<through>)
    Given a queue "bodies"
    And message "b1" is sent to "bodies" with:
      | body size | 200 |
    And message "b2" is sent to "bodies" with:
      | body size | 200 |
    And "bodies" is opened with RECEIVE_ACCESS as "hb"
    And cursor "cb" is created on "hb"
    When cursor "cb" peeks the current message
    And R_StartReceive is called on "hb" with:
      | hCursor  | ulAction          | dwRequestId | dwMaxBodySize | dwMaxCompoundMessageSize |
      | <cursor> | MQ_ACTION_RECEIVE | 7           | 16            | 16                       |
    Then the message returned is "b1"
    And the message came back in 2 sections
    When the client ends request id 7 on "hb" with RR_NACK
    Then the call returns MQ_OK
    And "bodies" holds "b1" and "b2"
    When the client receives from "hb"
    Then the message returned is "b1"
    And "bodies" holds "b2"

    Examples:
      | through    | cursor |
      | no cursor  | 0      |
      | the cursor | cb     |
