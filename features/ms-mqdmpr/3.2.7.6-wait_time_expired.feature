Feature: MS-MQDMPR 3.2.7.6 Wait Time Expired
  A receive through a cursor that waits in vain parks the cursor at End, past every message of the
  queue: what it finds from there is D-11's to say, but never a message that stayed behind the
  place where the cursor last rested.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  # From End, D-11 parked-end finds nothing and end-sees-arrivals the first message that arrived
  # since, wherever its priority filed it ("high", in front). A cursor left on "m1" instead would
  # take "low", the message filed after "m1", and never see "high".
  @clause:MS-MQDMPR:3.2.7.6:01 @decision:D-03 @decision:D-11
  Scenario: A cursor parked by a timed-out receive reads on from past the end, not from its last message
    Given "inbox" holds "m1"
    And cursor "c" is created on "h"
    When cursor "c" receives
    And in the background, cursor "c" receives with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "high" is sent to "inbox" with:
      | priority | 7 |
    And message "low" is sent to "inbox" with:
      | priority | 1 |
    And cursor "c" receives
    Then by D-11 the message returned is "high" (end-sees-arrivals) or the call fails (parked-end)
    And where D-11 is parked-end, by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)
