Feature: MS-MQMQ 2.2.20 UserMessage Packet and its optional headers
  A UserMessage always has a BaseHeader, UserHeader and MessagePropertiesHeader; the
  transaction, debug, SOAP, multi-queue and session headers appear exactly when flagged.

  Background:
    Given a queue "orders"
    And a transactional queue "tq"
    And the client begins transaction "t"

  @clause:MS-MQMQ:2.2.20:01 @clause:MS-MQMQ:2.2.20.7:01 @clause:MS-MQMQ:2.2.20.8:01
  Scenario Outline: Each kind of message comes back with the headers its flags announce (<shape>)
    Given a queue "admin"
    And a queue "dlq"
    And message "m1" is sent to "<queue>" carrying:
      | body             | <body>        |
      | delivery         | <delivery>    |
      | transaction      | <transaction> |
      | tracing          | <tracing>     |
      | srmp envelope    | <envelope>    |
      | admin queue      | <admin>       |
      | dead-letter path | <dead letter> |
    And transaction "t" is committed
    When every message in "<queue>" is peeked
    Then the packet of "m1" follows every layout rule
    And the packet of "m1" has BaseHeader flag DH <debug>
    And the packet of "m1" shows:
      | UserHeader flag MP | 1 |
      | UserHeader flag HH | 0 |
      | UserHeader flag MQ | 0 |

    Examples:
      | shape                 | queue  | body | delivery    | transaction | tracing | envelope | admin | dead letter                       | debug |
      | plain                 | orders | x    | express     |             |         |          |       |                                   | clear |
      | recoverable with body | orders | xyz  | recoverable |             |         |          |       |                                   | clear |
      | transactional         | tq     | xy   |             | t           |         |          |       |                                   | clear |
      | traced                | orders | x    | express     |             | yes     |          |       |                                   | set   |
      | traced transactional  | tq     | x    |             | t           | yes     |          |       |                                   | set   |
      | SRMP                  | orders |      | express     |             |         | envelope |       |                                   | clear |
      | traced SRMP           | orders |      | express     |             | yes     | envelope |       |                                   | set   |
      | with an admin queue   | orders | x    | express     |             |         |          | admin |                                   | clear |
      | with a dead-letter queue | orders | x | express     |             |         |          |       | {computer}\private$\{name of dlq} | clear |

  # D-67: each copy is enqueued as a single-destination message (single), or keeps the list it was sent
  # to in a MultiQueueFormatHeader, as MS-MQDMPR 3.1.7.1.27 sets it before copying (mqf-header)
  @clause:MS-MQMQ:2.2.20.1:01 @clause:MS-MQMQ:2.2.20.2:01 @decision:D-67
  Scenario: Each copy of a message sent to a list names all the list's queues if it carries the list
    Given a queue "a"
    And a queue "b"
    When a message is sent to the format name "{format name of a},{format name of b}"
    Then the send is accepted with status 0
    When every message in "a" is peeked
    Then the packet of "by format name" follows every layout rule
    And by D-67 the packet of "by format name" has no MultiQueueFormatHeader (single) or one listing "a" and "b" (mqf-header)
    When every message in "b" is peeked
    Then the packet of "by format name" follows every layout rule
    And by D-67 the packet of "by format name" has no MultiQueueFormatHeader (single) or one listing "a" and "b" (mqf-header)

  @clause:MS-MQMQ:2.2.20.5:01
  Scenario: The TransactionHeader marks the first and last messages and numbers them in order
    Given message "x1" is sent to "tq" carrying:
      | transaction | t |
    And message "x2" is sent to "tq" carrying:
      | transaction | t |
    And message "x3" is sent to "tq" carrying:
      | transaction | t |
    And transaction "t" is committed
    When every message in "tq" is peeked
    Then the packet of "x1" follows every layout rule
    And the packet of "x1" has a TransactionHeader with:
      | FM                       | 1 |
      | LM                       | 0 |
      | CG                       | 0 |
      | TxSequenceNumber         | 1 |
      | PreviousTxSequenceNumber | 0 |
    And the packet of "x2" has a TransactionHeader with:
      | FM                       | 0 |
      | LM                       | 0 |
      | TxSequenceNumber         | 2 |
      | PreviousTxSequenceNumber | 1 |
    And the packet of "x3" has a TransactionHeader with:
      | FM                       | 0 |
      | LM                       | 1 |
      | TxSequenceNumber         | 3 |
      | PreviousTxSequenceNumber | 2 |

  @clause:MS-MQMQ:2.2.20.5:01
  Scenario: A transaction of one message marks it both first and last
    Given message "x1" is sent to "tq" carrying:
      | transaction | t |
    And transaction "t" is committed
    When every message in "tq" is peeked
    Then the packet of "x1" has a TransactionHeader with:
      | FM                       | 1 |
      | LM                       | 1 |
      | TxSequenceNumber         | 1 |
      | PreviousTxSequenceNumber | 0 |

  @clause:MS-MQMQ:2.2.20.5:01
  Scenario: The messages of one transaction belong to one transactional sequence
    Given message "x1" is sent to "tq" carrying:
      | transaction | t |
    And message "x2" is sent to "tq" carrying:
      | transaction | t |
    And transaction "t" is committed
    When every message in "tq" is peeked
    Then the packets of "x1" and "x2" carry one TxSequenceID

  @clause:MS-MQMQ:2.2.20.5:01
  Scenario: Two transactions of the queue manager carry different transaction ids
    Given message "x1" is sent to "tq" carrying:
      | transaction | t |
    And transaction "t" is committed
    And the client begins transaction "u"
    And message "y1" is sent to "tq" carrying:
      | transaction | u |
    And transaction "u" is committed
    When every message in "tq" is peeked
    Then the packets of "x1" and "y1" carry different TransactionHeader ids

  # the 20-bit ID is unique for the sender: no two of three transactions in a row share one
  @clause:MS-MQMQ:2.2.20.5:01
  Scenario: Three transactions of the queue manager in a row carry three different transaction ids
    Given message "x1" is sent to "tq" carrying:
      | transaction | t |
    And transaction "t" is committed
    And the client begins transaction "u"
    And message "y1" is sent to "tq" carrying:
      | transaction | u |
    And transaction "u" is committed
    And the client begins transaction "v"
    And message "z1" is sent to "tq" carrying:
      | transaction | v |
    And transaction "v" is committed
    When every message in "tq" is peeked
    Then the packets of "x1" and "y1" carry different TransactionHeader ids
    And the packets of "y1" and "z1" carry different TransactionHeader ids
    And the packets of "x1" and "z1" carry different TransactionHeader ids

  # 20 bits of ID and a 32-bit TxSequenceID Ordinal leave room for far more than 5000 transactions
  @clause:MS-MQMQ:2.2.20.5:01
  Scenario: A transaction after five thousand others still sends, with an id of its own
    Given message "x1" is sent to "tq" carrying:
      | transaction | t |
    And transaction "t" is committed
    And the client has begun and committed 5000 transactions that sent nothing
    And the client begins transaction "u"
    And message "y1" is sent to "tq" carrying:
      | transaction | u |
    And transaction "u" is committed
    When every message in "tq" is peeked
    Then the packets of "x1" and "y1" carry different TransactionHeader ids
    And the TxSequenceIDs of "x1" and "y1" never go down in Ordinal or TimeStamp

  # A receiver walks the optional headers of packets another queue manager sends on an MS-MQQB session: each
  # one its flags announce must be there, inside PacketSize.
  @clause:MS-MQMQ:2.2.20:02
  Scenario Outline: A packet that announces a <header> it does not hold makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | <flag> | 1 |
    Then the target closed the session of "remote"
    And "orders" holds nothing

    Examples:
      | header                 | flag |
      | SoapHeader             | HH   |
      | MultiQueueFormatHeader | MQ   |

  @clause:MS-MQMQ:2.2.20.6:02
  Scenario: A SecurityHeader whose EncryptionKeySize runs past PacketSize makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | EB                | 1      |
      | EncryptionKeySize | 0xFFFF |
    Then the target closed the session of "remote"
    And "orders" holds nothing

  # 12 zero bytes where the header belongs: a section id of 0, an MQFAddressHeader of HeaderSize 0
  @clause:MS-MQMQ:2.2.20.7:02 @clause:MS-MQMQ:2.2.20.2:02
  Scenario Outline: A <header> with the wrong identifiers makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | <flag>         | 1  |
      | trailing bytes | 12 |
    Then the target closed the session of "remote"
    And "orders" holds nothing

    Examples:
      | header                 | flag |
      | SoapHeader             | HH   |
      | MultiQueueFormatHeader | MQ   |

  @clause:MS-MQMQ:2.2.20.8:02
  Scenario Outline: A DebugHeader whose QT is <qt> <fate>
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | QT | <qt> |
    Then <session>
    And "orders" holds <held>

    Examples:
      | qt | fate                    | session                                   | held    |
      | 2  | closes the session      | the target closed the session of "remote" | nothing |
      | 3  | closes the session      | the target closed the session of "remote" | nothing |
      | 0  | leaves the session open | the session of "remote" is still open     | "m1"    |

  # The optional headers written as MS-MQMQ 2.2.20.1 - 2.2.20.3, 2.2.20.7 and 2.2.20.8 lay them out: a receiver
  # walks past each one and delivers the message (the MultiQueueFormatHeader lists the destination and a queue of
  # the sender's; its Admin and Response lists are empty, HeaderSize 12).
  @clause:MS-MQMQ:2.2.20:02 @clause:MS-MQMQ:2.2.20.2:02 @clause:MS-MQMQ:2.2.20.7:02 @clause:MS-MQMQ:2.2.20.8:02
  Scenario Outline: A well-formed <header> is read past and the message delivered
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | <field> | <value> |
      | <more>  | <also>  |
    Then the session of "remote" is still open
    And "orders" holds "m1"

    Examples:
      | header                                      | field      | value        | more                | also     |
      | DebugHeader with its QueueIdentifier        | QT         | 1            | BodyType            | 0        |
      | DebugHeader of QT 1 with the unused flag X2 | QT         | 0x0005       | BodyType            | 0        |
      | SoapHeader                                  | SoapHeader | <se:Header/> | SoapBody            | abc      |
      | SoapHeader of two empty sections            | SoapHeader |              | SoapBody            |          |
      | MultiQueueFormatHeader                      | MQF        | 1            | BodyType            | 0        |
      | MultiQueueFormatHeader with a signature     | MQF        | 1            | MQF Signature bytes | 6        |

  @clause:MS-MQMQ:2.2.20:02 @clause:MS-MQMQ:2.2.20.2:02 @clause:MS-MQMQ:2.2.20.7:02 @clause:MS-MQMQ:2.2.20.8:02
  Scenario Outline: A DebugHeader, a SoapHeader, a MultiQueueFormatHeader and a SessionHeader in one packet are all read past (a body of <n> bytes)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | <body> |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | QT            | 1            |
      | SoapHeader    | <se:Header/> |
      | SoapBody      | abc          |
      | MQF           | 1            |
      | SessionHeader | counting     |
    Then the session of "remote" is still open
    And "orders" holds "m1"

    # the DebugHeader starts at 136 or 140, so the QueueIdentifier and what follows start at other offsets
    Examples:
      | n | body      |
      | 5 | hello     |
      | 9 | ninebytes |

  # The same with SRMP's two headers between the DebugHeader and the SoapHeader (MS-MQRR 2.2.5.1.2): read and
  # delivered, or refused as a whole (D-90).
  @clause:MS-MQMQ:2.2.19.2:15 @clause:MS-MQMQ:2.2.20:02 @decision:D-90
  Scenario: A DebugHeader, SRMP headers, a SoapHeader and a MultiQueueFormatHeader in one packet
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | QT         | 1            |
      | AH         | 1            |
      | SoapHeader | <se:Header/> |
      | SoapBody   | abc          |
      | MQF        | 1            |
    Then by D-90 the session of "remote" stays open and "orders" holds "m1" (read), or the target closed the session and "orders" holds nothing (refuse)

  # One field of a header written one step wrong: a length or size one unit past the packet's end (each header is
  # the packet's last, its data a multiple of 4 bytes: "abc" and its NUL are 8 bytes), an identifier one above or
  # one below its value, a HeaderSize under 12.
  @clause:MS-MQMQ:2.2.20:02 @clause:MS-MQMQ:2.2.20.2:02 @clause:MS-MQMQ:2.2.20.7:02
  Scenario Outline: A <header> whose <field> is <value> makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | <flag>  | <on>    |
      | <field> | <value> |
    Then the target closed the session of "remote"
    And "orders" holds nothing

    Examples:
      | header                 | flag       | on           | field                   | value  |
      | DebugHeader of QT 1    | QT         | 1            | QueueIdentifier bytes   | 0      |
      | DebugHeader of QT 1    | QT         | 1            | QueueIdentifier bytes   | 12     |
      | SoapHeader             | SoapBody   | abc          | BodyDataLength          | 5      |
      | SoapHeader             | SoapBody   | abc          | HeaderSectionID         | 0x0321 |
      | SoapHeader             | SoapBody   | abc          | HeaderSectionID         | 0x031F |
      | SoapHeader             | SoapBody   | abc          | BodySectionID           | 0x0385 |
      | SoapHeader             | SoapBody   | abc          | BodySectionID           | 0x0383 |
      | MultiQueueFormatHeader | MQF        | 1            | MQF HeaderID            | 0x0065 |
      | MultiQueueFormatHeader | MQF        | 1            | MQF HeaderID            | 0x0063 |
      | MultiQueueFormatHeader | MQF        | 1            | MQF HeaderSize          | 8      |
      | MultiQueueFormatHeader | MQF        | 1            | MQFSignatureHeader ID   | 0x015F |
      | MultiQueueFormatHeader | MQF        | 1            | MQFSignatureHeader ID   | 0x015D |
      | MultiQueueFormatHeader | MQF        | 1            | MQFSignatureHeader Size | 1      |

  # An MQFSignatureHeader whose Size is one more than the 4 signature bytes written: the signature, padded to 4,
  # would end 4 bytes past PacketSize.
  @clause:MS-MQMQ:2.2.20.2:02
  Scenario: An MQFSignatureHeader whose Size runs one byte past its signature makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | MQF                     | 1 |
      | MQF Signature bytes     | 4 |
      | MQFSignatureHeader Size | 5 |
    Then the target closed the session of "remote"
    And "orders" holds nothing
