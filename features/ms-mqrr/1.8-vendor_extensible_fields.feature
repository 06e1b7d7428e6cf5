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
      | R_CloseQueue is called on "forged"                    | MQ_ERROR_INVALID_HANDLE      |
      | R_CreateCursor is called on "forged" as "c2"          | MQ_ERROR_INVALID_HANDLE      |
      | R_PurgeQueue is called on "peeker"                    | STATUS_ACCESS_DENIED         |
      | the client receives from "peeker"                     | MQ_ERROR_ACCESS_DENIED       |
      | R_CloseCursor is called on "forged" for "c"           | MQ_ERROR_INVALID_HANDLE      |
