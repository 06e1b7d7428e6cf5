Feature: MS-MQRR 3.1.4.9 R_EndReceive (Opnum 9)
  R_EndReceive finishes the two-phase receive that R_StartReceive began: RR_ACK
  removes the locked message, RR_NACK gives it back to the queue.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.4.9:04 @clause:MS-MQRR:3.1.4.9:08
  Scenario Outline: RR_ACK removes the message, RR_NACK makes it available again
    When the client starts a receive on "h" as "r"
    Then the message returned is "m1"
    And "orders" holds "m2" and "m3"
    When the client ends "r" with <ack>
    Then the call returns MQ_OK
    And "orders" holds <left>
    When the client receives from "h"
    Then the message returned is "<next>"

    Examples:
      | ack     | left                | next |
      | RR_ACK  | "m2" and "m3"       | m2   |
      | RR_NACK | "m1", "m2" and "m3" | m1   |

  @clause:MS-MQRR:3.1.4.9:04 @clause:MS-MQRR:3.1.4.9:08
  Scenario Outline: Lookup and cursor receives are finished by R_EndReceive too
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor  | ulAction | ulTimeout | dwRequestId |
      | <lookup> | <cursor> | <action> | 0         | 7           |
    Then the message returned is "<taken>"
    When the client ends request id 7 on "h" with <ack>
    Then the call returns MQ_OK
    And "orders" holds <left>

    Examples:
      | lookup     | cursor | action                    | taken | ack     | left                |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_CURRENT | m2    | RR_ACK  | "m1" and "m3"       |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_CURRENT | m2    | RR_NACK | "m1", "m2" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_PREV    | m1    | RR_ACK  | "m2" and "m3"       |
      | 0          | c1     | MQ_ACTION_RECEIVE         | m1    | RR_ACK  | "m2" and "m3"       |
      | 0          | c1     | MQ_ACTION_RECEIVE         | m1    | RR_NACK | "m1", "m2" and "m3" |

  @clause:MS-MQRR:3.1.4.9:04
  Scenario: RR_NACK hands the message to a reader that is waiting for one
    Given a queue "single"
    And message "only" is sent to "single"
    And "single" is opened with RECEIVE_ACCESS as "s"
    When the client starts a receive on "s" as "r"
    And the client waits on "s" for up to 60000 ms in the background as "w"
    Then the background call "w" is still waiting
    When the client ends "r" with RR_NACK
    And the background call "w" completes
    Then the call returns MQ_OK
    And the message returned is "only"
    When the client ends "w" with RR_ACK
    Then the call returns MQ_OK
    And "single" holds nothing

  @clause:MS-MQRR:3.1.4.9:08
  Scenario Outline: A message purged while its receive held it is gone whatever dwAck says
    When the client starts a receive on "h" as "r"
    And R_PurgeQueue is called on "h"
    And the client ends "r" with <ack>
    Then the call returns MQ_OK
    And "orders" holds nothing

    Examples:
      | ack     |
      | RR_ACK  |
      | RR_NACK |

  @clause:MS-MQRR:3.1.4.9:05
  Scenario Outline: A handle with no unfinished receive gets MQ_ERROR_INVALID_HANDLE
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    When <before>
    And the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And the status has the failure bit set

    Examples:
      | before                                     |
      | the client peeks at "h"                    |
      | the client receives from "h"               |
      | the client starts a receive on "h2" as "r" |

  # the test is for an entry of this handle: entries of the queue's other handles, whatever their values, count not
  @clause:MS-MQRR:3.1.4.9:05
  Scenario: A handle with no receive of its own gets MQ_ERROR_INVALID_HANDLE while other handles hold receives
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    And "orders" is opened with RECEIVE_ACCESS as "h3"
    And "orders" is opened with RECEIVE_ACCESS as "e1"
    And "orders" is opened with RECEIVE_ACCESS as "e2"
    When the client starts a receive on "h" as "r1"
    And the client starts a receive on "h2" as "r2"
    And the client starts a receive on "h3" as "r3"
    And the client ends request id 7 on "e1" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    When the client ends request id 7 on "e2" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "orders" holds nothing

  @clause:MS-MQRR:3.1.4.9:05
  Scenario: The request of another handle is not ended through this one
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    When R_StartReceive is called on "h2" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    And the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "orders" holds "m2" and "m3"
    When the client ends request id 7 on "h2" with RR_ACK
    Then the call returns MQ_OK

  @clause:MS-MQRR:3.1.4.9:06
  Scenario: An unknown request id on a handle with unfinished receives gets MQ_ERROR_INVALID_PARAMETER
    When the client starts a receive on "h" as "r"
    And the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    And "orders" holds "m2" and "m3"
    When the client ends "r" with RR_ACK
    Then the call returns MQ_OK

  @clause:MS-MQRR:3.1.4.9:06
  Scenario: R_EndReceive removes the request, so a second one fails
    When the client starts a receive on "h" as "r1"
    And the client starts a receive on "h" as "r2"
    And the client ends "r1" with RR_ACK
    Then the call returns MQ_OK
    When the client ends "r1" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    When the client ends "r2" with RR_NACK
    Then the call returns MQ_OK
    When the client ends "r2" with RR_NACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.9:06
  Scenario: R_EndReceive stops the clean-up timer of its request
    When the client starts a receive on "h" as "r1"
    And the client ends "r1" with RR_NACK
    And 4 minutes pass
    And the client starts a receive on "h" as "r2"
    Then the message returned is "m1"
    When 2 minutes pass
    Then "orders" holds "m2" and "m3"
    When the client ends "r2" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.9:07
  Scenario: R_EndReceive through a queue handle the server never issued is refused
    Given a queue handle "x" that the server never issued
    When the client ends request id 7 on "x" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE

  @clause:MS-MQRR:3.1.4.9:07
  Scenario: A message that left the queue while its receive held it is not found
    Given a queue "short"
    And message "brief" is sent to "short" with:
      | time to be received | 60 |
    And "short" is opened with RECEIVE_ACCESS as "s"
    When the client starts a receive on "s" as "r"
    Then the message returned is "brief"
    When 61 seconds pass
    And the client ends "r" with RR_ACK
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    When the client ends "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE

  # D-38: the premature End keeps the entry (keep), or removes it as 3.1.4.9's second step does (remove),
  # so the End that follows the message finds no entry left on the handle
  @clause:MS-MQRR:3.1.4.9:07 @decision:D-38
  Scenario: R_EndReceive before the receive has a message is refused and the receive goes on
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When the client waits on "e" for up to INFINITE ms in the background as "w"
    And the client ends "w" with RR_ACK
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And the background call "w" is still waiting
    When message "late" is sent to "empty"
    And the background call "w" completes
    Then the message returned is "late"
    When the client ends "w" with RR_ACK
    Then by D-38 the call returns MQ_OK (keep) or MQ_ERROR_INVALID_HANDLE (remove)
    And "empty" holds nothing

  # D-74: with its queue gone there is no message list to search; the texts name no status for it, and
  # read literally the search finds nothing (MQ_ERROR_MESSAGE_NOT_FOUND)
  @clause:MS-MQRR:3.1.4.9:08 @decision:D-74
  Scenario: A handle whose queue was deleted cannot end its receive
    When the client starts a receive on "h" as "r"
    And queue "orders" is deleted
    And the client ends "r" with RR_ACK
    Then by D-74 the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available) or MQ_ERROR_MESSAGE_NOT_FOUND (literal)

  # D-55: the IDL's range(1,2) lets the RPC runtime refuse the call; past it, no status is named
  @clause:MS-MQRR:3.1.4.9:09 @decision:D-55
  Scenario Outline: A dwAck other than RR_ACK or RR_NACK is refused and changes nothing
    When the client starts a receive on "h" as "r"
    And the client ends "r" with <ack>
    Then by D-55 the call returns MQ_ERROR_INVALID_PARAMETER (invalid-parameter) or any other failure (other-failure)
    And "orders" holds "m2" and "m3"
    When the client ends "r" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m2" and "m3"

    Examples:
      | ack        |
      | 0          |
      | 3          |
      | 0x80000002 |
      | 0xFFFFFFFF |
