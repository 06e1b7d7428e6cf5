Feature: MS-MQRR 3.2.4.6 Move a Message (client)
  A move opens the destination with R_OpenQueueForMove and calls R_MoveMessage with
  the message's lookup id and a transaction id: the enlisted one, or zeros.

  @clause:MS-MQRR:3.2.4.6:01
  Scenario: A message is moved in a transaction to a transactional queue
    Given the judge holds the transactional queue "ledger"
    And the judge holds the subqueue "audit" of "ledger"
    And the judge holds "m1" and "m2" in "ledger"
    And the application opens "ledger" to receive
    When the application peeks at "ledger"
    And the application begins the transaction "t"
    And the application moves "m1" from "ledger" to "ledger;audit" in the transaction "t"
    And the coordinator commits "t"
    Then the application is told of success
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "ledger;audit" holds "m1"

  @clause:MS-MQRR:3.2.4.6:01
  Scenario: A message is moved without a transaction
    Given the judge holds the queue "orders"
    And the judge holds the subqueue "archive" of "orders"
    And the judge holds "m1" and "m2" in "orders"
    And the application opens "orders" to receive
    When the application peeks at "orders"
    And the application moves "m1" from "orders" to "orders;archive"
    Then the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "orders;archive" holds "m1"
