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

  # The first port is the one the server answered on before the restart: its configured port.
  @clause:MS-MQRR:3.1.4.1:02
  Scenario Outline: A queue manager that finds its port taken as it starts serves 11 higher per port taken (<taken> taken)
    Given a queue "orders"
    And message "m1" is sent to "orders" with:
      | delivery | recoverable |
    When the queue manager restarts while <taken> <ports> of its sequence <are> held by another program
    And R_GetServerPort is called
    Then the port returned is the first port plus <step>
    When "orders" is opened with RECEIVE_ACCESS as "h"
    And the client receives from "h"
    Then the message returned is "m1"

    Examples:
      | taken | ports | are | step |
      | 0     | ports | are | 0    |
      | 1     | port  | is  | 11   |
      | 2     | ports | are | 22   |
