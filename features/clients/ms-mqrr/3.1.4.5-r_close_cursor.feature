Feature: MS-MQRR 3.1.4.5 R_CloseCursor (client)
  The client frees a cursor with R_CloseCursor, naming a cursor it created and has
  not closed.

  @clause:MS-MQRR:3.1.4.5:01 @clause:MS-MQRR:3.2.4.12:02
  Scenario: A cursor is closed once and not used again
    Given the judge holds the queue "orders"
    And the judge holds "m1" and "m2" in "orders"
    And the application opens "orders" to receive
    When the application creates the cursor "c" on "orders"
    And the application peeks with the cursor "c"
    And the application closes the cursor "c"
    And the application creates the cursor "d" on "orders"
    And the application peeks at the next message with the cursor "d"
    Then the client used only cursors it had created and not closed
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
