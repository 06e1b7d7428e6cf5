Feature: MS-MQQB 2.2.3.1 EstablishConnectionHeader
  The acceptor answers an EstablishConnection request with one of its own: the request's GUIDs
  and TimeStamp, OperatingSystem with RE 0x10 and the request's SE bit, and 512 bytes of
  padding 0x5A. The OS bit describes an initiator; what a response carries there (D-87), and
  the priority of the internal packets (D-86), are the acceptor's, and the run's profile
  records which the target chose.

  @clause:MS-MQQB:2.2.3.1:01 @clause:MS-MQQB:2.2.2:01 @clause:MS-MQQB:2.2.1:02 @decision:D-86 @decision:D-87
  Scenario: The EstablishConnection response echoes the request's flags and pads with 0x5A
    Given a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target
    And message "r1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then the EstablishConnection "remote" received has OperatingSystem.RE 0x10, the SE bit it sent, either OS bit and 512 bytes of padding 0x5A
    And "remote" received an EstablishConnection, a ConnectionParameters and a SessionAck packet

  @clause:MS-MQQB:2.2.2.1:01 @clause:MS-MQQB:2.2.1:02
  Scenario: The ConnectionParameters response leaves Reserved 0 and is 32 bytes
    Given another queue manager "remote" with an MS-MQQB session to the target
    Then the ConnectionParameters "remote" received has Reserved 0 and PacketSize 32
