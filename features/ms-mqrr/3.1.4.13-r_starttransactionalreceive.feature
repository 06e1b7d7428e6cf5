Feature: MS-MQRR 3.1.4.13 R_StartTransactionalReceive (Opnum 13)
  R_StartTransactionalReceive takes a message inside a client's transaction, which
  alone decides whether the message leaves; without a transaction it is R_StartReceive.

  Background:
    Given a transactional queue "ledger"
    And messages "m1", "m2" and "m3" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction

  @clause:MS-MQRR:3.1.4.13:03 @clause:MS-MQRR:3.1.4.13:08 @clause:MS-MQRR:3.1.4.13:07
  Scenario Outline: A LookupId, cursor, action and time-out that do not go together are refused
    When R_StartTransactionalReceive is called on "h" in transaction "t" with:
      | LookupId   | hCursor   | ulAction   | ulTimeout   |
      | <lookup>   | <cursor>  | <action>   | <timeout>   |
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    And the HRESULT is a failure code
    And "ledger" holds "m1", "m2" and "m3"

    Examples:
      | lookup     | cursor | action                    | timeout |
      | 0          | 0      | MQ_LOOKUP_RECEIVE_CURRENT | 0       |
      | 0          | 0      | MQ_LOOKUP_RECEIVE_NEXT    | 0       |
      | 0          | 0      | MQ_LOOKUP_RECEIVE_PREV    | 0       |
      | id of "m2" | 0      | MQ_ACTION_RECEIVE         | 0       |
      | id of "m2" | c      | MQ_LOOKUP_RECEIVE_CURRENT | 0       |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_CURRENT | 1000    |
      | 0          | 0      | MQ_LOOKUP_RECEIVE_FIRST   | 0       |
      | 0          | 0      | 0x00000007                | 0       |

  # D-41: the peek step's TRANSACTION_USAGE (usage), or the parameter check of step 1, which lists the
  # peek actions only with pTransactionId NULL (param)
  @clause:MS-MQRR:3.1.4.13:12 @clause:MS-MQRR:3.1.4.13:03 @clause:MS-MQRR:3.1.4.13:07 @decision:D-41
  Scenario Outline: No peek can be made inside a transaction
    When R_StartTransactionalReceive is called on "h" in transaction "t" with:
      | LookupId | hCursor  | ulAction | ulTimeout |
      | <lookup> | <cursor> | <action> | 0         |
    Then by D-41 the call returns MQ_ERROR_TRANSACTION_USAGE (usage) or MQ_ERROR_INVALID_PARAMETER (param)
    And the HRESULT is a failure code
    And "ledger" holds "m1", "m2" and "m3"

    Examples:
      | lookup     | cursor | action                 |
      | 0          | 0      | MQ_ACTION_PEEK_CURRENT |
      | 0          | c      | MQ_ACTION_PEEK_CURRENT |
      | 0          | c      | MQ_ACTION_PEEK_NEXT    |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_CURRENT |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_NEXT    |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_PREV    |

  @clause:MS-MQRR:3.1.4.13:09 @clause:MS-MQRR:3.1.4.13:12
  Scenario: Without a transaction a peek is answered as R_StartReceive answers it
    When the client calls R_StartTransactionalReceive on "h" with MQ_ACTION_PEEK_CURRENT and no transaction as "p"
    Then the call returns MQ_OK
    And the message returned is "m1"
    And "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:09
  Scenario: Without a transaction a receive is a two-phase receive finished by R_EndReceive
    When the client calls R_StartTransactionalReceive on "h" with MQ_ACTION_RECEIVE and no transaction as "r"
    Then the call returns MQ_OK
    And the message returned is "m1"
    And "ledger" holds "m2" and "m3"
    When the client ends "r" with RR_ACK
    Then the call returns MQ_OK
    When transaction "t" is aborted
    Then "ledger" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:09 @clause:MS-MQRR:3.1.4.13:11
  Scenario: Without a transaction a queue that is not transactional can be read
    Given a queue "orders"
    And "orders" holds "o1"
    And "orders" is opened with RECEIVE_ACCESS as "ho"
    When the client calls R_StartTransactionalReceive on "ho" with MQ_ACTION_RECEIVE and no transaction as "r"
    Then the call returns MQ_OK
    And the message returned is "o1"
    When the client ends "r" with RR_ACK
    Then "orders" holds nothing

  @clause:MS-MQRR:3.1.4.13:11 @clause:MS-MQRR:3.1.4.13:07
  Scenario Outline: A transaction cannot read a queue that is not transactional
    Given a queue "orders"
    And "orders" holds "o1"
    And "orders" is opened with RECEIVE_ACCESS as "ho"
    When the client starts R_StartTransactionalReceive on "ho" in transaction "t" as "r" with:
      | LookupId | ulAction |
      | <lookup> | <action> |
    Then the call returns MQ_ERROR_TRANSACTION_USAGE
    And "orders" holds "o1"

    Examples:
      | lookup     | action                    |
      | 0          | MQ_ACTION_RECEIVE         |
      | id of "o1" | MQ_LOOKUP_RECEIVE_CURRENT |

  # MS-MQDMPR 3.1.1.1 keeps a dead-letter queue for non-transactional messages and another for transactional ones.
  @clause:MS-MQRR:3.1.4.13:11 @clause:MS-MQDMPR:3.1.3:01
  Scenario: A transaction cannot read the dead-letter queue, which is not transactional
    Given a queue "orders"
    And message "late" is sent to "orders" with:
      | dead letter         | yes             |
      | sent                | 120 seconds ago |
      | time to reach queue | 60              |
    And "the dead-letter queue" is opened with RECEIVE_ACCESS as "d"
    When the client starts R_StartTransactionalReceive on "d" in transaction "t" as "r" with:
      | LookupId | ulAction          |
      | 0        | MQ_ACTION_RECEIVE |
    Then the call returns MQ_ERROR_TRANSACTION_USAGE
    And "the dead-letter queue" holds "late"

  # D-44: 3.1.4.13 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.13:10 @clause:MS-MQRR:3.1.4.13:07 @decision:D-44
  Scenario: A closed queue handle is refused
    Given the handle "h" has been closed with R_CloseQueue
    When R_StartTransactionalReceive is called on "h" in transaction "t" with:
      | LookupId | hCursor | ulAction          | ulTimeout |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         |
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And the HRESULT is a failure code
    And "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:10 @decision:D-44
  Scenario: A queue handle the server never issued is refused
    Given a queue handle "forged" that no R_OpenQueue returned
    When R_StartTransactionalReceive is called on "forged" in transaction "t" with:
      | LookupId | hCursor | ulAction          | ulTimeout |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         |
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:10
  Scenario: A cursor the server never issued is refused with STATUS_INVALID_HANDLE
    When R_StartTransactionalReceive is called on "h" in transaction "t" with:
      | LookupId | hCursor    | ulAction          | ulTimeout |
      | 0        | 0x00C0FFEE | MQ_ACTION_RECEIVE | 0         |
    Then the call returns STATUS_INVALID_HANDLE
    And the HRESULT is a failure code
    And "ledger" holds "m1", "m2" and "m3"

  # D-48: the cursor is looked up among every cursor of the queue manager (step 4), R_CloseCursor looks
  # among the handle's own; a cursor of another handle of the same queue is refused or used
  @clause:MS-MQRR:3.1.4.13:10 @decision:D-48
  Scenario: A cursor of another handle of the same queue is refused, or used like one of this handle
    Given "ledger" is opened with RECEIVE_ACCESS as "h2"
    And cursor "c2" is created on "h2"
    When R_StartTransactionalReceive is called on "h" in transaction "t" with:
      | LookupId | hCursor | ulAction          | ulTimeout |
      | 0        | c2      | MQ_ACTION_RECEIVE | 0         |
    Then by D-48 the message returned is "m1" (qm-wide) or the call fails (own-handle)
    And where D-48 is own-handle, the call returns STATUS_INVALID_HANDLE
    And by D-48 "ledger" holds "m1", "m2" and "m3" (own-handle) or "m2" and "m3" (qm-wide)

  @clause:MS-MQRR:3.1.4.13:10 @clause:MS-MQRR:3.1.4.13:14
  Scenario: A receive through the handle's own cursor takes the message under the cursor
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | hCursor | ulAction          |
      | c       | MQ_ACTION_RECEIVE |
    Then the call returns MQ_OK
    And the message returned is "m1"
    And "ledger" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:13 @decision:D-50
  Scenario Outline: A transaction identifier that was never enlisted is refused or taken as a new transaction
    Given an XACTUOW "x" that the queue manager has never seen
    When the client starts R_StartTransactionalReceive on "h" in transaction "x" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    Then by D-50 the call returns MQ_OK (implicit) or any other failure (sequence)
    And by D-50 "ledger" holds "m2" and "m3" (implicit) or "m1", "m2" and "m3" (sequence)
    When the client ends transactional "r" with RR_ACK
    Then by D-50 the call returns MQ_OK (implicit) or MQ_ERROR_INVALID_HANDLE (sequence)
    When transaction "x" is <outcome>
    Then by D-50 the call returns MQ_OK (implicit) or MQ_ERROR_TRANSACTION_SEQUENCE (sequence)
    And by D-50 "ledger" holds <left> (implicit) or "m1", "m2" and "m3" (sequence)

    Examples:
      | outcome   | left                   |
      | committed | "m2" and "m3"          |
      | aborted   | "m1", "m2" and "m3"    |

  @clause:MS-MQRR:3.1.4.13:13
  Scenario: Receives that name the same transaction share its fate
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r1" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r2" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    Then the message returned is "m2"
    And "ledger" holds "m3"
    When transaction "t" is aborted
    Then "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:14 @clause:MS-MQRR:3.1.4.13:03 @clause:MS-MQRR:3.1.4.13:15
  Scenario Outline: Every receive action locks its message in the transaction until the commit
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | LookupId | ulAction |
      | <lookup> | <action> |
    Then the call returns MQ_OK
    And the message returned is "<taken>"
    And "ledger" holds <left>
    When the client ends transactional "r" with RR_ACK
    Then the call returns MQ_OK
    And "ledger" holds <left>
    When transaction "t" is committed
    Then "ledger" holds <left>

    Examples:
      | lookup     | action                    | taken | left          |
      | 0          | MQ_ACTION_RECEIVE         | m1    | "m2" and "m3" |
      | id of "m2" | MQ_LOOKUP_RECEIVE_CURRENT | m2    | "m1" and "m3" |
      | id of "m1" | MQ_LOOKUP_RECEIVE_NEXT    | m2    | "m1" and "m3" |
      | id of "m3" | MQ_LOOKUP_RECEIVE_PREV    | m2    | "m1" and "m3" |

  @clause:MS-MQRR:3.1.4.13:14
  Scenario Outline: Every receive action gives its message back when the transaction aborts
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | LookupId | ulAction |
      | <lookup> | <action> |
    And the client ends transactional "r" with RR_ACK
    And transaction "t" is aborted
    Then "ledger" holds "m1", "m2" and "m3"

    Examples:
      | lookup     | action                    |
      | 0          | MQ_ACTION_RECEIVE         |
      | id of "m3" | MQ_LOOKUP_RECEIVE_CURRENT |
      | id of "m2" | MQ_LOOKUP_RECEIVE_NEXT    |
      | id of "m2" | MQ_LOOKUP_RECEIVE_PREV    |

  @clause:MS-MQRR:3.1.4.13:14 @slow
  Scenario: When nobody ends the receive the clean-up drops the request but the transaction keeps the message
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And 6 minutes pass
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "ledger" holds "m2" and "m3"
    When transaction "t" is aborted
    Then "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:14 @clause:MS-MQRR:3.1.4.13:07
  Scenario: A message already taken by another transaction is not found by its lookup identifier
    Given the client enlists transaction "u" with R_QMEnlistRemoteTransaction
    When the client starts R_StartTransactionalReceive on "h" in transaction "u" as "first" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client starts R_StartTransactionalReceive on "h" in transaction "t" as "second" with:
      | LookupId   | ulAction                  |
      | id of "m1" | MQ_LOOKUP_RECEIVE_CURRENT |
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And the HRESULT is a failure code

  @clause:MS-MQRR:3.1.4.13:14 @decision:D-04
  Scenario: A lookup past the last message finds nothing
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | LookupId   | ulAction               |
      | id of "m3" | MQ_LOOKUP_RECEIVE_NEXT |
    Then by D-04 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (not-found) or any other failure (other-failure)
    And "ledger" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.13:14 @clause:MS-MQRR:3.1.4.13:07
  Scenario: A receive with no time-out on an empty queue ends at once
    Given a transactional queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "he"
    When the client starts R_StartTransactionalReceive on "he" in transaction "t" as "r" with:
      | ulAction          | ulTimeout |
      | MQ_ACTION_RECEIVE | 0         |
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And the HRESULT is a failure code

  @clause:MS-MQRR:3.1.4.13:14
  Scenario: A waiting receive takes the message that arrives into its transaction
    Given a transactional queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "he"
    When the client starts a transactional receive on "he" in transaction "t" that waits up to INFINITE ms in the background as "w"
    And the client begins transaction "s"
    And the client sends "late" to "empty" in transaction "s"
    And transaction "s" is committed
    And the background call "w" completes
    Then the call returns MQ_OK
    And the message returned is "late"
    And "empty" holds nothing
    When the client ends transactional "w" with RR_ACK
    Then the call returns MQ_OK
    When transaction "t" is aborted
    Then "empty" holds "late"

  @clause:MS-MQRR:3.1.4.13:07
  Scenario: A waiting receive that is cancelled ends with MQ_ERROR_OPERATION_CANCELLED
    Given a transactional queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "he"
    When the client starts a transactional receive on "he" in transaction "t" that waits up to INFINITE ms in the background as "w"
    And the client cancels "w"
    Then the call returns MQ_OK
    When the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    And the HRESULT is a failure code

  @clause:MS-MQRR:3.1.4.13:06 @clause:MS-MQRR:3.1.4.13:15 @clause:MS-MQRR:3.1.4.13:07
  Scenario: A transactional receive returns the same outputs as R_StartReceive
    Given a transactional queue "archive"
    And these messages were committed to "archive":
      | label | body          | time to reach queue |
      | a1    | hello, ledger | 3600                |
    And "archive" is opened with RECEIVE_ACCESS as "ha"
    And the sequence ids of the messages in "archive" are noted
    When the client starts R_StartTransactionalReceive on "ha" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    Then the call returns MQ_OK
    And the message returned is "a1"
    And the packet came back whole in one stFullPacket section that breaks no layout rule
    And pdwNumberOfSections counts the 1 section returned
    And pSequenceId is the noted sequence id of "a1"
    And pdwArriveTime is the arrival time a peek reported for "a1"
    And the returned TimeToReachQueue is the SentTime plus 3600 seconds
    And the returned message's body is "hello, ledger"

  @clause:MS-MQRR:3.1.4.13:06
  Scenario: A transactional receive splits a body larger than dwMaxBodySize as R_StartReceive does
    Given a transactional queue "archive"
    And these messages were committed to "archive":
      | label | body size |
      | big   | 300       |
    And "archive" is opened with RECEIVE_ACCESS as "ha"
    When the client starts R_StartTransactionalReceive on "ha" in transaction "t" as "r" with:
      | ulAction          | dwMaxBodySize | dwMaxCompoundMessageSize |
      | MQ_ACTION_RECEIVE | 100           | 4194304                  |
    Then the call returns MQ_OK
    And the packet came back split after 100 body bytes into stBinaryFirstSection and stBinarySecondSection
    And pdwNumberOfSections counts the 2 sections returned

  @clause:MS-MQRR:3.1.4.13:16
  Scenario: The compound message limit does not cut a binary message
    Given a transactional queue "archive"
    And these messages were committed to "archive":
      | label | body size |
      | big   | 300       |
    And "archive" is opened with RECEIVE_ACCESS as "ha"
    When the client starts R_StartTransactionalReceive on "ha" in transaction "t" as "r" with:
      | ulAction          | dwMaxBodySize | dwMaxCompoundMessageSize |
      | MQ_ACTION_RECEIVE | 4194304       | 0                        |
    Then the call returns MQ_OK
    And the packet came back whole in one stFullPacket section that breaks no layout rule

  @clause:MS-MQRR:3.1.4.13:16
  Scenario: The body limit does not cut an SRMP message
    Given a transactional queue "archive"
    And these messages were committed to "archive":
      | label | srmp envelope          | srmp compound message                     |
      | soap  | <se:Envelope/>         | a compound message a little over 40 bytes |
    And "archive" is opened with RECEIVE_ACCESS as "ha"
    When the client starts R_StartTransactionalReceive on "ha" in transaction "t" as "r" with:
      | ulAction          | dwMaxBodySize | dwMaxCompoundMessageSize |
      | MQ_ACTION_RECEIVE | 0             | 4194304                  |
    Then the call returns MQ_OK
    And the packet came back whole in one stFullPacket section that breaks no layout rule
