Feature: MS-MQDMPR 3.1.7.1.14 Peek Next Message and 3.1.7.1.15 Peek Message
  A peek returns the first readable message, or the one its cursor designates, without taking it;
  a peek that waits gets the new message, moves its cursor there and lets the next reader have it.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"
    And "inbox" is opened with RECEIVE_ACCESS as "other"

  @clause:MS-MQDMPR:3.1.7.1.14:01
  Scenario: Peeking at the next message through a cursor that never read is an illegal cursor action
    Given "inbox" holds "m1"
    And cursor "c" is created on "h"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    And no message is returned

  @clause:MS-MQDMPR:3.1.7.1.14:01
  Scenario: Peeking at the next message through a cursor that has just received is an illegal cursor action
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When cursor "c" receives
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION

  @clause:MS-MQDMPR:3.1.7.1.14:02
  Scenario: A waiting peek at the next message gets the new message, moves its cursor there and lets the next reader have it
    Given "inbox" holds "m1"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client receives from "other"
    And in the background, cursor "c" peeks at the next message with a time-out of INFINITE ms as "peek"
    And the client waits on "h" for up to INFINITE ms in the background as "receive"
    And message "m2" is sent to "inbox"
    And the background call "peek" completes
    Then the call returns MQ_OK
    And the message returned is "m2"
    When the background call "receive" completes
    Then the call returns MQ_OK
    And the message returned is "m2"
    When the client ends "receive" with RR_NACK
    And cursor "c" peeks the current message
    Then the message returned is "m2"

  @clause:MS-MQDMPR:3.1.7.1.15:01
  Scenario: Peeking through a cursor whose message was received reports MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client receives from "other"
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    And no message is returned

  @clause:MS-MQDMPR:3.1.7.1.15:01
  Scenario: Peeking through a cursor whose message is locked reports MQ_ERROR_MESSAGE_ALREADY_RECEIVED until it comes back
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client starts a receive on "other" as "r"
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When the client ends "r" with RR_NACK
    And cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.1.7.1.15:02
  Scenario Outline: A peek without a cursor returns the first message a peek may see
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | <allowed>        |
      | m2    | no               |
    When the client starts a receive on "other" as "r"
    And the client peeks at "h"
    Then the message returned is "<found>"

    Examples:
      | allowed | found |
      | no      | m2    |
      | yes     | m1    |

  @clause:MS-MQDMPR:3.1.7.1.15:02
  Scenario: A peek without a cursor on an empty queue waits, returns the new message and leaves it there
    When in the background, the client peeks at "h" with a time-out of INFINITE ms as "p1"
    And in the background, the client peeks at "h" with a time-out of INFINITE ms as "p2"
    And message "new" is sent to "inbox"
    And the background call "p1" completes
    Then the message returned is "new"
    When the background call "p2" completes
    Then the message returned is "new"
    And "inbox" holds "new"
