Feature: MS-MQQB 3.1.5.5 Receiving a SessionAck Packet
  A SessionAck is taken on an OPEN session only. Its SessionHeader tells the receiver how many
  UserMessages the peer sent it, and how many of them were recoverable (UserMsgSequenceNumber,
  RecoverableMsgSeqNumber): a count that is not what the receiver took on the session means the
  two ends disagree about the session, which is then closed. Counts that agree keep it, and the
  receiver's own session acknowledgments count every UserMessage, express ones too.

  Background:
    Given a queue "orders"
    And message "m1" is prepared with:
      | delivery | express |
    And message "m2" is prepared with:
      | delivery | recoverable |

  @clause:MS-MQQB:3.1.5.5:01
  Scenario: A SessionAck between EstablishConnection and ConnectionParameters closes the session
    Given another queue manager "early" connected to the target with no session
    When "early" asks for a session naming the target as ServerGuid
    And "early" acknowledges the session claiming 0 messages sent, 0 of them recoverable
    Then the target closed the session of "early"

  @clause:MS-MQQB:3.1.5.8:01
  Scenario: A UserMessage between EstablishConnection and ConnectionParameters is not queued and closes the session
    Given another queue manager "early" connected to the target with no session
    When "early" asks for a session naming the target as ServerGuid
    And "early" sends the prepared message "m2" to "orders"
    Then the target closed the session of "early"
    And "orders" holds nothing

  @clause:MS-MQQB:3.1.5.5:02 @clause:MS-MQMQ:2.2.20.4:01
  Scenario: A SessionAck whose counts agree with what the target received keeps the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    When "remote" sends the prepared message "m1" to "orders"
    And "remote" sends the prepared message "m2" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then the session acknowledgments of "remote"'s last wait acknowledge 2 messages and the recoverable messages 1
    When "remote" acknowledges the session claiming 2 messages sent, 1 of them recoverable
    Then the session of "remote" is still open
    And "orders" holds "m1" and "m2"

  @clause:MS-MQQB:3.1.5.5:02
  Scenario Outline: A SessionAck claiming <claim> closes the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    When "remote" sends the prepared message "m1" to "orders"
    And "remote" sends the prepared message "m2" to "orders"
    And "remote" acknowledges the session claiming <sent> messages sent, <recoverable> of them recoverable
    Then the target closed the session of "remote"

    Examples:
      | claim                            | sent | recoverable |
      | more messages than it sent       | 3    | 1           |
      | fewer messages than it sent      | 1    | 1           |
      | no recoverable message           | 2    | 0           |
      | more recoverable than it sent    | 2    | 2           |

  # MS-MQQB 3.1.5.8.4: a UserMessage may carry a SessionHeader (BaseHeader SH, after PacketSize's bytes), read as a
  # SessionAck's, after the packet itself is counted.
  @clause:MS-MQQB:3.1.5.5:02
  Scenario Outline: A UserMessage carrying a SessionHeader that counts <what> <fate>
    Given another queue manager "remote" with an MS-MQQB session to the target
    When "remote" sends the prepared message "m1" to "orders"
    And "remote" sends the prepared message "m2" to "orders" with packet fields:
      | SessionHeader | <counts> |
    And "remote" waits 500 ms for the target's packets
    Then <session>
    And "orders" holds <held>

    Examples:
      | what  | counts      | fate               | session                                   | held          |
      | right | counting    | keeps the session  | the session of "remote" is still open     | "m1" and "m2" |
      | wrong | miscounting | closes the session | the target closed the session of "remote" | "m1"          |

  # The SessionHeader lies after PacketSize's bytes whatever PacketSize is (MS-MQMQ 2.2.19.1: PacketSize leaves it
  # out): 16 more bytes after the last header move it to an offset with another bit pattern, and it is still found.
  @clause:MS-MQQB:3.1.5.5:02 @clause:MS-MQMQ:2.2.19.1:11
  Scenario Outline: A SessionHeader after a UserMessage <padded> is read where PacketSize ends
    Given another queue manager "remote" with an MS-MQQB session to the target
    When "remote" sends the prepared message "m1" to "orders"
    And "remote" sends the prepared message "m2" to "orders" with packet fields:
      | SessionHeader  | counting |
      | trailing bytes | <extra>  |
    And "remote" waits 500 ms for the target's packets
    Then the session of "remote" is still open
    And "orders" holds "m1" and "m2"

    Examples:
      | padded                           | extra |
      | with 16 zero bytes after it      | 16    |
      | with 32 zero bytes after it      | 32    |
