Feature: MS-MQQB 2.2.4 OrderAck Packet
  A receiver acknowledges the transactional messages it takes from a session with an OrderAck:
  a UserMessage for the sender's order queue, labelled "QM Ordering Ack", of class
  MQMSG_CLASS_ORDER_ACK, with no BaseHeader flag, and a 36-byte body that names the sequence and
  the number of the message acknowledged. The suite plays the sending queue manager.

  Background:
    Given a transactional queue "ledger"
    And another queue manager "remote" with an MS-MQQB session to the target

  @clause:MS-MQQB:2.2.4:01 @clause:MS-MQQB:2.2.4.1:01 @clause:MS-MQQB:3.1.5.8.6:02 @decision:D-76
  Scenario: A transactional message taken from a session is acknowledged with an OrderAck naming it
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "ledger" holds "t1"
    And "remote" received an OrderAck for "t1"

  @clause:MS-MQQB:2.2.4.1:01 @clause:MS-MQQB:3.1.5.8.6:02 @decision:D-76
  Scenario: The OrderAck for two messages of one sequence names the second, and the first as its previous
    Given message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "ledger" holds "t1" and "t2"
    And "remote" received an OrderAck for "t2"

  @clause:MS-MQQB:2.2.4.1:01 @clause:MS-MQQB:3.1.5.8.6:02 @decision:D-76
  Scenario: The OrderAck for three messages of one sequence names the third, and the second as its previous
    Given message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    And message "t3" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" sends the prepared message "t3" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "ledger" holds "t1", "t2" and "t3"
    And "remote" received an OrderAck for "t3"

  # Here the target receives an OrderAck: the peer's, addressed to the target's order queue (private queue 4, MS-MQQB
  # 2.2.4). It is an acknowledgment, not a message, so none of the scenario's five queues holds it (on a queue manager
  # that numbers its private queues from 1, one of them is private queue 4).
  @clause:MS-MQQB:3.1.5.1.1:01
  Scenario: An OrderAck from the peer is taken as an acknowledgment, not put in a queue
    Given a queue "first"
    And a queue "second"
    And a queue "third"
    And a queue "fourth"
    And a queue name "order queue" for the format name "PRIVATE={target}\00000004"
    And message "QM Ordering Ack" is prepared with:
      | body     | 0123456789abcdef0123456789abcdef0123 |
      | class    | 0x00FF                               |
      | priority | 0                                    |
    When "remote" sends the prepared message "QM Ordering Ack" to "order queue"
    And "remote" waits 500 ms for the target's packets
    Then the session of "remote" is still open
    And "first" holds nothing
    And "second" holds nothing
    And "third" holds nothing
    And "fourth" holds nothing
    And "ledger" holds nothing

  # The peer's FinalAck (DM set, recoverable: MS-MQQB 2.2.5) is a UserMessage Packet: the SessionAck its
  # RecoverableAckTimeout (500 ms, asked by the suite) brings within the wait counts it and names it, as the peer
  # counted it among the packets it sent.
  @clause:MS-MQQB:3.1.5.1.1:03 @clause:MS-MQQB:3.1.5.1.1:01
  Scenario: A FinalAck from the peer is counted and acknowledged as the recoverable packet it is
    Given a queue name "order queue" for the format name "PRIVATE={target}\00000004"
    And message "QM Ordering Ack" is prepared with:
      | body     | 0123456789abcdef0123456789abcdef0123 |
      | class    | 0x4000                               |
      | priority | 0                                    |
      | delivery | recoverable                          |
    When "remote" sends the prepared message "QM Ordering Ack" to "order queue"
    And "remote" waits 1000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 1 messages and the recoverable messages 1
    And the session of "remote" is still open

  # An OrderAck is sent express (2.2.4: UserHeader.Flags DM 0): counted, but not among the recoverable packets, and
  # so acknowledged with the express packets, AckWaitTimeout / 2 after it came (3.1.5.8.2).
  @clause:MS-MQQB:3.1.5.1.1:03
  Scenario: An OrderAck from the peer is counted as the express packet it is
    Given a queue name "order queue" for the format name "PRIVATE={target}\00000004"
    And message "QM Ordering Ack" is prepared with:
      | body     | 0123456789abcdef0123456789abcdef0123 |
      | class    | 0x00FF                               |
      | priority | 0                                    |
    When "remote" sends the prepared message "QM Ordering Ack" to "order queue"
    And "remote" waits 10000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 1 messages and the recoverable messages none
    And the session of "remote" is still open

  # 3.1.5.1.1 makes a packet for the order queue an acknowledgment only with BaseHeader.Flags 0 and the Label
  # "QM Ordering Ack"; one that misses either is a UserMessage, and a transactional one is ordered and acknowledged
  # in its sequence (an OrderAck, 3.1.5.8.6) if the target takes it into its order queue, or refused with a negative
  # FinalAck (3.1.5.8.2) if it does not (D-100: no application queue of a conforming queue manager is private queue 4).
  # The Label must be the acknowledgment's exactly: one that sorts before it, and one that begins with it.
  @clause:MS-MQQB:3.1.5.1.1:02 @decision:D-76
  Scenario Outline: A transactional packet for the order queue labelled "<label>" is ordered as a message
    Given a queue name "order queue" for the format name "PRIVATE={target}\00000004"
    And message "<label>" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "<label>" to "order queue" with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "remote" received an OrderAck or a negative FinalAck for "<label>", as a message
    And the session of "remote" is still open

    Examples:
      | label                   |
      | Ledger entry            |
      | QM Ordering Ack, resent |

  # Its BaseHeader.Flags carry DH: a DebugHeader follows (MS-MQMQ 2.2.19.1), as any message may have one.
  @clause:MS-MQQB:3.1.5.1.1:02 @decision:D-76
  Scenario: A transactional packet for the order queue labelled as an acknowledgment, with a BaseHeader flag set, is ordered as a message
    Given a queue name "order queue" for the format name "PRIVATE={target}\00000004"
    And message "QM Ordering Ack" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "QM Ordering Ack" to "order queue" with packet fields:
      | TH | 1 |
      | QT | 0 |
    And "remote" waits 2000 ms for the target's packets
    Then "remote" received an OrderAck or a negative FinalAck for "QM Ordering Ack", as a message
    And the session of "remote" is still open

  # The order queue by a direct name is order_queue$ (2.2.4, DQ 7), not any queue whose name is its number.
  @clause:MS-MQQB:3.1.5.1.1:02 @decision:D-76
  Scenario: A transactional packet labelled as an acknowledgment for a queue named 00000004 by its direct name is a message
    Given a queue name "numbered" for the format name "DIRECT=OS:{computer}\private$\00000004"
    And message "QM Ordering Ack" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "QM Ordering Ack" to "numbered" by its direct name with packet fields:
      | DQ | 7 |
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "remote" received an OrderAck or a negative FinalAck for "QM Ordering Ack", as a message
    And the session of "remote" is still open

  # A transactional message has BaseHeader.Flags 0 (priority 0, MS-MQMQ 2.2.19.1); labelled as an acknowledgment, it
  # is still one for an application queue, and it reaches it.
  @clause:MS-MQQB:3.1.5.1.1:02 @decision:D-76
  Scenario: A transactional message labelled as an acknowledgment for an application queue reaches it
    Given message "QM Ordering Ack" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "QM Ordering Ack" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "ledger" holds "QM Ordering Ack"
    And "remote" received an OrderAck for "QM Ordering Ack"

  # Five queues made in a row: a queue manager that numbers its private queues from 1 gives one of them 4 (D-100).
  @clause:MS-MQQB:2.2.4:02 @decision:D-100
  Scenario: No queue made for an application is private queue 4
    Given a queue "first"
    And a queue "second"
    And a queue "third"
    And a queue "fourth"
    And a queue "fifth"
    Then no private queue of the scenario has the number 4, the order queue's
