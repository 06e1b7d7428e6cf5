Feature: MS-MQRR 3.2.4.4.1 Receive a Message Without a Transaction (client)
  A client receives in two phases: R_StartReceive locks the message and returns its
  packet, the client rebuilds the message from the sections, then R_EndReceive with
  the same handle and dwRequestId removes it (RR_ACK) or gives it back (RR_NACK,
  when the rebuild failed).

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1", "m2" and "m3" in "orders"
    And the application opens "orders" to receive

  @clause:MS-MQRR:3.2.4.4.1:01 @clause:MS-MQRR:3.1.4.7:01 @clause:MS-MQRR:3.1.4.9:01
  Scenario: A receive is started, the message rebuilt, and the receive ended with RR_ACK
    When the application receives from "orders"
    Then the application is told of success
    And the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the client ended every receive that returned a message, by its handle and dwRequestId
    And the judge's "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.2.4.4.1:01 @clause:MS-MQRR:3.1.4.9:03
  Scenario: A message that cannot be rebuilt is given back with RR_NACK
    Given the judge will damage the packet sections of the next R_StartReceive
    When the application receives from "orders"
    Then the application is told of a failure
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the client sent only RR_ACK or RR_NACK as dwAck
    And the judge's "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.2.4.4.1:02
  Scenario: A receive whose R_EndReceive fails is reported as a success or as End's failure
    Given the judge will answer MQ_ERROR_INVALID_HANDLE to the next R_EndReceive
    When the application receives from "orders"
    Then the application gets "m1" or is told MQ_ERROR_INVALID_HANDLE
    And the client ended every receive that returned a message, by its handle and dwRequestId

  @clause:MS-MQRR:3.2.4.4.1:01
  Scenario: A message is received by its lookup id
    When the application peeks at "orders"
    And the application receives "m1" in "orders" by its lookup id
    Then the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "orders" holds "m2" and "m3"
