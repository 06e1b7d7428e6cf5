Feature: MS-MQDMPR 3.1.7.1.10 Dequeue Message, 3.1.7.1.11 Dequeue Message Begin and 3.1.7.1.12 Dequeue Message End
  A receive takes the first readable message, or the one its cursor picks, waiting if allowed;
  it locks it in a transaction or a two-phase read, whose end removes the message or puts it back.

  Background:
    Given a queue "admin"
    And a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.7.1.10:01 @clause:MS-MQDMPR:3.1.7.1.10:10
  Scenario Outline: A receive on a handle whose queue was deleted reports MQ_ERROR_QUEUE_NOT_AVAILABLE
    Given "inbox" holds "m1"
    And cursor "c" is created on "h"
    When queue "inbox" is deleted
    And <receive>
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE
    And no message is returned

    Examples:
      | receive                      |
      | the client receives from "h" |
      | cursor "c" receives          |

  @clause:MS-MQDMPR:3.1.7.1.10:03 @clause:MS-MQDMPR:3.1.7.1.10:10
  Scenario: A cursor resting on a message someone else received reports MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    Given "inbox" holds "m1" and "m2"
    And "inbox" is opened with RECEIVE_ACCESS as "other"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client receives from "other"
    And cursor "c" receives
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    And no message is returned
    And "inbox" holds "m2"

  @clause:MS-MQDMPR:3.1.7.1.10:03 @clause:MS-MQDMPR:3.1.7.1.10:10 @decision:D-03
  Scenario: A cursor receive without time-out that finds nothing fails at once
    Given cursor "c" is created on "h"
    When cursor "c" receives
    Then by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)
    And no message is returned

  @clause:MS-MQDMPR:3.1.7.1.10:03 @clause:MS-MQDMPR:3.1.7.1.10:04
  Scenario: A cursor receive that has to wait takes the new message, and the cursor moves to it
    Given cursor "c" is created on "h"
    When in the background, cursor "c" receives with a time-out of INFINITE ms as "r"
    And message "new" is sent to "inbox"
    And the background call "r" completes
    Then the call returns MQ_OK
    And the message returned is "new"
    When the client ends "r" with RR_ACK
    And message "before" is sent to "inbox" with:
      | priority | 7 |
    And message "after" is sent to "inbox" with:
      | priority | 3 |
    And cursor "c" peeks the current message
    Then the message returned is "after"

  # Parked at End, the cursor finds nothing after it (D-11 parked-end) or the messages that came since
  # (end-sees-arrivals); when it finds nothing, a receive that may not wait fails as D-03 says.
  @clause:MS-MQDMPR:3.1.7.1.10:04 @decision:D-03 @decision:D-11
  Scenario: A cursor receive whose wait times out leaves the cursor past the end of the queue
    Given cursor "c" is created on "h"
    When in the background, cursor "c" receives with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "later" is sent to "inbox"
    And cursor "c" receives
    Then by D-11 the message returned is "later" (end-sees-arrivals) or the call fails (parked-end)
    And where D-11 is parked-end, by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)
    And by D-11 "inbox" holds "later" (parked-end) or nothing (end-sees-arrivals)

  @clause:MS-MQDMPR:3.1.7.1.10:05 @clause:MS-MQDMPR:3.1.7.1.10:11
  Scenario: Without a cursor the receive takes the first message that is not locked
    Given "inbox" holds "m1", "m2" and "m3"
    When the client starts a receive on "h" as "first"
    Then the message returned is "m1"
    When the client starts a receive on "h" as "second"
    Then the message returned is "m2"
    When the client ends "first" with RR_NACK
    And the client receives from "h"
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.1.7.1.10:05
  Scenario: Without a cursor a receive on an empty queue waits for the next message
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    Then the background call "r" is still waiting
    When message "new" is sent to "inbox"
    And the background call "r" completes
    Then the call returns MQ_OK
    And the message returned is "new"

  # AllowPeekWhenLocked lets peeks see a locked message (3.1.7.3.2); it gives receives nothing
  @clause:MS-MQDMPR:3.1.7.1.10:11
  Scenario: A receive without a cursor passes over a locked message even when it allows peeks
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | yes              |
      | m2    | yes              |
    When the client starts a receive on "h" as "first"
    Then the message returned is "m1"
    When the client starts a receive on "h" as "second"
    Then the message returned is "m2"
    When the client receives from "h"
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQDMPR:3.1.7.1.10:11
  Scenario: Messages that are locked or marked for purging are never taken
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When the client starts a receive on "h" as "r1"
    And the client starts a receive on "h" as "r2"
    And the client purges the queue through "h"
    And message "m3" is sent to "inbox"
    And cursor "c" receives
    Then the message returned is "m3"
    When the client receives from "h"
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQDMPR:3.1.7.1.10:06
  Scenario Outline: A receive inside a transaction locks the message until the transaction decides
    Given a transactional queue "ledger"
    And these messages were committed to "ledger":
      | label | acknowledgements                      | admin queue |
      | m1    | positive receive and negative receive | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "l" as "r"
    Then the message returned is "m1"
    And "ledger" holds nothing
    And the acknowledgments of "m1" in "admin" are none
    When transaction "t" is <outcome>
    Then "ledger" holds <held>
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | outcome   | held    | acknowledgments         |
      | committed | nothing | MQMSG_CLASS_ACK_RECEIVE |
      | aborted   | "m1"    | none                    |

  @clause:MS-MQDMPR:3.1.7.1.10:07 @clause:MS-MQDMPR:3.1.7.1.11:01
  Scenario: A receive begins a two-phase read: the message is locked, not removed
    Given these messages were sent to "inbox":
      | label | acknowledgements                      | admin queue |
      | m1    | positive receive and negative receive | admin       |
      | m2    | none                                  |             |
    When the client starts a receive on "h" as "r"
    Then the message returned is "m1"
    And "inbox" holds "m2"
    And the acknowledgments of "m1" in "admin" are none
    When the client ends "r" with RR_NACK
    Then "inbox" holds "m1" and "m2"

  @clause:MS-MQDMPR:3.1.7.1.10:08 @clause:MS-MQDMPR:3.1.7.1.12:03
  Scenario: A receive ended with RR_ACK removes the message with reason AckReceive
    Given a queue "kept" with journaling
    And these messages were sent to "kept":
      | label | acknowledgements                      | admin queue | journal |
      | m1    | positive receive and negative receive | admin       | yes     |
    And "kept" is opened with RECEIVE_ACCESS as "k"
    When the client starts a receive on "k" as "r"
    And the client ends "r" with RR_ACK
    Then the call returns MQ_OK
    And "kept" holds nothing
    And the acknowledgments of "m1" in "admin" are MQMSG_CLASS_ACK_RECEIVE
    And "kept journal" holds "m1"
    And "the system journal" holds "m1"

  @clause:MS-MQDMPR:3.1.7.1.10:10
  Scenario: A receive without a cursor that would have to wait, but may not, reports MQ_ERROR_IO_TIMEOUT
    When the client receives from "h"
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And no message is returned

  @clause:MS-MQDMPR:3.1.7.1.10:10
  Scenario: A waiting receive that is cancelled reports the status of the cancel
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    And the client cancels "r"
    And the background call "r" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    And no message is returned

  @clause:MS-MQDMPR:3.1.7.1.10:12
  Scenario: The time-out of a receive counts milliseconds
    When the client waits on "h" for up to 2000 ms in the background as "r"
    And 1500 milliseconds pass
    Then the background call "r" is still waiting
    When 600 milliseconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQDMPR:3.1.7.1.12:01
  Scenario: Ending a read whose message is available again reports MQ_ERROR_TRANSACTION_SEQUENCE
    Given a transactional queue "ledger"
    And messages "m1" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "l" as "r"
    And transaction "t" is aborted
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    And "ledger" holds "m1"

  @clause:MS-MQDMPR:3.1.7.1.12:02 @decision:D-66
  Scenario Outline: Ending a transactional read changes nothing; the transaction still decides
    Given a transactional queue "ledger"
    And messages "m1" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "l" as "r"
    And the client ends transactional "r" with <ack>
    Then the call returns MQ_OK
    And <held>
    When transaction "t" is aborted
    Then "ledger" holds "m1"

    # MS-MQRR 3.1.4.15's RR_NACK may also take the message out of its transaction (D-66)
    Examples:
      | ack     | held                                                                    |
      | RR_ACK  | "ledger" holds nothing                                                  |
      | RR_NACK | by D-66 "ledger" holds "m1" (released) or nothing (stays-locked)        |

  @clause:MS-MQDMPR:3.1.7.1.12:03
  Scenario: A read ended with RR_NACK makes the message available again at its place
    Given "inbox" holds "m1" and "m2"
    When the client starts a receive on "h" as "r"
    And the client ends "r" with RR_NACK
    Then the call returns MQ_OK
    And "inbox" holds "m1" and "m2"
    When the client receives from "h"
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.1.7.1.12:03
  Scenario Outline: A read whose message was marked for purging removes it as purged, however it ends
    Given these messages were sent to "inbox":
      | label | acknowledgements                      | admin queue |
      | m1    | positive receive and negative receive | admin       |
    When the client starts a receive on "h" as "r"
    And the client purges the queue through "h"
    And the client ends "r" with <ack>
    Then the call returns MQ_OK
    And "inbox" holds nothing
    And the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_Q_PURGED

    Examples:
      | ack     |
      | RR_ACK  |
      | RR_NACK |
