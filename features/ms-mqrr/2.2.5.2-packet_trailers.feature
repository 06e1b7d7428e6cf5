Feature: MS-MQRR 2.2.5.2 - 2.2.5.5 ExtensionHeader, SubqueueHeader, DeadLetterHeader and ExtendedAddressHeader
  Every returned packet ends with an ExtensionHeader announcing the trailers that follow: a
  SubqueueHeader, a DeadLetterHeader when the message names its own, and the sender's address.

  Background:
    Given a queue "orders"
    And "orders" is opened with PEEK_ACCESS as "h"

  @clause:MS-MQRR:2.2.5.2:01 @clause:MS-MQRR:2.2.5.2:02 @clause:MS-MQRR:2.2.5.2:03 @clause:MS-MQRR:2.2.5.2:04
  @clause:MS-MQRR:2.2.5.2:05 @clause:MS-MQRR:2.2.5.4:01 @clause:MS-MQRR:2.2.5.4:02
  Scenario Outline: The ExtensionHeader announces exactly the trailer headers that follow (<shape>)
    Given a queue "dl"
    And a queue "dlq"
    And message "m1" is sent to "orders" carrying:
      | body             | <body> |
      | dead-letter path | <path> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | ExtensionHeader flag DL | <DL>   |
      | ExtensionHeader flag SQ | 1      |
      | ExtensionHeader flag EA | 1      |
      | ExtensionHeader flag DI | 0      |
      | dead-letter path        | <seen> |

    Examples:
      | shape                      | body | path                              | DL | seen                              |
      | no dead-letter queue       | x    |                                   | 0  | none                              |
      | dead-letter path of one parity | xy | {computer}\private$\{name of dl}  | 1  | {computer}\private$\{name of dl}  |
      | dead-letter path of the other  | xyz | {computer}\private$\{name of dlq} | 1  | {computer}\private$\{name of dlq} |

  @clause:MS-MQRR:2.2.5.2:01 @clause:MS-MQRR:2.2.5.2:02 @clause:MS-MQRR:2.2.5.4:01 @clause:MS-MQRR:2.2.5.4:02
  Scenario: A dead-letter path survives a body that is not sent in full
    Given a queue "dlq"
    And message "m1" is sent to "orders" carrying:
      | body size        | 101                               |
      | dead-letter path | {computer}\private$\{name of dlq} |
    When the client peeks at "h" with at most 10 body bytes
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | ExtensionHeader flag DL | 1                                 |
      | dead-letter path        | {computer}\private$\{name of dlq} |
      | body bytes returned     | 10                                |

  @clause:MS-MQRR:2.2.5.2:04
  Scenario: A dead-letter queue named by something that is not a path name is flagged invalid
    Given message "m1" is sent to "orders" carrying:
      | dead-letter path | no queue at all |
    When the client peeks at "h"
    Then the returned packet shows:
      | ExtensionHeader flag DL | 1 |
      | ExtensionHeader flag DI | 1 |

  @clause:MS-MQRR:2.2.5.3:02 @clause:MS-MQRR:2.2.5.3:03 @clause:MS-MQRR:2.2.5.3:04 @clause:MS-MQRR:2.2.5.3:05
  Scenario: A message in its queue has no subqueue names and the normal acknowledgment class
    Given "orders" holds "m1"
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | subqueue name        | none               |
      | AcknowledgementClass | MQMSG_CLASS_NORMAL |
    And the returned packet has TargetSubqueueName all zeros

  @clause:MS-MQRR:2.2.5.3:04 @clause:MS-MQRR:2.2.5.3:05
  Scenario: A message moved into a subqueue names that subqueue
    Given a subqueue "sub" of "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "r"
    And "orders;sub" is opened for move as "mv"
    When the client moves "m1" from "r" through the move context of "mv"
    And "orders;sub" is opened with PEEK_ACCESS as "s"
    And the client peeks at "s"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | subqueue name | sub |
    And the returned packet has TargetSubqueueName all zeros

  @clause:MS-MQRR:2.2.5.3:05
  Scenario Outline: A pending transacted move names its target subqueue until the transaction ends (<outcome>)
    Given a transactional queue "tq"
    And a subqueue "sub" of "tq"
    And the client begins transaction "t0"
    And message "m1" is sent to "tq" carrying:
      | peek when locked | yes |
      | transaction      | t0  |
    And transaction "t0" is committed
    And "tq" is opened with RECEIVE_ACCESS as "r"
    And "tq;sub" is opened for move as "mv"
    And the client begins transaction "t1"
    When the client moves "m1" from "r" through the move context of "mv" inside transaction "t1"
    Then the call returns MQ_OK
    When the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "r"
    Then the returned packet follows every layout rule
    And the returned packet has TargetSubqueueName "sub"
    And the returned packet shows:
      | subqueue name | none |
    When transaction "t1" is <outcome>
    And every message in "<where>" is peeked
    Then the packet of "m1" follows every layout rule
    And the packet of "m1" has TargetSubqueueName all zeros
    And the packet of "m1" shows:
      | subqueue name | <subqueue> |

    Examples:
      | outcome   | where  | subqueue |
      | committed | tq;sub | sub      |
      | aborted   | tq     | none     |

  # The message is in a subqueue (where the header is not to be ignored) before the counting starts, so
  # whether a move resets the count does not matter here.
  @clause:MS-MQRR:2.2.5.3:06
  Scenario: Each abort of a transaction that received the message adds one to its AbortCounter
    Given a transactional queue "tq"
    And a subqueue "sub" of "tq"
    And the client begins transaction "t0"
    And message "m1" is sent to "tq" carrying:
      | transaction | t0 |
    And transaction "t0" is committed
    And "tq" is opened with RECEIVE_ACCESS as "r"
    And "tq;sub" is opened for move as "mv"
    And the client begins transaction "t1"
    When the client moves "m1" from "r" through the move context of "mv" inside transaction "t1"
    And transaction "t1" is committed
    And "tq;sub" is opened with RECEIVE_ACCESS as "s"
    And the client peeks at "s"
    Then the returned message's SubqueueHeader has AbortCount 0
    When the client begins transaction "t2"
    And the client takes the front message of "s" in transaction "t2" as "first"
    Then the message returned is "m1"
    When the client ends transactional "first" with RR_ACK
    And transaction "t2" is aborted
    And the client peeks at "s"
    Then the returned message's SubqueueHeader has AbortCount 1
    When the client begins transaction "t3"
    And the client takes the front message of "s" in transaction "t3" as "second"
    Then the message returned is "m1"
    When the client ends transactional "second" with RR_ACK
    And transaction "t3" is aborted
    And the client peeks at "s"
    Then the returned message's SubqueueHeader has AbortCount 2
    And the returned message's SubqueueHeader has MoveCount 1

  @clause:MS-MQRR:2.2.5.3:03
  Scenario: A message rejected inside a transaction carries the rejection as its acknowledgment class
    Given a transactional queue "tq"
    And the client begins transaction "t0"
    And message "m1" is sent to "tq" carrying:
      | peek when locked | yes |
      | transaction      | t0  |
    And transaction "t0" is committed
    And "tq" is opened with RECEIVE_ACCESS as "r"
    And the client begins transaction "t1"
    When R_StartTransactionalReceive is called on "r" in transaction "t1" with:
      | ulAction          | ulTimeout |
      | MQ_ACTION_RECEIVE | 0         |
    Then the message returned is "m1"
    When the client sets the acknowledgement class of "m1" on "r" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    Then the call returns MQ_OK
    When the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "r"
    Then the returned packet shows:
      | AcknowledgementClass | MQMSG_CLASS_NACK_RECEIVE_REJECTED |

  @clause:MS-MQRR:2.2.5.5:02
  Scenario Outline: The ExtendedAddressHeader holds an address in the format its type names (<shape>)
    Given message "m1" is sent to "<destination>" carrying:
      | body     | <body>     |
      | delivery | <delivery> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet has an ExtendedAddressHeader in the format of its AddressType

    Examples:
      | shape                 | destination                                    | body | delivery    |
      | queue by number       | orders                                         | a    | express     |
      | queue by direct name  | DIRECT=OS:{computer}\private$\{name of orders} | ab   | recoverable |
