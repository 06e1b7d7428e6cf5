Feature: MS-MQDMPR 3.1.7.1.17 Cancel Waiting Message Read Request
  A cancel ends the read that waits under its tag with MQ_ERROR_OPERATION_CANCELLED and succeeds;
  with no read waiting under that tag it reports STATUS_NOT_FOUND.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"
    And "inbox" is opened with RECEIVE_ACCESS as "other"

  @clause:MS-MQDMPR:3.1.7.1.17:01
  Scenario Outline: Cancelling a waiting read ends it with MQ_ERROR_OPERATION_CANCELLED
    Given cursor "c" is created on "h"
    When <wait>
    And the client cancels "r"
    Then the call returns MQ_OK
    When the background call "r" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    And no message is returned

    Examples:
      | wait                                                                             |
      | the client waits on "h" for up to INFINITE ms in the background as "r"           |
      | in the background, the client peeks at "h" with a time-out of INFINITE ms as "r" |
      | in the background, cursor "c" receives with a time-out of INFINITE ms as "r"     |

  @clause:MS-MQDMPR:3.1.7.1.17:01
  Scenario: Cancelling a request id under which nothing waits reports STATUS_NOT_FOUND
    When the client cancels request id 999 on "h"
    Then the call returns STATUS_NOT_FOUND

  @clause:MS-MQDMPR:3.1.7.1.17:01
  Scenario: A read that already got its message can no longer be cancelled
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    And message "m" is sent to "inbox"
    And the background call "r" completes
    And the client cancels "r"
    Then the call returns STATUS_NOT_FOUND

  @clause:MS-MQDMPR:3.1.7.1.17:01
  Scenario: A cancel reaches only the reads waiting on the handle it names
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    And the client cancels the wait of "r" through "other"
    Then the call returns STATUS_NOT_FOUND
    And the background call "r" is still waiting
    When the client cancels "r"
    Then the call returns MQ_OK
    When the background call "r" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
