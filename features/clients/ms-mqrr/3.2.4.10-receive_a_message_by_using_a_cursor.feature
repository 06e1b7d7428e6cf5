Feature: MS-MQRR 3.2.4.10 Receive a Message by Using a Cursor (client)
  A cursor receive is R_StartReceive (or R_StartTransactionalReceive) with the cursor
  and LookupId 0, ended with R_EndReceive (or R_EndTransactionalReceive).

  @clause:MS-MQRR:3.2.4.10.1:01
  Scenario: A cursor receives the message it points at
    Given the judge holds the queue "orders"
    And the judge holds "m1", "m2" and "m3" in "orders"
    And the application opens "orders" to receive
    When the application creates the cursor "c" on "orders"
    And the application peeks with the cursor "c"
    And the application peeks at the next message with the cursor "c"
    And the application receives with the cursor "c"
    Then the application gets "m2"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "orders" holds "m1" and "m3"

  @clause:MS-MQRR:3.2.4.10.2:01
  Scenario: A cursor receives in a transaction
    Given the judge holds the transactional queue "ledger"
    And the judge holds "m1" and "m2" in "ledger"
    And the application opens "ledger" to receive
    And the application begins the transaction "t"
    When the application creates the cursor "c" on "ledger"
    And the application peeks with the cursor "c"
    And the application receives with the cursor "c" in the transaction "t"
    And the coordinator commits "t"
    Then the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "ledger" holds "m2"
