Feature: MS-MQMQ 2.2.19.1 BaseHeader
  Every packet opens with a 16-byte BaseHeader: version, flags with the priority, the
  LIOR signature, the packet size and the time the message has to reach its queue.

  Background:
    Given a queue "orders"
    And "orders" is opened with PEEK_ACCESS as "h"

  @clause:MS-MQMQ:2.2.19.1:01 @clause:MS-MQMQ:2.2.19.1:03 @clause:MS-MQMQ:2.2.19.1:04 @clause:MS-MQMQ:2.2.19.1:06
  @clause:MS-MQMQ:2.2.19.1:07 @clause:MS-MQMQ:2.2.19.1:08
  Scenario Outline: Every returned packet starts with a well-formed BaseHeader (<shape>)
    Given message "m1" is sent to "orders" carrying:
      | body size | <size>     |
      | priority  | <priority> |
      | delivery  | <delivery> |
      | tracing   | <tracing>  |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the single section holds the whole packet
    And the returned packet has BaseHeader flag IN clear
    And the returned packet has BaseHeader flag SH clear
    And the returned packet has BaseHeader flag DH <debug>
    And the returned packet sets no reserved flag bit
    And the returned packet shows:
      | priority | <priority> |

    Examples:
      | shape                  | size | priority | delivery    | tracing | debug |
      | empty, default         | 0    | 3        | express     |         | clear |
      | highest priority       | 1    | 7        | recoverable |         | clear |
      | lowest priority, traced | 2   | 0        | express     | yes     | set   |
      | larger body            | 3001 | 5        | recoverable |         | clear |

  @clause:MS-MQMQ:2.2.19.1:08
  Scenario Outline: PacketSize counts the whole packet even when the body is cut (limit <limit>)
    Given message "m1" is sent to "orders" carrying:
      | body size | 999 |
    When the client peeks at "h" with at most <limit> body bytes
    Then the returned packet follows every layout rule

    Examples:
      | limit |
      | 0     |
      | 998   |

  @clause:MS-MQMQ:2.2.19.1:04 @clause:MS-MQMQ:2.2.19.1:05
  Scenario: A traced message sets TR, and with it DH and a DebugHeader
    Given message "m1" is sent to "orders" carrying:
      | tracing | yes |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet has BaseHeader flag TR set
    And the returned packet has BaseHeader flag DH set

  @clause:MS-MQMQ:2.2.19.1:04 @clause:MS-MQMQ:2.2.19.1:05
  Scenario: A message without tracing sets neither TR nor DH
    Given "orders" holds "m1"
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet has BaseHeader flag TR clear
    And the returned packet has BaseHeader flag DH clear

  @clause:MS-MQMQ:2.2.19.1:02
  Scenario: A higher priority puts a message nearer the front of the queue
    Given message "p1" is sent to "orders" carrying:
      | priority | 1 |
    And message "p7" is sent to "orders" carrying:
      | priority | 7 |
    And message "p3" is sent to "orders" carrying:
      | priority | 3 |
    And message "p0" is sent to "orders" carrying:
      | priority | 0 |
    And message "p7b" is sent to "orders" carrying:
      | priority | 7 |
    Then "orders" holds "p7", "p7b", "p3", "p1" and "p0"
    When every message in "orders" is peeked
    Then the packet of "p7" shows:
      | priority | 7 |
    And the packet of "p0" shows:
      | priority | 0 |

  @clause:MS-MQMQ:2.2.19.1:02
  Scenario: A transactional message has priority 0 whatever the sender asked for
    Given a transactional queue "tq"
    And the client begins transaction "t"
    And message "x1" is sent to "tq" carrying:
      | priority    | 6 |
      | transaction | t |
    And transaction "t" is committed
    When every message in "tq" is peeked
    Then the packet of "x1" follows every layout rule
    And the packet of "x1" shows:
      | priority      | 0   |
      | transactional | yes |

  @clause:MS-MQMQ:2.2.19.1:09
  Scenario Outline: A message that has run out of time to reach its queue is not delivered (sent <sent>)
    When message "late" is sent to "orders" with:
      | sent                | <sent> |
      | time to reach queue | <ttrq> |
    Then the send is accepted with status <status>
    And "orders" holds <held>

    Examples:
      | sent             | ttrq     | status | held    |
      | 600 seconds ago  | 60       | 3      | nothing |
      | 30 seconds ago   | 60       | 0      | "late"  |
      | 6000 seconds ago | INFINITE | 0      | "late"  |

  # The packets of an MS-MQQB session that are not UserMessages (MS-MQQB 2.2.2, 2.2.3, 2.2.6):
  # the suite plays another queue manager and reads what the target answers on the session.
  @clause:MS-MQMQ:2.2.19.1:10
  Scenario: The packets a queue manager sends on a session that are not UserMessages never expire
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "r1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then "remote" received an EstablishConnection, a ConnectionParameters and a SessionAck packet
    And every packet "remote" received that is not a UserMessage has TimeToReachQueue 0xFFFFFFFF

  # Whatever priority an internal packet carries (D-86), the reserved bits beside it stay clear.
  @clause:MS-MQMQ:2.2.19.1:14
  Scenario: The packets the target sends set no reserved BaseHeader flag
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "r1" is prepared with:
      | delivery | recoverable |
    And message "t1" is prepared with:
      | delivery | recoverable |
    And a transactional queue "ledger"
    When "remote" sends the prepared message "r1" to "orders"
    And "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 1000 ms for the target's packets
    Then every packet "remote" received sets no reserved BaseHeader flag

  # A receiver reads PacketSize from packets another queue manager sends on an MS-MQQB session; every header
  # is padded to 4 bytes, so a UserMessage's PacketSize is a multiple of 4 (D-92); bytes after the last header
  # are allowed (D-91), so 4 more keep the packet well formed.
  @clause:MS-MQMQ:2.2.19.1:12
  Scenario Outline: A UserMessage whose PacketSize is <n> bytes past its headers <fate>
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | trailing bytes | <n> |
    Then <session>
    And "orders" holds <held>

    Examples:
      | n | fate                    | session                                   | held    |
      | 1 | closes the session      | the target closed the session of "remote" | nothing |
      | 3 | closes the session      | the target closed the session of "remote" | nothing |
      | 4 | leaves the session open | the session of "remote" is still open     | "m1"    |

  # MS-MQMQ 2.2.19.1: PacketSize is at most 0x00400000; a UserMessage of exactly that size is a packet like any other
  # (zero bytes after its last header make it up, D-91), one 4 bytes longer is not.
  @clause:MS-MQMQ:2.2.19.1:08 @clause:MS-MQMQ:2.2.19.1:12
  Scenario Outline: A UserMessage of PacketSize <size> <fate>
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | hello |
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | padded to PacketSize | <size> |
    Then <session>
    And "orders" holds <held>

    Examples:
      | size       | fate                    | session                                   | held    |
      | 0x00400000 | leaves the session open | the session of "remote" is still open     | "m1"    |
      | 0x00400004 | closes the session      | the target closed the session of "remote" | nothing |
