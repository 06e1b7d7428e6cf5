Feature: MS-MQRR 3.1.4.15 R_EndTransactionalReceive (client)
  R_EndTransactionalReceive reports a transactional packet's receipt with the handle
  and dwRequestId of its start and dwAck RR_ACK or RR_NACK.

  @clause:MS-MQRR:3.1.4.15:01 @clause:MS-MQRR:3.1.4.15:02
  Scenario: A transactional receive whose packet cannot be rebuilt ends with RR_NACK
    Given the judge holds the transactional queue "ledger"
    And the judge holds "m1" and "m2" in "ledger"
    And the application opens "ledger" to receive
    And the application begins the transaction "t"
    And the judge will damage the packet sections of the next R_StartTransactionalReceive
    When the application receives from "ledger" in the transaction "t"
    Then the application is told of a failure
    When the application receives from "ledger" in the transaction "t"
    Then the application is told of success
    And the client ended every receive that returned a message, by its handle and dwRequestId
    And the client ended and cancelled with the handle and dwRequestId of a start
    And the client sent only RR_ACK or RR_NACK as dwAck
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
