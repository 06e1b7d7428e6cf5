Feature: MS-MQQB 3.1.5.8.1 Duplicate Detection
  A receiver remembers the MessageID of every non-transactional message it takes, with the
  queue manager that sent it, and discards a packet that comes again with the same pair. (A
  transactional one is judged by its place in its sequence, 3.1.5.8.6.) The suite plays the
  sending queue manager.

  Background:
    Given a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target

  @clause:MS-MQQB:3.1.5.8.1:01
  Scenario Outline: A <delivery> packet sent again with its MessageID is discarded: the queue holds it once
    Given message "m1" is prepared with:
      | delivery | <delivery> |
    When "remote" sends the prepared message "m1" to "orders"
    And "remote" sends the packet of "m1" again, octet for octet
    And "remote" waits 500 ms for the target's packets
    Then "orders" holds "m1"
    And the session of "remote" is still open

    Examples:
      | delivery    |
      | express     |
      | recoverable |
