Feature: MS-MQRR 3.1.4.12 R_QMEnlistRemoteTransaction (client)
  A client enlists a transaction, with its id, a propagation token and the queue it
  will use it with, before any transactional receive or move that uses it.

  Background:
    Given the judge holds the transactional queue "ledger"
    And the judge holds the subqueue "audit" of "ledger"
    And the judge holds "m1", "m2" and "m3" in "ledger"
    And the application opens "ledger" to receive

  @clause:MS-MQRR:3.1.4.12:02 @clause:MS-MQRR:3.1.4.12:03 @clause:MS-MQRR:3.1.4.12:04 @clause:MS-MQRR:3.2.4.2:01
  Scenario: A transaction is enlisted once, before its first receive
    When the application begins the transaction "t"
    And the application receives from "ledger" in the transaction "t"
    And the application receives from "ledger" in the transaction "t"
    And the coordinator commits "t"
    Then the client enlisted each transaction before using it
    And the client enlisted with a transaction id and a propagation token of the size it gave
    And the client enlisted naming the queue the transaction was used with
    And the judge's "ledger" holds "m3"

  @clause:MS-MQRR:3.1.4.12:02 @clause:MS-MQRR:3.1.4.12:04
  Scenario: A transaction used for a move is enlisted before the move
    When the application peeks at "ledger"
    And the application begins the transaction "t"
    And the application moves "m1" from "ledger" to "ledger;audit" in the transaction "t"
    And the coordinator commits "t"
    Then the client enlisted each transaction before using it
    And the client enlisted naming the queue the transaction was used with
    And the judge's "ledger;audit" holds "m1"
