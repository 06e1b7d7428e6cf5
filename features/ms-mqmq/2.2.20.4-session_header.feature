Feature: MS-MQMQ 2.2.20.4 SessionHeader
  A queue manager acknowledges what it receives on an MS-MQQB session with a SessionHeader:
  how many UserMessage packets it received (AckSequenceNumber), which recoverable ones it has
  stored since its last acknowledgment (RecoverableMsgAckSeqNumber and the bits of
  RecoverableMsgAckFlags), how many it sent itself, and its window. The suite plays the
  queue manager on the other end of the session.

  Background:
    Given a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target
    And message "e1" is prepared with:
      | delivery | express |
    And message "r1" is prepared with:
      | delivery | recoverable |
    And message "r2" is prepared with:
      | delivery | recoverable |
    And message "r3" is prepared with:
      | delivery | recoverable |

  @clause:MS-MQMQ:2.2.20.4:01
  Scenario: The session acknowledgment counts the packets received and names the recoverable ones stored
    When "remote" sends the prepared message "e1" to "orders"
    And "remote" sends the prepared message "r1" to "orders"
    And "remote" sends the prepared message "r2" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 3 messages and the recoverable messages 1 and 2
    And every session acknowledgment "remote" received counts the packets the target sent it and has a WindowSize from 0x0001 to 0xFFFF

  @clause:MS-MQMQ:2.2.20.4:01
  Scenario: A later session acknowledgment names only the recoverable packets stored since the one before
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    And "remote" sends the prepared message "e1" to "orders"
    And "remote" sends the prepared message "r2" to "orders"
    And "remote" sends the prepared message "r3" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 4 messages and the recoverable messages 2 and 3
    And every session acknowledgment "remote" received counts the packets the target sent it and has a WindowSize from 0x0001 to 0xFFFF

  # Express packets alone are acknowledged when half the AckTimeout the suite gave (20 s) has passed.
  @clause:MS-MQMQ:2.2.20.4:01
  Scenario: A session acknowledgment of express packets alone names no recoverable packet
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    And "remote" sends the prepared message "e1" to "orders"
    And "remote" waits 11000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 2 messages and the recoverable messages none

  # MS-MQQB 3.1.5.8.7: with 32 recoverable packets unacknowledged RecoverableMsgAckFlags is full, so the next one
  # is acknowledged at once, and the flags start afresh (D-78).
  @clause:MS-MQMQ:2.2.20.4:01 @decision:D-78
  Scenario: The 33rd unacknowledged recoverable packet brings a SessionAck at once naming the 32 before it
    When "remote" sends the prepared message "r1" to "orders" 33 times
    Then "remote" received at once a SessionAck naming the recoverable messages 1 to 32

  # The same once a SessionAck has named the first: the 32 flags count from the packet after it.
  @clause:MS-MQMQ:2.2.20.4:01 @decision:D-78
  Scenario: After a SessionAck, the 33rd recoverable packet it did not name brings one at once naming the 32 before it
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    And "remote" sends the prepared message "r1" to "orders" 33 times
    Then "remote" received at once a SessionAck naming the recoverable messages 2 to 33

  # That SessionAck's packet is flagged and the timer restarted (MS-MQQB 3.1.5.8.7); whether the timer names it
  # or it waits for the next packet's SessionAck is D-98.
  @clause:MS-MQMQ:2.2.20.4:01 @decision:D-98
  Scenario: The packet that brought an immediate SessionAck is named when the timer fires, or with the next packet
    When "remote" sends the prepared message "r1" to "orders" 33 times
    Then "remote" received at once a SessionAck naming the recoverable messages 1 to 32
    When "remote" waits 1000 ms for the target's packets
    Then by D-98 a SessionAck in "remote"'s last wait named the recoverable message 33 (timer), or none came (literal)

  # After that SessionAck the 33rd packet is the first of the new flags; with a 34th, the timer names both.
  @clause:MS-MQMQ:2.2.20.4:01 @decision:D-78
  Scenario: The packets after an immediate SessionAck are named by the next one
    When "remote" sends the prepared message "r1" to "orders" 33 times
    Then "remote" received at once a SessionAck naming the recoverable messages 1 to 32
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 34 messages and the recoverable messages 33 and 34

  # The target sends UserMessages of its own to "remote": an OrderAck (express) for t1 and FinalAcks
  # (recoverable) refusing t2 and t3, on remote's session or on one it opened (D-76); the SessionAck that e1 brings
  # on that session counts them, those held until a session the target opened was set up among them.
  @clause:MS-MQMQ:2.2.20.4:01 @clause:MS-MQQB:3.1.5.2.3:02 @decision:D-76
  Scenario: A session acknowledgment counts the OrderAcks and FinalAcks the target sent on the session
    Given a transactional queue "ledger"
    And message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    And message "t3" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" sends the prepared message "t2" to "orders" with packet fields:
      | TH | 1 |
    And "remote" sends the prepared message "t3" to "orders" with packet fields:
      | TH | 1 |
    And "remote" waits 1000 ms for the target's packets
    And "remote" sends the prepared message "e1" to "orders" on the session the acknowledgments came on
    And "remote" waits 11000 ms for the target's packets
    Then the last SessionAck "remote" received on the session the acknowledgments came on counts the 3 UserMessages, 2 of them recoverable, that the target sent on it

  # The suite's session asks for RecoverableAckTimeout 500 ms: r1's timer fires 500 ms after it, whatever came since
  # (judged to the millisecond: a target on the wall clock does not run it).
  @clause:MS-MQQB:3.1.5.8.7:01
  Scenario: A second recoverable packet does not put off the SessionAck the first one's timer brings
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" waits 400 ms for the target's packets
    Then "remote" received no SessionAck in its last wait
    When "remote" sends the prepared message "r2" to "orders"
    And "remote" waits 100 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 2 messages and the recoverable messages 1 and 2
