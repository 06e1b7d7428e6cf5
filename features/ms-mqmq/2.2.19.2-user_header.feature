Feature: MS-MQMQ 2.2.19.2 UserHeader
  The UserHeader says who sent the message and where it goes, when it was sent and how long
  it may wait, and with flags which queue names and optional headers follow.

  Background:
    Given a queue "orders"
    And a queue "admin"
    And a queue "reply"
    And "orders" is opened with PEEK_ACCESS as "h"

  @clause:MS-MQMQ:2.2.19.2:01
  Scenario: A message for a queue named by number names this queue manager as source and destination
    Given message "m1" is sent to "PRIVATE={queue manager}\{private number of orders}" carrying:
      | body | hello |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | source queue manager | this queue manager |
      | UserHeader flag DQ   | 3                  |
    And the returned packet has QueueManagerAddress equal to this queue manager's identifier

  @clause:MS-MQMQ:2.2.19.2:01
  Scenario: A message for a direct name carries, as remote read defines it, the sender's address instead
    Given message "m1" is sent to "DIRECT=OS:{computer}\private$\{name of orders}" carrying:
      | body | hello |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | source queue manager | this queue manager |
      | UserHeader flag DQ   | 7                  |
    And the returned packet has QueueManagerAddress holding the sender's address

  @clause:MS-MQMQ:2.2.19.2:02
  Scenario Outline: A message leaves its queue when its time to be received runs out (<wait> seconds)
    Given message "m1" is sent to "orders" with:
      | time to be received | 30 |
    When <wait> seconds pass
    Then "orders" holds <held>

    Examples:
      | wait | held    |
      | 29   | "m1"    |
      | 31   | nothing |

  @clause:MS-MQMQ:2.2.19.2:02
  Scenario: A message whose time to be received is infinite stays
    Given message "m1" is sent to "orders" with:
      | time to be received | INFINITE |
    When 100000 seconds pass
    Then "orders" holds "m1"

  @clause:MS-MQMQ:2.2.19.2:03
  Scenario: SentTime is when the message was sent and every message gets its own MessageID
    Given "orders" holds "m1" and "m2"
    When every message in "orders" is peeked
    Then the packet of "m1" was sent about now
    And the packet of "m2" was sent about now
    And the packets of "m1" and "m2" come from this queue manager with distinct MessageIDs

  @clause:MS-MQMQ:2.2.19.2:04
  Scenario Outline: DM says how the message is delivered (<delivery>)
    Given message "m1" is sent to "orders" carrying:
      | delivery | <delivery> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | UserHeader flag DM | <DM> |

    Examples:
      | delivery    | DM |
      | express     | 0  |
      | recoverable | 1  |

  @clause:MS-MQMQ:2.2.19.2:04
  Scenario: Only recoverable messages survive a restart
    Given message "e1" is sent to "orders" carrying:
      | delivery | express |
    And message "r1" is sent to "orders" carrying:
      | delivery | recoverable |
    When the queue manager restarts
    Then "orders" holds "r1"

  @clause:MS-MQMQ:2.2.19.2:05 @decision:D-26
  Scenario: Positive source journaling keeps a copy of a message that was received
    Given message "m1" is sent to "orders" carrying:
      | journal | yes |
    And "orders" is opened with RECEIVE_ACCESS as "r"
    When the client peeks at "h"
    Then the returned packet shows:
      | UserHeader flag JP | 1 |
      | UserHeader flag JN | 0 |
    When the client receives from "r"
    Then "the system journal" holds "m1"

  # D-26: expiry in its queue fails the delivery if removal is delivery (on-removal), not if entering was.
  @clause:MS-MQMQ:2.2.19.2:05 @decision:D-26
  Scenario: Negative source journaling keeps a copy of a message that expired
    Given message "m1" is sent to "orders" carrying:
      | dead letter         | yes |
      | time to be received | 10  |
    When the client peeks at "h"
    Then the returned packet shows:
      | UserHeader flag JP | 0 |
      | UserHeader flag JN | 1 |
    When 11 seconds pass
    Then by D-26 "the dead-letter queue" holds "m1" (on-removal) or nothing (on-delivery)

  @clause:MS-MQMQ:2.2.19.2:05
  Scenario: Negative source journaling keeps a copy of a message that never reached its queue
    When message "m1" is sent to "orders" with:
      | dead letter         | yes             |
      | sent                | 120 seconds ago |
      | time to reach queue | 60              |
    Then the send is accepted with status 3
    And "the dead-letter queue" holds "m1"

  @clause:MS-MQMQ:2.2.19.2:05 @decision:D-26
  Scenario: Without journaling requests no copies are kept
    Given message "m1" is sent to "orders" carrying:
      | time to be received | 10 |
    And message "m2" is sent to "orders" carrying:
      | body | x |
    And "orders" is opened with RECEIVE_ACCESS as "r"
    When the client receives from "r"
    And 11 seconds pass
    Then "the system journal" holds nothing
    And "the dead-letter queue" holds nothing

  @clause:MS-MQMQ:2.2.19.2:06 @clause:MS-MQMQ:2.2.19.2:10
  Scenario Outline: The admin and response queue fields follow AQ and RQ (<admin>, <response>)
    Given message "m1" is sent to "orders" carrying:
      | admin queue          | <admin>           |
      | response queue       | <response>        |
      | admin format name    | <admin name>      |
      | response format name | <response name>   |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | admin queue    | <admin shown>    |
      | response queue | <response shown> |

    Examples: queues by number
      | admin | response | admin name | response name | admin shown | response shown |
      |       |          |            |               | none        | none           |
      | admin |          |            |               | admin       | none           |
      |       | reply    |            |               | none        | reply          |
      | admin | reply    |            |               | admin       | reply          |
      | admin | admin    |            |               | admin       | admin          |

    Examples: queues by direct name
      | admin | response | admin name                                    | response name                                 | admin shown                                   | response shown                                |
      |       |          | DIRECT=OS:{computer}\private$\{name of admin} |                                               | DIRECT=OS:{computer}\private$\{name of admin} | none                                          |
      |       |          |                                               | DIRECT=OS:{computer}\private$\{name of reply} | none                                          | DIRECT=OS:{computer}\private$\{name of reply} |
      | admin |          |                                               | DIRECT=OS:{computer}\private$\{name of reply} | admin                                         | DIRECT=OS:{computer}\private$\{name of reply} |

  # D-63: 2.2.19.2 defines each code but not which a writer picks when several name the same queue: a
  # private queue of this queue manager by number on the source host (2) or the destination (3), or by
  # its full name (6); whichever is written must name the queue the message was sent with
  @clause:MS-MQMQ:2.2.19.2:06 @decision:D-63
  Scenario: A private admin and response queue of this queue manager are written by number or by full name
    Given message "m1" is sent to "orders" carrying:
      | admin queue    | admin |
      | response queue | reply |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | admin queue    | admin |
      | response queue | reply |
    And by D-63 the returned packet has UserHeader flag AQ 2 (reference-encoding) or another code (other-encoding)
    And by D-63 the returned packet has UserHeader flag RQ 2 (reference-encoding) or another code (other-encoding)

  @clause:MS-MQMQ:2.2.19.2:06
  Scenario: The queue-type codes stay within the values the header defines
    Given message "m1" is sent to "orders" carrying:
      | admin queue    | admin |
      | response queue | reply |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | UserHeader flag RC | 0 |

  # D-59: the set-up send may refuse such a message (refuse); if it takes it (accept), the packet it
  # writes must still carry no acknowledgment bits, for they need an administration queue.
  @clause:MS-MQMQ:2.2.19.2:10 @decision:D-59
  Scenario: Acknowledgments asked for without an administration queue are refused, or never written
    Given "orders" is opened with RECEIVE_ACCESS as "r"
    When message "m1" is sent to "orders" with:
      | acknowledgements | positive arrival |
    Then by D-59 the send is refused with MQ_ERROR_ILLEGAL_PROPERTY_VALUE (refuse) or accepted (accept)
    When the client receives from "r"
    Then by D-59 the client received "m1", with no acknowledgment bits, (accept) or nothing (refuse)

  @clause:MS-MQMQ:2.2.19.2:10
  Scenario: Acknowledgments asked for come with their administration queue
    Given message "m1" is sent to "orders" carrying:
      | acknowledgements | positive receive and negative receive |
      | admin queue      | admin                                 |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | acknowledgements | positive receive and negative receive |
      | admin queue      | admin                                 |

  @clause:MS-MQMQ:2.2.19.2:07 @clause:MS-MQMQ:2.2.19.2:08 @clause:MS-MQMQ:2.2.19.2:09 @clause:MS-MQMQ:2.2.19.2:11
  Scenario Outline: The header-presence flags match what the packet holds (<shape>)
    Given a transactional queue "tq"
    And the client begins transaction "t"
    And message "m1" is sent to "<queue>" carrying:
      | body          | x             |
      | delivery      | <delivery>    |
      | transaction   | <transaction> |
      | srmp envelope | <envelope>    |
    And transaction "t" is committed
    When every message in "<queue>" is peeked
    Then the packet of "m1" follows every layout rule
    And the packet of "m1" shows:
      | UserHeader flag MP | 1    |
      | UserHeader flag TH | <TH> |
      | UserHeader flag DM | <DM> |
      | UserHeader flag AH | <AH> |
      | UserHeader flag SH | 0    |
      | UserHeader flag MQ | 0    |
      | UserHeader flag HH | 0    |
      | UserHeader flag CQ | 0    |
      | transactional      | <tx> |

    Examples:
      | shape         | queue  | delivery    | transaction | envelope | TH | DM | AH | tx  |
      | express       | orders | express     |             |          | 0  | 0  | 0  | no  |
      | recoverable   | orders | recoverable |             |          | 0  | 1  | 0  | no  |
      | transactional | tq     |             | t           |          | 1  | 1  | 0  | yes |
      | SRMP          | orders | express     |             | envelope | 0  | 0  | 1  | no  |

  # A receiver reads DQ and AQ from packets another queue manager sends on an MS-MQQB session;
  # the suite plays that queue manager and writes values no sender may use.
  @clause:MS-MQMQ:2.2.19.2:12
  Scenario Outline: A packet whose <field> is <value> makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | <field> | <value> |
    Then the target closed the session of "remote"
    And "orders" holds nothing
    And "admin" holds nothing

    Examples:
      | field | value |
      | DQ    | 1     |
      | DQ    | 2     |
      | DQ    | 4     |
      | DQ    | 6     |
      | AQ    | 1     |
      | AQ    | 4     |

  @clause:MS-MQMQ:2.2.19.2:12
  Scenario Outline: A packet whose DQ and AQ are allowed leaves the session open (AQ <value>)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | acknowledgements | positive arrival |
      | admin queue      | admin            |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | AQ | <value> |
    Then the session of "remote" is still open
    And "orders" holds "m1"

    Examples:
      | value |
      | 2     |
      | 3     |
      | 6     |

  @clause:MS-MQMQ:2.2.19.2:13
  Scenario Outline: A packet whose DM is <value> makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | DM | <value> |
    Then the target closed the session of "remote"
    And "orders" holds nothing

    Examples:
      | value |
      | 2     |
      | 3     |

  @clause:MS-MQMQ:2.2.19.2:13
  Scenario: A packet whose DM is 1 is delivered and leaves the session open
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | DM | 1 |
    Then the session of "remote" is still open
    And "orders" holds "m1"

  @clause:MS-MQMQ:2.2.19.2:14
  Scenario Outline: A direct destination name whose Count is <count> bytes <fate>
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" by its direct name with packet fields:
      | DQ Count | <count> |
    Then <session>
    And "orders" holds <held>

    Examples:
      | count  | fate                 | session                                   | held    |
      | 4000   | runs past PacketSize | the target closed the session of "remote" | nothing |
      | 0xFFFF | runs past PacketSize | the target closed the session of "remote" | nothing |

  # MS-MQMQ forbids a sender AH; a receiver that meets it finds MS-MQRR 2.2.5.1.2's two headers after the
  # MessagePropertiesHeader, and each length in them must stay inside the packet. 0x8000021B is the
  # SRMPEnvelopeHeader.DataLength of Metasploit's QueueJumper probe (CVE-2023-21554).  The suite's compound
  # message for "hello" is a 42-byte HTTP head, the body and a 2-byte line: a body at 45 ends one byte past it.
  @clause:MS-MQMQ:2.2.19.2:15
  Scenario Outline: An SRMP envelope or compound message whose <field> is <value> makes the receiver close the session
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | AH      | 1       |
      | <field> | <value> |
    Then the target closed the session of "remote"
    And "orders" holds nothing

    Examples:
      | field         | value      |
      | DataLength    | 0x8000021B |
      | DataLength    | 0x00010000 |
      | HTTPBodySize  | 0x7FFFFFFF |
      | MsgBodyOffset | 0x00001000 |
      | MsgBodyOffset | 45         |

  @clause:MS-MQMQ:2.2.19.2:15 @decision:D-90
  Scenario: A well-formed SRMP envelope and compound message are read, then delivered or refused
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | AH | 1 |
    Then by D-90 the session of "remote" stays open and "orders" holds "m1" (read), or the target closed the session and "orders" holds nothing (refuse)

  # Queue names the UserHeader writes as PUBLIC= (DQ or AQ 5, a 16-byte PublicQueueIdentifier) or as a private queue
  # on another host (AQ 6, RQ 4): well formed whether or not the target holds such a queue, so the session goes on.
  @clause:MS-MQMQ:2.2.19.2:12 @clause:MS-MQMQ:2.2.19.2:06
  Scenario Outline: A packet naming public queues (DQ <dq>, AQ <aq>, RQ <rq>) leaves the session open
    Given another queue manager "remote" with an MS-MQQB session to the target
    And a queue name "pubd" for the format name "PUBLIC=11111111-2222-3333-4444-555555555555"
    And a queue name "puba" for the format name "PUBLIC=66666666-2222-3333-4444-555555555555"
    And message "m1" is prepared with:
      | body           | hello   |
      | admin queue    | <admin> |
      | response queue | reply   |
    When "remote" sends the prepared message "m1" to "<dest>" with packet fields:
      | AQ | <aq> |
      | RQ | <rq> |
    Then the session of "remote" is still open

    Examples:
      | dq | aq | rq | dest   | admin |
      | 5  | 5  | 0  | pubd   | puba  |
      | 5  | 6  | 4  | pubd   | admin |
      | 3  | 5  | 0  | orders | puba  |

  @clause:MS-MQMQ:2.2.19.2:12
  Scenario: A packet that names no destination queue (DQ 0) leaves the session open and reaches no queue
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | DQ | 0 |
    Then the session of "remote" is still open
    And "orders" holds nothing

  # The administration and response queues written by each code the sender may choose read back as it named them
  # (MS-MQMQ 2.2.19.2: AQ 3 and RQ 3 or 4 name private queues of the destination's host by number, AQ 6 and RQ 6 by
  # their host's GUID, RQ 1 "the same as the administration queue").
  @clause:MS-MQQB:3.1.7.10:01 @clause:MS-MQMQ:2.2.19.2:06
  Scenario Outline: Administration and response queues written as AQ <aq> and RQ <rq> read back as the sender named them
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body           | hello      |
      | admin queue    | admin      |
      | response queue | <response> |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | AQ | <aq> |
      | RQ | <rq> |
    And every message in "orders" is peeked
    Then the session of "remote" is still open
    And the packet of "m1" reads back as "remote" sent it

    Examples:
      | aq | rq | response |
      | 3  | 1  | admin    |
      | 3  | 4  | reply    |
      | 6  | 4  | reply    |
      | 6  | 6  | reply    |

  # MS-MQMQ 2.2.19.2: a ConnectorType follows the queue fields when CQ is set, and the server does not interpret it.
  @clause:MS-MQMQ:2.2.19.2:16 @clause:MS-MQMQ:2.2.19.2:11
  Scenario Outline: A packet with CQ and a ConnectorType after <after> is read past and reads back as sent
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body           | hello   |
      | admin queue    | admin   |
      | response queue | reply   |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | CQ | 1    |
      | AQ | <aq> |
    And every message in "orders" is peeked
    Then the session of "remote" is still open
    And the packet of "m1" reads back as "remote" sent it

    Examples:
      | after                       | aq |
      | a response queue (AQ 3)     | 3  |
      | an admin queue named by GUID (AQ 6) | 6  |

  # MS-MQMQ 2.2.19.1 and 2.2.19.2: reserved flag bits SHOULD NOT be set and MUST be ignored on receipt.
  @clause:MS-MQMQ:2.2.19.1:13 @clause:MS-MQMQ:2.2.19.2:16
  Scenario Outline: A packet with the reserved <header> flag <bit> set is delivered
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | <field> | <bits> |
    Then the session of "remote" is still open
    And "orders" holds "m1"

    Examples:
      | header     | bit | field     | bits       |
      | BaseHeader | X9  | BaseFlags | 0x0040     |
      | UserHeader | X3  | UserFlags | 0x04000000 |
      | UserHeader | X4  | UserFlags | 0x20000000 |
