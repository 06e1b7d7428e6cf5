Feature: MS-MQDMPR 3.1.2.3 Waiting Message Read Timer: no timer for an infinite wait
  A read that may wait for ever (a time-out of 0xFFFFFFFF) has no timer at all.  It is not a wait
  of 0xFFFFFFFF milliseconds, which would end after some 49.7 days.

  @clause:MS-MQDMPR:3.1.2.3:01 @clause:MS-MQRR:3.1.4.7:23
  Scenario: A receive that waits without a time-out still waits after 50 days, and takes the next message
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"
    When the client waits on "h" for up to INFINITE ms in the background as "w"
    And 50 days pass
    Then the background call "w" is still waiting
    When message "late" is sent to "inbox"
    And the background call "w" completes
    Then the call returns MQ_OK
    And the message returned is "late"
