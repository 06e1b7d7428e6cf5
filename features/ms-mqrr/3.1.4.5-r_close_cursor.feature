Feature: MS-MQRR 3.1.4.5 R_CloseCursor (Opnum 5)
  R_CloseCursor releases a cursor of an open handle; the server looks the cursor up among
  that handle's own cursors and refuses anything else.

  Background:
    Given a queue "orders"
    And "orders" holds "m1" and "m2"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"

  @clause:MS-MQRR:3.1.4.5:02
  Scenario: Closing a cursor succeeds and the cursor cannot be used afterwards
    When R_CloseCursor is called on "h" for "c"
    Then the call returns MQ_OK
    When cursor "c" peeks the current message
    Then the call returns STATUS_INVALID_HANDLE

  @clause:MS-MQRR:3.1.4.5:02
  Scenario: Closing one cursor leaves the other cursors working
    Given cursor "d" is created on "h"
    When R_CloseCursor is called on "h" for "c"
    Then the call returns MQ_OK
    When cursor "d" peeks the current message
    Then the message returned is "m1"

  # D-44: 3.1.4.5 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.5:02 @decision:D-44
  Scenario: A handle the server never issued is refused
    Given a queue handle "forged" that the server never issued
    When R_CloseCursor is called on "forged" for "c"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  # D-47: and only for "a failure HRESULT" when the cursor is not among the handle's
  @clause:MS-MQRR:3.1.4.5:02 @decision:D-47
  Scenario: A cursor the server never issued is refused
    Given "ghost" is a cursor handle the server never issued on "h"
    When R_CloseCursor is called on "h" for "ghost"
    Then by D-47 the call returns STATUS_INVALID_HANDLE (status-invalid-handle) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.5:02 @decision:D-47
  Scenario: A cursor cannot be closed twice
    When R_CloseCursor is called on "h" for "c"
    Then the call returns MQ_OK
    When R_CloseCursor is called on "h" for "c"
    Then by D-47 the call returns STATUS_INVALID_HANDLE (status-invalid-handle) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.5:02 @decision:D-47
  Scenario: A cursor is found only among the cursors of its own handle
    Given "orders" is opened with RECEIVE_ACCESS as "other"
    When R_CloseCursor is called on "other" for "c"
    Then by D-47 the call returns STATUS_INVALID_HANDLE (status-invalid-handle) or any other failure (other-failure)
    When cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MS-MQRR:3.1.4.5:02 @decision:D-44
  Scenario: The cursors of a closed handle are gone with it
    Given "orders" is opened with RECEIVE_ACCESS as "other"
    When R_CloseQueue is called on "h"
    And R_CloseCursor is called on "h" for "c"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
