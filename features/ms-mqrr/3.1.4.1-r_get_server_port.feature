@clause:MS-MQRR:3.1.4.1:04
Feature: MS-MQRR 3.1.4.1 R_GetServerPort (Opnum 0)
  Before binding for the other methods a client may ask which TCP port the RemoteRead
  interface listens on; a working server never answers with zero.

  Scenario: The server names a nonzero port for the RemoteRead interface
    When R_GetServerPort is called
    Then the port returned is a nonzero TCP port number

  Scenario: Asking again after queues were opened gives a port again
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When R_GetServerPort is called
    Then the port returned is a nonzero TCP port number
