Feature: MS-MQRR 3.1.4.4 R_CreateCursor (Opnum 4)
  R_CreateCursor makes a cursor on the queue behind an open handle and hands back its
  handle, which later receives and peeks use to walk the queue.

  Background:
    Given a queue "orders"
    And "orders" holds "m1" and "m2"
    And "orders" is opened with PEEK_ACCESS as "h"

  @clause:MS-MQRR:3.1.4.4:02
  Scenario: A new cursor has a handle and starts before the first message
    When R_CreateCursor is called on "h" as "c"
    Then the call returns MQ_OK
    And cursor "c" has a nonzero handle
    When cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MS-MQRR:3.1.4.4:02
  Scenario: Two cursors of one handle are separate cursors
    When R_CreateCursor is called on "h" as "c1"
    And R_CreateCursor is called on "h" as "c2"
    Then the call returns MQ_OK
    And cursors "c1" and "c2" have different handles
    When cursor "c1" peeks the current message
    And cursor "c1" peeks the next message
    Then the message returned is "m2"
    When cursor "c2" peeks the current message
    Then the message returned is "m1"

  @clause:MS-MQRR:3.1.4.4:02
  Scenario: A cursor can be made on a handle opened for receiving
    Given "orders" is opened with RECEIVE_ACCESS as "r"
    When R_CreateCursor is called on "r" as "c"
    Then the call returns MQ_OK
    When cursor "c" receives
    Then the message returned is "m1"
    And "orders" holds "m2"

  # D-44: 3.1.4.4 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.4:02 @decision:D-44
  Scenario: A handle the server never issued gets no cursor
    Given a queue handle "forged" that the server never issued
    When R_CreateCursor is called on "forged" as "c"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.4:02 @decision:D-44
  Scenario: A closed handle gets no cursor
    Given R_CloseQueue is called on "h"
    When R_CreateCursor is called on "h" as "c"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  # D-46: Open Cursor gives no cursor for a descriptor whose queue is gone, and 3.1.4.4 names no status
  @clause:MS-MQRR:3.1.4.4:02 @decision:D-46
  Scenario: A handle whose queue was deleted gets no cursor
    Given queue "orders" is deleted
    When R_CreateCursor is called on "h" as "c"
    Then by D-46 the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available, purge-ok) or any other failure (other-failure, purge-ok)

  # the client ignores a failed call's outputs (3.1.4.4:03), yet the reply still carries phCursor as a DWORD
  @clause:MS-MQRR:3.1.4.4:02
  Scenario Outline: A failed R_CreateCursor still hands back a phCursor its reply can carry (<case>)
    Given a queue handle "forged" that the server never issued
    And "orders" is opened with PEEK_ACCESS as "closed"
    And R_CloseQueue is called on "closed"
    And queue "orders" is deleted
    When R_CreateCursor is called on "<handle>" as "c"
    Then the HRESULT is a failure code
    And the phCursor returned fits a DWORD

    Examples:
      | case                             | handle |
      | a handle the server never issued | forged |
      | a closed handle                  | closed |
      | a handle whose queue was deleted | h      |
