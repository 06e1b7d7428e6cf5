Feature: MS-MQRR 3.2.4.13 Closing a Queue (client)
  Before closing a queue the client should cancel the reads waiting on it and close
  its cursors; it must call R_CloseQueue and forget the handle.

  @clause:MS-MQRR:3.2.4.13:01 @clause:MS-MQRR:3.2.4.13:02
  Scenario: A queue with a cursor and a waiting read is closed
    Given the judge holds the queue "empty"
    And the application opens "empty" to receive
    When the application creates the cursor "c" on "empty"
    And the application starts receiving from "empty" as "r1", waiting up to 30 seconds
    And the application closes "empty"
    Then "r1" ends with MQ_ERROR_OPERATION_CANCELLED
    And the client cancelled waiting reads and closed cursors before closing
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the client used only live handles that opening a queue gave it
