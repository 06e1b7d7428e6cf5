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
