Feature: MS-MQRR 3.1.4.8 R_CancelReceive (Opnum 8)
  R_CancelReceive ends a Start*Receive call that is still blocked waiting for a
  message; the blocked call returns MQ_ERROR_OPERATION_CANCELLED and its request is gone.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.4.8:02 @clause:MS-MQRR:3.1.4.8:03 @clause:MS-MQRR:3.1.4.8:04 @clause:MS-MQRR:3.1.4.7:24
  Scenario: Cancelling a waiting receive ends it with MQ_ERROR_OPERATION_CANCELLED
    When the client waits on "h" for up to INFINITE ms in the background as "w"
    Then the background call "w" is still waiting
    When the client cancels "w"
    Then the call returns MQ_OK
    When the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    And the status has the failure bit set

  @clause:MS-MQRR:3.1.4.8:04
  Scenario: A cancelled receive takes none of the messages that arrive afterwards
    When the client waits on "h" for up to INFINITE ms in the background as "w"
    And the client cancels "w"
    And the background call "w" completes
    And message "late" is sent to "inbox"
    Then "inbox" holds "late"

  @clause:MS-MQRR:3.1.4.8:04
  Scenario: Cancelling removes the request, so R_EndReceive no longer finds it
    When the client waits on "h" for up to INFINITE ms in the background as "w"
    And the client cancels "w"
    And the background call "w" completes
    And the client ends "w" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE

  @clause:MS-MQRR:3.1.4.8:04
  Scenario: The request id of a cancelled receive is free again on the handle
    When the client waits on "h" for up to INFINITE ms in the background as "w"
    And the client cancels "w"
    And the background call "w" completes
    And message "m1" is sent to "inbox"
    And a receive is started on "h" reusing the request id of "w"
    Then the call returns MQ_OK
    And the message returned is "m1"
    When the client ends "w" with RR_ACK
    Then the call returns MQ_OK
    And "inbox" holds nothing

  @clause:MS-MQRR:3.1.4.8:04
  Scenario: Cancelling one waiting read leaves the other one waiting
    When the client waits on "h" for up to INFINITE ms in the background as "w1"
    And the client waits on "h" for up to INFINITE ms in the background as "w2"
    And the client cancels "w1"
    And the background call "w1" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    And the background call "w2" is still waiting
    When message "late" is sent to "inbox"
    And the background call "w2" completes
    Then the call returns MQ_OK
    And the message returned is "late"
    When the client ends "w2" with RR_ACK
    Then the call returns MQ_OK

  # the cancel picks its read by dwRequestId alone, whichever of the waiting reads comes first
  @clause:MS-MQRR:3.1.4.8:04
  Scenario: Cancelling the later of two waiting reads leaves the earlier one waiting
    When the client waits on "h" for up to INFINITE ms in the background as "w1"
    And the client waits on "h" for up to INFINITE ms in the background as "w2"
    And the client cancels "w2"
    And the background call "w2" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    And the background call "w1" is still waiting
    When message "late" is sent to "inbox"
    And the background call "w1" completes
    Then the call returns MQ_OK
    And the message returned is "late"

  @clause:MS-MQRR:3.1.4.8:04 @clause:MS-MQRR:3.1.4.7:24
  Scenario Outline: Every kind of waiting receive can be cancelled
    Given cursor "c" is created on "h"
    When in the background, <read> with a time-out of INFINITE ms as "w"
    And the client cancels "w"
    Then the call returns MQ_OK
    When the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    When message "late" is sent to "inbox"
    Then "inbox" holds "late"

    Examples:
      | read                |
      | cursor "c" receives |

  # 3.1.4.7 says a pending call can be cancelled, yet raises Peek Message and Peek Next Message
  # without a tag, which Cancel Waiting Message Read Request cannot match (D-18).
  @clause:MS-MQRR:3.1.4.8:04 @clause:MS-MQRR:3.1.4.7:24 @decision:D-18
  Scenario Outline: A waiting peek is cancelled, or runs on to its time-out
    Given cursor "c" is created on "h"
    When in the background, <read> with a time-out of 3000 ms as "w"
    And the client cancels "w"
    Then by D-18 the call returns MQ_OK (tagged) or any other failure (untagged)
    And by D-18 the background call "w" ends with MQ_ERROR_OPERATION_CANCELLED (tagged) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (untagged)
    When message "late" is sent to "inbox"
    Then "inbox" holds "late"

    Examples:
      | read                                    |
      | the client peeks at "h"                 |
      | cursor "c" peeks at the current message |

  @clause:MS-MQRR:3.1.4.8:04
  Scenario: A waiting R_StartTransactionalReceive can be cancelled too
    Given a transactional queue "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When the client waits in transaction "t" on "l" for up to INFINITE ms in the background as "w"
    And the client cancels "w"
    Then the call returns MQ_OK
    When the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED

  # D-44: 3.1.4.8 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.8:03 @clause:MS-MQRR:3.1.4.8:02 @decision:D-44
  Scenario: Cancel through a queue handle the server never issued fails
    Given a queue handle "x" that the server never issued
    When the client cancels request id 7 on "x"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And the status has the failure bit set

  @clause:MS-MQRR:3.1.4.8:03 @decision:D-44
  Scenario: Cancel through a closed queue handle fails
    Given "inbox" is opened with RECEIVE_ACCESS as "h2"
    When R_CloseQueue is called on "h2"
    And the client cancels request id 7 on "h2"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  # D-54: when the Cancel event finds nothing, 3.1.4.8 returns "a failure HRESULT": its status or another
  @clause:MS-MQRR:3.1.4.8:03 @clause:MS-MQRR:3.1.4.8:02 @decision:D-54
  Scenario: Cancel of a request id that nothing waits on fails
    When the client waits on "h" for up to INFINITE ms in the background as "w"
    And the client cancels request id 7 on "h"
    Then by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)
    And the status has the failure bit set
    And the background call "w" is still waiting
    When the client cancels "w"
    Then the call returns MQ_OK
    When the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED

  # Step 2 raises Cancel Waiting Message Read Request for the handle's queue, which searches every
  # descriptor of it (MS-MQDMPR 3.1.7.1.17): the cancel may reach the read (D-17 queue-wide) or not.
  @clause:MS-MQRR:3.1.4.8:03 @decision:D-17 @decision:D-54
  Scenario: Cancel through another handle of the same queue reaches the waiting read or fails
    Given "inbox" is opened with RECEIVE_ACCESS as "h2"
    When the client waits on "h" for up to INFINITE ms in the background as "w"
    And the client cancels the wait of "w" through "h2"
    Then by D-17 the call returns MQ_OK (queue-wide) or any other failure (own-handle)
    And where D-17 is own-handle, by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)
    And where D-17 is own-handle, the background call "w" is still waiting
    When the client cancels "w"
    Then by D-17 the call returns MQ_OK (own-handle) or any other failure (queue-wide)
    When the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED

  @clause:MS-MQRR:3.1.4.8:03 @decision:D-54
  Scenario: Cancel of a receive that already has its message fails and leaves the request in place
    Given message "m1" is sent to "inbox"
    When the client starts a receive on "h" as "r"
    And the client cancels "r"
    Then by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)
    And "inbox" holds nothing
    When the client ends "r" with RR_ACK
    Then the call returns MQ_OK
    And "inbox" holds nothing

  # D-74: the cancel is raised on no queue and 3.1.4.8 names no status; read literally, it finds nothing
  # waiting and fails as a cancel of nothing does (D-54)
  @clause:MS-MQRR:3.1.4.8:03 @decision:D-74 @decision:D-54
  Scenario: Cancel through a handle whose queue was deleted fails
    When queue "inbox" is deleted
    And the client cancels request id 7 on "h"
    Then by D-74 the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available) or any other failure (literal)
    And where D-74 is literal, by D-54 the call returns STATUS_NOT_FOUND (status-not-found) or any other failure (other-failure)
