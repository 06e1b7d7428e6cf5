Feature: MS-MQRR 2.2.8 XACTUOW (client)
  For an internal transaction the client makes a unique random XACTUOW.

  @clause:MS-MQRR:2.2.8:02
  Scenario: Three transactions get three different transaction identifiers
    Given the judge holds the transactional queue "ledger"
    And the judge holds "m1", "m2" and "m3" in "ledger"
    And the application opens "ledger" to receive
    When the application begins the transaction "t1"
    And the application receives from "ledger" in the transaction "t1"
    And the coordinator commits "t1"
    And the application begins the transaction "t2"
    And the application receives from "ledger" in the transaction "t2"
    And the coordinator aborts "t2"
    And the application begins the transaction "t3"
    Then the client made a new XACTUOW for each transaction
