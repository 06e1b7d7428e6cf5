Feature: MS-MQRR 3.2.4.9 Peek a Message by Using a Cursor (client)
  A cursor peek is R_StartReceive with the cursor, LookupId 0, and PEEK_CURRENT or
  PEEK_NEXT as the application asks.

  @clause:MS-MQRR:3.2.4.9:01
  Scenario: A cursor peeks at the first message, then at the next
    Given the judge holds the queue "orders"
    And the judge holds "m1", "m2" and "m3" in "orders"
    And the application opens "orders" to peek
    When the application creates the cursor "c" on "orders"
    And the application peeks with the cursor "c"
    Then the application gets "m1"
    When the application peeks at the next message with the cursor "c"
    Then the application gets "m2"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
