Feature: MS-MQRR 3.2.4.4.2 Receive a Message with a Transaction (client)
  A transactional receive enlists the transaction if it is new, calls
  R_StartTransactionalReceive with it, rebuilds the message, ends with
  R_EndTransactionalReceive, and passes End's error on.

  Background:
    Given the judge holds the transactional queue "ledger"
    And the judge holds "m1", "m2" and "m3" in "ledger"
    And the application opens "ledger" to receive
    And the application begins the transaction "t"

  @clause:MS-MQRR:3.2.4.4.2:01
  Scenario: A message is received in a transaction the coordinator commits
    When the application receives from "ledger" in the transaction "t"
    And the coordinator commits "t"
    Then the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "ledger" holds "m2" and "m3"

  @clause:MS-MQRR:3.2.4.4.2:01
  Scenario: The error of R_EndTransactionalReceive reaches the application
    Given the judge will answer MQ_ERROR_TRANSACTION_SEQUENCE to the next R_EndTransactionalReceive
    When the application receives from "ledger" in the transaction "t"
    Then the application is told MQ_ERROR_TRANSACTION_SEQUENCE
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
