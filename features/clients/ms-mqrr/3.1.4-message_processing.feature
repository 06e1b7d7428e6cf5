Feature: MS-MQRR 3.1.4 Message Processing Events and Sequencing Rules (client)
  Opnum 1 is not used by the protocol: a client never calls it.

  @clause:MS-MQRR:3.1.4:03
  Scenario: A client at work never calls opnum 1
    Given the judge holds the queue "orders"
    And the judge holds "m1", "m2" and "m3" in "orders"
    When the application opens "orders" to receive
    And the application peeks at "orders"
    And the application receives from "orders"
    And the application creates the cursor "c" on "orders"
    And the application peeks with the cursor "c"
    And the application closes the cursor "c"
    And the application purges "orders"
    And the application closes "orders"
    Then the client never called opnum 1
