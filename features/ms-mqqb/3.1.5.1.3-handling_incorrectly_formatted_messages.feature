Feature: MS-MQQB 3.1.5.1.3 Handling Incorrectly Formatted Messages
  A packet that breaks the structures of MS-MQQB 2 and MS-MQMQ 2.2 closes the session it came on, and
  nothing else: the message reaches no queue and other sessions go on.

  Background:
    Given a queue "orders"

  @clause:MS-MQQB:3.1.5.1.3:01
  Scenario Outline: A malformed packet (<fault>) closes its own session and no other
    Given another queue manager "bad" with an MS-MQQB session to the target
    And another queue manager "good" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | broken |
    And message "m2" is prepared with:
      | body | fine |
    When "bad" sends the prepared message "m1" to "orders" with packet fields:
      | <field> | <value> |
    And "good" sends the prepared message "m2" to "orders"
    Then the target closed the session of "bad"
    And the session of "good" is still open
    And "orders" holds "m2"

    Examples:
      | fault                          | field          | value |
      | delivery mode 3                | DM             | 3     |
      | PacketSize not a multiple of 4 | trailing bytes | 2     |
      | a label longer than the packet | LabelLength    | 0xFA  |

  @clause:MS-MQQB:3.1.5.1.3:01
  Scenario Outline: A malformed packet on an open session (<fault>) closes that session and no other
    Given another queue manager "bad" with an MS-MQQB session to the target
    And another queue manager "good" with an MS-MQQB session to the target
    And message "m2" is prepared with:
      | body | fine |
    When "bad" sends <fault>
    And "good" sends the prepared message "m2" to "orders"
    Then the target closed the session of "bad"
    And the session of "good" is still open
    And "orders" holds "m2"

    Examples:
      | fault                                   |
      | a packet whose PacketSize is 12         |
      | a packet whose PacketSize is 0x00400001 |
      | a packet whose PacketSize is 0x00400004 |
      | a SessionAck whose PacketSize is 24     |
      | an internal packet of type 5            |
      | a SessionAck without the SH flag        |
      | a SessionAck without the SH flag, with the reserved flag X9 |
      | an internal packet whose PacketSize is 16 |
      | a UserMessage whose PacketSize is 32    |

  @clause:MS-MQQB:3.1.5.1.3:01
  Scenario Outline: A session's first packet of the wrong length (<fault>) is not answered and closes the session
    Given another queue manager "odd" connected to the target with no session
    When "odd" sends <fault>
    Then the target sent "odd" no EstablishConnection response
    And the target closed the session of "odd"

    Examples:
      | fault                                              |
      | an EstablishConnection request without its padding |
      | an EstablishConnection request 4 bytes too long    |

  @clause:MS-MQQB:3.1.5.1.3:01
  Scenario: A ConnectionParameters request of the wrong length is not answered and closes the session
    Given another queue manager "odd" connected to the target with no session
    When "odd" asks for a session naming the target as ServerGuid
    And "odd" sends a ConnectionParameters request 4 bytes too long
    Then the target sent "odd" no ConnectionParameters
    And the target closed the session of "odd"

  # Not a malformed packet: a TCP segment may carry two whole packets, and each is framed by its PacketSize.
  @clause:MS-MQQB:3.1.5.1.3:01 @clause:MS-MQMQ:2.2.19.1:12
  Scenario: Two well-formed packets written at once are both taken, and the session stays open
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | first |
    And message "m2" is prepared with:
      | body | second |
    When "remote" sends the prepared messages "m1" and "m2" to "orders" in one write
    And "remote" waits 500 ms for the target's packets
    Then "orders" holds "m1" and "m2"
    And the session of "remote" is still open

  # MS-MQMQ 2.2.19.2: MP is always set, and TH needs DM 1; a packet that says otherwise breaks its structure.
  @clause:MS-MQQB:3.1.5.1.3:01
  Scenario Outline: A UserMessage whose flags break MS-MQMQ 2.2.19.2 (<fault>) closes its session
    Given a transactional queue "ledger"
    And another queue manager "bad" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | broken |
    When "bad" sends the prepared message "m1" to "ledger" with packet fields:
      | <f1> | <v1> |
      | <f2> | <v2> |
    Then the target closed the session of "bad"
    And "ledger" holds nothing

    Examples:
      | fault            | f1 | v1 | f2 | v2 |
      | TH with DM 0     | TH | 1  | DM | 0  |
      | MP clear         | MP | 0  | TH | 1  |
      | MP clear, AH set | MP | 0  | AH | 1  |

  # Not malformed: the smallest UserMessage, its three fixed headers alone (120 bytes, no queue named): the session
  # goes on (MS-MQMQ 2.2.20, D-92).
  @clause:MS-MQMQ:2.2.19.1:12 @clause:MS-MQMQ:2.2.20:01
  Scenario: A UserMessage of the three fixed headers alone leaves the session open
    Given another queue manager "ok" with an MS-MQQB session to the target
    When "ok" sends a UserMessage of the three fixed headers alone
    Then the session of "ok" is still open
