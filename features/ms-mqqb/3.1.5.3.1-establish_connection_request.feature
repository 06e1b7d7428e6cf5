Feature: MS-MQQB 3.1.5.3.1 Receiving an EstablishConnection Packet: Request Packet
  An acceptor waiting for a session's first packet takes an EstablishConnection request that
  names it as ServerGuid, or names nobody (zeros: the initiator used a direct format name),
  and answers with CS clear, the request's ClientGuid and its own GUID. A request naming
  another queue manager is answered with CS set and the session is closed. A request that
  comes on a session already set up closes that session.

  Background:
    Given a queue "orders"
    And message "m1" is prepared with:
      | delivery | recoverable |

  @clause:MS-MQQB:3.1.5.3.1:01
  Scenario: A request naming another queue manager as ServerGuid is refused with CS and its session closed
    Given another queue manager "stranger" connected to the target with no session
    When "stranger" asks for a session naming another queue manager as ServerGuid
    Then the target answered "stranger" with CS set
    And the target closed the session of "stranger"

  @clause:MS-MQQB:3.1.5.3.1:02
  Scenario: A request with a zero ServerGuid is answered with the target's GUID, and the session opens
    Given another queue manager "direct" connected to the target with no session
    When "direct" asks for a session naming zeros as ServerGuid
    Then the target answered "direct" with CS clear, its ClientGuid and the target's GUID as ServerGuid
    When "direct" sends its ConnectionParameters
    Then the target answered "direct"'s ConnectionParameters
    When "direct" sends the prepared message "m1" to "orders"
    Then the session of "direct" is still open
    And "orders" holds "m1"

  @clause:MS-MQQB:3.1.5.3.1:02
  Scenario: A request naming the target is answered with CS clear, its ClientGuid and the target's GUID
    Given another queue manager "remote" connected to the target with no session
    When "remote" asks for a session naming the target as ServerGuid
    Then the target answered "remote" with CS clear, its ClientGuid and the target's GUID as ServerGuid

  @clause:MS-MQQB:3.1.5.3.1:03
  Scenario: An EstablishConnection request on a session already open closes it
    Given another queue manager "remote" with an MS-MQQB session to the target
    When "remote" sends another EstablishConnection request on its session
    Then the target closed the session of "remote"

  @clause:MS-MQQB:3.1.5.3.1:04
  Scenario Outline: The EstablishConnection response carries the request's TimeStamp (<stamp>)
    Given another queue manager "remote" connected to the target with no session
    When "remote" asks for a session naming <whom> as ServerGuid with TimeStamp <stamp>
    Then the target's EstablishConnection response to "remote" carries TimeStamp <stamp>

    Examples:
      | whom       | stamp      |
      | the target | 0x1DDECA4E |
      | zeros      | 0x00000001 |
      | the target | 0xFFFFFFFF |

  # MS-MQQB 2.2.1: reserved InternalHeader flags are ignored on receipt; PT 2 with X5 (0x0020) or X15 (0x8000) set.
  @clause:MS-MQQB:2.2.1:01
  Scenario Outline: An EstablishConnection request with the reserved InternalHeader flag <bit> set is answered
    Given another queue manager "plain" connected to the target with no session
    When "plain" asks for a session naming the target as ServerGuid in a packet whose InternalHeader.Flags is <flags>
    Then the target answered "plain" with CS clear, its ClientGuid and the target's GUID as ServerGuid
    And the session of "plain" is still open

    Examples:
      | bit | flags  |
      | X5  | 0x0022 |
      | X15 | 0x8002 |

  @clause:MS-MQMQ:2.2.19.1:13
  Scenario: An EstablishConnection request with the reserved BaseHeader flag X9 set is answered
    Given another queue manager "plain" connected to the target with no session
    When "plain" asks for a session naming the target as ServerGuid in a packet whose BaseHeader.Flags is 0x0048
    Then the target answered "plain" with CS clear, its ClientGuid and the target's GUID as ServerGuid
    And the session of "plain" is still open

  # MS-MQQB 2.2.3.1: an initiator that sent a Ping Request sets SE 0, and the receiver sends the same value back.
  @clause:MS-MQQB:2.2.3.1:01
  Scenario: The EstablishConnection response echoes SE 0
    Given another queue manager "pinged" connected to the target with no session
    When "pinged" asks for a session naming the target as ServerGuid with OperatingSystem.SE 0
    Then the target's EstablishConnection response to "pinged" carries OperatingSystem.SE 0
