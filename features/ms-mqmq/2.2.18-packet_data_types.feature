Feature: MS-MQMQ 2.2.18 TxSequenceID, MessageIdentifier and DirectQueueFormatName
  Every message is known by its queue manager's GUID and an ordinal the queue manager never
  repeats; a direct queue name in a header is a byte count, the name with its NUL, and padding;
  a transactional sequence is named by two numbers that only grow.

  @clause:MS-MQMQ:2.2.18.1.3:01
  Scenario: Messages of one queue manager share its GUID and never share an ordinal
    Given a queue "orders"
    And a queue "other"
    And "orders" holds "m1", "m2" and "m3"
    And "other" holds "o1"
    When every message in "orders" is peeked
    And every message in "other" is peeked
    Then the packets of "m1", "m2", "m3" and "o1" come from this queue manager with distinct MessageIDs

  @clause:MS-MQMQ:2.2.18.1.3:01 @clause:MS-MQMQ:2.2.19.2:03
  Scenario: A restart does not bring an ordinal back
    Given a queue "orders"
    And message "m1" is sent to "orders" carrying:
      | delivery | recoverable |
    And message "m2" is sent to "orders" carrying:
      | delivery | recoverable |
    When the queue manager restarts
    And message "m3" is sent to "orders"
    And every message in "orders" is peeked
    Then the packets of "m1", "m2" and "m3" come from this queue manager with distinct MessageIDs

  @clause:MS-MQMQ:2.2.18.1.3:01
  Scenario: A message's identifier is the GUID and ordinal its packet carries
    Given a queue "orders"
    And message "m1" is sent to "orders" carrying:
      | body | hello |
    When every message in "orders" is peeked
    Then the packets of "m1" come from this queue manager with distinct MessageIDs

  @clause:MS-MQMQ:2.2.18.1.5.2:01
  Scenario Outline: Direct queue names in the UserHeader are counted and padded (<d>, <a>, <r>)
    Given a queue "<d>"
    And a queue "<a>"
    And a queue "<r>"
    And message "m1" is sent to "DIRECT=OS:{computer}\private$\{name of <d>}" carrying:
      | admin format name    | DIRECT=OS:{computer}\private$\{name of <a>} |
      | response format name | DIRECT=OS:{computer}\private$\{name of <r>} |
    And "<d>" is opened with PEEK_ACCESS as "h"
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | UserHeader flag DQ | 7                                           |
      | UserHeader flag AQ | 7                                           |
      | UserHeader flag RQ | 7                                           |
      | destination queue  | DIRECT=OS:{computer}\private$\{name of <d>} |
      | admin queue        | DIRECT=OS:{computer}\private$\{name of <a>} |
      | response queue     | DIRECT=OS:{computer}\private$\{name of <r>} |

    Examples:
      | d    | a    | r    |
      | q    | qq   | qqq  |
      | qq   | qqq  | qqqq |
      | qqq  | qqqq | q    |
      | qqqq | q    | qq   |

  # MS-MQMQ 2.2.18.1.5.2 calls the field's content a direct format name, which 2.1.2 writes with its DIRECT= keyword;
  # Windows writes only what follows it. A sender may write either, and the receiver takes both for the queue (D-99).
  @clause:MS-MQMQ:2.2.18.1.5.2:02 @decision:D-99
  Scenario Outline: A direct destination name is taken with its DIRECT= keyword or without it (<keyword>)
    Given a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | delivery | express |
    When "remote" sends the prepared message "m1" to "orders" by its direct name with packet fields:
      | DQ         | 7         |
      | DQ keyword | <keyword> |
    And "remote" waits 1000 ms for the target's packets
    Then "orders" holds "m1"
    And the session of "remote" is still open

    Examples:
      | keyword |
      | dropped |
      | kept    |

  # Three sequences this far apart straddle any wrap-around of a field that carries part of the clock
  # (every 256 seconds, every 2**24 seconds): a field that ever goes down shows it.
  @clause:MS-MQMQ:2.2.18.1.2:01
  Scenario Outline: Later transactional sequences never have a lower Ordinal or TimeStamp (<gap> seconds apart)
    Given a transactional queue "tq"
    And transaction "t1" is begun
    And message "x1" is sent to "tq" carrying:
      | transaction | t1 |
    And transaction "t1" is committed
    And <gap> seconds pass
    And transaction "t2" is begun
    And message "x2" is sent to "tq" carrying:
      | transaction | t2 |
    And transaction "t2" is committed
    And <gap> seconds pass
    And transaction "t3" is begun
    And message "x3" is sent to "tq" carrying:
      | transaction | t3 |
    And transaction "t3" is committed
    When every message in "tq" is peeked
    Then the TxSequenceIDs of "x1", "x2" and "x3" never go down in Ordinal or TimeStamp

    Examples:
      | gap     |
      | 128     |
      | 8388608 |
