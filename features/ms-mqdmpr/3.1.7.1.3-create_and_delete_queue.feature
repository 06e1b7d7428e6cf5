Feature: MS-MQDMPR 3.1.7.1.3 Create Queue, 3.1.7.1.33 Set Queue Defaults and 3.1.7.1.4 Delete Queue
  A valid, unused path name gives an empty queue with its own journal and default attributes;
  deleting it removes all its messages as NackQueueDeleted and orphans the handles open on it.

  Background:
    Given a queue "admin"

  @clause:MS-MQDMPR:3.1.7.1.3:01
  Scenario Outline: A path name that is not valid creates no queue
    When the client creates a queue with the path name "<path name>"
    Then the call returns MQ_ERROR_ILLEGAL_QUEUE_PATHNAME

    Examples:
      | path name                |
      |                          |
      | no-computer-part         |
      | $COMPUTER\               |
      | $COMPUTER\private$\      |
      | $COMPUTER\private$\name; |
      | a computer\private$\name |

  @clause:MS-MQDMPR:3.1.7.1.3:01
  Scenario Outline: A valid path name creates a queue
    When the client creates a queue with the path name "<path name>"
    Then the call returns MQ_OK

    Examples:
      | path name                      |
      | $COMPUTER\private$\$PREFIX-new |
      | $COMPUTER\$PREFIX-new          |
      | .\private$\$PREFIX-new         |

  @clause:MS-MQDMPR:3.1.7.1.3:04
  Scenario Outline: A path name already in use is refused, whatever its case
    Given a queue "orders"
    When queue "orders" is created again <how>
    Then the call returns MQ_ERROR_QUEUE_EXISTS

    Examples:
      | how                       |
      | as it was                 |
      | with its name in capitals |

  @clause:MS-MQDMPR:3.1.7.1.3:03
  Scenario: A queue created again after a deletion starts empty, with nothing counted against its quota
    Given a queue "orders" with a quota of 2 KB
    And message "old" is sent to "orders" with:
      | body size | 1200 |
    And queue "orders" is deleted
    When queue "orders" is created again with a quota of 2 KB
    Then the call returns MQ_OK
    And "orders" holds nothing
    When message "new" is sent to "orders" with:
      | body size | 1200 |
    Then the send is accepted with status 0

  @clause:MS-MQDMPR:3.1.7.1.3:03
  Scenario: The form of the path name decides whether a queue is public or private
    Given a public queue "pub"
    And "pub" is also known by its direct format name as "pub-as-private"
    When "pub" is opened with PEEK_ACCESS as "h"
    Then the call returns MQ_OK
    When "pub-as-private" is opened with PEEK_ACCESS as "h2"
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

  @clause:MS-MQDMPR:3.1.7.1.3:02
  Scenario: Every queue has its own journal, which receives copies when the queue journals
    Given a queue "plain"
    And a queue "kept" with journaling
    And "plain" holds "p1"
    And "kept" holds "k1"
    And "plain" is opened with RECEIVE_ACCESS as "hp"
    And "kept" is opened with RECEIVE_ACCESS as "hk"
    When the client receives from "hp"
    And the client receives from "hk"
    Then "plain journal" holds nothing
    And "kept journal" holds "k1"

  @clause:MS-MQDMPR:3.1.7.1.3:02
  Scenario: A subqueue has no journal of its own, so nothing received from it is journaled
    Given a queue "kept" with journaling
    And a subqueue "sub" of "kept"
    And "kept" holds "k1"
    And "kept" is opened with RECEIVE_ACCESS as "h"
    And "kept;sub" is opened for move as "to-sub"
    And "kept;sub" is opened with RECEIVE_ACCESS as "hs"
    When the client moves "k1" from "h" to "to-sub" without a transaction
    And the client receives from "hs"
    Then the call returns MQ_OK
    And the message returned is "k1"
    And "kept journal" holds nothing

  # D-35: the mismatch is refused, or accepted and answered by a NACK; either way it never arrives
  @clause:MS-MQDMPR:3.1.7.1.33:01 @decision:D-35
  Scenario: A queue created without attributes takes the defaults: no quota, not transactional, no journaling
    Given a queue "plain"
    And "plain" is opened with RECEIVE_ACCESS as "h"
    And the client begins transaction "t"
    When message "big" is sent to "plain" with:
      | body size | 900000 |
    Then the send is accepted with status 0
    When in transaction "t", message "in a transaction" is sent to "plain"
    Then by D-35 the send is refused with MQ_ERROR_TRANSACTION_USAGE (refuse) or accepted (accept-then-nack)
    When the client receives from "h"
    Then the message returned is "big"
    And "plain journal" holds nothing

  # D-26 on-delivery: non-transactional messages in their queue were delivered, so the delete copies nothing
  @clause:MS-MQDMPR:3.1.7.1.4:01 @decision:D-26
  Scenario: Deleting a queue removes every message, whatever its state, as NackQueueDeleted
    Given a queue "orders"
    And these messages were sent to "orders":
      | label     | acknowledgements | admin queue | dead letter |
      | locked    | negative receive | admin       | yes         |
      | available | negative receive | admin       | yes         |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client starts a receive on "h" as "r"
    Then the message returned is "locked"
    When queue "orders" is deleted
    Then the call returns MQ_OK
    And the acknowledgments of "available" in "admin" are MQMSG_CLASS_NACK_Q_DELETED
    And the acknowledgments of "locked" in "admin" are MQMSG_CLASS_NACK_Q_DELETED
    And by D-26 the messages in "the dead-letter queue" are, front to back (on-removal), or none (on-delivery):
      | label     | class                      |
      | locked    | MQMSG_CLASS_NACK_Q_DELETED |
      | available | MQMSG_CLASS_NACK_Q_DELETED |

  # "Whatever its state" includes PurgePending: a purged message its reader still holds goes with the queue.
  @clause:MS-MQDMPR:3.1.7.1.4:01
  Scenario: Deleting a queue removes a message marked for purging as NackQueueDeleted
    Given a queue "orders"
    And these messages were sent to "orders":
      | label | acknowledgements | admin queue |
      | held  | negative receive | admin       |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client starts a receive on "h" as "r"
    And the client purges the queue through "h"
    Then the acknowledgments of "held" in "admin" are none
    When queue "orders" is deleted
    Then the call returns MQ_OK
    And the acknowledgments of "held" in "admin" are MQMSG_CLASS_NACK_Q_DELETED

  # D-06: the place a cursor keeps for a removed message is no message: a purge and the delete pass it by.
  @clause:MS-MQDMPR:3.1.7.1.4:01
  Scenario: A queue with a cursor resting on a removed message is purged and deleted like any other
    Given a queue "orders"
    And these messages were sent to "orders":
      | label | acknowledgements | admin queue |
      | m1    | negative receive | admin       |
      | m2    | negative receive | admin       |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And the client receives from "h"
    Then the message returned is "m1"
    When the client purges the queue through "h"
    Then the call returns MQ_OK
    When queue "orders" is deleted
    Then the call returns MQ_OK
    And the acknowledgments of "m1" in "admin" are none
    And the acknowledgments of "m2" in "admin" are MQMSG_CLASS_NACK_Q_PURGED

  @clause:MS-MQDMPR:3.1.7.1.4:01
  Scenario: Deleting a transactional queue also removes the message a transaction holds
    Given a transactional queue "ledger"
    And these messages were committed to "ledger":
      | label | acknowledgements | admin queue |
      | held  | negative receive | admin       |
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client begins transaction "t"
    When in transaction "t", the client starts a receive on "h" as "r"
    And queue "ledger" is deleted
    Then the acknowledgments of "held" in "admin" are MQMSG_CLASS_NACK_Q_DELETED
    When transaction "t" is aborted
    Then the acknowledgments of "held" in "admin" are MQMSG_CLASS_NACK_Q_DELETED

  @clause:MS-MQDMPR:3.1.7.1.4:02
  Scenario Outline: A handle whose queue was deleted finds no queue behind it any more
    Given a queue "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"
    When cursor "c" peeks the current message
    And queue "orders" is deleted
    And <call>
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE

    Examples:
      | call                                                                  |
      | the client receives from "h"                                          |
      | the client peeks at "h"                                               |
      | cursor "c" peeks the current message                                  |
      | cursor "c" peeks the next message                                     |
      | the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h" |

  # D-46: Open Cursor gives no cursor for a descriptor whose queue is gone, and MS-MQRR 3.1.4.4 names no
  # status; Purge Queue on no queue purges nothing, and 3.1.4.6 then returns MQ_OK (purge-ok) or fails
  @clause:MS-MQDMPR:3.1.7.1.4:02 @decision:D-46
  Scenario: A handle whose queue was deleted purges nothing, and gets no cursor
    Given a queue "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When queue "orders" is deleted
    And the client purges the queue through "h"
    Then by D-46 the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available) or MQ_OK (purge-ok) or any other failure (other-failure)
    When the client asks for a cursor on "h" as "c2"
    Then by D-46 the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available, purge-ok) or any other failure (other-failure, purge-ok)

  @clause:MS-MQDMPR:3.1.7.1.4:02
  Scenario: A handle of a deleted queue does not reach a new queue created under the same name
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "old"
    When queue "orders" is deleted
    And queue "orders" is created again
    And message "fresh" is sent to "orders"
    And the client peeks at "old"
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE
    And "orders" holds "fresh"

  # Delete Queue says nothing of the reads waiting on the queue: they end at once, telling the
  # reader the queue is gone, or wait on until their time-out (D-13).
  @clause:MS-MQDMPR:3.1.7.1.4:02 @decision:D-13
  Scenario: A read waiting on a queue that is deleted ends, at once or at its time-out
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client waits on "h" for up to 5000 ms in the background as "r"
    And queue "orders" is deleted
    Then by D-13 the background call "r" ends with MQ_ERROR_QUEUE_DELETED (queue-deleted) or MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available) at once, or with MQ_ERROR_IO_TIMEOUT when its 5000 ms have passed (times-out)
    When the client receives from "h"
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE

  # Close Queue does nothing for a descriptor whose QueueReference is NULL (3.1.7.1.6): closing the handle of the
  # deleted queue does not cancel the read, which ends by D-13 alone
  @clause:MS-MQDMPR:3.1.7.1.4:02 @decision:D-13
  Scenario: A read waiting on a queue that is deleted is not cancelled when its handle is closed
    Given a queue "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client waits on "h" for up to 5000 ms in the background as "r"
    And queue "orders" is deleted
    And R_CloseQueue is called on "h"
    Then by D-13 the background call "r" ends with MQ_ERROR_QUEUE_DELETED (queue-deleted) or MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available) at once, or with MQ_ERROR_IO_TIMEOUT when its 5000 ms have passed (times-out)
