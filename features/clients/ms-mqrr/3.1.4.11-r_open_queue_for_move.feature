Feature: MS-MQRR 3.1.4.11 R_OpenQueueForMove (client)
  The client opens the destination of a move with MQ_MOVE_ACCESS and MQ_DENY_NONE,
  says who it is as in R_OpenQueue, and takes a thrown status as a failure.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds the subqueue "archive" of "orders"
    And the judge holds "m1" and "m2" in "orders"
    And the application opens "orders" to receive
    And the application peeks at "orders"

  @clause:MS-MQRR:3.1.4.11:03 @clause:MS-MQRR:3.1.4.11:04 @clause:MS-MQRR:3.1.4.11:06 @clause:MS-MQRR:3.1.4.11:07
  @decision:D-84
  Scenario: The destination of a move is opened for moving by the same client
    When the application moves "m1" from "orders" to "orders;archive"
    Then the client opened queues for moving with MQ_MOVE_ACCESS and MQ_DENY_NONE
    And the client identified itself with one non-null GUID
    And the client sent its own version numbers
    And the client said whether it is in a workgroup

  @clause:MS-MQRR:3.1.4.11:09
  Scenario Outline: A thrown <status> fails the move and no move context is used
    Given the judge will throw <status> at the next R_OpenQueueForMove
    When the application moves "m1" from "orders" to "orders;archive"
    Then the application is told <status>
    And the client moved only to live move contexts R_OpenQueueForMove gave it
    And the judge's "orders" holds "m1" and "m2"

    Examples:
      | status                   |
      | MQ_ERROR_QUEUE_NOT_FOUND |
      | 0xC00E9998               |
