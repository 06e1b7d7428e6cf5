Feature: MS-MQQB 3.1.5.8 Receiving a UserMessage Packet
  A UserMessage is processed only on an OPEN session. A connection whose first packet is a
  UserMessage (what the public scanners of TCP 1801 send) has its session closed; Windows
  answers it first with a packet of the protocol (D-88). Under either reading the message
  is not queued.

  @clause:MS-MQQB:3.1.5.8:01 @decision:D-88
  Scenario: A UserMessage before any EstablishConnection is not queued, and its connection is closed or answered
    Given a queue "orders"
    And another queue manager "scanner" connected to the target with no session
    And message "m1" is prepared with:
      | delivery | express |
    When "scanner" sends the prepared message "m1" to "orders"
    Then by D-88 the target closes the connection of "scanner" unanswered (close) or answers it first (answer)
    And "orders" holds nothing
