Feature: MS-MQDMPR 3.1.1 Abstract Data Model
  What the model marks Persistent or Directory outlives a restart of the queue
  manager; everything else, such as open handles and two-phase reads, does not.

  Background:
    Given a queue "orders"
    And these messages were sent to "orders":
      | label | delivery    |
      | r1    | recoverable |
      | e1    | express     |
      | r2    | recoverable |
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.1:01 @clause:MS-MQDMPR:3.1.1.12:03
  Scenario: The queue and its recoverable messages survive a restart, express messages do not
    When the queue manager restarts
    Then "orders" holds "r1" and "r2"

  # D-44: MS-MQRR 3.1.4.7 asks only for "a failure HRESULT" for a handle it does not find
  @clause:MS-MQDMPR:3.1.1:01 @decision:D-44
  Scenario: An open queue handle does not survive a restart
    Given the client keeps a copy of handle "h"
    When the queue manager restarts
    And the client uses the handle "h" from before the restart
    And the client peeks at "h"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  @clause:MS-MQDMPR:3.1.1:01
  Scenario: The same queue opened again after a restart is usable
    When the queue manager restarts
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And the client receives from "h"
    Then the message returned is "r1"
    And "orders" holds "r2"

  @clause:MS-MQDMPR:3.1.1:01 @clause:MS-MQDMPR:3.1.1.11:02
  Scenario: A message held by a two-phase receive is free again after a restart
    When the client starts a receive on "h" as "r"
    Then the message returned is "r1"
    And "orders" holds "e1" and "r2"
    When the queue manager restarts
    Then "orders" holds "r1" and "r2"

  @clause:MS-MQDMPR:3.1.1:01
  Scenario: A message purged while a two-phase receive held it is deleted at the restart
    Given a queue "held"
    And a queue "admin"
    And these messages were sent to "held":
      | label | delivery    | acknowledgements | admin queue |
      | r0    | recoverable | negative receive | admin       |
    And "held" is opened with RECEIVE_ACCESS as "hh"
    When the client starts a receive on "hh" as "r"
    Then the message returned is "r0"
    When the client purges the queue behind "hh"
    Then the acknowledgment classes for "r0" in "admin" are none
    When the queue manager restarts
    Then "held" holds nothing
    And the acknowledgment classes for "r0" in "admin" are MQMSG_CLASS_NACK_Q_PURGED

  @clause:MS-MQDMPR:3.1.1:02
  Scenario: The queue manager keeps its identifier across a restart
    Given the queue manager's identifier is noted
    When the queue manager restarts
    Then the queue manager's identifier is the noted one

  @clause:MS-MQDMPR:3.1.1:02
  Scenario: Messages sent before and after a restart name the same source queue manager
    When the queue manager restarts
    And message "a1" is sent to "orders"
    And every message in "orders" is peeked
    Then the packets of "r1" and "a1" name the same source queue manager
