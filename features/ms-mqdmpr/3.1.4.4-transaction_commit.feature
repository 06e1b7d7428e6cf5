Feature: MS-MQDMPR 3.1.4.4 Transaction Commit
  Committing replays a transaction's operations in the order they were made: sends
  become visible, receives remove their messages, moves land in their target queue.

  Background:
    Given a transactional queue "ledger"
    And a subqueue "hold" of "ledger"
    And a queue "admin"
    And these messages were committed to "ledger":
      | label | acknowledgements | admin queue |
      | m1    | full receive     | admin       |
      | m2    | full receive     | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger;hold" is opened for move as "to hold"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction

  @clause:MS-MQDMPR:3.1.4.4:01
  Scenario: Committing a transaction the queue manager does not know fails
    Given an XACTUOW "x" that the queue manager has never seen
    When transaction "x" is committed
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    And "ledger" holds "m1" and "m2"

  @clause:MS-MQDMPR:3.1.4.4:02
  Scenario: Messages sent in a transaction appear at the commit, in the order they were sent
    When the client sends "n1", "n2" and "n3" to "ledger" in transaction "t"
    Then "ledger" holds "m1" and "m2"
    When transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger" holds "m1", "m2", "n1", "n2" and "n3"

  @clause:MS-MQDMPR:3.1.4.4:02
  Scenario: A message received in a transaction leaves at the commit with its reason
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    Then the acknowledgment classes for "m1" in "admin" are none
    When transaction "t" is committed
    Then "ledger" holds "m2"
    And the acknowledgment classes for "m1" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQDMPR:3.1.4.4:02
  Scenario: A message moved in a transaction leaves its queue and lands in the target at the commit
    When the client moves "m2" from "h" to "to hold" in transaction "t"
    Then "ledger" holds "m1"
    And "ledger;hold" holds nothing
    When transaction "t" is committed
    Then "ledger" holds "m1"
    And "ledger;hold" holds "m2"
    And the acknowledgment classes for "m2" in "admin" are none

  # a queue deleted meanwhile took its messages with it (3.1.7.1.4); the commit goes on with the rest
  @clause:MS-MQDMPR:3.1.4.4:02
  Scenario: A receive whose queue was deleted before the commit does not stop the receives after it
    Given a transactional queue "other"
    And these messages were committed to "other":
      | label | acknowledgements | admin queue |
      | o1    | full receive     | admin       |
    And "other" is opened with RECEIVE_ACCESS as "ho"
    When the client takes the front message of "h" in transaction "t" as "r1"
    And the client takes the front message of "ho" in transaction "t" as "r2"
    And queue "ledger" is deleted
    And transaction "t" is committed
    Then the call returns MQ_OK
    And "other" holds nothing
    And the acknowledgment classes for "o1" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQDMPR:3.1.4.4:02
  Scenario: The operations are carried out in the order the transaction made them
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r2" with:
      | LookupId   | ulAction                  |
      | id of "m2" | MQ_LOOKUP_RECEIVE_CURRENT |
    And the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r1" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And transaction "t" is committed
    Then "ledger" holds nothing
    And the acknowledgments in "admin" answer "m2" and "m1" in that order

  # D-24: the commit removes the purged enqueue as purged (purged) or makes it Available (survives).
  @clause:MS-MQDMPR:3.1.4.4:02 @decision:D-24
  Scenario: A message sent in a transaction and purged before the commit never appears
    When the client sends these messages to "ledger" in transaction "t":
      | label | acknowledgements | admin queue |
      | n1    | negative receive | admin       |
    And the client purges the queue behind "h"
    And transaction "t" is committed
    Then by D-24 "ledger" holds nothing (purged) or "n1" (survives)
    And by D-24 the acknowledgments of "n1" in "admin" are MQMSG_CLASS_NACK_Q_PURGED (purged) or none (survives)

  @clause:MS-MQDMPR:3.1.4.4:03
  Scenario: A committed transaction is gone: it can neither be committed again nor aborted
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client sends "n1" to "ledger" in transaction "t"
    And transaction "t" is committed
    Then the call returns MQ_OK
    When transaction "t" is committed
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    When transaction "t" is aborted
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    And "ledger" holds "m2" and "n1"
    And the acknowledgment classes for "m1" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQDMPR:3.1.4.4:03
  Scenario: The identifier of a committed transaction starts afresh when it is used again
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And transaction "t" is committed
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    Then the call returns MQ_OK
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "again" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    Then the message returned is "m2"
    When transaction "t" is aborted
    Then "ledger" holds "m2"
