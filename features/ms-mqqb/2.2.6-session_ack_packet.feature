Feature: MS-MQQB 2.2.6 SessionAck Packet
  A SessionAck is a BaseHeader with IN and SH set, an InternalHeader of packet type 1 and a
  SessionHeader: 36 bytes. MS-MQMQ 2.2.19.1 leaves the SessionHeader out of PacketSize (20);
  the SessionAck a Windows queue manager sends (MS-MQQB 4.1.8) counts it in (36). The suite
  plays the queue manager on the other end and frames its SessionAck either way (D-85).

  Background:
    Given a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | delivery | recoverable |
    And message "m2" is prepared with:
      | delivery | recoverable |

  # Whichever way the peer counts, the session goes on and nothing is lost; the target's own
  # SessionAcks may count either way too, and the run's profile records which (D-85).
  @clause:MS-MQQB:2.2.6:01 @clause:MS-MQMQ:2.2.19.1:11 @decision:D-85
  Scenario Outline: A SessionAck of PacketSize <size> keeps the session, and the message after it arrives
    When "remote" sends the prepared message "m1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    And "remote" acknowledges the session with a SessionAck of PacketSize <size>
    And "remote" sends the prepared message "m2" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 2 messages and the recoverable messages 2
    And the session of "remote" is still open
    And "orders" holds "m1" and "m2"

    Examples:
      | size |
      | 20   |
      | 36   |
