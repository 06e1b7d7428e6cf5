Feature: MS-MQQB 3.1.5.8.6 Transactional Message Processing
  A transactional UserMessage carries its place in its sender's transactional sequence
  (TxSequenceID, TxSequenceNumber, TxPreviousSequenceNumber); the receiver takes each number
  once, in order, and rejects a packet whose number it has already taken. The suite plays the
  sending queue manager.

  Background:
    Given a transactional queue "ledger"
    And another queue manager "remote" with an MS-MQQB session to the target

  @clause:MS-MQQB:3.1.5.8.6:01
  Scenario: A transactional packet sent again, its sequence number already taken, is not queued twice
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" sends the packet of "t1" again, octet for octet
    And "remote" waits 500 ms for the target's packets
    Then "ledger" holds "t1"
