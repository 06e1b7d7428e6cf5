Feature: MS-MQRR 3.2.4.12 Closing a Cursor (client)
  Before closing a cursor the client should cancel the reads waiting on it; it must
  call R_CloseCursor and forget the cursor.

  @clause:MS-MQRR:3.2.4.12:01 @clause:MS-MQRR:3.2.4.12:02
  Scenario: A cursor with a read waiting on it is closed
    Given the judge holds the queue "empty"
    And the application opens "empty" to receive
    When the application creates the cursor "c" on "empty"
    And the application starts receiving with the cursor "c" as "r1", waiting up to 30 seconds
    And the application closes the cursor "c"
    Then "r1" ends with MQ_ERROR_OPERATION_CANCELLED
    And the client cancelled waiting reads and closed cursors before closing
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the client used only cursors it had created and not closed
