@clause:MS-MQRR:3.1.4.7:20
Feature: MS-MQRR 3.1.4.7 R_StartReceive (Opnum 7)
  R_StartReceive peeks at or starts a two-phase receive of a message, chosen by
  lookup identifier, by cursor, or as the first message of the queue.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.4.7:16 @clause:MS-MQRR:3.1.4.7:04
  Scenario Outline: A lookup action needs a lookup identifier
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | 0       | <action> | 0         |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | action                    |
      | MQ_LOOKUP_PEEK_CURRENT    |
      | MQ_LOOKUP_PEEK_NEXT       |
      | MQ_LOOKUP_PEEK_PREV       |
      | MQ_LOOKUP_RECEIVE_CURRENT |
      | MQ_LOOKUP_RECEIVE_NEXT    |
      | MQ_LOOKUP_RECEIVE_PREV    |

  @clause:MS-MQRR:3.1.4.7:21
  Scenario: Peeking at the front of the queue returns the first message and leaves it there
    When the client peeks at "h"
    Then the call returns MQ_OK
    And the message returned is "m1"
    And "orders" holds "m1", "m2" and "m3"
