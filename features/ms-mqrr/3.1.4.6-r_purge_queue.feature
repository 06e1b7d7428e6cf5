Feature: MS-MQRR 3.1.4.6 R_PurgeQueue (Opnum 6)
  R_PurgeQueue empties the queue behind a handle, but only a handle opened for
  receiving may do it; any other handle is told that access is denied.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.6:03
  Scenario: A receiving handle purges every message of its queue
    Given "orders" is opened with RECEIVE_ACCESS as "h"
    When R_PurgeQueue is called on "h"
    Then the call returns MQ_OK
    And "orders" holds nothing

  @clause:MS-MQRR:3.1.4.6:03
  Scenario: A purge touches only the queue behind the handle
    Given a queue "other"
    And "other" holds "o1"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When R_PurgeQueue is called on "h"
    Then the call returns MQ_OK
    And "orders" holds nothing
    And "other" holds "o1"

  @clause:MS-MQRR:3.1.4.6:03
  Scenario: A message held by an unfinished receive goes once that receive gives it back
    Given "orders" is opened with RECEIVE_ACCESS as "h"
    When the client starts a receive on "h" as "r"
    And R_PurgeQueue is called on "h"
    Then the call returns MQ_OK
    And "orders" holds nothing
    When the client ends "r" with RR_NACK
    Then "orders" holds nothing

  @clause:MS-MQRR:3.1.4.6:03
  Scenario: Purging an empty queue succeeds
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "h"
    When R_PurgeQueue is called on "h"
    Then the call returns MQ_OK
    And "empty" holds nothing

  @clause:MS-MQRR:3.1.4.6:04
  Scenario Outline: A handle without receive access is denied and the messages stay (<access>)
    Given "orders" is opened with <access> as "h"
    When R_PurgeQueue is called on "h"
    Then the call returns STATUS_ACCESS_DENIED
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | access      |
      | PEEK_ACCESS |

  # D-42: a dwAccess outside the table of 3.1.4.2 gives a peeking handle, or R_OpenQueue refuses it
  @clause:MS-MQRR:3.1.4.6:04 @decision:D-42
  Scenario Outline: A dwAccess outside the table gives a handle that may not purge, or no handle (<access>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess |
      | orders       | <access> |
    Then by D-42 the call returns MQ_OK (any-is-peek) or MQ_ERROR_INVALID_PARAMETER (refuse-unknown)
    And where D-42 is any-is-peek, a purge through "h" is refused with STATUS_ACCESS_DENIED
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | access      |
      | SEND_ACCESS |
      | 0x00000000  |

  @clause:MS-MQRR:3.1.4.6:04
  Scenario: A handle opened for a move is denied
    Given a subqueue "sub" of "orders"
    And "orders;sub" is opened for move as "mv"
    When R_PurgeQueue is called on "mv"
    Then the call returns STATUS_ACCESS_DENIED

  # D-44: 3.1.4.6 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.6:02 @decision:D-44
  Scenario: A handle the server never issued is refused
    Given a queue handle "forged" that the server never issued
    When R_PurgeQueue is called on "forged"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.6:02 @decision:D-44
  Scenario: A closed handle is refused
    Given "orders" is opened with RECEIVE_ACCESS as "h"
    And R_CloseQueue is called on "h"
    When R_PurgeQueue is called on "h"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And "orders" holds "m1", "m2" and "m3"

  # D-46: Purge Queue on no queue purges nothing, and the last step of 3.1.4.6 returns MQ_OK; or a failure
  @clause:MS-MQRR:3.1.4.6:03 @decision:D-46
  Scenario: A receiving handle whose queue was deleted cannot purge, or purges nothing
    Given "orders" is opened with RECEIVE_ACCESS as "h"
    And queue "orders" is deleted
    When R_PurgeQueue is called on "h"
    Then by D-46 the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available) or MQ_OK (purge-ok) or any other failure (other-failure)
