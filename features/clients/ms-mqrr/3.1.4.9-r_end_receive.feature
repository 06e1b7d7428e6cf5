Feature: MS-MQRR 3.1.4.9 R_EndReceive (client)
  R_EndReceive reports the receipt of a packet R_StartReceive returned, with the same
  live handle and dwRequestId, and dwAck RR_ACK or RR_NACK.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds the queue "other"
    And the judge holds "m1" and "m2" in "orders"
    And the judge holds "o1" in "other"
    And the application opens "orders" to receive
    And the application opens "other" to receive

  @clause:MS-MQRR:3.1.4.9:01 @clause:MS-MQRR:3.1.4.9:02 @clause:MS-MQRR:3.1.4.9:03
  Scenario: Receives on two queues each end on their own handle
    When the application receives from "orders"
    And the application receives from "other"
    And the application receives from "orders"
    Then the client ended every receive that returned a message, by its handle and dwRequestId
    And the client ended and cancelled with the handle and dwRequestId of a start
    And the client sent only RR_ACK or RR_NACK as dwAck
    And the judge's "orders" holds nothing
