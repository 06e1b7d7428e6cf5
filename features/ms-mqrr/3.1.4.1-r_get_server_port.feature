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

  @clause:MS-MQRR:3.1.4.1:01
  Scenario: The port R_GetServerPort names serves RemoteRead
    Given the calls travel over DCE/RPC
    When R_GetServerPort is called
    And a new TCP connection to the port returned binds RemoteRead 1.0 offering NDR 2.0
    Then the bind accepts NDR 2.0
    And R_GetServerPort called on that connection returns the same port
