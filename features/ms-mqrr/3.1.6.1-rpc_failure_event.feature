Feature: MS-MQRR 3.1.6.1 RPC Failure Event
  When a client's connection fails, the server closes every cursor of each queue the client
  had open and then the queue itself, so nothing the client held stays held.

  Background:
    Given a queue "orders"
    And a second client "B"

  # D-43: R_OpenQueue names no status for a failed Open Queue, only a failure
  @clause:MS-MQRR:3.1.6.1:01 @decision:D-43
  Scenario Outline: A client that <goes> no longer denies the queue to others
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS and MQ_DENY_SHARE as "hb"
    Then the call returns MQ_OK
    When the first client makes the calls again
    And "orders" is opened with RECEIVE_ACCESS as "h"
    Then by D-43 the call returns MQ_ERROR_SHARING_VIOLATION (open-status) or any other failure (other-failure)
    When client "B" <goes>
    And "orders" is opened with RECEIVE_ACCESS as "h"
    Then the call returns MQ_OK

    Examples:
      | goes                                              |
      | loses its connection                              |
      | closes its connection without closing its handles |

  @clause:MS-MQRR:3.1.6.1:01
  Scenario: A receive a lost client was waiting on does not take a later message
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And the client waits on "hb" for up to INFINITE ms in the background as "w"
    And client "B" loses its connection
    And message "late" is sent to "orders"
    Then "orders" holds "late"

  @clause:MS-MQRR:3.1.6.1:01
  Scenario: A cursor of a lost client that was waiting for a message does not take it
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And cursor "cb" is created on "hb"
    And in the background, cursor "cb" receives with a time-out of INFINITE ms as "w"
    And client "B" loses its connection
    And message "late" is sent to "orders"
    Then "orders" holds "late"

  @clause:MS-MQRR:3.1.6.1:01
  Scenario: The handles and cursors of the other clients stay open
    Given "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"
    When client "B" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "hb"
    And cursor "cb" is created on "hb"
    And client "B" loses its connection
    And cursor "c" peeks the current message
    Then the message returned is "m1"
    And "h" is a usable queue handle
