Feature: MS-MQQB 3.1.7.10 Get Message Data Element From Buffer
  A UserMessage another queue manager sends becomes a Message field by field (MS-MQDMPR
  3.1.7.1.31), and a read over MS-MQRR gives back the packet it came in (MS-MQDMPR 3.1.7.1.32,
  MS-MQRR 2.2.5.1): only the fields MS-MQRR overrides differ (the absolute TimeToReachQueue,
  the address overlay of a direct destination, the trailers).  Windows sends its user's SID in
  an unsigned SecurityHeader and may ask for acknowledgments with no administration queue
  (MS-MQQB 4.1 FRAME 7); whether those two survive is D-96 and D-95.

  Background:
    Given a queue "orders"
    And a queue "admin"
    And a queue "replies"
    And another queue manager "remote" with an MS-MQQB session to the target

  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01 @clause:MS-MQDMPR:3.1.7.1.32:01 @clause:MS-MQRR:2.2.5.1:08
  Scenario Outline: Every field the sender wrote reads back as it was sent (<shape>)
    Given message "m1" is prepared with:
      | body                | <body>           |
      | priority            | <priority>       |
      | delivery            | <delivery>       |
      | class               | 0x0001           |
      | acknowledgements    | positive receive |
      | admin queue         | admin            |
      | response queue      | replies          |
      | time to reach queue | 300              |
      | time to be received | 600              |
      | journal             | <journal>        |
      | dead letter         | yes              |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | HashAlgorithm       | <hash>       |
      | EncryptionAlgorithm | <encryption> |
      | BodyType            | 8            |
      | ApplicationTag      | 0x01020304   |
      | Extension           | ext data     |
    And every message in "orders" is peeked
    Then the packet of "m1" reads back as "remote" sent it
    And the packet of "m1" follows every layout rule

    Examples:
      | shape                   | body          | priority | delivery    | journal | hash   | encryption |
      | SHA-1 and RC4 (Windows) | hello         | 3        | express     | no      | 0x8004 | 0x6801     |
      | MD5 and RC2             | a longer body | 7        | recoverable | yes     | 0x8003 | 0x6602     |
      | SHA-256                 | x             | 0        | express     | yes     | 0x800C | 0x6801     |
      | SHA-512                 | y             | 5        | recoverable | no      | 0x800E | 0x6602     |

  # A transaction of the sending queue manager may span several packets: FM marks its first, LM its last,
  # XactIndex names it (MS-MQMQ 2.2.20.5); each comes back as it was sent.
  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01 @clause:MS-MQDMPR:3.1.7.1.32:01
  Scenario Outline: A transactional packet's TransactionHeader reads back as it was sent (FM <fm>, LM <lm>, XactIndex <index>)
    Given a transactional queue "ledger"
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH        | 1       |
      | FA        | <fa>    |
      | FM        | <fm>    |
      | LM        | <lm>    |
      | XactIndex | <index> |
    And every message in "ledger" is peeked
    Then the packet of "t1" reads back as "remote" sent it
    And the packet of "t1" follows every layout rule

    Examples:
      | fa | fm | lm | index   |
      | 0  | 1  | 0  | 5       |
      | 1  | 0  | 1  | 0xABCDE |
      | 0  | 0  | 0  | 1       |
      | 0  | 1  | 0  | 0x10    |

  # The same with a ConnectorQMGuid (CG, bit 0) beside FM and LM clear: those bits read back as sent.
  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01
  Scenario: A transactional packet with a ConnectorQMGuid reads back its FM, LM and XactIndex as sent
    Given a transactional queue "ledger"
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH        | 1 |
      | CG        | 1 |
      | FM        | 0 |
      | LM        | 0 |
      | XactIndex | 1 |
    And every message in "ledger" is peeked
    Then the packet of "t1" reads back with TransactionHeader FM 0, LM 0 and XactIndex 1

  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01 @clause:MS-MQRR:2.2.5.1:08 @decision:D-96
  Scenario: The sender's SID in an unsigned SecurityHeader reads back as sent, or is dropped
    Given message "m1" is prepared with:
      | body        | from a Windows user |
      | admin queue | admin               |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | SID           | S-1-5-21-3181267629-1039849782-3663045219-1000 |
      | HashAlgorithm | 0x8004                                         |
    And every message in "orders" is peeked
    Then the packet of "m1" reads back as "remote" sent it
    And by D-96 the packet of "m1" carries the SID "remote" sent (kept) or none (dropped)
    And the packet of "m1" has a well-formed SecurityHeader, if it has one

    # MS-MQMQ 2.2.20.6: each SecurityData item is padded to 4 bytes; 5 bytes need 3 of padding
    Examples:
      | size | certificate          |
      | 20   | a sender certificate |
      | 5    | abcde                |

  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01 @clause:MS-MQRR:2.2.5.1:08 @decision:D-96
  Scenario Outline: An unsigned SecurityHeader with a SID and a sender certificate keeps the certificate, whatever the SID does (<size> bytes)
    Given message "m1" is prepared with:
      | body        | signed by nobody |
      | admin queue | admin            |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | SID        | S-1-5-21-3181267629-1039849782-3663045219-1000 |
      | SenderCert | <certificate>                                  |
    And every message in "orders" is peeked
    Then the packet of "m1" reads back as "remote" sent it
    And by D-96 the packet of "m1" carries the SID "remote" sent (kept) or none (dropped)
    And the packet of "m1" has a well-formed SecurityHeader, if it has one

    # MS-MQMQ 2.2.20.6: each SecurityData item is padded to 4 bytes; 5 bytes need 3 of padding
    Examples:
      | size | certificate          |
      | 20   | a sender certificate |
      | 5    | abcde                |

  # The same with a response queue (RQ 3) and with the destination named directly (DQ 7): the acknowledgment flags
  # are read from the MessagePropertiesHeader, wherever the queue fields put it.
  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01 @decision:D-95
  Scenario: Acknowledgments asked without an administration queue, with a response queue
    Given message "m1" is prepared with:
      | body             | x                |
      | acknowledgements | negative arrival |
      | response queue   | replies          |
    When "remote" sends the prepared message "m1" to "orders"
    And every message in "orders" is peeked
    Then by D-95 the packet of "m1" asks for the acknowledgments "remote" sent (kept) or for none (cleared)

  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01 @decision:D-95
  Scenario: Acknowledgments asked without an administration queue, the destination named directly
    Given message "m1" is prepared with:
      | body             | x                |
      | acknowledgements | negative arrival |
    When "remote" sends the prepared message "m1" to "orders" by its direct name with packet fields:
      | BodyType | 0 |
    And every message in "orders" is peeked
    Then by D-95 the packet of "m1" asks for the acknowledgments "remote" sent (kept) or for none (cleared)

  # MS-MQQB 4.1 FRAME 7: Windows asks for all four acknowledgments (Flags 0x0F) and names no
  # administration queue; nobody can be answered, and whether the flags read back is D-95.
  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQDMPR:3.1.7.1.31:01 @clause:MS-MQDMPR:3.1.7.1.32:01 @decision:D-95
  Scenario Outline: Acknowledgments asked without an administration queue read back as sent, or cleared (<acks>)
    Given message "m1" is prepared with:
      | body             | mqsender body |
      | acknowledgements | <acks>        |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | SID | S-1-5-21-3181267629-1039849782-3663045219-1000 |
    And every message in "orders" is peeked
    Then the packet of "m1" reads back as "remote" sent it
    And by D-95 the packet of "m1" asks for the acknowledgments "remote" sent (kept) or for none (cleared)
    And "admin" holds nothing

    Examples:
      | acks                                                                  |
      | positive arrival and positive receive and negative arrival and negative receive |
      | negative arrival                                                      |

  @clause:MS-MQDMPR:3.1.1.12:14 @decision:D-97
  Scenario Outline: A message that names no algorithm gets SHA1 and RC4, or AES with PrivacyLevel 5 (<privacy>)
    When message "m1" is sent to "orders" carrying:
      | body          | x         |
      | privacy level | <privacy> |
    And every message in "orders" is peeked
    Then the packet of "m1" has HashAlgorithm 0x8004 and EncryptionAlgorithm <encryption>

    Examples:
      | privacy | encryption |
      | 0       | 0x6801     |
      | 5       | 0x6610     |

  # An SRMP message (UserHeader.Flags.AH) carries its body inside the compound message (MS-MQRR 2.2.5.1.2);
  # a target that delivers it (D-90 read) must give back the envelope and the compound message it came with.
  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQRR:2.2.5.1:08 @decision:D-90
  Scenario Outline: An SRMP message delivered over MS-MQQB reads back with its envelope and compound message (<where>)
    Given message "m1" is prepared with:
      | body | inside the compound message |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | AH                     | 1         |
      | compound trailer bytes | <trailer> |
    And every message in "orders" is peeked
    Then by D-90 the packet of "m1" reads back as "remote" sent it, its SRMP headers included (read), or the target closed the session and "orders" holds nothing (refuse)

    Examples:
      | where                                  | trailer |
      | a line after the body                  | 2       |
      | the body at the end of the compound message | 0  |

  # MS-MQMQ 2.2.19.1: a transactional message has priority 0, so one another queue manager sends queues behind a
  # transactional message already in the queue, as one of the same priority does.
  @clause:MS-MQMQ:2.2.19.1:02 @clause:MS-MQQB:3.1.7.10:01
  Scenario: A transactional message from another queue manager takes priority 0: behind one already there, before one after it
    Given a transactional queue "ledger"
    And the client begins transaction "t"
    And message "a" is sent to "ledger" in transaction "t"
    And transaction "t" is committed
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And the client begins transaction "u"
    And message "b" is sent to "ledger" in transaction "u"
    And transaction "u" is committed
    Then "ledger" holds "a", "t1" and "b"

  # MS-MQMQ 2.2.19.2 AQ 2 and RQ 2: private queues of the sending queue manager, written by number alone.
  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQMQ:2.2.19.2:06
  Scenario: Administration and response queues on the sender (AQ 2, RQ 2) read back as the sender named them
    Given a queue name "sender admin" for the format name "PRIVATE={queue manager of remote}\00000005"
    And a queue name "sender replies" for the format name "PRIVATE={queue manager of remote}\00000006"
    And message "m1" is prepared with:
      | body           | hello          |
      | admin queue    | sender admin   |
      | response queue | sender replies |
    When "remote" sends the prepared message "m1" to "orders"
    And every message in "orders" is peeked
    Then the session of "remote" is still open
    And the packet of "m1" reads back as "remote" sent it
