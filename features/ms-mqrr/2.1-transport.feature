Feature: MS-MQRR 2.1 Transport
  RemoteRead is RPC over TCP/IP (ncacn_ip_tcp): a client that opens a TCP connection to the
  server and binds the RemoteRead interface, version 1.0, is answered; a server that has not
  finished starting does not take calls.

  @clause:MS-MQRR:2.1:01 @clause:MS-MQRR:3.1.3:01
  Scenario: A new TCP connection to the target binds RemoteRead 1.0 and is answered
    Given the calls travel over DCE/RPC
    When a new TCP connection to the target binds RemoteRead 1.0 offering NDR 2.0
    Then the bind accepts NDR 2.0
    And R_GetServerPort called on that connection returns the port of the connection
