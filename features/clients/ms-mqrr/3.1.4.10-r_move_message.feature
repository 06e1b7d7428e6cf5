Feature: MS-MQRR 3.1.4.10 R_MoveMessage (client)
  A move comes from a handle R_OpenQueue gave with RECEIVE_ACCESS, goes to a move
  context of R_OpenQueueForMove, and carries zeros or an enlisted transaction id.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds the subqueue "archive" of "orders"
    And the judge holds "m1" and "m2" in "orders"
    And the application opens "orders" to receive
    And the application peeks at "orders"

  @clause:MS-MQRR:3.1.4.10:02 @clause:MS-MQRR:3.1.4.10:03 @clause:MS-MQRR:3.1.4.10:04 @clause:MS-MQRR:3.1.4.11:01
  Scenario: A message is moved without a transaction
    When the application moves "m1" from "orders" to "orders;archive"
    Then the application is told of success
    And the client received, purged, moved and rejected only through handles opened with RECEIVE_ACCESS
    And the client moved only to live move contexts R_OpenQueueForMove gave it
    And the client moved with a transaction id of zeros or one it had enlisted
    And the judge's "orders;archive" holds "m1"
