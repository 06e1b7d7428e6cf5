Feature: MS-MQDMPR 3.1.2.3 Waiting Message Read Timer and 3.1.6.3 Waiting Message Read Timer Expired
  A read that finds nothing to take waits for a message for as long as its time-out says;
  the timer of that wait ends it with MQ_ERROR_IO_TIMEOUT, unless the time-out is infinite.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.2.3:01 @clause:MS-MQDMPR:3.1.6.3:01
  Scenario: A waiting receive keeps waiting until its time-out has run out, then ends with a time-out
    When the client waits on "h" for up to 3000 ms in the background as "r"
    And 2 seconds pass
    Then the background call "r" is still waiting
    When 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And no message is returned

  @clause:MS-MQDMPR:3.1.2.3:01
  Scenario: A wait with an infinite time-out never times out
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    And 10 minutes pass
    Then the background call "r" is still waiting
    When message "late" is sent to "inbox"
    And the background call "r" completes
    Then the call returns MQ_OK
    And the message returned is "late"

  @clause:MS-MQDMPR:3.1.6.3:01
  Scenario Outline: Every kind of waiting read ends with MQ_ERROR_IO_TIMEOUT when its timer expires
    Given cursor "c" is created on "h"
    When in the background, <read> with a time-out of 1000 ms as "r"
    And 2 seconds pass
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And no message is returned

    Examples:
      | read                                    |
      | the client peeks at "h"                 |
      | cursor "c" receives                     |
      | cursor "c" peeks at the current message |

  @clause:MS-MQDMPR:3.1.6.3:01
  Scenario: A read whose time-out has expired no longer takes messages that arrive afterwards
    When the client waits on "h" for up to 1000 ms in the background as "r"
    And 2 seconds pass
    And the background call "r" completes
    And message "after" is sent to "inbox"
    Then "inbox" holds "after"
