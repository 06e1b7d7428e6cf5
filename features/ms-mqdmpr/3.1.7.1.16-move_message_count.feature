Feature: MS-MQDMPR 3.1.7.1.16 Move Message: every move is counted
  Move Message counts the move in the message it moves, and a remote read shows the count in the
  SubqueueHeader's MoveCount (MS-MQRR 2.2.5.3).

  @clause:MS-MQDMPR:3.1.7.1.16:02 @clause:MS-MQRR:2.2.5.3:07
  Scenario: Each move of a message between subqueues adds one to its MoveCount
    Given a queue "orders"
    And a subqueue "held" of "orders"
    And a subqueue "retry" of "orders"
    And message "m1" is sent to "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders;held" is opened for move as "to-held"
    And "orders;retry" is opened for move as "to-retry"
    And "orders;held" is opened with RECEIVE_ACCESS as "held"
    And "orders;retry" is opened with RECEIVE_ACCESS as "retry"
    When the client peeks at "h"
    Then the returned message's SubqueueHeader has MoveCount 0
    And the returned message's SubqueueHeader has LastMoveTime 0
    When the client moves "m1" from "h" to "to-held" without a transaction
    And the client peeks at "held"
    Then the returned message's SubqueueHeader has MoveCount 1
    And the returned message's SubqueueHeader has a LastMoveTime other than 0
    When the client moves "m1" from "held" to "to-retry" without a transaction
    And the client peeks at "retry"
    Then the returned message's SubqueueHeader has MoveCount 2
