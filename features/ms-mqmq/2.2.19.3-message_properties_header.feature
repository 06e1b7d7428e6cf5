Feature: MS-MQMQ 2.2.19.3 MessagePropertiesHeader
  The MessagePropertiesHeader carries what the sender set: acknowledgments asked for, label,
  class, correlation id, body type, tag, extension and body, padded to a multiple of 4 bytes.

  Background:
    Given a queue "orders"
    And a queue "admin"
    And "orders" is opened with PEEK_ACCESS as "h"

  @clause:MS-MQMQ:2.2.19.3:01 @clause:MS-MQMQ:2.2.19.3:04
  Scenario: PA asks for a positive acknowledgment when the message reaches its queue
    When message "m1" is sent to "orders" with:
      | acknowledgements | positive arrival |
      | admin queue      | admin            |
    Then an acknowledgment of class MQMSG_CLASS_ACK_REACH_QUEUE for "m1" is in "admin"

  @clause:MS-MQMQ:2.2.19.3:01 @clause:MS-MQMQ:2.2.19.3:04
  Scenario: PR asks for a positive acknowledgment when the message is received, and not before
    Given message "m1" is sent to "orders" with:
      | acknowledgements | positive receive |
      | admin queue      | admin            |
    And "orders" is opened with RECEIVE_ACCESS as "r"
    Then no acknowledgment for "m1" is in "admin"
    When the client receives from "r"
    Then an acknowledgment of class MQMSG_CLASS_ACK_RECEIVE for "m1" is in "admin"

  @clause:MS-MQMQ:2.2.19.3:01 @clause:MS-MQMQ:2.2.19.3:04
  Scenario: NR asks for a negative acknowledgment when the message is not received in time
    Given message "m1" is sent to "orders" with:
      | acknowledgements    | negative receive |
      | admin queue         | admin            |
      | time to be received | 10               |
    When 11 seconds pass
    Then an acknowledgment of class MQMSG_CLASS_NACK_RECEIVE_TIMEOUT for "m1" is in "admin"

  @clause:MS-MQMQ:2.2.19.3:01 @clause:MS-MQMQ:2.2.19.3:04
  Scenario: NA asks for a negative acknowledgment when the message does not reach its queue in time
    When message "m1" is sent to "orders" with:
      | acknowledgements    | negative arrival |
      | admin queue         | admin            |
      | sent                | 600 seconds ago  |
      | time to reach queue | 60               |
    Then the send is accepted with status 3
    And an acknowledgment of class MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT for "m1" is in "admin"

  @clause:MS-MQMQ:2.2.19.3:01
  Scenario Outline: Only the acknowledgments asked for are sent (<asked>, message <fate>)
    Given message "m1" is sent to "orders" with:
      | acknowledgements    | <asked> |
      | admin queue         | admin   |
      | time to be received | 10      |
    And "orders" is opened with RECEIVE_ACCESS as "r"
    When <event>
    Then no acknowledgment for "m1" is in "admin"

    Examples:
      | asked            | fate     | event                         |
      | negative receive | received | the client receives from "r"  |
      | positive receive | expired  | 11 seconds pass               |

  @clause:MS-MQMQ:2.2.19.3:02
  Scenario Outline: LabelLength counts the label's UTF-16 units and its NUL, and 0 means no label (<case>)
    Given message "m1" is sent to "orders" carrying:
      | label | <label> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | label       | <label>  |
      | LabelLength | <length> |

    Examples:
      | case                     | label     | length |
      | no label                 |           | 0      |
      | one character            | a         | 2      |
      | two characters           | ab        | 3      |
      | beyond ASCII             | é         | 2      |
      | beyond the BMP           | 𝄞         | 3      |
      | the longest label        | {249 × L} | 250    |

  @clause:MS-MQMQ:2.2.19.3:02
  Scenario: A label longer than 249 characters is refused
    When message "m1" is sent to "orders" carrying:
      | label | {250 × L} |
    Then the send is refused with MQ_ERROR_ILLEGAL_PROPERTY_VALUE
    And "orders" holds nothing

  @clause:MS-MQMQ:2.2.19.3:03
  Scenario Outline: MessageClass carries the class the sender set (<class>)
    Given message "m1" is sent to "orders" carrying:
      | class | <class> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | message class | <class> |

    Examples:
      | class              |
      | MQMSG_CLASS_NORMAL |
      | MQMSG_CLASS_REPORT |
      | 0x0100             |
      | 0x0101             |

  @clause:MS-MQMQ:2.2.19.3:03
  Scenario Outline: A class that is no MESSAGE_CLASS_VALUES value is refused (<class>)
    When message "m1" is sent to "orders" with:
      | class | <class> |
    Then the send is refused with MQ_ERROR_ILLEGAL_PROPERTY_VALUE
    And "orders" holds nothing

    Examples:
      | class  |
      | 0x1234 |
      | 0x0200 |

  @clause:MS-MQMQ:2.2.19.3:04
  Scenario Outline: A correlation id the sender set comes back as it was (<correlation>)
    Given message "m1" is sent to "orders" carrying:
      | correlation id | <correlation> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | correlation id | <correlation> |

    Examples:
      | correlation          |
      | order-42             |
      | 12345678901234567890 |

  @clause:MS-MQMQ:2.2.19.3:05
  Scenario Outline: BodyType and ApplicationTag come back as they were sent (<body type>, <tag>)
    Given message "m1" is sent to "orders" carrying:
      | body            | payload     |
      | body type       | <body type> |
      | application tag | <tag>       |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | body type       | <body type> |
      | application tag | <tag>       |
      | body            | payload     |

    Examples:
      | body type | tag        |
      | 0         | 0          |
      | 0x1011    | 0x12345678 |
      | 8         | 0xFFFFFFFF |

  @clause:MS-MQMQ:2.2.19.3:06 @clause:MS-MQMQ:2.2.19.3:10 @clause:MS-MQMQ:2.2.19.3:11
  Scenario Outline: Body and extension sizes are given, empty parts are left out and the header is padded (<label>/<extension>/<size>)
    Given message "m1" is sent to "orders" carrying:
      | label     | <label>     |
      | extension | <extension> |
      | body size | <size>      |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | label               | <label>     |
      | extension           | <extension> |
      | MessageSize         | <size>      |
      | body bytes returned | <size>      |

    Examples:
      | label | extension | size |
      |       |           | 0    |
      | a     |           | 1    |
      |       | x         | 2    |
      | ab    | xy        | 3    |
      | abc   | xyz       | 4    |
      | abcd  |           | 5    |
      |       | four      | 0    |
      | a     | x         | 1001 |

  @clause:MS-MQMQ:2.2.19.3:06
  Scenario: The body comes back byte for byte
    Given message "m1" is sent to "orders" carrying:
      | body | the quick brown fox |
    When the client peeks at "h"
    Then the returned packet shows:
      | body        | the quick brown fox |
      | MessageSize | 19                  |

  # A server that neither signs nor encrypts still writes the three security fields; MS-MQMQ lists the
  # values they may take, and EncryptionAlgorithm must suit PrivacyLevel.
  @clause:MS-MQMQ:2.2.19.3:07 @clause:MS-MQMQ:2.2.19.3:08 @clause:MS-MQMQ:2.2.19.3:09
  Scenario Outline: Every kind of message comes back with security fields MS-MQMQ allows (<shape>)
    Given a transactional queue "tq"
    And the client begins transaction "t"
    And message "m1" is sent to "<queue>" carrying:
      | body          | <body>        |
      | delivery      | <delivery>    |
      | transaction   | <transaction> |
      | srmp envelope | <envelope>    |
    And transaction "t" is committed
    When every message in "<queue>" is peeked
    Then the packet of "m1" has a PrivacyLevel, HashAlgorithm and EncryptionAlgorithm that MS-MQMQ allows

    Examples:
      | shape         | queue  | body | delivery    | transaction | envelope |
      | express       | orders | x    | express     |             |          |
      | recoverable   | orders | xyz  | recoverable |             |          |
      | transactional | tq     | t    |             | t           |          |
      | SRMP          | orders |      | express     |             | envelope |

  @clause:MS-MQMQ:2.2.19.3:07 @clause:MS-MQMQ:2.2.19.3:09
  Scenario Outline: A message sent with privacy level <level> keeps it, with an encryption algorithm that suits it
    When message "m1" is sent to "orders" with:
      | body          | secret  |
      | privacy level | <level> |
    Then the send is accepted with status 0, or not run if the target refuses privacy level <level>
    When the client peeks at "h"
    Then the returned packet shows:
      | PrivacyLevel | <level> |
      | body         | secret  |
    And the returned packet has a PrivacyLevel, HashAlgorithm and EncryptionAlgorithm that MS-MQMQ allows

    Examples:
      | level |
      | 0     |
      | 1     |
      | 3     |
      | 5     |

  @clause:MS-MQMQ:2.2.19.3:07 @clause:MS-MQMQ:2.2.19.3:08 @clause:MS-MQMQ:2.2.19.3:09
  Scenario Outline: An acknowledgment the queue manager writes itself has security fields MS-MQMQ allows (<of>)
    Given "admin" is opened with PEEK_ACCESS as "a"
    When message "m1" is sent to "orders" with:
      | acknowledgements | positive arrival |
      | admin queue      | admin            |
      | privacy level    | <privacy>        |
    Then the send is accepted with status 0, or not run if the target refuses privacy level <privacy>
    When the client peeks at "a"
    Then the returned packet has a PrivacyLevel, HashAlgorithm and EncryptionAlgorithm that MS-MQMQ allows

    Examples:
      | of                | privacy |
      | a plain message   | 0       |
      | a private message | 5       |

  @clause:MS-MQMQ:2.2.19.3:07 @clause:MS-MQMQ:2.2.19.3:08 @clause:MS-MQMQ:2.2.19.3:09
  Scenario: A dead-letter copy the queue manager writes itself has security fields MS-MQMQ allows
    When message "m1" is sent to "orders" with:
      | dead letter         | yes             |
      | sent                | 120 seconds ago |
      | time to reach queue | 60              |
    Then the send is accepted with status 3
    When every message in "the dead-letter queue" is peeked
    Then the packet of "m1" has a PrivacyLevel, HashAlgorithm and EncryptionAlgorithm that MS-MQMQ allows

  # A receiver reads these lengths from packets another queue manager sends on an MS-MQQB session.
  @clause:MS-MQMQ:2.2.19.3:12
  Scenario Outline: A packet whose <field> is <value> makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | <field> | <value> |
    Then the target closed the session of "remote"
    And "orders" holds nothing

    Examples:
      | field         | value      |
      | LabelLength   | 0xFB       |
      | LabelLength   | 0xFA       |
      | MessageSize   | 0x00010000 |
      | ExtensionSize | 0x00000400 |

  # MS-MQMQ 2.2.19.3: LabelLength counts the label's WCHARs with the NUL, from 0x00 to 0xFA; a label of 249
  # characters is the longest (0xFA), one of 250 (0xFB) is out of range.
  @clause:MS-MQMQ:2.2.19.3:12
  Scenario Outline: A packet whose label has <n> characters (LabelLength <length>) <fate>
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | Label characters | <n> |
    Then <session>
    And "orders" holds <count> messages

    Examples:
      | n   | length | fate                    | session                                   | count |
      | 249 | 0xFA   | is delivered            | the session of "remote" is still open     | 1     |
      | 250 | 0xFB   | closes the session      | the target closed the session of "remote" | 0     |

  # MS-MQMQ 2.2.19.3: PrivacyLevel 0, 1, 3 and 5 are the table's values; a packet with any of them is well formed.
  @clause:MS-MQMQ:2.2.19.3:07
  Scenario Outline: A packet whose PrivacyLevel is <level> leaves the session open
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body          | hello   |
      | privacy level | <level> |
    When "remote" sends the prepared message "m1" to "orders"
    Then the session of "remote" is still open

    Examples:
      | level |
      | 1     |
      | 3     |
      | 5     |

  # A body of 103 bytes leaves the MessagePropertiesHeader one byte short of a 4-byte boundary (56 + 6 + 103 = 165):
  # its padding runs to 168, where the DebugHeader begins.
  @clause:MS-MQMQ:2.2.19.3:11 @clause:MS-MQMQ:2.2.20.8:02
  Scenario: A DebugHeader after a body that leaves 3 bytes of padding is found and read past
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | QT | 0 |
    Then the session of "remote" is still open
    And "orders" holds "m1"
