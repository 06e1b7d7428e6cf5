Feature: MS-MQQB 3.1.7.2.2 Final Acknowledgment
  A transactional message that another queue manager sent, asking for source journaling or
  for a final acknowledgment, is final-acknowledged to that queue manager when it leaves its
  queue: a FinalAck packet (MS-MQQB 2.2.5) whose class is the reason it left and whose body
  names the message. The suite plays the other queue manager.

  Background:
    Given a transactional queue "ledger"
    And another queue manager "remote" with an MS-MQQB session to the target
    And "ledger" is opened with RECEIVE_ACCESS as "l"

  @clause:MS-MQQB:3.1.7.2.2:01 @clause:MS-MQDMPR:3.1.1.12:13 @clause:MS-MQQB:2.2.5:01 @decision:D-76
  Scenario Outline: A transactional message from another queue manager is final-acknowledged when received, if it asked (<asked>)
    Given message "t1" is prepared with:
      | journal     | <journal>     |
      | dead letter | <dead letter> |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1    |
      | FA | <fa> |
    And the client begins transaction "t"
    And the client takes the front message of "l" in transaction "t" as "r"
    Then the message returned is "t1"
    When the client ends transactional "r" with RR_ACK
    And transaction "t" is committed
    Then "remote" <final ack> for "t1"

    Examples:
      | asked               | journal | dead letter | fa | final ack                                               |
      | positive journaling | yes     |             | 0  | received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE    |
      | negative journaling |         | yes         | 0  | received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE    |
      | a final ack         |         |             | 1  | received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE    |
      | nothing             |         |             | 0  | received no FinalAck                                    |

  @clause:MS-MQQB:3.1.7.2.2:01 @clause:MS-MQMQ:2.2.20.5:01 @decision:D-76
  Scenario: A transaction's ConnectorQMGuid (CG, the bit beside FA) asks for no FinalAck
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
      | CG | 1 |
      | FA | 0 |
    And the client begins transaction "t"
    And the client takes the front message of "l" in transaction "t" as "r"
    Then the message returned is "t1"
    When the client ends transactional "r" with RR_ACK
    And transaction "t" is committed
    Then "remote" received no FinalAck for "t1"

  @clause:MS-MQQB:3.1.7.2.2:01 @decision:D-76
  Scenario: Once a session the target opened to deliver FinalAcks is closed, the next FinalAck still comes
    Given message "t1" is prepared with:
      | journal | yes |
    And message "t2" is prepared with:
      | journal | yes |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And the client begins transaction "t"
    And the client takes the front message of "l" in transaction "t" as "r"
    And the client ends transactional "r" with RR_ACK
    And transaction "t" is committed
    Then "remote" received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE for "t1"
    When "remote" closes the sessions the target opened to it
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH | 1 |
    And the client begins transaction "u"
    And the client takes the front message of "l" in transaction "u" as "s"
    And the client ends transactional "s" with RR_ACK
    And transaction "u" is committed
    Then "remote" received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE for "t2"

  @clause:MS-MQQB:3.1.7.2.2:01 @clause:MS-MQDMPR:3.1.1.12:13 @decision:D-76
  Scenario: A transactional message that is not received yet has no FinalAck
    Given message "t1" is prepared with:
      | journal | yes |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "remote" received no FinalAck for "t1"

  @clause:MS-MQQB:3.1.7.2.2:01 @decision:D-76
  Scenario: A purged transactional message is final-acknowledged with the reason it left
    Given message "t1" is prepared with:
      | dead letter | yes |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And the client purges the queue through "l"
    Then "remote" received a FinalAck of class MQMSG_CLASS_NACK_Q_PURGED for "t1"

  # The source journals a transactional message when its FinalAck comes (MS-MQQB 3.1.5.7), in its own system
  # journal or dead-letter queue (MS-MQDMPR 3.1.1.12): the target keeps no such copy of another queue
  # manager's message, whichever way that queue manager's GUID compares with the target's.
  @clause:MS-MQDMPR:3.1.1.12:10 @clause:MS-MQDMPR:3.1.1.12:11 @clause:MS-MQQB:3.1.5.7:01
  Scenario Outline: A message from another queue manager leaves no source journal copy in the target (GUID <guid>)
    Given another queue manager "origin" whose GUID is <guid> with an MS-MQQB session to the target
    And message "kept" is prepared with:
      | journal | yes |
    And message "lost" is prepared with:
      | dead letter | yes |
    When "origin" sends the prepared message "kept" to "ledger" with packet fields:
      | TH | 1 |
    And "origin" sends the prepared message "lost" to "ledger" with packet fields:
      | TH | 1 |
    And the client begins transaction "t"
    And the client takes the front message of "l" in transaction "t" as "r"
    Then the message returned is "kept"
    When the client ends transactional "r" with RR_ACK
    And transaction "t" is committed
    And the client purges the queue through "l"
    Then "ledger" holds nothing
    And "the system journal" has no copy of "kept"
    And "the transactional dead-letter queue" has no copy of "lost"

    Examples: a GUID at each end of the range
      | guid                                 |
      | 00000000-0000-0000-0000-000000000001 |
      | ffffffff-ffff-ffff-ffff-fffffffffffe |

  # Two other queue managers at each end of the GUID range, each with a session to the target: the FinalAck for a
  # message goes to the queue manager that sent it, whichever opened its session first and whichever the target
  # answered before (on the session that peer opened, or one the target opened to it: D-76).
  @clause:MS-MQQB:3.1.7.2.2:01 @clause:MS-MQQB:3.1.7.17:01 @decision:D-76
  Scenario Outline: Each of two queue managers gets the FinalAck for its own message (<opened> opened first, <first> sends first)
    Given another queue manager "<opened>" whose GUID is <guid> with an MS-MQQB session to the target
    And another queue manager "<later>" whose GUID is <other guid> with an MS-MQQB session to the target
    And message "t1" is prepared with:
      | journal | yes |
    And message "t2" is prepared with:
      | journal | yes |
    When "<first>" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And the client begins transaction "a"
    And the client takes the front message of "l" in transaction "a" as "r1"
    And the client ends transactional "r1" with RR_ACK
    And transaction "a" is committed
    Then "<first>" received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE for "t1"
    When "<second>" sends the prepared message "t2" to "ledger" with packet fields:
      | TH | 1 |
    And the client begins transaction "b"
    And the client takes the front message of "l" in transaction "b" as "r2"
    And the client ends transactional "r2" with RR_ACK
    And transaction "b" is committed
    Then "<second>" received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE for "t2"

    Examples:
      | opened | guid                                 | later | other guid                           | first | second |
      | low    | 00000000-0000-0000-0000-000000000001 | high  | ffffffff-ffff-ffff-ffff-fffffffffffe | low   | high   |
      | low    | 00000000-0000-0000-0000-000000000001 | high  | ffffffff-ffff-ffff-ffff-fffffffffffe | high  | low    |
      | high   | ffffffff-ffff-ffff-ffff-fffffffffffe | low   | 00000000-0000-0000-0000-000000000001 | low   | high   |
      | high   | ffffffff-ffff-ffff-ffff-fffffffffffe | low   | 00000000-0000-0000-0000-000000000001 | high  | low    |

  # D-75: a FinalAck answers a transactional message; one that is not transactional, though it asked for source
  # journaling, gets none when it leaves its queue.
  @clause:MS-MQQB:3.1.7.2.2:01 @decision:D-75
  Scenario: A non-transactional message from another queue manager that asked for journaling gets no FinalAck
    Given a queue "orders"
    And message "m1" is prepared with:
      | journal  | yes         |
      | delivery | recoverable |
    When "remote" sends the prepared message "m1" to "orders"
    And "orders" is opened with RECEIVE_ACCESS as "o"
    And the client receives from "o"
    Then the message returned is "m1"
    And "remote" received no FinalAck at all

  # The journal copy a received message leaves (target journaling, MS-MQDMPR 3.1.1.12) is a record, not the message:
  # removing it sends no second FinalAck.
  @clause:MS-MQQB:3.1.7.2.2:01 @decision:D-76
  Scenario: The journal copy of a peer's transactional message leaves without a second FinalAck
    Given a transactional queue "kept" with journaling
    And "kept" is opened with RECEIVE_ACCESS as "k"
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "kept" with packet fields:
      | TH | 1 |
      | FA | 1 |
    And the client begins transaction "a"
    And the client takes the front message of "k" in transaction "a" as "r"
    And the client ends transactional "r" with RR_ACK
    And transaction "a" is committed
    And "kept journal" is opened with RECEIVE_ACCESS as "j"
    And the client purges the queue through "j"
    Then "remote" received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE for "t1"

  # A second connection of the same queue manager that has sent only its EstablishConnection is no open session:
  # the FinalAck goes to the one that is (D-76 same-session: the session the other queue manager opened, while it
  # is open), or to a session of the target's own.
  @clause:MS-MQQB:3.1.7.2.2:01 @decision:D-76
  Scenario: A half-open second connection of the same queue manager does not take its FinalAck
    Given another queue manager "twin" with the GUID of "remote" connected to the target with no session
    And message "t1" is prepared with:
      | journal | yes |
    When "twin" asks for a session naming the target as ServerGuid
    And "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And the client begins transaction "a"
    And the client takes the front message of "l" in transaction "a" as "r"
    And the client ends transactional "r" with RR_ACK
    And transaction "a" is committed
    Then "remote" received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE for "t1"
