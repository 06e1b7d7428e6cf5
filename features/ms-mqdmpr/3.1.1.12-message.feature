Feature: MS-MQDMPR 3.1.1.12 Message
  The attributes of a message: its lookup identifier, priority and label, what the
  server must carry untouched, and what a sender asks for when it is removed.

  Background:
    Given a queue "q"
    And a queue "admin"
    And "q" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.1.12:01
  Scenario: No two messages of a queue share a lookup identifier, before or after a restart
    Given these messages were sent to "q":
      | label | priority | delivery    |
      | a     | 3        | recoverable |
      | b     | 7        | recoverable |
      | c     | 0        | express     |
    And the sequence ids of the messages in "q" are noted
    When the queue manager restarts
    And "q" is opened with RECEIVE_ACCESS as "h"
    And message "d" is sent to "q"
    And the sequence ids of the messages in "q" are noted
    Then the noted sequence ids of "a", "b", "c" and "d" are all different

  @clause:MS-MQDMPR:3.1.1.12:01
  Scenario Outline: Each message is found by its own lookup identifier
    Given these messages were sent to "q":
      | label | priority |
      | a     | 3        |
      | b     | 7        |
      | c     | 3        |
    When the client peeks "<label>" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the message returned is "<label>"

    Examples:
      | label |
      | a     |
      | b     |
      | c     |

  @clause:MS-MQDMPR:3.1.1.12:02
  Scenario Outline: A priority from 0 to 7 is accepted and kept
    When message "m" is sent to "q" with:
      | priority | <priority> |
    Then the send is accepted with status 0
    When the client peeks at "h"
    Then the returned message's priority is <priority>

    Examples:
      | priority |
      | 0        |
      | 1        |
      | 6        |
      | 7        |

  @clause:MS-MQDMPR:3.1.1.12:02
  Scenario: A priority above 7 is refused
    When message "m" is sent to "q" with:
      | priority | 8 |
    Then the send is not accepted
    And "q" holds nothing

  @clause:MS-MQDMPR:3.1.1.12:02
  Scenario: A priority below 0 is refused
    When message "m" is sent to "q" with:
      | priority | -1 |
    Then the send is not accepted
    And "q" holds nothing

  @clause:MS-MQDMPR:3.1.1.12:02
  Scenario: A message sent without a priority has priority 3
    Given "q" holds "m"
    When the client peeks at "h"
    Then the returned message's priority is 3

  @clause:MS-MQDMPR:3.1.1.12:03
  Scenario Outline: A recoverable message survives a restart with every attribute, an express one does not
    Given these messages were sent to "q":
      | label | delivery   | priority | body  | application tag | body type | correlation id | extension | acknowledgements | admin queue |
      | m     | <delivery> | 6        | bytes | 0x1234          | 0x11      | corr-0001      | ext-data  | positive receive | admin       |
    When the queue manager restarts
    Then "q" holds <left>

    Examples:
      | delivery    | left    |
      | recoverable | "m"     |
      | express     | nothing |

  @clause:MS-MQDMPR:3.1.1.12:03
  Scenario: Every attribute of a recoverable message is the same after a restart
    Given these messages were sent to "q":
      | label | delivery    | priority | body  | application tag | body type | correlation id | extension | acknowledgements | admin queue |
      | m     | recoverable | 6        | bytes | 0x1234          | 0x11      | corr-0001      | ext-data  | positive receive | admin       |
    And the sequence ids of the messages in "q" are noted
    When the queue manager restarts
    And "q" is opened with RECEIVE_ACCESS as "h"
    And the client receives from "h"
    Then the message returned is "m"
    And pSequenceId is the noted sequence id of "m"
    And pdwArriveTime is the arrival time a peek reported for "m"
    And the returned message's priority is 6
    And the returned message's body is "bytes"
    And the returned message's application tag is 0x1234
    And the returned message's body type is 0x11
    And the returned message's correlation id is "corr-0001"
    And the returned message's extension is "ext-data"
    And the acknowledgment classes for "m" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQDMPR:3.1.1.12:05
  Scenario: The server hands back body, label, extension, application tag, body type and correlation id as sent
    Given these messages were sent to "q":
      | label        | body                  | application tag | body type | correlation id       | extension          |
      | opaque label | {"not": "for you"}    | 0xFEDCBA98      | 0x1F      | 12345678901234567890 | <x>opaque</x>      |
    When the client receives from "h"
    Then the message returned is "opaque label"
    And the returned message's body is "{"not": "for you"}"
    And the returned message's application tag is 0xFEDCBA98
    And the returned message's body type is 0x1F
    And the returned message's correlation id is "12345678901234567890"
    And the returned message's extension is "<x>opaque</x>"

  @clause:MS-MQDMPR:3.1.1.12:05
  Scenario: Moving and committing do not touch what the server must not interpret
    Given a transactional queue "ledger"
    And a subqueue "hold" of "ledger"
    And these messages were committed to "ledger":
      | label        | body          | application tag | body type | correlation id | extension |
      | opaque label | payload bytes | 77              | 8         | corr-in-ledger | ext       |
    And "ledger" is opened with RECEIVE_ACCESS as "hl"
    And "ledger;hold" is opened for move as "to hold"
    And the client moves "opaque label" from "hl" to "to hold" without a transaction
    And "ledger;hold" is opened with RECEIVE_ACCESS as "hh"
    When the client peeks at "hh"
    Then the message returned is "opaque label"
    And the returned message's body is "payload bytes"
    And the returned message's application tag is 77
    And the returned message's body type is 8
    And the returned message's correlation id is "corr-in-ledger"
    And the returned message's extension is "ext"

  @clause:MS-MQDMPR:3.1.1.12:06
  Scenario Outline: A label of up to 249 characters is kept whole
    When a message labelled with <length> characters is sent to "q"
    Then the send is accepted with status 0
    And the label of the only message in "q" has <length> characters

    Examples:
      | length |
      | 1      |
      | 248    |
      | 249    |

  @clause:MS-MQDMPR:3.1.1.12:06
  Scenario Outline: A label longer than 249 characters is refused
    When a message labelled with <length> characters is sent to "q"
    Then the send is not accepted
    And "q" holds nothing

    Examples:
      | length |
      | 250    |
      | 400    |

  @clause:MS-MQDMPR:3.1.1.12:07
  Scenario: A message sent without a time to reach its queue is given four days
    When message "m" is sent to "q" with:
      | time to reach queue | not set |
    Then the send is accepted with status 0
    When the client peeks at "h"
    Then the returned TimeToReachQueue is the SentTime plus 345600 seconds

  @clause:MS-MQDMPR:3.1.1.12:07
  Scenario Outline: A message sent without a time to reach its queue is late only after four days (<sent>)
    When message "m" is sent to "q" with:
      | time to reach queue | not set |
      | sent                | <sent>  |
    Then the send is accepted with status <status>
    And "q" holds <left>

    Examples:
      | sent               | status | left    |
      | 345000 seconds ago | 0      | "m"     |
      | 346200 seconds ago | 3      | nothing |

  @clause:MS-MQDMPR:3.1.1.12:08
  Scenario: A message sent without a time to be received carries the infinite value
    When message "m" is sent to "q" with:
      | time to be received | not set |
    And the client peeks at "h"
    Then the returned packet shows:
      | TimeToBeReceived | 0xFFFFFFFF |

  @clause:MS-MQDMPR:3.1.1.12:08
  Scenario: A message sent without a time to be received is still in its queue four hundred days later
    When message "m" is sent to "q" with:
      | time to be received | not set |
    And 400 days pass
    Then "q" holds "m"
    When the client receives from "h"
    Then the message returned is "m"

  @clause:MS-MQDMPR:3.1.1.12:09
  Scenario Outline: The acknowledgements a sender asks for decide which acknowledgments come
    When message "m" is sent to "q" with:
      | acknowledgements    | <acknowledgements> |
      | admin queue         | admin              |
      | time to be received | 1                  |
    And <event>
    Then the acknowledgment classes for "m" in "admin" are <classes>

    Examples:
      | acknowledgements                     | event                          | classes                                                 |
      | none                                 | the client receives from "h"   | none                                                    |
      | none                                 | 2 seconds pass                 | none                                                    |
      | positive arrival                     | 0 seconds pass                 | MQMSG_CLASS_ACK_REACH_QUEUE                             |
      | positive receive                     | the client receives from "h"   | MQMSG_CLASS_ACK_RECEIVE                                 |
      | positive receive                     | 2 seconds pass                 | none                                                    |
      | negative receive                     | the client receives from "h"   | none                                                    |
      | negative receive                     | 2 seconds pass                 | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT                        |
      | positive arrival and positive receive | the client receives from "h"   | MQMSG_CLASS_ACK_REACH_QUEUE and MQMSG_CLASS_ACK_RECEIVE |

  @clause:MS-MQDMPR:3.1.1.12:10 @decision:D-26
  Scenario Outline: Positive journaling keeps a copy of a delivered message in the system journal
    When message "m" is sent to "q" with:
      | journal | <journal> |
    And the client receives from "h"
    Then the message returned is "m"
    And <outcome>

    Examples:
      | journal | outcome                                                         |
      | yes     | "the system journal" keeps a copy of "m" of class MQMSG_CLASS_NORMAL |
      | no      | "the system journal" has no copy of "m"                         |

  # D-26: a non-transactional message is delivered when it enters its queue (MS-MQQB 3.1.5.5.4 journals
  # it at the session acknowledgment), or, for a local queue manager, when it is received.
  @clause:MS-MQDMPR:3.1.1.12:10 @decision:D-26
  Scenario: Positive journaling copies a message when it enters its queue, or when it is received
    When message "m" is sent to "q" with:
      | journal | yes |
    Then by D-26 "the system journal" keeps a copy of "m" of class MQMSG_CLASS_NORMAL (on-delivery) or none (on-removal)
    When the client receives from "h"
    Then the message returned is "m"
    And "the system journal" keeps a copy of "m" of class MQMSG_CLASS_NORMAL

  @clause:MS-MQDMPR:3.1.1.12:10 @decision:D-26
  Scenario: A message that expires in its queue has a positive journal copy only if entering the queue delivered it
    When message "m" is sent to "q" with:
      | journal             | yes |
      | time to be received | 1   |
    And 2 seconds pass
    Then "q" holds nothing
    And by D-26 "the system journal" keeps a copy of "m" of class MQMSG_CLASS_NORMAL (on-delivery) or none (on-removal)

  @clause:MS-MQDMPR:3.1.1.12:10
  Scenario: A message that never reaches its queue gets no positive journal copy
    When message "m" is sent to "q" with:
      | journal             | yes             |
      | sent                | 120 seconds ago |
      | time to reach queue | 60              |
    Then the send is accepted with status 3
    And "q" holds nothing
    And "the system journal" has no copy of "m"

  # D-26: expiry in the destination queue is a failed delivery when removal is delivery (on-removal);
  # when entering the queue is delivery (on-delivery), the message had been delivered.
  @clause:MS-MQDMPR:3.1.1.12:11 @decision:D-26
  Scenario Outline: Negative journaling keeps a copy of an undelivered message in the dead-letter queue
    When message "m" is sent to "q" with:
      | dead letter         | <dead letter> |
      | time to be received | 1             |
    And 2 seconds pass
    Then "q" holds nothing
    And <outcome>

    Examples:
      | dead letter | outcome                                                                                                                   |
      | yes         | by D-26 "the dead-letter queue" keeps a copy of "m" of class MQMSG_CLASS_NACK_RECEIVE_TIMEOUT (on-removal) or none (on-delivery) |
      | no          | "the dead-letter queue" has no copy of "m"                                                                                |

  @clause:MS-MQDMPR:3.1.1.12:11
  Scenario Outline: Negative journaling keeps a copy of a message that never reaches its queue
    When message "m" is sent to "q" with:
      | dead letter         | <dead letter>   |
      | sent                | 120 seconds ago |
      | time to reach queue | 60              |
    Then the send is accepted with status 3
    And "q" holds nothing
    And <outcome>

    Examples:
      | dead letter | outcome                                                                                   |
      | yes         | "the dead-letter queue" keeps a copy of "m" of class MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT |
      | no          | "the dead-letter queue" has no copy of "m"                                                |

  @clause:MS-MQDMPR:3.1.1.12:11 @decision:D-26
  Scenario: A delivered message gets no dead-letter copy
    When message "m" is sent to "q" with:
      | dead letter | yes |
    And the client receives from "h"
    Then the message returned is "m"
    And "the dead-letter queue" has no copy of "m"

  @clause:MS-MQDMPR:3.1.1.12:11 @decision:D-26
  Scenario: An undelivered transactional message goes to the transactional dead-letter queue
    Given a transactional queue "ledger"
    And these messages were committed to "ledger":
      | label | dead letter | time to be received |
      | tm    | yes         | 1                   |
    When 2 seconds pass
    Then "ledger" holds nothing
    And "the transactional dead-letter queue" keeps a copy of "tm" of class MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    And "the dead-letter queue" has no copy of "tm"

  # A message that does not reach its queue in time is undelivered under every reading of D-26.
  @clause:MS-MQDMPR:3.1.1.12:12
  Scenario: An undelivered message with negative journaling goes to the dead-letter queue it names
    Given a queue "own-dlq"
    When message "m" is sent to "q" carrying:
      | dead letter         | yes                                   |
      | dead-letter path    | {computer}\private$\{name of own-dlq} |
      | sent                | 120 seconds ago                       |
      | time to reach queue | 60                                    |
    Then the send is accepted with status 3
    And "own-dlq" keeps a copy of "m" of class MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT
    And "the dead-letter queue" has no copy of "m"

  # A DeadLetterHeader path name is carried untouched whatever it holds (MS-MQRR 2.2.5.2): one that names no
  # queue leaves the copy to the dead-letter queue, as if the message had named none.
  @clause:MS-MQDMPR:3.1.1.12:12 @clause:MS-MQDMPR:3.1.1.12:11
  Scenario: An undelivered message whose dead-letter queue is not a path name goes to the dead-letter queue
    When message "m" is sent to "q" carrying:
      | dead letter         | yes             |
      | dead-letter path    | no queue at all |
      | sent                | 120 seconds ago |
      | time to reach queue | 60              |
    Then the send is accepted with status 3
    And "q" holds nothing
    And "the dead-letter queue" keeps a copy of "m" of class MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT

  # A path name of another computer names that computer's queue, never this one's queue of the same name; where
  # the copy then goes (sent on, or kept in the dead-letter queue) is the server's affair.
  @clause:MS-MQDMPR:3.1.1.12:12
  Scenario Outline: An undelivered message whose dead-letter queue is on another computer leaves this one's alone (<other>)
    Given a queue "own-dlq"
    When message "m" is sent to "q" carrying:
      | dead letter         | yes                             |
      | dead-letter path    | <other>\private$\{name of own-dlq} |
      | sent                | 120 seconds ago                 |
      | time to reach queue | 60                              |
    Then the send is accepted with status 3
    And "own-dlq" has no copy of "m"

    Examples: computer names that sort before and after any name this computer may have
      | other         |
      | 0-other-host  |
      | zzz-otherhost |

  @clause:MS-MQDMPR:3.1.1.12:10
  Scenario: A received message that asked only for negative journaling gets no positive journal copy
    When message "m" is sent to "q" with:
      | dead letter | yes |
    And the client receives from "h"
    Then the message returned is "m"
    And "the system journal" has no copy of "m"

  # D-28: a copy asks for no journaling (inert) or for what its original asked for (verbatim), never for
  # journaling its original did not ask for.  Both copies are made under every reading of D-26.
  @clause:MS-MQDMPR:3.1.1.12:10 @clause:MS-MQDMPR:3.1.1.12:11 @decision:D-28
  Scenario: A journal or dead-letter copy asks for no journaling its original did not ask for
    When message "kept" is sent to "q" with:
      | journal | yes |
    And the client receives from "h"
    Then the message returned is "kept"
    When message "lost" is sent to "q" with:
      | dead letter         | yes             |
      | sent                | 120 seconds ago |
      | time to reach queue | 60              |
    Then the send is accepted with status 3
    When every message in "the system journal" is peeked
    And every message in "the dead-letter queue" is peeked
    Then the packet of "kept" shows:
      | UserHeader flag JN | 0 |
    And the packet of "lost" shows:
      | UserHeader flag JP | 0 |
