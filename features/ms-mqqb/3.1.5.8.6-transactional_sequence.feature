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

  # The Order Ack Send Timer runs on the target's clock: held 1 ms short of its expiry, it has not fired.
  @clause:MS-MQQB:3.1.3.2:02 @clause:MS-MQQB:3.1.5.8.6:02 @decision:D-76
  Scenario: The OrderAck for a lone transactional message comes OrderAckTimeout (500 ms) after it, not sooner
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 499 ms for the target's packets
    Then "remote" received no OrderAck
    When "remote" waits 1 ms for the target's packets
    Then "remote" received an OrderAck for "t1"

  @clause:MS-MQQB:3.1.3.2:03 @clause:MS-MQQB:3.1.3.2:02 @decision:D-76
  Scenario: A second transactional message while the timer runs restarts it: one OrderAck, 500 ms after the second
    Given message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 300 ms for the target's packets
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 499 ms for the target's packets
    Then "remote" received no OrderAck
    When "remote" waits 1 ms for the target's packets
    Then "remote" received an OrderAck for "t2"

  # MaximumOrderAckDelay (10 s, MS-MQQB 3.1.3.2): a second message restarts the running timer only while fewer
  # than 10 whole seconds passed since the last OrderAck was sent (or the session began); 9.0 s after it still
  # restarts it, 10 s and 11 s do not, so the OrderAck comes 500 ms after the first message.
  @clause:MS-MQQB:3.1.3.2:03 @decision:D-76
  Scenario Outline: <elapsed> ms after the session began a second message <effect>
    Given message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    When "remote" waits <before> ms for the target's packets
    And "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 300 ms for the target's packets
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits <quiet> ms for the target's packets
    Then "remote" received no OrderAck
    When "remote" waits 1 ms for the target's packets
    Then "remote" received an OrderAck for "t2"

    Examples:
      | elapsed | before | quiet | effect                                                            |
      | 9000    | 8700   | 499   | restarts the timer: the OrderAck comes 500 ms after it            |
      | 10300   | 10000  | 199   | does not hold the timer back: the OrderAck comes 500 ms after t1  |
      | 11300   | 11000  | 199   | does not hold the timer back: the OrderAck comes 500 ms after t1  |

  # Once an OrderAck was sent the delay counts from it (LastOrderAckSendTime, 3.1.6.9), not from the session's start:
  # three times in a row a second message 8.5 s after the last OrderAck (in whole seconds 8 or 9 of them) restarts the
  # timer, the OrderAck coming 500 ms after it (three, so that whole seconds counted any other way show).
  @clause:MS-MQQB:3.1.3.2:03 @decision:D-76
  Scenario: Three times in a row, a second message 8.5 s after the last OrderAck restarts the timer
    Given message "t0" is prepared with:
      | delivery | recoverable |
    And message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    And message "t3" is prepared with:
      | delivery | recoverable |
    And message "t4" is prepared with:
      | delivery | recoverable |
    And message "t5" is prepared with:
      | delivery | recoverable |
    And message "t6" is prepared with:
      | delivery | recoverable |
    When "remote" waits 1000 ms for the target's packets
    And "remote" sends the prepared message "t0" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 500 ms for the target's packets
    Then "remote" received an OrderAck for "t0"
    When "remote" waits 8200 ms for the target's packets
    And "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 300 ms for the target's packets
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 499 ms for the target's packets
    Then "remote" received no OrderAck for "t2"
    When "remote" waits 1 ms for the target's packets
    Then "remote" received an OrderAck for "t2"
    When "remote" waits 8200 ms for the target's packets
    And "remote" sends the prepared message "t3" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 300 ms for the target's packets
    And "remote" sends the prepared message "t4" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 499 ms for the target's packets
    Then "remote" received no OrderAck for "t4"
    When "remote" waits 1 ms for the target's packets
    Then "remote" received an OrderAck for "t4"
    When "remote" waits 8200 ms for the target's packets
    And "remote" sends the prepared message "t5" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 300 ms for the target's packets
    And "remote" sends the prepared message "t6" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 499 ms for the target's packets
    Then "remote" received no OrderAck for "t6"
    When "remote" waits 1 ms for the target's packets
    Then "remote" received an OrderAck for "t6"

  @clause:MS-MQQB:3.1.5.8.6:03
  Scenario Outline: The first packet of a session's first sequence is accepted only with TxPreviousSequenceNumber 0 (<number>, <previous>)
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH                       | 1          |
      | TxSequenceNumber         | <number>   |
      | TxPreviousSequenceNumber | <previous> |
    And "remote" waits 500 ms for the target's packets
    Then "ledger" holds <held>

    Examples:
      | number | previous | held    |
      | 1      | 0        | "t1"    |
      | 5      | 0        | "t1"    |
      | 2      | 1        | nothing |

  # A session's IncomingTxSequenceID and IncomingTxSequenceNumber start at 0 (MS-MQQB 3.1.3.2): a sequence whose
  # TxSequenceID is itself all zeros is that sequence, and its packet numbered 1 with previous 0 follows it.
  @clause:MS-MQQB:3.1.5.8.6:03
  Scenario: The first packet of a sequence whose TxSequenceID is zero is accepted as numbered 1 after 0
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH                       | 1    |
      | TxSequenceID             | zero |
      | TxSequenceNumber         | 1    |
      | TxPreviousSequenceNumber | 0    |
    And "remote" waits 500 ms for the target's packets
    Then "ledger" holds "t1"

  @clause:MS-MQQB:3.1.5.8.6:03
  Scenario Outline: After number 1, a packet of the same sequence is accepted when beyond it and its previous is not (<number>, <previous>)
    Given message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH                       | 1          |
      | TxSequenceNumber         | <number>   |
      | TxPreviousSequenceNumber | <previous> |
    And "remote" waits 500 ms for the target's packets
    Then "ledger" holds <held>

    Examples:
      | number | previous | held            |
      | 2      | 1        | "t1" and "t2"   |
      | 3      | 1        | "t1" and "t2"   |
      | 3      | 0        | "t1" and "t2"   |
      | 3      | 2        | "t1"            |
      | 1      | 0        | "t1"            |

  @clause:MS-MQQB:3.1.5.8.6:03
  Scenario Outline: A packet of another sequence is accepted only if the sequence is later and it comes first in it (<sequence>, <number>, <previous>)
    Given message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH                       | 1          |
      | TxSequenceID             | <sequence> |
      | TxSequenceNumber         | <number>   |
      | TxPreviousSequenceNumber | <previous> |
    And "remote" waits 500 ms for the target's packets
    Then "ledger" holds <held>

    Examples:
      | sequence | number | previous | held          |
      | next     | 1      | 0        | "t1" and "t2" |
      | next     | 1      | 1        | "t1"          |
      | next     | 5      | 1        | "t1"          |
      | previous | 1      | 0        | "t1"          |
      | previous | 5      | 1        | "t1"          |

  @clause:MS-MQQB:3.1.5.8.6:03
  Scenario: A packet of the same sequence numbered below the last one accepted is rejected
    Given message "t1" is prepared with:
      | delivery | recoverable |
    And message "t2" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH                       | 1 |
      | TxSequenceNumber         | 5 |
      | TxPreviousSequenceNumber | 0 |
    And "remote" sends the prepared message "t2" to "ledger" with packet fields:
      | TH                       | 1 |
      | TxSequenceNumber         | 3 |
      | TxPreviousSequenceNumber | 0 |
    And "remote" waits 500 ms for the target's packets
    Then "ledger" holds "t1"
