Feature: MS-MQRR 2.2.5 Message Packet Structure: what a reader ignores (client)
  Whoever reads a packet ignores the ExtensionHeader's unused flag bits and reserved
  bytes, a SubqueueHeader whose SubqueueName is empty, and an ExtendedAddressHeader
  whose AddressType is 0. The judge fills those fields in; a client rebuilds the same
  message as without them and takes it (RR_ACK).

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1" and "m2" in "orders"
    And the application opens "orders" to receive

  @clause:MS-MQRR:2.2.5.2:06 @clause:MS-MQRR:2.2.5.3:01 @clause:MS-MQRR:2.2.5.5:01
  Scenario: A packet whose ignored fields are filled in is received like any other
    Given the judge will fill the ignored fields of the packet of the next R_StartReceive
    When the application receives from "orders"
    Then the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "orders" holds "m2"

  @clause:MS-MQRR:2.2.5.2:06 @clause:MS-MQRR:2.2.5.3:01 @clause:MS-MQRR:2.2.5.5:01
  Scenario: A packet cut into two sections whose ignored fields are filled in is received like any other
    Given the judge will fill the ignored fields of the packet of the next R_StartReceive
    When the application receives from "orders" wanting at most 4 bytes of body
    Then the application gets the first 4 bytes of "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
