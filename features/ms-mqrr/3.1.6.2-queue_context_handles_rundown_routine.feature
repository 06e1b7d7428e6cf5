Feature: MS-MQRR 3.1.6.2 Queue Context Handles Rundown Routine
  When the RPC runtime runs a client's queue context handles down, the server closes the
  queue and gives back every message the client's unfinished receives held.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And a second client "B"

  @clause:MS-MQRR:3.1.6.2:01
  Scenario Outline: A message a lost client was receiving goes back to its place (<how>)
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And <receive>
    Then "orders" holds <left>
    When client "B" <goes>
    Then "orders" holds "m1", "m2" and "m3"

    Examples:
      | how                    | receive                                                                                  | left          | goes                                              |
      | a receive, lost        | the client starts a receive on "hb" as "r"                                               | "m2" and "m3" | loses its connection                              |
      | a lookup receive, lost | the client starts a lookup receive of "m2" with MQ_LOOKUP_RECEIVE_CURRENT on "hb" as "r" | "m1" and "m3" | loses its connection                              |
      | a receive, closed      | the client starts a receive on "hb" as "r"                                               | "m2" and "m3" | closes its connection without closing its handles |

  @clause:MS-MQRR:3.1.6.2:01
  Scenario: Every unfinished receive of a lost client is given back
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And the client starts a receive on "hb" as "r1"
    And the client starts a receive on "hb" as "r2"
    Then "orders" holds "m3"
    When client "B" loses its connection
    Then "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.6.2:01
  Scenario: The server itself sees the message Available again, not a copy
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And the client starts a receive on "hb" as "r"
    Then "orders" lists these messages:
      | label | state     |
      | m1    | Locked    |
      | m2    | Available |
      | m3    | Available |
    When client "B" loses its connection
    Then "orders" lists these messages:
      | label | state     |
      | m1    | Available |
      | m2    | Available |
      | m3    | Available |

  @clause:MS-MQRR:3.1.6.2:01
  Scenario: A lost client's receive does not disturb another client's receive of the same queue
    Given "orders" is opened with RECEIVE_ACCESS as "h"
    When the client starts a receive on "h" as "ra"
    Then the message returned is "m1"
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And the client starts a receive on "hb" as "rb"
    Then the message returned is "m2"
    When client "B" loses its connection
    Then "orders" holds "m2" and "m3"
    When the client ends "ra" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.6.2:01
  Scenario: A message purged while a lost client held it is not brought back
    Given "orders" is opened with RECEIVE_ACCESS as "h"
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And the client starts a receive on "hb" as "r"
    Then the message returned is "m1"
    When the first client makes the calls again
    And the client purges the queue through "h"
    Then "orders" lists these messages:
      | label | state        |
      | m1    | PurgePending |
    When client "B" loses its connection
    Then "orders" lists no messages
