Feature: MS-MQDMPR 3.1.7.1.7 Purge Queue
  A purge removes at once every message that can be read, with reason NackQueuePurged; a
  message someone holds at that moment is only marked, and goes when its holder is done with it.

  Background:
    Given a queue "admin"
    And a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  # D-26 on-delivery: non-transactional messages in their queue were delivered, so the purge copies nothing
  @clause:MS-MQDMPR:3.1.7.1.7:01 @decision:D-26
  Scenario: Purging removes every available message with reason NackQueuePurged
    Given these messages were sent to "orders":
      | label | acknowledgements | admin queue | dead letter |
      | m1    | negative receive | admin       | yes         |
      | m2    | negative receive | admin       | no          |
    When the client purges the queue through "h"
    Then the call returns MQ_OK
    And "orders" holds nothing
    And the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_Q_PURGED
    And the acknowledgments of "m2" in "admin" are MQMSG_CLASS_NACK_Q_PURGED
    And by D-26 the messages in "the dead-letter queue" are, front to back (on-removal), or none (on-delivery):
      | label | class                     |
      | m1    | MQMSG_CLASS_NACK_Q_PURGED |

  @clause:MS-MQDMPR:3.1.7.1.7:02
  Scenario Outline: A message held by a two-phase receive survives the purge until the receive ends, then goes as purged
    Given these messages were sent to "orders":
      | label | acknowledgements                      | admin queue |
      | held  | positive receive and negative receive | admin       |
      | free  | negative receive                      | admin       |
    When the client starts a receive on "h" as "r"
    And the client purges the queue through "h"
    Then the acknowledgments of "free" in "admin" are MQMSG_CLASS_NACK_Q_PURGED
    And the acknowledgments of "held" in "admin" are none
    When the client ends "r" with <ack>
    Then the call returns MQ_OK
    And "orders" holds nothing
    And the acknowledgments of "held" in "admin" are MQMSG_CLASS_NACK_Q_PURGED

    Examples:
      | ack     |
      | RR_ACK  |
      | RR_NACK |

  @clause:MS-MQDMPR:3.1.7.1.7:02
  Scenario: A locked message that allows peeks is no longer visible once it is marked for purging
    Given these messages were sent to "orders":
      | label | peek when locked |
      | held  | yes              |
    When the client starts a receive on "h" as "r"
    And the client peeks "held" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the call returns MQ_OK
    When the client purges the queue through "h"
    And the client peeks "held" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND

  @clause:MS-MQDMPR:3.1.7.1.7:02
  Scenario: A message held by a receiving transaction is removed as purged when the transaction aborts
    Given a transactional queue "ledger"
    And these messages were committed to "ledger":
      | label | acknowledgements | admin queue |
      | held  | negative receive | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "l" as "r"
    And the client purges the queue through "l"
    Then the acknowledgments of "held" in "admin" are none
    When transaction "t" is aborted
    Then "ledger" holds nothing
    And the acknowledgments of "held" in "admin" are MQMSG_CLASS_NACK_Q_PURGED

  # D-24: Transaction Commit makes an enqueue Available without looking for PurgePending (survives);
  # the reference removes it as purged (purged).
  @clause:MS-MQDMPR:3.1.7.1.7:02 @decision:D-24
  Scenario: A message whose sending transaction is still open is removed as purged when it commits
    Given a transactional queue "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    And in transaction "t", message "pending" is sent to "ledger" with:
      | acknowledgements | negative receive |
      | admin queue      | admin            |
    When the client purges the queue through "l"
    And transaction "t" is committed
    Then by D-24 "ledger" holds nothing (purged) or "pending" (survives)
    And by D-24 the acknowledgments of "pending" in "admin" are MQMSG_CLASS_NACK_Q_PURGED (purged) or none (survives)
