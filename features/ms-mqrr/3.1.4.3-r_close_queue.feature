Feature: MS-MQRR 3.1.4.3 R_CloseQueue (Opnum 3)
  R_CloseQueue gives a context handle back: the queue is closed for that handle, its
  unfinished receives are dropped, and the client gets a NULL handle in return.

  Background:
    Given a queue "orders"
    And "orders" holds "m1" and "m2"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.4.3:02 @clause:MS-MQRR:3.1.4.3:03
  Scenario: Closing an open handle succeeds and hands back NULL
    When R_CloseQueue is called on "h"
    Then the call returns MQ_OK
    And the context handle given back is NULL

  @clause:MS-MQRR:3.1.4.3:02 @clause:MS-MQRR:3.1.4.3:03
  Scenario: A handle opened for a move is closed the same way
    Given a subqueue "sub" of "orders"
    And "orders;sub" is opened for move as "mv"
    When R_CloseQueue is called on "mv"
    Then the call returns MQ_OK
    And the context handle given back is NULL

  # D-44: 3.1.4.3 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.3:03 @clause:MS-MQRR:3.1.4.3:04 @decision:D-44
  Scenario: A handle the server never issued is refused
    Given a queue handle "forged" that the server never issued
    When R_CloseQueue is called on "forged"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.3:03 @clause:MS-MQRR:3.1.4.3:04 @decision:D-44
  Scenario: A handle that was already closed is refused
    When R_CloseQueue is called on "h"
    Then the call returns MQ_OK
    When R_CloseQueue is called on "h"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.3:05 @decision:D-44
  Scenario: After the close the handle is no longer known to the server
    When R_CloseQueue is called on "h"
    And R_CreateCursor is called on "h" as "c"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    When the client peeks at "h"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.3:05
  Scenario: Closing drops the handle's unfinished receive and its message becomes available again
    When the client starts a receive on "h" as "r"
    Then the message returned is "m1"
    And "orders" holds "m2"
    When R_CloseQueue is called on "h"
    Then the call returns MQ_OK
    And "orders" holds "m1" and "m2"
    When the client ends "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "orders" holds "m1" and "m2"

  # the PendingRequestTable is keyed by handle: a close gives back its own handle's receives and no others
  @clause:MS-MQRR:3.1.4.3:05
  Scenario: Closing a handle gives back its own receives only, whatever the other handles of the queue
    Given "orders" holds "m3" and "m4"
    And "orders" is opened with RECEIVE_ACCESS as "h2"
    And "orders" is opened with RECEIVE_ACCESS as "h3"
    And "orders" is opened with RECEIVE_ACCESS as "h4"
    When the client starts a receive on "h" as "r1"
    And the client starts a receive on "h2" as "r2"
    And the client starts a receive on "h3" as "r3"
    And the client starts a receive on "h4" as "r4"
    And R_CloseQueue is called on "h2"
    Then "orders" holds "m2"
    When R_CloseQueue is called on "h3"
    Then "orders" holds "m2" and "m3"
    When the client ends "r1" with RR_ACK
    And the client ends "r4" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m2" and "m3"

  # a receive inside a transaction leaves its message to the transaction, which a close does not end
  @clause:MS-MQRR:3.1.4.3:05
  Scenario Outline: Closing a handle leaves a transactional receive's message to its transaction (<outcome>)
    Given a transactional queue "ledger"
    And messages "t1" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When the client starts a receive on "l" in transaction "t" as "r"
    Then the message returned is "t1"
    When R_CloseQueue is called on "l"
    Then "ledger" holds nothing
    When transaction "t" is <outcome>
    Then "ledger" holds <left>

    Examples:
      | outcome   | left    |
      | committed | nothing |
      | aborted   | "t1"    |

  @clause:MS-MQRR:3.1.4.3:05
  Scenario: Closing ends a receive that is still waiting for a message
    Given a queue "idle"
    And "idle" is opened with RECEIVE_ACCESS as "w"
    When the client waits on "w" for up to 5000 ms in the background as "r"
    And R_CloseQueue is called on "w"
    Then the call returns MQ_OK
    When the background call "r" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED

  @clause:MS-MQRR:3.1.4.3:05
  Scenario: Closing one handle leaves the other handles of the queue open
    Given "orders" is opened with PEEK_ACCESS as "other"
    When R_CloseQueue is called on "h"
    Then the call returns MQ_OK
    And "other" is a usable queue handle
    When the client peeks at "other"
    Then the message returned is "m1"

  # D-43: R_OpenQueue names no status for a failed Open Queue, only a failure
  @clause:MS-MQRR:3.1.4.3:05 @decision:D-43
  Scenario: Closing a handle that denies sharing lets other receivers in again
    Given R_CloseQueue is called on "h"
    When R_OpenQueue is called as "exclusive" with:
      | pQueueFormat | dwAccess       | dwShareMode   |
      | orders       | RECEIVE_ACCESS | MQ_DENY_SHARE |
    Then the call returns MQ_OK
    When "orders" is opened with RECEIVE_ACCESS as "second"
    Then by D-43 the call returns MQ_ERROR_SHARING_VIOLATION (open-status) or any other failure (other-failure)
    When R_CloseQueue is called on "exclusive"
    And "orders" is opened with RECEIVE_ACCESS as "second"
    Then the call returns MQ_OK
