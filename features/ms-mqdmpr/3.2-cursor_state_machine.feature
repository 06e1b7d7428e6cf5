Feature: MS-MQDMPR 3.2 Cursor: 3.2.1.2 State Definition and the events of 3.2.7
  A cursor is Unread, Read, WaitPeek or WaitReceive; peeks, receives, new messages and expired waits
  move it between these states and along the queue.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"
    And "inbox" is opened with RECEIVE_ACCESS as "other"

  @clause:MS-MQDMPR:3.2.1.2:01
  Scenario: Every cursor of the queue manager has its own handle
    Given a queue "elsewhere"
    And "elsewhere" is opened with PEEK_ACCESS as "e"
    And cursor "c1" is created on "h"
    And cursor "c2" is created on "h"
    And cursor "c3" is created on "other"
    And cursor "c4" is created on "e"
    Then the cursors "c1", "c2", "c3" and "c4" all have different handles

  # 3.2.7.2 - 3.2.7.4 define no transition for a cursor in WaitReceive or WaitPeek, and MSDN calls a
  # second read on a busy cursor undefined: the server refuses it, in any way (D-12), and the
  # read that waits is not disturbed.
  @clause:MS-MQDMPR:3.2.1.2:01 @decision:D-12
  Scenario Outline: A read through a cursor whose receive is waiting is refused and changes nothing
    Given cursor "c" is created on "h"
    When in the background, cursor "c" receives with a time-out of 5000 ms as "r"
    And cursor "c" <read>
    Then by D-12 the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION (refuse) or any other failure (other-failure)
    And no message is returned
    When message "m1" is sent to "inbox"
    And the background call "r" completes
    Then the message returned is "m1"
    When the client ends "r" with RR_ACK
    Then "inbox" holds nothing

    Examples:
      | read                      |
      | peeks the current message |
      | peeks the next message    |
      | receives                  |

  # D-12 again, with a second read that could wait: it fails at once instead of waiting as well.
  @clause:MS-MQDMPR:3.2.1.2:01 @decision:D-12
  Scenario Outline: A read that may wait, through a cursor whose read is waiting, is refused at once
    Given cursor "c" is created on "h"
    When in the background, cursor "c" <waiting read> with a time-out of 5000 ms as "r"
    And in the background, cursor "c" <read> with a time-out of 5000 ms as "r2"
    And the background call "r2" completes
    Then by D-12 the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION (refuse) or any other failure (other-failure)
    And no message is returned
    When message "m1" is sent to "inbox"
    And the background call "r" completes
    Then the message returned is "m1"

    Examples:
      | waiting read                 | read                         |
      | receives                     | peeks at the current message |
      | receives                     | peeks at the next message    |
      | receives                     | receives                     |
      | peeks at the current message | peeks at the next message    |

  @clause:MS-MQDMPR:3.2.1.2:01 @clause:MS-MQDMPR:3.2.7.1:01
  Scenario: A new cursor starts Unread before the first message
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    When cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.2.7.1:01
  Scenario: A receive through a new cursor takes the first message
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When cursor "c" receives
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.2.7.2:01
  Scenario: Peeking at the current message through an Unread cursor moves it to the next readable message
    Given "inbox" holds "m1", "m2" and "m3"
    And cursor "c" is created on "h"
    When the client starts a receive on "other" as "r"
    And cursor "c" peeks the current message
    Then the message returned is "m2"
    When cursor "c" receives
    And cursor "c" peeks the current message
    Then the message returned is "m3"

  @clause:MS-MQDMPR:3.2.7.2:01 @clause:MS-MQDMPR:3.2.7.5:01
  Scenario: Peeking at the current message through an Unread cursor at the end waits, and the new message makes it Read
    Given cursor "c" is created on "h"
    When in the background, cursor "c" peeks at the current message with a time-out of INFINITE ms as "p"
    And message "new" is sent to "inbox"
    And the background call "p" completes
    Then the message returned is "new"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "newer" is sent to "inbox"
    And cursor "c" peeks the current message
    Then the message returned is "newer"

  @clause:MS-MQDMPR:3.2.7.2:02
  Scenario: Peeking at the current message through a Read cursor returns the same message while it is readable
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And cursor "c" peeks the current message
    Then the message returned is "m1"
    When the client starts a receive on "other" as "r"
    And cursor "c" peeks the current message
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    When the client ends "r" with RR_NACK
    And cursor "c" peeks the current message
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.2.7.3:01
  Scenario Outline: Peeking at the next message through an Unread cursor is illegal
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When <made unread>
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION

    Examples:
      | made unread                  |
      | cursor "c" is created on "h" |
      | cursor "c" receives          |

  @clause:MS-MQDMPR:3.2.7.3:02
  Scenario: Peeking at the next message through a Read cursor walks the readable messages
    Given "inbox" holds "m1", "m2", "m3" and "m4"
    And cursor "c" is created on "h"
    When the client receives "m3" by lookup id with MQ_LOOKUP_RECEIVE_CURRENT on "other"
    And the client starts a lookup receive of "m2" with MQ_LOOKUP_RECEIVE_CURRENT on "other" as "r"
    And cursor "c" peeks the current message
    Then the message returned is "m1"
    When cursor "c" peeks the next message
    Then the message returned is "m4"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQDMPR:3.2.7.3:02 @clause:MS-MQDMPR:3.2.7.5:01
  Scenario: Peeking at the next message through a Read cursor at the end waits for the next message
    Given "inbox" holds "m1"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And in the background, cursor "c" peeks at the next message with a time-out of INFINITE ms as "p"
    And message "m2" is sent to "inbox"
    And the background call "p" completes
    Then the message returned is "m2"
    When cursor "c" peeks the current message
    Then the message returned is "m2"

  @clause:MS-MQDMPR:3.2.7.4:01 @decision:D-03
  Scenario: A receive through an Unread cursor takes the next readable message after it
    Given "inbox" holds "m1", "m2" and "m3"
    And cursor "c" is created on "h"
    When cursor "c" receives
    Then the message returned is "m1"
    When the client starts a lookup receive of "m2" with MQ_LOOKUP_RECEIVE_CURRENT on "other" as "r"
    And cursor "c" receives
    Then the message returned is "m3"
    When cursor "c" receives
    Then by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)

  # iNoWait (a zero time-out) ends in NotFound with no wait, so no Wait Time Expired parks the cursor at End
  # (3.1.7.1.10 step 2); D-03 chooses only the status of that failure
  @clause:MS-MQDMPR:3.2.7.4:01 @decision:D-03
  Scenario: A receive through an Unread cursor that may not wait and finds nothing leaves the cursor where it was
    Given cursor "c" is created on "h"
    When cursor "c" receives
    Then by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)
    When message "new" is sent to "inbox"
    And cursor "c" receives
    Then the message returned is "new"

  @clause:MS-MQDMPR:3.2.7.4:01 @clause:MS-MQDMPR:3.2.7.5:01
  Scenario: A receive through an Unread cursor that may wait takes the new message and leaves the cursor Unread
    Given cursor "c" is created on "h"
    When in the background, cursor "c" receives with a time-out of INFINITE ms as "r"
    And message "new" is sent to "inbox"
    And the background call "r" completes
    Then the message returned is "new"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION

  @clause:MS-MQDMPR:3.2.7.4:02
  Scenario: A receive through a Read cursor takes the message it rests on and leaves it Unread
    Given "inbox" holds "m1", "m2" and "m3"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And cursor "c" peeks the next message
    And cursor "c" receives
    Then the message returned is "m2"
    And "inbox" holds "m1" and "m3"
    When cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    When cursor "c" peeks the current message
    Then the message returned is "m3"

  @clause:MS-MQDMPR:3.2.7.4:02
  Scenario: A receive through a Read cursor whose message is locked reports MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    Given "inbox" holds "m1" and "m2"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client starts a receive on "other" as "r"
    And cursor "c" receives
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    And "inbox" holds "m2"

  # Unread at End: peek-next is illegal; what a seek from End finds is D-11's (nothing, or the
  # messages that came since), and a receive that finds nothing fails as D-03 says.
  @clause:MS-MQDMPR:3.2.7.6:01 @decision:D-03 @decision:D-11
  Scenario: A receive through a cursor that times out leaves the cursor Unread past the end
    Given "inbox" holds "m1"
    And cursor "c" is created on "h"
    When cursor "c" receives
    And in the background, cursor "c" receives with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "m2" is sent to "inbox"
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    When cursor "c" peeks the current message
    Then by D-11 the message returned is "m2" (end-sees-arrivals) or the call fails (parked-end)
    And where D-11 is parked-end, the call returns MQ_ERROR_IO_TIMEOUT
    When cursor "c" receives
    Then by D-11 the message returned is "m2" (end-sees-arrivals) or the call fails (parked-end)
    And where D-11 is parked-end, by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)
    And by D-11 "inbox" holds "m2" (parked-end) or nothing (end-sees-arrivals)

  @clause:MS-MQDMPR:3.2.7.6:01
  Scenario: A peek through a cursor that times out leaves the cursor Unread where it was
    Given "inbox" holds "m1"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And in the background, cursor "c" peeks at the next message with a time-out of 1000 ms as "p"
    And 2 seconds pass
    And the background call "p" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "m2" is sent to "inbox"
    And cursor "c" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    When cursor "c" peeks the current message
    Then the message returned is "m2"
