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

  @clause:MS-MQDMPR:3.1.1.12:10
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

  @clause:MS-MQDMPR:3.1.1.12:10
  Scenario: A message that is never delivered gets no positive journal copy
    When message "m" is sent to "q" with:
      | journal             | yes |
      | time to be received | 1   |
    And 2 seconds pass
    Then "q" holds nothing
    And "the system journal" has no copy of "m"

  @clause:MS-MQDMPR:3.1.1.12:11
  Scenario Outline: Negative journaling keeps a copy of an undelivered message in the dead-letter queue
    When message "m" is sent to "q" with:
      | dead letter         | <dead letter> |
      | time to be received | 1             |
    And 2 seconds pass
    Then "q" holds nothing
    And <outcome>

    Examples:
      | dead letter | outcome                                                                               |
      | yes         | "the dead-letter queue" keeps a copy of "m" of class MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |
      | no          | "the dead-letter queue" has no copy of "m"                                            |

  @clause:MS-MQDMPR:3.1.1.12:11
  Scenario: A delivered message gets no dead-letter copy
    When message "m" is sent to "q" with:
      | dead letter | yes |
    And the client receives from "h"
    Then the message returned is "m"
    And "the dead-letter queue" has no copy of "m"

  @clause:MS-MQDMPR:3.1.1.12:11
  Scenario: An undelivered transactional message goes to the transactional dead-letter queue
    Given a transactional queue "ledger"
    And these messages were committed to "ledger":
      | label | dead letter | time to be received |
      | tm    | yes         | 1                   |
    When 2 seconds pass
    Then "ledger" holds nothing
    And "the transactional dead-letter queue" keeps a copy of "tm" of class MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    And "the dead-letter queue" has no copy of "tm"
