Feature: MS-MQDMPR 3.1.7.2.1 Message Position Deleted and 3.1.7.2.2 Message Position Available
  A message that leaves its queue stops counting and cannot be found; one that becomes readable counts
  once and is offered to the waiting readers in order, up to the first that takes it.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.7.2.1:01
  Scenario: A received message no longer counts against the queue's quota
    Given a queue "small" with a quota of 2 KB
    And "small" is opened with RECEIVE_ACCESS as "s"
    And message "first" is sent to "small" with:
      | body size | 1200 |
    When message "second" is sent to "small" with:
      | body size | 1200 |
    Then the send is accepted with status 1
    When the client receives from "s"
    And message "third" is sent to "small" with:
      | body size | 1200 |
    Then the send is accepted with status 0

  @clause:MS-MQDMPR:3.1.7.2.1:01
  Scenario: A removed message is out of the queue: a cursor resting on it moves on to its successor
    Given "inbox" holds "m1", "m2" and "m3"
    And "inbox" is opened with RECEIVE_ACCESS as "other"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client receives from "other"
    Then "inbox" holds "m2" and "m3"
    When cursor "c" peeks the next message
    Then the message returned is "m2"

  @clause:MS-MQDMPR:3.1.7.2.2:01
  Scenario: A message that comes back after a two-phase read is readable again and still counts once
    Given a queue "small" with a quota of 2 KB
    And "small" is opened with RECEIVE_ACCESS as "s"
    And message "first" is sent to "small" with:
      | body size | 1200 |
    When the client starts a receive on "s" as "r"
    And the client ends "r" with RR_NACK
    Then "small" holds "first"
    When message "second" is sent to "small" with:
      | body size | 1200 |
    Then the send is accepted with status 1
    When the client receives from "s"
    And message "third" is sent to "small" with:
      | body size | 1200 |
    Then the send is accepted with status 0

  @clause:MS-MQDMPR:3.1.7.2.2:02
  Scenario: A new message goes to the first waiting receiver only; the readers behind it keep waiting
    When the client waits on "h" for up to INFINITE ms in the background as "r1"
    And the client waits on "h" for up to INFINITE ms in the background as "r2"
    And in the background, the client peeks at "h" with a time-out of INFINITE ms as "p"
    And message "m1" is sent to "inbox"
    And the background call "r1" completes
    Then the message returned is "m1"
    And the background call "r2" is still waiting
    And the background call "p" is still waiting
    When message "m2" is sent to "inbox"
    And the background call "r2" completes
    Then the message returned is "m2"
    And the background call "p" is still waiting
    When message "m3" is sent to "inbox"
    And the background call "p" completes
    Then the message returned is "m3"

  @clause:MS-MQDMPR:3.1.7.2.2:02
  Scenario: Peekers waiting ahead of a receiver all see the new message before the receiver takes it
    Given cursor "c" is created on "h"
    When in the background, the client peeks at "h" with a time-out of INFINITE ms as "p1"
    And in the background, cursor "c" peeks at the current message with a time-out of INFINITE ms as "p2"
    And the client waits on "h" for up to INFINITE ms in the background as "r"
    And message "m1" is sent to "inbox"
    And the background call "p1" completes
    Then the message returned is "m1"
    When the background call "p2" completes
    Then the message returned is "m1"
    When the background call "r" completes
    Then the message returned is "m1"
    And "inbox" holds nothing

  @clause:MS-MQDMPR:3.1.7.2.2:02 @clause:MS-MQDMPR:3.1.7.1.12:03
  Scenario: A message put back by the end of a two-phase read goes to a reader waiting for one
    Given "inbox" holds "m1"
    When the client starts a receive on "h" as "first"
    And the client waits on "h" for up to INFINITE ms in the background as "second"
    Then the background call "second" is still waiting
    When the client ends "first" with RR_NACK
    And the background call "second" completes
    Then the call returns MQ_OK
    And the message returned is "m1"

  @clause:MS-MQDMPR:3.1.7.2.2:02
  Scenario: A message put back by an aborted transaction goes to a reader waiting for one
    Given a transactional queue "ledger"
    And messages "m1" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "l" as "first"
    And the client waits on "l" for up to INFINITE ms in the background as "second"
    And transaction "t" is aborted
    And the background call "second" completes
    Then the call returns MQ_OK
    And the message returned is "m1"
