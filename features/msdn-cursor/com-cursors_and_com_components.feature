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
      | access         | action                 | status |
      | PEEK_ACCESS    | MQ_ACTION_PEEK_CURRENT | MQ_OK  |
      | RECEIVE_ACCESS | MQ_ACTION_PEEK_CURRENT | MQ_OK  |

  # D-49: over MS-MQRR the access check is the client's duty (the COM objects make it); a server refuses
  # the receive (check) or lets it take the message (no-check)
  @clause:MSDN-CURSOR:COM:05 @decision:D-49
  Scenario: A cursor of a peeking handle cannot receive
    Given "orders" is opened with PEEK_ACCESS as "q"
    And cursor "c" is created on "q"
    When R_StartReceive is called on "q" with:
      | hCursor | ulAction          |
      | c       | MQ_ACTION_RECEIVE |
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And by D-49 "orders" holds "m1" and "m2" (check) or "m2" (no-check)

  @clause:MSDN-CURSOR:COM:05 @decision:D-49
  Scenario: A receive refused for the access mode removes nothing
    Given "orders" is opened with PEEK_ACCESS as "q"
    And cursor "c" is created on "q"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    Then the message returned is "m2"
    When cursor "c" receives
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And by D-49 "orders" holds "m1" and "m2" (check) or "m1" (no-check)
