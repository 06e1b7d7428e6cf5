Feature: MSDN Cursors and COM Components (COM)
  A read through a cursor must be allowed by the access the queue was opened with:
  peeks need peek or receive access, receives need receive access.

  Background:
    Given a queue "orders"
    And "orders" holds "m1" and "m2"

  @clause:MSDN-CURSOR:COM:05
  Scenario Outline: What a cursor may do depends on the access of its handle
    Given "orders" is opened with <access> as "q"
    And cursor "c" is created on "q"
    When R_StartReceive is called on "q" with:
      | hCursor | ulAction |
      | c       | <action> |
    Then the call returns <status>

    Examples:
      | access         | action                 | status                 |
      | PEEK_ACCESS    | MQ_ACTION_PEEK_CURRENT | MQ_OK                  |
      | PEEK_ACCESS    | MQ_ACTION_RECEIVE      | MQ_ERROR_ACCESS_DENIED |
      | RECEIVE_ACCESS | MQ_ACTION_PEEK_CURRENT | MQ_OK                  |

  @clause:MSDN-CURSOR:COM:05
  Scenario: A receive refused for the access mode removes nothing
    Given "orders" is opened with PEEK_ACCESS as "q"
    And cursor "c" is created on "q"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    Then the message returned is "m2"
    When cursor "c" receives
    Then the call returns MQ_ERROR_ACCESS_DENIED
    And "orders" holds "m1" and "m2"
