Feature: MS-MQRR 2.1 Transport (client)
  RemoteRead runs over RPC (MS-RPCE): whichever transfer syntax the client binds, NDR 2.0 or NDR64,
  each request stub it sends is that syntax's encoding of the method's arguments.  In NDR64 a
  structure's size is a multiple of its alignment (MS-RPCE 2.2.5.3.4.1), so a QUEUE_FORMAT whose
  union holds an OBJECTID (a PRIVATE= format name) is followed by 4 octets of pad before dwAccess.

  @clause:MS-MQRR:2.1:04
  Scenario: A queue opened by its PRIVATE= format name is opened by a stub that decodes
    Given the judge holds the queue "orders"
    And the judge holds "m1" and "m2" in "orders"
    When the application opens "orders" by its PRIVATE= format name to receive
    And the application peeks at "orders"
    And the application receives from "orders"
    Then the client sent only request stubs that decode in the transfer syntax it bound
    And the application gets "m1"
