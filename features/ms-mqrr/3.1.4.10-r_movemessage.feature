Feature: MS-MQRR 3.1.4.10 R_MoveMessage (Opnum 10)
  R_MoveMessage carries one message between a queue and its subqueues, at once or
  inside a transaction; the queues must be related and the message must be free.

  Rule: Without a transaction the message moves at once

    Background:
      Given a queue "orders"
      And a subqueue "retry" of "orders"
      And a subqueue "poison" of "orders"
      And a queue "other"
      And a subqueue "retry" of "other"
      And "orders" holds "m1" and "m2"
      And "orders" is opened with RECEIVE_ACCESS as "h"
      And "orders;retry" is opened for move as "to retry"
      And "orders;poison" is opened for move as "to poison"
      And "orders" is opened for move as "to orders"

    @clause:MS-MQRR:3.1.4.10:01 @clause:MS-MQRR:3.1.4.10:05 @clause:MS-MQRR:3.1.4.10:13
    Scenario: A message moves from a queue into one of its subqueues
      When the client moves "m1" from "h" to "to retry" without a transaction
      Then the call returns MQ_OK
      And "orders;retry" holds "m1"
      And "orders" holds "m2"

    @clause:MS-MQRR:3.1.4.10:01 @clause:MS-MQRR:3.1.4.10:13
    Scenario: A message moves from a subqueue back into its queue
      Given the client moves "m1" from "h" to "to retry" without a transaction
      And "orders;retry" is opened with RECEIVE_ACCESS as "h retry"
      When the client moves "m1" from "h retry" to "to orders" without a transaction
      Then the call returns MQ_OK
      And the messages in "orders" are "m1" and "m2" in any order
      And "orders;retry" holds nothing

    @clause:MS-MQRR:3.1.4.10:01 @clause:MS-MQRR:3.1.4.10:13
    Scenario: A message moves between two subqueues of the same queue
      Given the client moves "m1" from "h" to "to retry" without a transaction
      And "orders;retry" is opened with RECEIVE_ACCESS as "h retry"
      When the client moves "m1" from "h retry" to "to poison" without a transaction
      Then the call returns MQ_OK
      And "orders;poison" holds "m1"
      And "orders;retry" holds nothing
      And "orders" holds "m2"

    @clause:MS-MQRR:3.1.4.10:08 @clause:MS-MQRR:3.1.4.10:05
    Scenario Outline: A queue cannot send a message to a queue it is not related to
      Given "<destination>" is opened for move as "unrelated"
      When the client moves "m1" from "h" to "unrelated" without a transaction
      Then the call returns STATUS_INVALID_PARAMETER
      And the HRESULT is a failure code
      And "orders" holds "m1" and "m2"

      Examples:
        | destination |
        | other       |
        | other;retry |

    @clause:MS-MQRR:3.1.4.10:08
    Scenario Outline: A subqueue cannot send a message outside its own queue's family
      Given the client moves "m1" from "h" to "to retry" without a transaction
      And "orders;retry" is opened with RECEIVE_ACCESS as "h retry"
      And "<destination>" is opened for move as "unrelated"
      When the client moves "m1" from "h retry" to "unrelated" without a transaction
      Then the call returns STATUS_INVALID_PARAMETER
      And "orders;retry" holds "m1"

      Examples:
        | destination |
        | other       |
        | other;retry |

    # D-49: the source handle MUST have receive access, a duty of the client that no step checks
    @clause:MS-MQRR:3.1.4.10:05 @decision:D-49
    Scenario: A source handle opened only for peeking cannot move a message
      Given "orders" is opened with PEEK_ACCESS as "peeker"
      When the client moves "m1" from "peeker" to "to retry" without a transaction
      Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
      And by D-49 "orders" holds "m1" and "m2" (check) or "m2" (no-check)
      And by D-49 "orders;retry" holds nothing (check) or "m1" (no-check)

    # D-44: 3.1.4.10 asks only for "a failure HRESULT" when the source handle is not found
    @clause:MS-MQRR:3.1.4.10:06 @decision:D-44
    Scenario: A closed source handle is refused
      Given the handle "h" has been closed with R_CloseQueue
      When the client moves "m1" from "h" to "to retry" without a transaction
      Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
      And "orders" holds "m1" and "m2"
      And "orders;retry" holds nothing

    @clause:MS-MQRR:3.1.4.10:07
    Scenario: A destination whose handle was closed is refused
      Given the handle "to retry" has been closed with R_CloseQueue
      When the client moves "m1" from "h" to "to retry" without a transaction
      Then the call returns MQ_ERROR_INVALID_HANDLE
      And "orders" holds "m1" and "m2"

    @clause:MS-MQRR:3.1.4.10:07
    Scenario: A destination value that R_OpenQueueForMove never handed out is refused
      When the client moves "m1" from "h" to a move context that was never issued
      Then the call returns MQ_ERROR_INVALID_HANDLE
      And "orders" holds "m1" and "m2"

    @clause:MS-MQRR:3.1.4.10:09
    Scenario: A transaction cannot move into a queue that is not transactional
      Given the client enlists transaction "t" with R_QMEnlistRemoteTransaction
      When the client moves "m1" from "h" to "to retry" in transaction "t"
      Then the call returns MQ_ERROR_TRANSACTION_USAGE
      And "orders" holds "m1" and "m2"
      And "orders;retry" holds nothing

    # the texts name no status for a source whose queue is gone: only that the call fails (3.1.4.10:05)
    @clause:MS-MQRR:3.1.4.10:05
    Scenario: A handle whose queue was deleted moves nothing, even into a new queue of the same name
      Given the sequence ids of the messages in "orders" are noted
      And queue "orders" is deleted
      And a queue "orders"
      And a subqueue "retry" of "orders"
      And "orders;retry" is opened for move as "new retry"
      When the client moves "m1" from "h" to "new retry" without a transaction
      Then the HRESULT is a failure code
      And "orders;retry" holds nothing

    @clause:MS-MQRR:3.1.4.10:10
    Scenario: A message of another queue is not found in the source queue
      Given "other" holds "elsewhere"
      When the client moves "elsewhere" from "h" to "to retry" without a transaction
      Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
      And "other" holds "elsewhere"
      And "orders;retry" holds nothing

    @clause:MS-MQRR:3.1.4.10:10
    Scenario: A message that was already received cannot be moved
      Given the sequence ids of the messages in "orders" are noted
      When the client receives from "h"
      And the client moves "m1" from "h" to "to retry" without a transaction
      Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
      And "orders;retry" holds nothing

    @clause:MS-MQRR:3.1.4.10:11
    Scenario: A message held by a two-phase receive is locked
      Given the sequence ids of the messages in "orders" are noted
      When the client starts a receive on "h" as "r1"
      And the client moves "m1" from "h" to "to retry" without a transaction
      Then the call returns MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION
      And "orders;retry" holds nothing

  Rule: Inside a transaction the move waits for the outcome

    Background:
      Given a transactional queue "ledger"
      And a subqueue "hold" of "ledger"
      And messages "m1" and "m2" were committed to "ledger"
      And "ledger" is opened with RECEIVE_ACCESS as "h"
      And "ledger;hold" is opened for move as "to hold"
      And the client enlists transaction "t" with R_QMEnlistRemoteTransaction

    @clause:MS-MQRR:3.1.4.10:13 @clause:MS-MQRR:3.1.4.10:09 @clause:MS-MQRR:3.1.4.10:05
    Scenario: A move inside a transaction takes effect when the transaction commits
      When the client moves "m1" from "h" to "to hold" in transaction "t"
      Then the call returns MQ_OK
      And "ledger" holds "m2"
      And "ledger;hold" holds nothing
      When transaction "t" is committed
      Then "ledger;hold" holds "m1"
      And "ledger" holds "m2"

    @clause:MS-MQRR:3.1.4.10:13
    Scenario: A move inside a transaction is undone when the transaction aborts
      When the client moves "m1" from "h" to "to hold" in transaction "t"
      And transaction "t" is aborted
      Then "ledger" holds "m1" and "m2"
      And "ledger;hold" holds nothing

    @clause:MS-MQRR:3.1.4.10:11
    Scenario Outline: A message taken by another transaction's receive cannot be moved
      Given the client enlists transaction "u" with R_QMEnlistRemoteTransaction
      When the client takes the front message of "h" in transaction "u" as "r"
      Then the message returned is "m1"
      When the client moves "m1" from "h" to "to hold" <how>
      Then the call returns MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION
      When transaction "u" is aborted
      Then "ledger" holds "m1" and "m2"
      And "ledger;hold" holds nothing

      Examples:
        | how                   |
        | in transaction "t"    |
        | without a transaction |

    @clause:MS-MQRR:3.1.4.10:11
    Scenario: A message already moved by another transaction cannot be moved again
      Given the client enlists transaction "u" with R_QMEnlistRemoteTransaction
      And the client moves "m1" from "h" to "to hold" in transaction "u"
      When the client moves "m1" from "h" to "to hold" in transaction "t"
      Then the call returns MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION

    @clause:MS-MQRR:3.1.4.10:12
    Scenario: A transaction the queue manager does not know is refused
      Given an XACTUOW "x" that the queue manager has never seen
      When the client moves "m1" from "h" to "to hold" in transaction "x"
      Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
      And "ledger" holds "m1" and "m2"
      And "ledger;hold" holds nothing
