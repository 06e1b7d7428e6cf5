Feature: MS-MQDMPR 3.1.2.4 Time To Be Received Timer and 3.1.7.2.7 Time To Be Received Timer Expired
  A message with a finite time to be received is removed as NackReceiveTimeout when its timer fires,
  unless it already left the queue; a transaction that holds it gets the removal instead.

  Background:
    Given a queue "admin"
    And a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.2.4:01
  Scenario Outline: A message stays readable until its time to be received has passed
    Given message "m" is sent to "inbox" with:
      | time to be received | <seconds> |
    When <before> seconds pass
    Then "inbox" holds "m"
    When <after> seconds pass
    Then "inbox" holds <left>

    Examples:
      | seconds  | before | after      | left    |
      | 10       | 8      | 3          | nothing |
      | 120      | 110    | 11         | nothing |
      | 86400    | 86390  | 11         | nothing |
      | INFINITE | 600    | 86400      | "m"     |
      | INFINITE | 600    | 4294967296 | "m"     |

  # TimeToBeReceived is relative to SentTime (3.1.1.12), but 3.1.2.4 starts its timer at Enqueue
  # Message with that duration: either is a deadline a server may keep (D-09).
  @clause:MS-MQDMPR:3.1.2.4:01 @decision:D-09
  Scenario: The time to be received counts from when the message was sent, or from when it arrived
    Given message "m" is sent to "inbox" with:
      | sent                | 50 seconds ago |
      | time to be received | 60             |
    When 5 seconds pass
    Then "inbox" holds "m"
    When 7 seconds pass
    Then by D-09 "inbox" holds nothing (sent-time) or "m" (enqueue-time)
    When 50 seconds pass
    Then "inbox" holds nothing

  @clause:MS-MQDMPR:3.1.2.4:01 @clause:MS-MQDMPR:3.1.7.2.7:02
  Scenario: A message whose time to be received is zero expires at once
    Given message "m" is sent to "inbox" with:
      | time to be received | 0                |
      | acknowledgements    | negative receive |
      | admin queue         | admin            |
    Then "inbox" holds nothing
    And the acknowledgments of "m" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT

  @clause:MS-MQDMPR:3.1.2.4:01
  Scenario: The timer of a message that was received before it fired changes nothing
    Given message "m" is sent to "inbox" with:
      | time to be received | 10                                    |
      | acknowledgements    | positive receive and negative receive |
      | admin queue         | admin                                 |
    When the client receives from "h"
    And 20 seconds pass
    Then the acknowledgments of "m" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  # A purged message its reader still holds is PurgePending, still in the queue: its timer removes it (3.1.7.2.7)
  @clause:MS-MQDMPR:3.1.2.4:01 @clause:MS-MQDMPR:3.1.7.2.7:02
  Scenario: A message marked for purging while its reader holds it expires when its time to be received passes
    Given message "m" is sent to "inbox" with:
      | time to be received | 10               |
      | acknowledgements    | negative receive |
      | admin queue         | admin            |
    When the client starts a receive on "h" as "r"
    And the client purges the queue through "h"
    And 20 seconds pass
    Then the acknowledgments of "m" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT

  # D-26 on-delivery: a non-transactional message in its queue was delivered, so its expiry makes no copy
  @clause:MS-MQDMPR:3.1.7.2.7:02 @decision:D-26
  Scenario: An expired message is removed with reason NackReceiveTimeout
    Given message "m" is sent to "inbox" with:
      | time to be received | 10               |
      | acknowledgements    | negative receive |
      | admin queue         | admin            |
      | dead letter         | yes              |
    When 11 seconds pass
    Then "inbox" holds nothing
    And the acknowledgments of "m" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    And by D-26 the messages in "the dead-letter queue" are, front to back (on-removal), or none (on-delivery):
      | label | class                            |
      | m     | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |

  @clause:MS-MQDMPR:3.1.7.2.7:02
  Scenario: A message locked by a two-phase receive is removed when it expires
    Given message "m" is sent to "inbox" with:
      | time to be received | 10               |
      | acknowledgements    | negative receive |
      | admin queue         | admin            |
    When the client starts a receive on "h" as "r"
    And 11 seconds pass
    Then the acknowledgments of "m" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    When the client ends "r" with RR_NACK
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And "inbox" holds nothing

  @clause:MS-MQDMPR:3.1.7.2.7:01
  Scenario: A message that expires inside a receiving transaction is removed by that transaction, even on abort
    Given a transactional queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "t-h"
    And these messages were committed to "orders":
      | label | time to be received | acknowledgements | admin queue | dead letter |
      | m     | 10                  | negative receive | admin       | yes         |
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "t-h" as "r"
    And 11 seconds pass
    Then the acknowledgments of "m" in "admin" are none
    When transaction "t" is aborted
    Then "orders" holds nothing
    And the acknowledgments of "m" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    And the messages in "the transactional dead-letter queue" are, front to back:
      | label | class                            |
      | m     | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |

  @clause:MS-MQDMPR:3.1.7.2.7:01
  Scenario: A message that expires before its sending transaction commits is removed at the commit
    Given a transactional queue "orders"
    And the client begins transaction "t"
    And in transaction "t", message "m" is sent to "orders" with:
      | time to be received | 10               |
      | acknowledgements    | negative receive |
      | admin queue         | admin            |
    When 11 seconds pass
    Then the acknowledgments of "m" in "admin" are none
    When transaction "t" is committed
    Then "orders" holds nothing
    And the acknowledgments of "m" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
