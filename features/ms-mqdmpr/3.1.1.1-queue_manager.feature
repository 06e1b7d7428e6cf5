Feature: MS-MQDMPR 3.1.1.1 QueueManager
  The queue manager's own attributes: a storage quota over all its queues, a
  sequence counter behind every lookup identifier, and its open transactions.

  # A SHOULD: 0x00100000 bytes (bytes), or a larger default such as Windows' 4 GB computer quota (windows).
  @clause:MS-MQDMPR:3.1.1.1:01 @decision:D-20
  Scenario Outline: Without configuration the queue manager holds at most 0x00100000 bytes of messages
    Given a queue "bulk"
    And a queue "other"
    And these messages were sent to "bulk":
      | label | body size |
      | big   | 1000000   |
    When message "more" is sent to "<queue>" with:
      | body size | <size> |
    Then by D-20 the send ends with status <bytes> (bytes) or 0 (windows)

    Examples:
      | queue | size  | bytes |
      | bulk  | 40000 | 0     |
      | bulk  | 60000 | 2     |
      | other | 40000 | 0     |
      | other | 60000 | 2     |

  @clause:MS-MQDMPR:3.1.1.1:02
  Scenario: Every message enqueued, in any queue, gets a later sequence id, also after a restart
    Given a queue "orders"
    And a queue "other"
    And these messages were sent to "orders":
      | label | delivery    |
      | s1    | recoverable |
      | s2    | express     |
    And these messages were sent to "other":
      | label | delivery    |
      | s3    | recoverable |
    And "orders" holds "s4"
    And the sequence ids of the messages in "orders" are noted
    And the sequence ids of the messages in "other" are noted
    Then the noted sequence ids of "s1", "s2", "s3" and "s4" increase in that order
    When the queue manager restarts
    And message "s5" is sent to "orders"
    And message "s6" is sent to "other"
    And the sequence ids of the messages in "orders" are noted
    And the sequence ids of the messages in "other" are noted
    Then the noted sequence ids of "s1", "s2", "s3", "s4", "s5" and "s6" increase in that order

  # D-33: what the store promised is renewed after a restart too, so a second restart repeats nothing
  @clause:MS-MQDMPR:3.1.1.1:02 @clause:MS-MQMQ:2.2.18.1.3:01
  Scenario: Sequence ids and message identifiers keep growing over two restarts
    Given a queue "orders"
    And these messages were sent to "orders":
      | label | delivery    |
      | s1    | recoverable |
    When the queue manager restarts
    And message "s2" is sent to "orders" with:
      | delivery | recoverable |
    And the queue manager restarts
    And message "s3" is sent to "orders" with:
      | delivery | recoverable |
    And the sequence ids of the messages in "orders" are noted
    Then the noted sequence ids of "s1", "s2" and "s3" increase in that order
    When every message in "orders" is peeked
    Then the packets of "s1", "s2" and "s3" come from this queue manager with distinct MessageIDs

  @clause:MS-MQDMPR:3.1.1.1:03 @clause:MS-MQDMPR:3.1.1.11:02
  Scenario Outline: A transaction prepared for two-phase commit survives a restart with its operations
    Given a transactional queue "ledger"
    And messages "m1" and "m2" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And <creation>
    And the client sends "m3" to "ledger" in transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And transaction "t" is prepared
    Then the call returns MQ_OK
    When the queue manager restarts
    Then "ledger" holds "m2"
    When transaction "t" is <outcome>
    Then the call returns MQ_OK
    And "ledger" holds <left>

    Examples:
      | creation                                                             | outcome   | left          |
      | the client begins transaction "t"                                    | committed | "m2" and "m3" |
      | the client begins transaction "t"                                    | aborted   | "m1" and "m2" |
      | the client enlists transaction "t" with R_QMEnlistRemoteTransaction | committed | "m2" and "m3" |
      | the client enlists transaction "t" with R_QMEnlistRemoteTransaction | aborted   | "m1" and "m2" |

  @clause:MS-MQDMPR:3.1.1.1:03
  Scenario: The reason recorded for a rejected message survives a restart with its transaction
    Given a transactional queue "ledger"
    And a queue "admin"
    And these messages were committed to "ledger":
      | label | acknowledgements | admin queue |
      | m1    | full receive     | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And the client sets the acknowledgement class of "m1" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    And transaction "t" is prepared
    And the queue manager restarts
    And transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger" holds nothing
    And the acknowledgment classes for "m1" in "admin" are MQMSG_CLASS_NACK_RECEIVE_REJECTED

  # MS-MQDMPR:3.1.4.4:02 after the restart the commit still replays every operation, in the order made
  @clause:MS-MQDMPR:3.1.1.1:03
  Scenario: A restart keeps every operation of a transaction, in order, when one of them changed its reason
    Given a transactional queue "ledger"
    And a queue "admin"
    And these messages were committed to "ledger":
      | label | acknowledgements | admin queue |
      | m1    | full receive     | admin       |
      | m2    | full receive     | admin       |
      | m3    | full receive     | admin       |
      | m4    | full receive     | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    When the client takes the front message of "h" in transaction "t" as "r1"
    And the client takes the front message of "h" in transaction "t" as "r2"
    And the client takes the front message of "h" in transaction "t" as "r3"
    And the client takes the front message of "h" in transaction "t" as "r4"
    And the client sets the acknowledgement class of "m3" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    And transaction "t" is prepared
    And the queue manager restarts
    And transaction "t" is committed
    Then the call returns MQ_OK
    And "ledger" holds nothing
    And the acknowledgments in "admin" answer "m1", "m2", "m3" and "m4" in that order
    And the acknowledgment classes for "m3" in "admin" are MQMSG_CLASS_NACK_RECEIVE_REJECTED
