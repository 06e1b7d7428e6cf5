@clause:MS-MQRR:1.8:01
Feature: MS-MQRR 1.8 Vendor-Extensible Fields
  Failure codes come from the HRESULT space; a vendor may add codes of its own, but only
  with the customer bit set, so a client can never mistake them for a defined code.

  Background:
    Given a queue "orders"
    And "orders" holds "m1"
    And a queue handle "forged" that the server never issued

  Scenario Outline: A failing call returns a defined code or one marked as the vendor's (<call>)
    Given "orders" is opened with PEEK_ACCESS as "peeker"
    And cursor "c" is created on "peeker"
    When <call>
    Then the call returns <status>
    And the status is one the specifications define or carries the customer bit

    Examples:
      | call                                                  | status                       |
      | the format name "PUBLIC={unknown guid}" is opened with RECEIVE_ACCESS as "h" | MQ_ERROR_QUEUE_NOT_FOUND |
      | R_PurgeQueue is called on "peeker"                    | STATUS_ACCESS_DENIED         |

  # D-49: a receive through a peeking handle is refused with a defined code (check) or goes on (no-check)
  @decision:D-49
  Scenario: A receive refused for the handle's access returns a defined code or one marked as the vendor's
    Given "orders" is opened with PEEK_ACCESS as "peeker"
    When the client receives from "peeker"
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And the status is one the specifications define or carries the customer bit

  # D-44: for a handle it does not find, MS-MQRR asks only for "a failure HRESULT"; whichever the server
  # returns must still be a defined code or carry the customer bit
  @decision:D-44
  Scenario Outline: A call on an unknown handle returns a defined code or one marked as the vendor's (<call>)
    Given "orders" is opened with PEEK_ACCESS as "peeker"
    And cursor "c" is created on "peeker"
    When <call>
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And the status is one the specifications define or carries the customer bit

    Examples:
      | call                                         |
      | R_CloseQueue is called on "forged"           |
      | R_CreateCursor is called on "forged" as "c2" |
      | R_CloseCursor is called on "forged" for "c"  |
