Feature: MS-MQRR 3.1.4.7 R_StartReceive: one rule for every access check
  A handle's access must permit what is done through it.  A server checks this for every action
  (D-49 check) or leaves it to the client for every action (no-check): one that lets a peeking
  handle receive but refuses it a move takes neither reading.

  # D-49: the reading a server shows for the receive is the one it shows for the move.
  @clause:MS-MQRR:3.1.4.7:33 @clause:MS-MQRR:3.1.4.10:05 @decision:D-49
  Scenario: A handle opened for peeking is refused both a receive and a move, or neither
    Given a queue "orders"
    And a subqueue "retry" of "orders"
    And "orders" holds "m1" and "m2"
    And "orders" is opened with PEEK_ACCESS as "q"
    And "orders;retry" is opened for move as "to-retry"
    When the client receives from "q"
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    When the client moves "m2" from "q" to "to-retry" without a transaction
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And by D-49 "orders" holds "m1" and "m2" (check) or nothing (no-check)
