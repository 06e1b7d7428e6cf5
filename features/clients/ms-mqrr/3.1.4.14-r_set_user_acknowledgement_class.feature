Feature: MS-MQRR 3.1.4.14 R_SetUserAcknowledgementClass (client)
  A client marks a message it received in a transaction, after the receive ended and
  before the transaction ends, naming it by its lookup id, with usClass 0 or
  MQMSG_CLASS_NACK_RECEIVE_REJECTED.

  @clause:MS-MQRR:3.1.4.14:01 @clause:MS-MQRR:3.1.4.14:02 @clause:MS-MQRR:3.1.4.14:03 @clause:MS-MQRR:3.2.4.5:01
  Scenario: A message received in a transaction is rejected before the commit
    Given the judge holds the transactional queue "ledger"
    And the judge holds "m1" and "m2" in "ledger"
    And the application opens "ledger" to receive
    And the application begins the transaction "t"
    When the application receives from "ledger" in the transaction "t"
    And the application rejects "m1" in "ledger"
    Then the application is told of success
    When the coordinator commits "t"
    And the application closes "ledger"
    Then the application is told of success
    And the client set acknowledgement classes only as MS-MQRR 3.1.4.14 allows
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "ledger" holds "m2"
