Feature: MS-MQRR 2.2.4 Queue Context Handles (client)
  A client gets queue handles only from R_OpenQueue and R_OpenQueueForMove, and gives
  them back with R_CloseQueue; a handle it closed is gone for good.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1" and "m2" in "orders"

  @clause:MS-MQRR:2.2.4:01 @clause:MS-MQRR:3.1.4.3:01 @clause:MS-MQRR:3.2.4.13:02
  Scenario: A queue is opened, used and closed, and its handle is not used again
    When the application opens "orders" to receive
    And the application peeks at "orders"
    And the application closes "orders"
    And the application opens "orders" to receive
    And the application receives from "orders"
    And the application closes "orders"
    Then the application is told of success
    And the client used only live handles that opening a queue gave it
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
