Feature: MS-MQRR 3.1.5.1 Pending Request Cleanup Timer Event
  A receive that nobody ends or cancels does not hold its message for ever: when the
  request's clean-up timer expires the message goes back to the queue and the request is dropped.

  # The scenarios assume the clean-up period of Windows and of the reference: 5 minutes.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.5.1:01 @clause:MS-MQRR:3.1.4.7:19
  Scenario: A receive nobody ends gives its message back when its clean-up timer expires
    When the client starts a receive on "h" as "r"
    Then the message returned is "m1"
    And "orders" holds "m2" and "m3"
    When 5 minutes pass
    Then "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.5.1:01
  Scenario: A receive nobody ends still expires after many others were ended on time
    When the client starts a receive on "h" as "r"
    Then the message returned is "m1"
    Given "orders" also holds 150 messages "b1" to "b150"
    When the client receives and acknowledges 152 messages from "h"
    Then "orders" holds nothing
    When 5 minutes pass
    Then "orders" holds "m1"

  @clause:MS-MQRR:3.1.5.1:01
  Scenario: The expired request is dropped, so R_EndReceive no longer finds it
    When the client starts a receive on "h" as "r"
    And 5 minutes pass
    And the client ends "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.5.1:01
  Scenario: The request id of an expired request is free again
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    And 5 minutes pass
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    Then the call returns MQ_OK
    And the message returned is "m1"
    When the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.5.1:01 @clause:MS-MQRR:3.1.4.7:19
  Scenario Outline: Every kind of receive is released by its clean-up timer
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor  | ulAction | ulTimeout | dwRequestId |
      | <lookup> | <cursor> | <action> | 0         | 7           |
    Then the message returned is "<taken>"
    And "orders" holds <held>
    When 5 minutes pass
    Then "orders" holds "m1", "m2" and "m3"
    When the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE

    Examples:
      | lookup     | cursor | action                    | taken | held          |
      | 0          | 0      | MQ_ACTION_RECEIVE         | m1    | "m2" and "m3" |
      | 0          | c1     | MQ_ACTION_RECEIVE         | m1    | "m2" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_CURRENT | m2    | "m1" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_NEXT    | m3    | "m1" and "m2" |

  @clause:MS-MQRR:3.1.5.1:01
  Scenario: The clean-up expiry of one request leaves the others alone
    When the client starts a receive on "h" as "r1"
    And 4 minutes pass
    And the client starts a receive on "h" as "r2"
    Then the message returned is "m2"
    When 90 seconds pass
    Then "orders" holds "m1" and "m3"
    When the client ends "r1" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    When the client ends "r2" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m1" and "m3"

  @clause:MS-MQRR:3.1.5.1:01
  Scenario: A message given back by the clean-up timer can be received again
    When the client starts a receive on "h" as "r1"
    And 5 minutes pass
    And the client starts a receive on "h" as "r2"
    Then the message returned is "m1"
    When the client ends "r2" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.5.1:01
  Scenario: A receive that is still waiting for a message is not cleaned up
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When the client waits on "e" for up to INFINITE ms in the background as "w"
    And 6 minutes pass
    Then the background call "w" is still waiting
    When message "late" is sent to "empty"
    And the background call "w" completes
    Then the message returned is "late"
    When the client ends "w" with RR_ACK
    Then the call returns MQ_OK
    And "empty" holds nothing

  @clause:MS-MQRR:3.1.5.1:01
  Scenario: The clean-up period of a receive that waited counts from when it got its message
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When the client waits on "e" for up to INFINITE ms in the background as "w"
    And 4 minutes pass
    And message "late" is sent to "empty"
    And the background call "w" completes
    Then the message returned is "late"
    When 2 minutes pass
    Then "empty" holds nothing
    When 4 minutes pass
    Then "empty" holds "late"

  @clause:MS-MQRR:3.1.5.1:01
  Scenario Outline: A transactional receive's message stays with its transaction when the request is cleaned up
    Given a transactional queue "ledger"
    And messages "t1" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When the client starts a receive on "l" in transaction "t" as "r"
    Then the message returned is "t1"
    When 5 minutes pass
    Then "ledger" holds nothing
    When transaction "t" is <outcome>
    Then "ledger" holds <left>

    Examples:
      | outcome   | left    |
      | committed | nothing |
      | aborted   | "t1"    |

  # D-36 refuse: the peek never runs, so the cancel leaves request 7's entry to its timer; accept: the peek
  # waits, and a cancel that ends it (D-18 tagged) also removes the entry, leaving "m1" locked for ever
  @clause:MS-MQRR:3.1.5.1:01 @clause:MS-MQRR:3.1.4.7:34 @decision:D-36
  Scenario: A locked message is released even when a peek reused its receive's request id and was cancelled
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 8           |
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 9           |
    And in the background, the client peeks at "h" with request id 7 and a time-out of 3000 ms as "p"
    And the client cancels request id 7 on "h"
    Then by D-36 the background call "p" ends with MQ_ERROR_INVALID_PARAMETER (refuse) or MQ_ERROR_OPERATION_CANCELLED (accept) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (accept)
    When 5 minutes pass
    Then by D-36 "orders" holds "m1", "m2" and "m3" (refuse, accept) or "m2" and "m3" (accept)
