Feature: MS-MQRR 3.1.4.4 R_CreateCursor (client)
  A cursor is made on a live handle of R_OpenQueue; when R_CreateCursor fails, the
  client ignores the hCursor it came back with.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1" and "m2" in "orders"
    And the application opens "orders" to receive

  @clause:MS-MQRR:3.1.4.4:01 @clause:MS-MQRR:3.2.4.8:01
  Scenario: A cursor is created on the queue's handle
    When the application creates the cursor "c" on "orders"
    Then the application is told of success
    And the client used only live handles that opening a queue gave it
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them

  @clause:MS-MQRR:3.1.4.4:03
  Scenario: The outputs of a failed R_CreateCursor are not used
    Given the judge will answer MQ_ERROR_INSUFFICIENT_RESOURCES to the next R_CreateCursor
    When the application creates the cursor "c" on "orders"
    Then the application is told MQ_ERROR_INSUFFICIENT_RESOURCES
    When the application peeks with the cursor "c"
    Then the application is told of a failure
    And the client never used the outputs of a call that failed
    When the application creates the cursor "c" on "orders"
    And the application peeks with the cursor "c"
    Then the application gets "m1"
    And the client never used the outputs of a call that failed
    And the client used only cursors it had created and not closed
