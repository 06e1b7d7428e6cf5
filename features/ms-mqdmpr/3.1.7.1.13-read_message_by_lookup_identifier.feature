Feature: MS-MQDMPR 3.1.7.1.13 Read Message By Lookup Identifier, 3.1.7.3.2 Seek Available Message Position and 3.1.7.3.3 Seek Available Message Position With Id
  A lookup read finds the message with the identifier, then it, its successor or its predecessor;
  a failed seek's status is the read's, and a lookup receive locks or removes like any receive.

  Background:
    Given a queue "admin"
    And a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.7.3.3:01 @clause:MS-MQDMPR:3.1.7.1.13:02
  Scenario Outline: No lookup action finds a lookup identifier that no message has
    Given "inbox" holds "m1" and "m2"
    When the client calls <action> with a lookup id no message has on "h"
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And no message is returned

    Examples:
      | action                    |
      | MQ_LOOKUP_PEEK_CURRENT    |
      | MQ_LOOKUP_PEEK_NEXT       |
      | MQ_LOOKUP_PEEK_PREV       |
      | MQ_LOOKUP_RECEIVE_CURRENT |
      | MQ_LOOKUP_RECEIVE_NEXT    |
      | MQ_LOOKUP_RECEIVE_PREV    |

  @clause:MS-MQDMPR:3.1.7.3.3:01
  Scenario Outline: The lookup identifier of a message that was received is found no more
    Given "inbox" holds "m1" and "m2"
    When the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    And the client receives from "h"
    And the client peeks "m1" by lookup id with <action> on "h"
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND

    Examples:
      | action                 |
      | MQ_LOOKUP_PEEK_CURRENT |
      | MQ_LOOKUP_PEEK_NEXT    |
      | MQ_LOOKUP_PEEK_PREV    |

  # The seek returns Start or End and 3.1.7.1.13 names no status for it (D-04): any failure will do.
  @clause:MS-MQDMPR:3.1.7.1.13:02 @decision:D-04
  Scenario Outline: A lookup with nothing before or after the message fails and leaves the queue as it was
    Given "inbox" holds "m1" and "m2"
    When the client <verb> "<message>" by lookup id with <action> on "h"
    Then by D-04 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (not-found) or any other failure (other-failure)
    And "inbox" holds "m1" and "m2"

    Examples:
      | verb     | message | action                 |
      | peeks    | m1      | MQ_LOOKUP_PEEK_PREV    |
      | peeks    | m2      | MQ_LOOKUP_PEEK_NEXT    |
      | receives | m1      | MQ_LOOKUP_RECEIVE_PREV |
      | receives | m2      | MQ_LOOKUP_RECEIVE_NEXT |

  # Move Message without a transaction sets the source position Deleted (3.1.7.1.16): a server that
  # keeps it in the list answers SeekCurrent on it with MQ_ERROR_MESSAGE_ALREADY_RECEIVED, one that
  # takes it out finds no such lookup id (D-05).
  @clause:MS-MQDMPR:3.1.7.1.13:02 @decision:D-05
  Scenario Outline: A current lookup in its old queue of a message moved to a subqueue fails
    Given a subqueue "held" of "inbox"
    And "inbox" holds "m1" and "m2"
    And "inbox;held" is opened for move as "to-held"
    When the client moves "m1" from "h" to "to-held" without a transaction
    And the client <verb> "m1" by lookup id with <action> on "h"
    Then by D-05 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (not-found) or MQ_ERROR_MESSAGE_ALREADY_RECEIVED (already-received)
    And no message is returned
    And "inbox" holds "m2"
    And "inbox;held" holds "m1"

    Examples:
      | verb     | action                    |
      | peeks    | MQ_LOOKUP_PEEK_CURRENT    |
      | receives | MQ_LOOKUP_RECEIVE_CURRENT |

  @clause:MS-MQDMPR:3.1.7.3.3:02 @clause:MS-MQDMPR:3.1.7.1.13:02
  Scenario Outline: Peeking by lookup id at a locked message needs the message to allow it
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | <allowed>        |
    When the client starts a lookup receive of "m1" with MQ_LOOKUP_RECEIVE_CURRENT on "h" as "r"
    And the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the call returns <status>

    Examples:
      | allowed | status                     |
      | yes     | MQ_OK                      |
      | no      | MQ_ERROR_TRANSACTION_USAGE |

  @clause:MS-MQDMPR:3.1.7.3.3:02
  Scenario: A locked message that allows peeks is returned by a current lookup peek
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | yes              |
    When the client starts a lookup receive of "m1" with MQ_LOOKUP_RECEIVE_CURRENT on "h" as "r"
    And the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.1.7.1.13:02
  Scenario Outline: A receive by lookup id of a locked message reports MQ_ERROR_MESSAGE_NOT_FOUND, even if peeks are allowed
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | <allowed>        |
    When the client starts a lookup receive of "m1" with MQ_LOOKUP_RECEIVE_CURRENT on "h" as "r"
    And the client receives "m1" by lookup id with MQ_LOOKUP_RECEIVE_CURRENT on "h"
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND

    Examples:
      | allowed |
      | yes     |
      | no      |

  @clause:MS-MQDMPR:3.1.7.3.2:01
  Scenario Outline: A forward seek skips locked messages, except for a peek at one that allows it
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | no               |
      | m2    | <allowed>        |
      | m3    | no               |
    When the client starts a lookup receive of "m2" with MQ_LOOKUP_RECEIVE_CURRENT on "h" as "r"
    And <read>
    Then the message returned is "<found>"

    Examples:
      | allowed | read                                                                                  | found |
      | no      | the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_NEXT on "h"                    | m3    |
      | yes     | the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_NEXT on "h"                    | m2    |
      | no      | the client starts a lookup receive of "m1" with MQ_LOOKUP_RECEIVE_NEXT on "h" as "r2" | m3    |
      | yes     | the client starts a lookup receive of "m1" with MQ_LOOKUP_RECEIVE_NEXT on "h" as "r2" | m3    |

  # A cursor seeks forward the same way: its peeks may stop on "m2", locked by "r", its receives never.
  @clause:MS-MQDMPR:3.1.7.3.2:01
  Scenario Outline: A cursor's forward seek skips locked messages, except for a peek at one that allows it
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | no               |
      | m2    | <allowed>        |
      | m3    | no               |
    And cursor "c" is created on "h"
    When the client starts a lookup receive of "m2" with MQ_LOOKUP_RECEIVE_CURRENT on "h" as "r"
    And cursor "c" <read>
    Then the message returned is "m1"
    When cursor "c" <read again>
    Then the message returned is "<found>"

    Examples:
      | allowed | read                      | read again             | found |
      | no      | peeks the current message | peeks the next message | m3    |
      | yes     | peeks the current message | peeks the next message | m2    |
      | no      | receives                  | receives               | m3    |
      | yes     | receives                  | receives               | m3    |

  @clause:MS-MQDMPR:3.1.7.3.2:01
  Scenario: A forward seek from the start of the queue includes its first message
    Given "inbox" holds "m1" and "m2"
    When the client peeks at "h"
    Then the message returned is "m1"
    When the client receives from "h"
    Then the message returned is "m1"

  @clause:MS-MQDMPR:3.1.7.3.2:01
  Scenario: A forward seek from the start skips a locked first message
    Given "inbox" holds "m1" and "m2"
    When the client starts a lookup receive of "m1" with MQ_LOOKUP_RECEIVE_CURRENT on "h" as "r"
    And the client peeks at "h"
    Then the message returned is "m2"

  @clause:MS-MQDMPR:3.1.7.3.2:02
  Scenario Outline: A backward seek skips locked messages the same way
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | m1    | no               |
      | m2    | <allowed>        |
      | m3    | no               |
    When the client starts a lookup receive of "m2" with MQ_LOOKUP_RECEIVE_CURRENT on "h" as "r"
    And <read>
    Then the message returned is "<found>"

    Examples:
      | allowed | read                                                                                  | found |
      | no      | the client peeks "m3" by lookup id with MQ_LOOKUP_PEEK_PREV on "h"                    | m1    |
      | yes     | the client peeks "m3" by lookup id with MQ_LOOKUP_PEEK_PREV on "h"                    | m2    |
      | no      | the client starts a lookup receive of "m3" with MQ_LOOKUP_RECEIVE_PREV on "h" as "r2" | m1    |
      | yes     | the client starts a lookup receive of "m3" with MQ_LOOKUP_RECEIVE_PREV on "h" as "r2" | m1    |

  # Only Locked is excepted: "held" is PurgePending (purged while "r" holds it) and a peek passes it
  # whichever way it seeks, although it allows peeks when locked.
  @clause:MS-MQDMPR:3.1.7.3.2:01 @clause:MS-MQDMPR:3.1.7.3.2:02
  Scenario Outline: A seek for a peek passes over a message marked for purging that allows peeks (<way>)
    Given these messages were sent to "inbox":
      | label | peek when locked |
      | held  | yes              |
    When the client starts a receive on "h" as "r"
    And the client purges the queue through "h"
    And message "later" is sent to "inbox"
    And message "early" is sent to "inbox" with:
      | priority | 7 |
    And the client peeks "<from>" by lookup id with <action> on "h"
    Then the message returned is "<found>"

    Examples:
      | way      | from  | action              | found |
      | forward  | early | MQ_LOOKUP_PEEK_NEXT | later |
      | backward | later | MQ_LOOKUP_PEEK_PREV | early |

  @clause:MS-MQDMPR:3.1.7.3.2:02 @decision:D-04
  Scenario: A backward seek follows the order of the queue, not the order of arrival
    Given these messages were sent to "inbox":
      | label | priority |
      | low   | 1        |
      | high  | 6        |
    When the client peeks "low" by lookup id with MQ_LOOKUP_PEEK_PREV on "h"
    Then the message returned is "high"
    When the client peeks "high" by lookup id with MQ_LOOKUP_PEEK_PREV on "h"
    Then by D-04 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (not-found) or any other failure (other-failure)
    And no message is returned

  @clause:MS-MQDMPR:3.1.7.1.13:03
  Scenario Outline: A lookup receive locks the message for a two-phase read
    Given these messages were sent to "inbox":
      | label | acknowledgements                      | admin queue |
      | m1    | none                                  |             |
      | m2    | positive receive and negative receive | admin       |
      | m3    | none                                  |             |
    When the client starts a lookup receive of "<from>" with <action> on "h" as "r"
    Then the message returned is "m2"
    And "inbox" holds "m1" and "m3"
    When the client ends "r" with <ack>
    Then "inbox" holds <held>
    And the acknowledgments of "m2" in "admin" are <acknowledgments>

    Examples:
      | from | action                    | ack     | held                | acknowledgments         |
      | m2   | MQ_LOOKUP_RECEIVE_CURRENT | RR_ACK  | "m1" and "m3"       | MQMSG_CLASS_ACK_RECEIVE |
      | m1   | MQ_LOOKUP_RECEIVE_NEXT    | RR_ACK  | "m1" and "m3"       | MQMSG_CLASS_ACK_RECEIVE |
      | m3   | MQ_LOOKUP_RECEIVE_PREV    | RR_NACK | "m1", "m2" and "m3" | none                    |

  @clause:MS-MQDMPR:3.1.7.1.13:03
  Scenario Outline: A lookup receive inside a transaction locks the message until the transaction decides
    Given a transactional queue "ledger"
    And these messages were committed to "ledger":
      | label | acknowledgements                      | admin queue |
      | m1    | positive receive and negative receive | admin       |
      | m2    | none                                  |             |
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When the client starts a lookup receive of "m1" with MQ_LOOKUP_RECEIVE_CURRENT on "l" in transaction "t" as "r"
    Then the message returned is "m1"
    And "ledger" holds "m2"
    When transaction "t" is <outcome>
    Then "ledger" holds <held>
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | outcome   | held          | acknowledgments         |
      | committed | "m2"          | MQMSG_CLASS_ACK_RECEIVE |
      | aborted   | "m1" and "m2" | none                    |
