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
      | wait                                                                         |
      | the client waits on "h" for up to INFINITE ms in the background as "r"       |
      | in the background, cursor "c" receives with a time-out of INFINITE ms as "r" |

  # MS-MQRR 3.1.4.7 raises Peek Message without a tag, and Cancel matches tags only: a waiting peek is
  # cancelled (D-18 tagged) or runs on to its time-out (untagged).
  @clause:MS-MQDMPR:3.1.7.1.17:01 @decision:D-18
  Scenario: Cancelling a waiting peek ends it with MQ_ERROR_OPERATION_CANCELLED, or leaves it to its time-out
    When in the background, the client peeks at "h" with a time-out of 3000 ms as "r"
    And the client cancels "r"
    Then by D-18 the call returns MQ_OK (tagged) or any other failure (untagged)
    And by D-18 the background call "r" ends with MQ_ERROR_OPERATION_CANCELLED (tagged) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (untagged)
    And no message is returned

  # D-54: the event's STATUS_NOT_FOUND reaches the client through R_CancelReceive, which 3.1.4.8 lets
  # return any failure HRESULT for it
  @clause:MS-MQDMPR:3.1.7.1.17:01 @decision:D-54
  Scenario: Cancelling a request id under which nothing waits reports STATUS_NOT_FOUND
    When the client cancels request id 999 on "h"
    Then by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)

  @clause:MS-MQDMPR:3.1.7.1.17:01 @decision:D-54
  Scenario: A read that already got its message can no longer be cancelled
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    And message "m" is sent to "inbox"
    And the background call "r" completes
    And the client cancels "r"
    Then by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)

  # 3.1.7.1.17 searches every descriptor of the queue; MS-MQRR 3.1.4.8 names the caller's handle:
  # a cancel through another handle reaches the read (D-17 queue-wide) or fails (own-handle), and
  # the failure is STATUS_NOT_FOUND or another (D-54).
  @clause:MS-MQDMPR:3.1.7.1.17:01 @decision:D-17 @decision:D-54
  Scenario: A cancel through another handle of the queue reaches its read or fails, and the read ends cancelled either way
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    And the client cancels the wait of "r" through "other"
    Then by D-17 the call returns MQ_OK (queue-wide) or any other failure (own-handle)
    And where D-17 is own-handle, by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)
    And where D-17 is own-handle, the background call "r" is still waiting
    When the client cancels "r"
    Then by D-17 the call returns MQ_OK (own-handle) or any other failure (queue-wide)
    And where D-17 is queue-wide, by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)
    When the background call "r" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
