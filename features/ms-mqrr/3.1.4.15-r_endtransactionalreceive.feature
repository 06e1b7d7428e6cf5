Feature: MS-MQRR 3.1.4.15 R_EndTransactionalReceive (Opnum 15)
  R_EndTransactionalReceive tells the server that a transactional receive reached the
  client; the message stays in its transaction, whose outcome alone removes or frees it.

  Background:
    Given a transactional queue "ledger"
    And messages "m1", "m2" and "m3" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction

  @clause:MS-MQRR:3.1.4.15:03 @clause:MS-MQRR:3.1.4.15:05
  Scenario: RR_ACK leaves the message in the queue for the transaction to decide
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_OK
    And "ledger" holds "m2" and "m3"
    When transaction "t" is aborted
    Then "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.15:03
  Scenario: After RR_ACK the commit removes the message
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And transaction "t" is committed
    Then "ledger" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.15:04 @clause:MS-MQRR:3.1.4.15:05 @decision:D-66
  Scenario Outline: RR_NACK makes the message available again, or leaves it to its transaction's outcome
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_NACK
    Then the call returns MQ_OK
    And by D-66 "ledger" holds "m1", "m2" and "m3" (released) or "m2" and "m3" (stays-locked)
    When transaction "t" is <outcome>
    Then by D-66 "ledger" holds "m1", "m2" and "m3" (released) or <left> (stays-locked)

    Examples:
      | outcome   | left                |
      | committed | "m2" and "m3"       |
      | aborted   | "m1", "m2" and "m3" |

  @clause:MS-MQRR:3.1.4.15:04 @decision:D-66
  Scenario: After RR_NACK another reader gets the message, unless its transaction still holds it
    Given "ledger" is opened with RECEIVE_ACCESS as "other reader"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_NACK
    And the client receives from "other reader"
    Then by D-66 the message returned is "m1" (released) or "m2" (stays-locked)
    When transaction "t" is committed
    Then by D-66 "ledger" holds "m2" and "m3" (released) or "m3" (stays-locked)

  # D-66: "t" was enlisted first and holds nothing; RR_NACK concerns only "u", which holds the message
  @clause:MS-MQRR:3.1.4.15:04 @decision:D-66
  Scenario: RR_NACK acts on the transaction holding the message, not on one enlisted before it
    Given the client enlists transaction "u" with R_QMEnlistRemoteTransaction
    When the client starts R_StartTransactionalReceive on "h" in transaction "u" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_NACK
    Then by D-66 "ledger" holds "m1", "m2" and "m3" (released) or "m2" and "m3" (stays-locked)
    When transaction "u" is committed
    Then the call returns MQ_OK
    And by D-66 "ledger" holds "m1", "m2" and "m3" (released) or "m2" and "m3" (stays-locked)

  # MS-MQDMPR:3.1.1.1:03 the transaction as RR_NACK left it is what a restart finds (D-66)
  @clause:MS-MQRR:3.1.4.15:04 @clause:MS-MQDMPR:3.1.1.1:03 @decision:D-66
  Scenario: What a transaction still holds after an RR_NACK survives a restart once it is prepared
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r1" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r1" with RR_ACK
    And the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r2" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r2" with RR_NACK
    And transaction "t" is prepared
    And the queue manager restarts
    Then by D-66 "ledger" holds "m2" and "m3" (released) or "m3" (stays-locked)
    When transaction "t" is aborted
    Then the call returns MQ_OK
    And "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.15:06 @decision:D-69
  Scenario: A transactional receive ended with R_EndReceive is refused, or ended as it started or as R_EndReceive ends
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends "r" with RR_ACK
    Then by D-69 the call returns MQ_ERROR_TRANSACTION_USAGE (refuse) or MQ_OK (as-started, literal)
    And "ledger" holds "m2" and "m3"
    When the client ends transactional "r" with RR_ACK
    Then by D-69 the call returns MQ_OK (refuse) or MQ_ERROR_INVALID_HANDLE (as-started, literal)
    When transaction "t" is aborted
    Then by D-69 "ledger" holds "m1", "m2" and "m3" (refuse, as-started) or "m2" and "m3" (literal)

  @clause:MS-MQRR:3.1.4.15:06 @decision:D-69
  Scenario Outline: A receive started without a transaction is ended by R_EndTransactionalReceive, not refused
    When <start>
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_OK
    And "ledger" holds "m2" and "m3"
    When the client ends "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    When transaction "t" is aborted
    Then "ledger" holds "m2" and "m3"

    Examples:
      | start                                                                                             |
      | the client starts a receive on "h" as "r"                                                         |
      | the client calls R_StartTransactionalReceive on "h" with MQ_ACTION_RECEIVE and no transaction as "r" |

  @clause:MS-MQRR:3.1.4.15:05
  Scenario: A handle with no receive in progress is refused with MQ_ERROR_INVALID_HANDLE
    Given "ledger" is opened with RECEIVE_ACCESS as "idle"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional request id 7 on "idle" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE

  @clause:MS-MQRR:3.1.4.15:05
  Scenario: A request id the handle never used is refused with MQ_ERROR_INVALID_PARAMETER
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional request id 7 on "h" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    When the client ends transactional "r" with RR_ACK
    Then the call returns MQ_OK

  # D-55: the IDL's range(1,2) lets the RPC runtime refuse the call; past it, no status is named
  @clause:MS-MQRR:3.1.4.15:05 @decision:D-55
  Scenario: A dwAck other than RR_ACK or RR_NACK is refused
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with 3
    Then by D-55 the call returns MQ_ERROR_INVALID_PARAMETER (invalid-parameter) or any other failure (other-failure)

  # D-52: the failed start's entry is gone (remove), or stays until this End removes it, finding no message (keep)
  @clause:MS-MQRR:3.1.4.15:05 @decision:D-52
  Scenario: A receive whose start failed leaves nothing to end
    Given a transactional queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "he"
    When the client starts R_StartTransactionalReceive on "he" in transaction "t" as "r" with:
      | ulAction          | ulTimeout |
      | MQ_ACTION_RECEIVE | 0         |
    And the client ends transactional "r" with RR_ACK
    Then by D-52 the call returns MQ_ERROR_INVALID_HANDLE (remove) or MQ_ERROR_MESSAGE_NOT_FOUND (keep)
    When the client ends transactional "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE

  @clause:MS-MQRR:3.1.4.15:05
  Scenario: A receive still waiting for a message cannot be ended yet
    Given a transactional queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "he"
    When the client starts a transactional receive on "he" in transaction "t" that waits up to INFINITE ms in the background as "w"
    And the client ends transactional "w" with RR_ACK
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    When the client cancels "w"
    And the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED

  @clause:MS-MQRR:3.1.4.15:05
  Scenario: A message the commit already removed is not found
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And transaction "t" is committed
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And "ledger" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.15:05
  Scenario: A message the abort already gave back has no dequeue to end
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And transaction "t" is aborted
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    And "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.15:05
  Scenario: Closing the handle drops the request but not the transaction's hold on the message
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the handle "h" has been closed with R_CloseQueue
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "ledger" holds "m2" and "m3"
    When transaction "t" is committed
    Then "ledger" holds "m2" and "m3"
