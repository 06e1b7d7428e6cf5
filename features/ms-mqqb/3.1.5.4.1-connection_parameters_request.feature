Feature: MS-MQQB 3.1.5.4.1 Receiving a ConnectionParameters Packet: Request Packet
  The acceptor takes a ConnectionParameters request once the EstablishConnection exchange is
  done: it answers with its own and the session is OPEN. A ConnectionParameters request that
  comes before any EstablishConnection, or a second one on an OPEN session, closes the session.

  Background:
    Given a queue "orders"

  @clause:MS-MQQB:3.1.5.4.1:01
  Scenario: ConnectionParameters before any EstablishConnection closes the session unanswered
    Given another queue manager "hasty" connected to the target with no session
    When "hasty" sends its ConnectionParameters
    Then the target sent "hasty" no ConnectionParameters
    And the target sent "hasty" no EstablishConnection response
    And the target closed the session of "hasty"

  @clause:MS-MQQB:3.1.5.4.1:01
  Scenario: A second ConnectionParameters on an OPEN session closes it
    Given another queue manager "remote" with an MS-MQQB session to the target
    When "remote" sends its ConnectionParameters
    Then the target closed the session of "remote"

  # MS-MQQB 3.1.3.2 Session Initialization: the WindowSize a queue manager gives SHOULD be 64.
  @clause:MS-MQQB:3.1.3.2:01
  Scenario: The acceptor's ConnectionParameters give a WindowSize of 64
    Given another queue manager "sized" connected to the target with no session
    When "sized" asks for a session naming the target as ServerGuid
    And "sized" sends its ConnectionParameters
    Then the target answered "sized"'s ConnectionParameters giving WindowSize 64
