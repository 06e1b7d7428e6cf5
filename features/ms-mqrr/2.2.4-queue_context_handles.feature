Feature: MS-MQRR 2.2.4 Queue Context Handles
  Queue handles are strict RPC context handles, bound to the client's association, but not
  type_strict: the SERIALIZE handle R_OpenQueue returns serves wherever a NOSERIALIZE one is
  asked for.

  Background:
    Given the calls travel over DCE/RPC
    And a queue "orders"
    And "orders" holds "m1"

  @clause:MS-MQRR:2.2.4.1:01 @clause:MS-MQRR:2.2.4.2:01
  Scenario Outline: The handle R_OpenQueue returned is accepted wherever a queue handle is asked for (<call>)
    Given a subqueue "sub" of "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders;sub" is opened for move as "mv"
    And cursor "c" is created on "h"
    When <call>
    Then the RPC runtime accepted the handle

    Examples:
      | call                                                            |
      | R_CreateCursor is called on "h" as "c2"                         |
      | R_CloseCursor is called on "h" for "c"                          |
      | the client peeks at "h"                                         |
      | the client cancels request id 7 on "h"                          |
      | the client ends request id 7 on "h" with RR_ACK                 |
      | the client moves "m1" from "h" through the move context of "mv" |
      | R_PurgeQueue is called on "h"                                   |
      | R_CloseQueue is called on "h"                                   |
      | R_CloseQueue is called on "mv"                                  |

  @clause:MS-MQRR:2.2.4.1:01 @clause:MS-MQRR:2.2.4.2:01
  Scenario: A queue handle is refused on another client's association and still works on its own
    Given "orders" is opened with RECEIVE_ACCESS as "h"
    And a second client "B"
    When client "B" makes the calls
    And the client peeks at "h"
    Then the call returns NCA_S_FAULT_CONTEXT_MISMATCH
    When the first client makes the calls again
    And the client peeks at "h"
    Then the message returned is "m1"
