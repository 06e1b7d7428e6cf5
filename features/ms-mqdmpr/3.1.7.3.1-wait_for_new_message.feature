Feature: MS-MQDMPR 3.1.7.3.1 Wait For New Message
  A read waits only if its time-out is positive and its queue exists; the wait ends with a message or
  the status that stopped it, and leaves neither its reader nor its timer behind.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.7.3.1:01
  Scenario Outline: A read with a time-out of zero does not wait
    When <read>
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And no message is returned

    Examples:
      | read                         |
      | the client receives from "h" |
      | the client peeks at "h"      |

  @clause:MS-MQDMPR:3.1.7.3.1:01
  Scenario: A read with a time-out of zero does not wait, even when a message arrives just after
    When in the background, the client peeks at "h" with a time-out of 0 ms as "r"
    And message "m" is sent to "inbox"
    And the background call "r" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQDMPR:3.1.7.3.1:01
  Scenario: A read on a handle whose queue was deleted does not wait
    When queue "inbox" is deleted
    And the client waits on "h" for up to INFINITE ms in the background as "r"
    And the background call "r" completes
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE

  # D-36: a reused dwRequestId is refused, or the peek runs as if the id were free (nothing to peek at)
  @clause:MS-MQDMPR:3.1.7.3.1:02 @decision:D-36
  Scenario: While a read waits its request id is taken; once its message came, the id is free again
    When in the background, the client peeks at "h" with a time-out of INFINITE ms as "p"
    And a peek is made on "h" under the request id of "p"
    Then by D-36 the call returns MQ_ERROR_INVALID_PARAMETER (refuse) or MQ_ERROR_IO_TIMEOUT (accept)
    When message "m" is sent to "inbox"
    And the background call "p" completes
    Then the message returned is "m"
    When a peek is made on "h" under the request id of "p"
    Then the call returns MQ_OK
    And the message returned is "m"

  @clause:MS-MQDMPR:3.1.7.3.1:02
  Scenario: Once a read timed out its request id is free again and it takes no later message
    When in the background, the client peeks at "h" with a time-out of 1000 ms as "p"
    And 2 seconds pass
    And the background call "p" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When message "m" is sent to "inbox"
    And a peek is made on "h" under the request id of "p"
    Then the call returns MQ_OK
    And "inbox" holds "m"

  @clause:MS-MQDMPR:3.1.7.3.1:02
  Scenario: The timer of a read that got its message is stopped and does not disturb the read later
    When the client waits on "h" for up to 2000 ms in the background as "r"
    And message "m" is sent to "inbox"
    And the background call "r" completes
    Then the call returns MQ_OK
    When 5 seconds pass
    And the client ends "r" with RR_ACK
    Then the call returns MQ_OK
    And "inbox" holds nothing
