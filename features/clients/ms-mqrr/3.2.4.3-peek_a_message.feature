Feature: MS-MQRR 3.2.4.3 Peek a Message (client)
  A peek is one R_StartReceive with hCursor 0 and a peek action; the client rebuilds
  the message from the sections, and ends nothing.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1", "m2" and "m3" in "orders"
    And the application opens "orders" to peek

  @clause:MS-MQRR:3.2.4.3:01
  Scenario: The first message is peeked and rebuilt
    When the application peeks at "orders"
    Then the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.2.4.3:01
  Scenario: A message is peeked by its lookup id
    When the application peeks at "orders"
    And the application peeks at "m1" in "orders" by its lookup id
    Then the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
