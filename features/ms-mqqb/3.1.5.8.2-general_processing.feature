Feature: MS-MQQB 3.1.5.8.2 General Processing
  A message that reaches this queue manager for one of its own queues is refused when
  its queue does not exist or when message and queue disagree about transactions.

  Background:
    Given a queue "orders"
    And a transactional queue "ledger"
    And a queue "admin"

  # D-35: MS-MQQB rejects the arriving packet; what the sending application is told is outside
  # MS-MQQB: a refusal (refuse), or MQ_OK and the NACK tells the story (accept-then-nack).
  @clause:MS-MQQB:3.1.5.8.2:01 @decision:D-35
  Scenario Outline: A transactional message for a non-transactional queue is refused
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" reaches "orders" in transaction "t"
    Then by D-35 the send is refused with MQ_ERROR_TRANSACTION_USAGE (refuse) or accepted (accept-then-nack)
    And the acknowledgments of "m1" in "admin" are <acknowledgments>
    And "orders" holds nothing

    Examples:
      | acks                                  | acknowledgments                      |
      | negative arrival                      | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q |
      | negative arrival and negative receive | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q |
      | positive arrival                      | none                                 |
      | negative receive                      | none                                 |
      | none                                  | none                                 |

  @clause:MS-MQQB:3.1.5.8.2:01
  Scenario: A transactional message for a transactional queue is accepted without a negative acknowledgment
    Given message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When the prepared message "m1" reaches "ledger" in transaction "t"
    And transaction "t" is committed
    Then "ledger" holds "m1"
    And the acknowledgments of "m1" in "admin" are none

  @clause:MS-MQQB:3.1.5.8.2:02 @decision:D-35
  Scenario Outline: A non-transactional message for a transactional queue is refused
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" reaches "ledger" outside a transaction
    Then by D-35 the send is refused with MQ_ERROR_TRANSACTION_USAGE (refuse) or accepted (accept-then-nack)
    And the acknowledgments of "m1" in "admin" are <acknowledgments>
    And "ledger" holds nothing

    Examples:
      | acks             | acknowledgments                        |
      | negative arrival | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG |
      | full reach queue | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG |
      | positive arrival | none                                   |
      | negative receive | none                                   |

  @clause:MS-MQQB:3.1.5.8.2:02
  Scenario: A non-transactional message for a non-transactional queue is accepted without a negative acknowledgment
    Given message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When the prepared message "m1" reaches "orders" outside a transaction
    Then the send is accepted with status 0
    And "orders" holds "m1"
    And the acknowledgments of "m1" in "admin" are none

  # The NACK_BAD_DST_Q acknowledgment is one of the "insecure" classes that MS-MQQB
  # 3.1.7.15 sends only when SendInsecureNacks is TRUE.  Its default is FALSE and the
  # Target interface cannot change it, so this scenario checks the refusal and the
  # silence of the default setting only.
  @clause:MS-MQQB:3.1.5.8.2:03 @decision:D-68
  Scenario Outline: A message for a queue that does not exist is refused, silently while insecure NACKs are off
    Given no queue "ghost" exists
    And message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" reaches "ghost"
    Then the send is refused with MQ_ERROR_QUEUE_NOT_FOUND
    And "admin" holds nothing

    Examples:
      | acks             |
      | negative arrival |
      | none             |

  # D-68: a local send to an unknown queue brings no packet, so nothing requires the arrival NACK
  # handling of 3.1.5.8.2; a server may still apply it (refuse+nack: NACK_BAD_DST_Q subject to
  # SendInsecureNacks, and the dead-letter copy negative journaling asks for) or not (refuse-only).
  @clause:MS-MQQB:3.1.5.8.2:03 @decision:D-68
  Scenario: A message for a queue that does not exist is dead-lettered as it asked, or only refused
    Given no queue "ghost" exists
    And message "m1" is prepared with:
      | dead letter | yes |
    When the prepared message "m1" reaches "ghost"
    Then the send is refused with MQ_ERROR_QUEUE_NOT_FOUND
    And by D-68 "the dead-letter queue" keeps a copy of "m1" of class MQMSG_CLASS_NACK_BAD_DST_Q (refuse+nack) or none (refuse-only)

  # A dead-letter copy is the message as it was sent: its SentTime is when that was (MS-MQMQ 2.2.19.2).
  @clause:MS-MQQB:3.1.5.8.2:03 @clause:MS-MQMQ:2.2.19.2:03 @decision:D-68
  Scenario: The dead-letter copy of a message for a queue that does not exist, if made, says when it was sent
    Given no queue "ghost" exists
    And message "m1" is prepared with:
      | dead letter | yes |
    When the prepared message "m1" reaches "ghost"
    Then the send is refused with MQ_ERROR_QUEUE_NOT_FOUND
    And every copy of "m1" in "the dead-letter queue" was sent about now

  @clause:MS-MQQB:3.1.5.8.2:03
  Scenario: A message another queue manager addresses to a queue's journal is refused as for no queue
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | delivery | express |
    When "remote" sends the prepared message "m1" to "orders journal" by its direct name with packet fields:
      | DQ | 7 |
    And "remote" waits 1000 ms for the target's packets
    Then "orders journal" holds nothing
    And "orders" holds nothing

  # The suite's session asks for AckTimeout 20 s (MS-MQQB 2.2.2.1), so the Session Ack Send timer an express packet
  # starts runs 10 s; the SessionAck comes when it fires, not before (a target that follows no virtual clock cannot
  # be held to the millisecond: not run there).
  @clause:MS-MQQB:3.1.5.8.2:04 @clause:MS-MQQB:2.2.1:02
  Scenario: An express packet alone is acknowledged AckWaitTimeout / 2 after it came, not sooner
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "e1" is prepared with:
      | delivery | express |
    When "remote" sends the prepared message "e1" to "orders"
    And "remote" waits 9999 ms for the target's packets
    Then "remote" received no SessionAck in its last wait
    When "remote" waits 1 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 1 messages and the recoverable messages none

  # MS-MQQB 3.1.5.8.5: the queues a packet may be put in are the QueueCollection's; a system queue is not one.
  @clause:MS-MQQB:3.1.5.8.2:03
  Scenario: A message another queue manager addresses to the dead-letter queue is refused as for no queue
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | delivery | express |
    When "remote" sends the prepared message "m1" to "the dead-letter queue" by its direct name with packet fields:
      | DQ | 7 |
    And "remote" waits 1000 ms for the target's packets
    Then "the dead-letter queue" has no copy of "m1"
    And the session of "remote" is still open

  # A direct name that names no queue at all (an address and nothing after it, MS-MQMQ 2.1.2) is a destination
  # that does not correspond to a queue: refused as for a queue that does not exist, the session going on.
  @clause:MS-MQQB:3.1.5.8.2:03
  Scenario: A transactional message whose direct destination name names no queue is refused with NACK_BAD_DST_Q
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | DQ      | 7          |
      | DQ name | OS:nowhere |
      | TH      | 1          |
    Then "remote" received a FinalAck of class MQMSG_CLASS_NACK_BAD_DST_Q for "t1"
    And "ledger" holds nothing
    And the session of "remote" is still open
