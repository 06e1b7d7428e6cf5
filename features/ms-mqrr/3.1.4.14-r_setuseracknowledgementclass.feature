Feature: MS-MQRR 3.1.4.14 R_SetUserAcknowledgementClass (Opnum 14)
  R_SetUserAcknowledgementClass lets a client mark a message it took in a transaction
  as rejected, so that the commit removes it with the rejection as its reason.

  Background:
    Given a transactional queue "ledger"
    And a queue "admin"
    And these messages were committed to "ledger":
      | label | acknowledgements | admin queue |
      | m1    | full receive     | admin       |
      | m2    | full receive     | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction

  @clause:MS-MQRR:3.1.4.14:05
  Scenario Outline: The class set on a received message decides how the commit acknowledges it
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And the client sets the acknowledgement class of "m1" on "h" to <class>
    Then the call returns MQ_OK
    And the acknowledgment classes for "m1" in "admin" are none
    When transaction "t" is committed
    Then "ledger" holds "m2"
    And the acknowledgment classes for "m1" in "admin" are <acknowledgment>

    Examples:
      | class                             | acknowledgment                    |
      | 0                                 | MQMSG_CLASS_ACK_RECEIVE           |
      | MQMSG_CLASS_NACK_RECEIVE_REJECTED | MQMSG_CLASS_NACK_RECEIVE_REJECTED |

  @clause:MS-MQRR:3.1.4.14:05
  Scenario: A rejected message that the transaction gives back is not acknowledged
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And the client sets the acknowledgement class of "m1" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then the call returns MQ_OK
    When transaction "t" is aborted
    Then "ledger" holds "m1" and "m2"
    And the acknowledgment classes for "m1" in "admin" are none

  # D-58: usClass MUST be 0 or 0xC004, a duty of the client; the processing marks every non-zero value
  # rejected (any-nonzero-rejects), or the server refuses the value and changes nothing (refuse)
  @clause:MS-MQRR:3.1.4.14:05 @decision:D-58
  Scenario: A usClass outside the two the client may send rejects the message, or is refused
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And the client sets the acknowledgement class of "m1" on "h" to 0x0001
    Then by D-58 the call returns MQ_OK (any-nonzero-rejects) or MQ_ERROR_INVALID_PARAMETER (refuse)
    And the acknowledgment classes for "m1" in "admin" are none
    When transaction "t" is committed
    Then "ledger" holds "m2"
    And by D-58 the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_RECEIVE_REJECTED (any-nonzero-rejects) or MQMSG_CLASS_ACK_RECEIVE (refuse)

  # D-44: 3.1.4.14 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.14:04 @decision:D-44
  Scenario: A closed queue handle is refused
    Given the handle "h" has been closed with R_CloseQueue
    When the client sets the acknowledgement class of "m1" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And the HRESULT is a failure code

  @clause:MS-MQRR:3.1.4.14:04 @decision:D-44
  Scenario: A queue handle that no R_OpenQueue returned is refused
    Given a queue handle "forged" that no R_OpenQueue returned
    When the client sets the acknowledgement class of "m1" on "forged" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.14:04
  Scenario: A message of another queue is not found
    Given a queue "other"
    And "other" holds "elsewhere"
    When the client sets the acknowledgement class of "elsewhere" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And "other" holds "elsewhere"

  @clause:MS-MQRR:3.1.4.14:04
  Scenario: A message that a committed transaction removed is not found
    Given the sequence ids of the messages in "ledger" are noted
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And transaction "t" is committed
    And the client sets the acknowledgement class of "m1" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And the acknowledgment classes for "m1" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQRR:3.1.4.14:04
  Scenario: A message no transaction has taken cannot be marked
    When the client sets the acknowledgement class of "m2" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then the call returns MQ_ERROR_TRANSACTION_USAGE
    And the HRESULT is a failure code
    And "ledger" holds "m1" and "m2"

  @clause:MS-MQRR:3.1.4.14:04
  Scenario: A message held by a receive outside any transaction cannot be marked
    When the client starts a receive on "h" as "plain"
    Then the message returned is "m1"
    When the client sets the acknowledgement class of "m1" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then the call returns MQ_ERROR_TRANSACTION_USAGE
    When the client ends "plain" with RR_ACK
    Then the acknowledgment classes for "m1" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQRR:3.1.4.14:04
  Scenario: A message moved inside a transaction has a transactional operation to mark
    Given a subqueue "hold" of "ledger"
    And "ledger;hold" is opened for move as "to hold"
    And the client moves "m1" from "h" to "to hold" in transaction "t"
    When the client sets the acknowledgement class of "m1" on "h" to 0
    Then the call returns MQ_OK
