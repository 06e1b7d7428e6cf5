Feature: MS-MQQB 3.1.7.15 Send Administration Acknowledgment
  How an acknowledgment message is built from the message it answers: its class, its
  correlation and response queue, its delivery, its body, and where it is sent.

  Background:
    Given a queue "orders"
    And a queue "small" with a quota of 1 KB
    And a transactional queue "ledger"
    And a queue "admin"

  @clause:MS-MQQB:3.1.7.15:06
  Scenario Outline: The acknowledgment's class is the class it was raised with
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" <event>
    Then the acknowledgments of "m1" in "admin" are <class>

    Examples: every class the Target can raise
      | acks             | event                                     | class                                  |
      | positive arrival | reaches "orders"                          | MQMSG_CLASS_ACK_REACH_QUEUE            |
      | positive receive | is received from "orders"                 | MQMSG_CLASS_ACK_RECEIVE                |
      | negative arrival | reaches "orders" too late                 | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT   |
      | negative arrival | overflows the quota of "small"            | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA        |
      | negative arrival | reaches "orders" in transaction "t"       | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q   |
      | negative arrival | reaches "ledger" outside a transaction    | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG |
      | negative receive | is in "orders" when that queue is deleted | MQMSG_CLASS_NACK_Q_DELETED             |
      | negative receive | is purged from "orders"                   | MQMSG_CLASS_NACK_Q_PURGED              |
      | negative receive | expires in "orders"                       | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT       |
      | negative receive | is rejected from "ledger"                 | MQMSG_CLASS_NACK_RECEIVE_REJECTED      |

  # The classes a packet that arrives on an MS-MQQB session can raise on arrival (MS-MQQB 3.1.5.8.2 - 3.1.5.8.10),
  # the suite playing the sending queue manager.
  @clause:MS-MQQB:3.1.7.15:06
  Scenario Outline: A packet from another queue manager is acknowledged with the class its arrival raised (<fate>)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | acknowledgements    | <acks>  |
      | admin queue         | admin   |
      | body size           | <size>  |
      | sent                | <sent>  |
      | time to reach queue | 60      |
    When "remote" sends the prepared message "m1" to "<queue>" with packet fields:
      | TH | <th> |
    And "remote" waits 1000 ms for the target's packets
    Then the acknowledgments of "m1" in "admin" are <class>
    And the session of "remote" is still open

    Examples:
      | fate                                 | acks             | size | sent            | queue  | th | class                                  |
      | delivered                            | positive arrival | 10   | 5 seconds ago   | orders | 0  | MQMSG_CLASS_ACK_REACH_QUEUE            |
      | delivered, no positive one asked for | negative arrival | 10   | 5 seconds ago   | orders | 0  | none                                   |
      | too late to reach its queue          | negative arrival | 10   | 600 seconds ago | orders | 0  | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT   |
      | over its queue's quota               | negative arrival | 2000 | 5 seconds ago   | small  | 0  | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA        |
      | over its quota, only receipt acks    | negative receive | 2000 | 5 seconds ago   | small  | 0  | none                                   |
      | over its quota, all acks             | full reach queue | 2000 | 5 seconds ago   | small  | 0  | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA        |
      | transactional, for a plain queue     | negative arrival | 10   | 5 seconds ago   | orders | 1  | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q   |
      | plain, for a transactional queue     | negative arrival | 10   | 5 seconds ago   | ledger | 0  | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG |

  # NACK_BAD_DST_Q is an insecure class: it is sent only when SendInsecureNacks is TRUE,
  # which is not its default and which no scenario can switch on through the Target.
  @clause:MS-MQQB:3.1.7.15:06 @decision:D-68
  Scenario: The insecure NACK_BAD_DST_Q class is not sent while SendInsecureNacks keeps its default
    Given no queue "ghost" exists
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When the prepared message "m1" reaches "ghost"
    Then the send is refused with MQ_ERROR_QUEUE_NOT_FOUND
    And the acknowledgments of "m1" in "admin" are none

  @clause:MS-MQQB:3.1.7.15:01
  Scenario Outline: A message that names no administration queue is answered by nobody
    Given a queue "replies"
    And message "m1" is prepared with:
      | response queue | replies |
      | dead letter    | no      |
    When the prepared message "m1" <event>
    Then "replies" holds nothing
    And "admin" holds nothing

    Examples:
      | event                          |
      | reaches "orders"               |
      | is received from "orders"      |
      | is purged from "orders"        |
      | expires in "orders"            |
      | reaches "orders" too late      |
      | overflows the quota of "small" |

  # D-59: the set-up send may refuse a message that asks for acknowledgments without naming an
  # administration queue (refuse); one that takes it (accept) must then answer it to nobody.
  @clause:MS-MQQB:3.1.7.15:01 @decision:D-59
  Scenario: A message that asks for acknowledgments without naming an administration queue is refused, or answered by nobody
    Given "orders" is opened with RECEIVE_ACCESS as "r"
    When message "m1" is sent to "orders" with:
      | acknowledgements | full receive |
    Then by D-59 the send is refused with MQ_ERROR_ILLEGAL_PROPERTY_VALUE (refuse) or accepted (accept)
    When the client receives from "r"
    Then by D-59 the client received "m1", with no acknowledgment bits, (accept) or nothing (refuse)
    And no queue holds an acknowledgment for "m1"

  # D-64: the acknowledgment is read through R_StartReceive, which rewrites its infinite TimeToReachQueue
  # as SentTime plus it: kept infinite (saturate) or wrapped modulo 2^32 (wrap)
  @clause:MS-MQQB:3.1.7.15:03 @decision:D-64
  Scenario Outline: The acknowledgment asks for nothing and never expires
    Given message "m1" is prepared with:
      | acknowledgements    | <acks> |
      | admin queue         | admin  |
      | time to reach queue | 300    |
      | time to be received | 600    |
      | journal             | yes    |
      | dead letter         | yes    |
    When the prepared message "m1" <event>
    Then the acknowledgments of "m1" in "admin" are <class>
    And the acknowledgment's acknowledgements is none
    And by D-64 the acknowledgment's time to reach queue is INFINITE (saturate) or SentTime + INFINITE modulo 2^32 (wrap)
    And the acknowledgment's time to be received is INFINITE
    And the acknowledgment's journaling is none
    And the acknowledgment's privacy level is none

    Examples:
      | acks             | event                          | class                                |
      | positive arrival | reaches "orders"               | MQMSG_CLASS_ACK_REACH_QUEUE          |
      | positive receive | is received from "orders"      | MQMSG_CLASS_ACK_RECEIVE              |
      | negative receive | is purged from "orders"        | MQMSG_CLASS_NACK_Q_PURGED            |
      | negative receive | expires in "orders"            | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT     |
      | negative arrival | reaches "orders" too late      | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT |
      | negative arrival | overflows the quota of "small" | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA      |

  @clause:MS-MQQB:3.1.7.15:03
  Scenario: An acknowledgment outlives the lifetime of the message it answers
    Given message "m1" is prepared with:
      | acknowledgements    | positive receive |
      | admin queue         | admin            |
      | time to be received | 60               |
    When the prepared message "m1" is received from "orders"
    And 1440 minutes pass
    Then the acknowledgments of "m1" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQQB:3.1.7.15:03
  Scenario: Receiving an acknowledgment raises no acknowledgment of its own
    Given message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
    And the prepared message "m1" is received from "orders"
    And "admin" is opened with RECEIVE_ACCESS as "a"
    When the client receives from "a"
    Then the call returns MQ_OK
    And "admin" holds nothing
    And "orders" holds nothing

  @clause:MS-MQQB:3.1.7.15:04
  Scenario Outline: An acknowledgment whose administration queue cannot be opened for sending is dropped
    Given a queue "gone"
    And queue "gone" is deleted
    And no queue "ghost" exists
    And message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | <admin>      |
    When the prepared message "m1" is received from "orders"
    Then "orders" holds nothing
    And "orders journal" holds nothing
    And "admin" holds nothing

    # A queue's journal is not here: D-30 lets a server take it as an administration queue (below).
    Examples:
      | admin |
      | gone  |
      | ghost |

  # D-30: MS-MQMQ 2.1.7 calls journals read-only (refuse), but Open Queue refuses SendAccess only for
  # machine names, so a server may enqueue the acknowledgment there (accept).
  @clause:MS-MQQB:3.1.7.15:04 @decision:D-30
  Scenario: An acknowledgment ordered into a queue's journal is dropped, or lands there
    Given message "m1" is prepared with:
      | acknowledgements | full receive   |
      | admin queue      | orders journal |
    When the prepared message "m1" is received from "orders"
    Then "orders" holds nothing
    And "admin" holds nothing
    And by D-30 the acknowledgments of "m1" in "orders journal" are none (refuse) or MQMSG_CLASS_ACK_RECEIVE (accept)

  @clause:MS-MQQB:3.1.7.15:04
  Scenario Outline: An acknowledgment is enqueued like any message, and lost when the quota of its queue cannot hold it
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | small  |
      | body size        | 2000   |
    When the prepared message "m1" <event>
    Then the acknowledgments of "m1" in "small" are <acknowledgments>

    Examples:
      | acks             | event                     | acknowledgments         |
      | positive receive | is received from "orders" | MQMSG_CLASS_ACK_RECEIVE |
      | negative receive | is purged from "orders"   | none                    |

  @clause:MS-MQQB:3.1.7.15:04
  Scenario: An acknowledgment is enqueued like any message and wakes a reader waiting on its queue
    Given message "m1" is prepared with:
      | acknowledgements | positive receive |
      | admin queue      | admin            |
    And "admin" is opened with RECEIVE_ACCESS as "a"
    When in the background, the client peeks at "a" with a time-out of 5000 ms as "r"
    And the prepared message "m1" is received from "orders"
    And the background call "r" completes
    Then the call returns MQ_OK
    And the message returned is an acknowledgment of "m1" with class MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQQB:3.1.7.15:05
  Scenario Outline: The acknowledgment points back at the message it answers and at that message's queue
    Given message "m0" is sent to "<queue>" with:
      | priority         | 0    |
      | acknowledgements | none |
    And message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" <event>
    Then the only message in "admin" has class <class>
    And the acknowledgment's correlation id is the identifier of "m1"
    And the acknowledgment's response queue is "<queue>"

    Examples:
      | queue  | acks             | event                                  | class                                  |
      | orders | positive arrival | reaches "orders"                       | MQMSG_CLASS_ACK_REACH_QUEUE            |
      | orders | positive receive | is received from "orders"              | MQMSG_CLASS_ACK_RECEIVE                |
      | orders | negative receive | is purged from "orders"                | MQMSG_CLASS_NACK_Q_PURGED              |
      | orders | negative receive | expires in "orders"                    | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT       |
      | orders | negative arrival | reaches "orders" too late              | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT   |
      | small  | negative arrival | overflows the quota of "small"         | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA        |
      | ledger | negative arrival | reaches "ledger" outside a transaction | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG |

  @clause:MS-MQQB:3.1.7.15:05
  Scenario: The response queue of the acknowledgment is the name the message was sent to
    Given "orders" is also known by its direct format name as "orders by name"
    And message "m1" is prepared with:
      | acknowledgements | positive receive |
      | admin queue      | admin            |
    When the prepared message "m1" is received from "orders by name"
    Then the only message in "admin" has class MQMSG_CLASS_ACK_RECEIVE
    And the acknowledgment's correlation id is the identifier of "m1"
    And the acknowledgment's response queue is "orders by name"

  @clause:MS-MQQB:3.1.7.15:07
  Scenario: The acknowledgment goes to the administration queue, not to the response queue
    Given a queue "replies"
    And message "m1" is prepared with:
      | acknowledgements | positive receive |
      | admin queue      | admin            |
      | response queue   | replies          |
    When the prepared message "m1" is received from "orders"
    Then "replies" holds nothing
    And the only message in "admin" has class MQMSG_CLASS_ACK_RECEIVE
    And the acknowledgment's destination queue is "admin"

  @clause:MS-MQQB:3.1.7.15:07
  Scenario Outline: The acknowledgment is addressed with the administration queue name the message carries
    Given "admin" is also known by its direct format name as "admin by name"
    And message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | <name> |
    When the prepared message "m1" <event>
    Then the only message in "admin" has class <class>
    And the acknowledgment's destination queue is "<name>"

    Examples:
      | name          | acks             | event                   | class                       |
      | admin         | positive arrival | reaches "orders"        | MQMSG_CLASS_ACK_REACH_QUEUE |
      | admin by name | positive arrival | reaches "orders"        | MQMSG_CLASS_ACK_REACH_QUEUE |
      | admin by name | negative receive | is purged from "orders" | MQMSG_CLASS_NACK_Q_PURGED   |

  @clause:MS-MQQB:3.1.7.15:08
  Scenario Outline: The acknowledgment keeps the delivery guarantee of the message it answers
    Given message "m1" is prepared with:
      | acknowledgements | <acks>     |
      | admin queue      | admin      |
      | delivery         | <delivery> |
    When the prepared message "m1" <event>
    Then the acknowledgments of "m1" in "admin" are <class>
    And the acknowledgment's delivery is <delivery>

    Examples:
      | delivery    | acks             | event                                     | class                                |
      | express     | positive arrival | reaches "orders"                          | MQMSG_CLASS_ACK_REACH_QUEUE          |
      | recoverable | positive arrival | reaches "orders"                          | MQMSG_CLASS_ACK_REACH_QUEUE          |
      | express     | negative arrival | reaches "orders" too late                 | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT |
      | recoverable | negative arrival | reaches "orders" too late                 | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT |
      | express     | negative arrival | overflows the quota of "small"            | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA      |
      | recoverable | negative arrival | overflows the quota of "small"            | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA      |
      | express     | negative receive | is in "orders" when that queue is deleted | MQMSG_CLASS_NACK_Q_DELETED           |
      | recoverable | negative receive | is in "orders" when that queue is deleted | MQMSG_CLASS_NACK_Q_DELETED           |

  # The body is left out only for an encrypted message (PrivacyLevel other than None);
  # every message here is unencrypted (the private ones follow this scenario).
  @clause:MS-MQQB:3.1.7.15:09
  Scenario Outline: A negative acknowledgment carries the body of the message it answers, a positive one none
    Given message "m1" is prepared with:
      | acknowledgements | <acks>        |
      | admin queue      | admin         |
      | body             | order 42: tea |
    When the prepared message "m1" <event>
    Then the acknowledgments of "m1" in "admin" are <class>
    And the acknowledgment's body is <body>

    Examples:
      | acks             | event                                     | class                                  | body             |
      | positive arrival | reaches "orders"                          | MQMSG_CLASS_ACK_REACH_QUEUE            | empty            |
      | positive receive | is received from "orders"                 | MQMSG_CLASS_ACK_RECEIVE                | empty            |
      | negative arrival | reaches "orders" too late                 | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT   | "order 42: tea"  |
      | negative arrival | overflows the quota of "small"            | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA        | the body of "m1" |
      | negative arrival | reaches "orders" in transaction "t"       | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q   | "order 42: tea"  |
      | negative arrival | reaches "ledger" outside a transaction    | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG | "order 42: tea"  |
      | negative receive | is in "orders" when that queue is deleted | MQMSG_CLASS_NACK_Q_DELETED             | "order 42: tea"  |
      | negative receive | is purged from "orders"                   | MQMSG_CLASS_NACK_Q_PURGED              | "order 42: tea"  |
      | negative receive | expires in "orders"                       | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT       | "order 42: tea"  |
      | negative receive | is rejected from "ledger"                 | MQMSG_CLASS_NACK_RECEIVE_REJECTED      | "order 42: tea"  |

  # A PrivacyLevel other than None means the sender asked for the body to be encrypted (MS-MQMQ 2.2.19.3).
  @clause:MS-MQQB:3.1.7.15:09
  Scenario Outline: A negative acknowledgment of a private message carries no body (privacy level <level>)
    When message "m1" is sent to "orders" with:
      | acknowledgements    | negative receive |
      | admin queue         | admin            |
      | body                | order 42: tea    |
      | privacy level       | <level>          |
      | time to be received | 1                |
    Then the send is accepted with status 0, or not run if the target refuses privacy level <level>
    When 2 seconds pass
    Then the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    And the acknowledgment's body is empty

    Examples:
      | level |
      | 1     |
      | 3     |
      | 5     |

  @clause:MS-MQQB:3.1.7.15:15
  Scenario: The acknowledgment has the Message defaults for ApplicationTag and BodyType, not the original's
    Given "admin" is opened with PEEK_ACCESS as "a"
    When message "m1" is sent to "orders" carrying:
      | acknowledgements | positive arrival |
      | admin queue      | admin            |
      | application tag  | 7                |
      | body type        | 9                |
    And the client peeks at "a"
    Then the message returned is an acknowledgment of "m1" with class MQMSG_CLASS_ACK_REACH_QUEUE
    And the returned packet shows:
      | application tag | 0 |
      | body type       | 0 |

  # AllowPeekWhenLocked defaults to False (MS-MQDMPR 3.1.1.12): a peek passes over an acknowledgment a receive holds.
  @clause:MS-MQQB:3.1.7.15:15 @clause:MS-MQDMPR:3.1.7.1.15:02
  Scenario: An acknowledgment held by a two-phase receive is not seen by a peek
    Given "admin" is opened with RECEIVE_ACCESS as "a"
    And message "m1" is sent to "orders" with:
      | acknowledgements | positive arrival |
      | admin queue      | admin            |
    And message "m2" is sent to "orders" with:
      | acknowledgements | positive arrival |
      | admin queue      | admin            |
    When the client starts a receive on "a" as "r"
    And the client peeks at "a"
    Then the message returned is an acknowledgment of "m2" with class MQMSG_CLASS_ACK_REACH_QUEUE

  # SendInsecureNacks is a setting of the target (MS-MQQB 3.1.1.3); each scenario runs only
  # against a target whose setting is known to match, and is waived otherwise.
  @clause:MS-MQQB:3.1.7.15:02 @clause:MS-MQQB:3.1.5.8.2:03 @decision:D-68
  Scenario: An insecure NACK is not sent while SendInsecureNacks is FALSE
    Given the target does not send insecure acknowledgments
    And no queue "ghost" exists
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When the prepared message "m1" reaches "ghost"
    Then the send is refused with MQ_ERROR_QUEUE_NOT_FOUND
    And "admin" holds nothing

  @clause:MS-MQQB:3.1.7.15:02 @clause:MS-MQQB:3.1.5.8.2:03 @decision:D-68
  Scenario: An insecure NACK is sent while SendInsecureNacks is TRUE
    Given the target does send insecure acknowledgments
    And no queue "ghost" exists
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When the prepared message "m1" reaches "ghost"
    Then the send is refused with MQ_ERROR_QUEUE_NOT_FOUND
    And by D-68 the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_BAD_DST_Q (refuse+nack) or none (refuse-only)

  # With only a packet at hand (MS-MQQB 3.1.5.8: a UserMessage another queue manager sent and the
  # target refused on arrival), the acknowledgment is built from the packet's fields. The suite
  # plays that queue manager; "ledger" is transactional, so a plain packet for it is refused.
  @clause:MS-MQQB:3.1.7.15:11 @clause:MS-MQQB:3.1.7.15:12
  Scenario Outline: The acknowledgment of a refused packet goes to the queue its AQ <aq> field names
    Given another queue manager "remote" with an MS-MQQB session to the target
    And "admin" is also known by its direct format name as "admin by name"
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | <admin>          |
    When "remote" sends the prepared message "m1" to "ledger" with packet fields:
      | AQ | <aq> |
    Then the acknowledgments of "m1" in "<queue>" are MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG
    And the acknowledgment's destination queue is "<admin>"
    And the acknowledgment's correlation id is the identifier of "m1"

    Examples:
      | aq | admin         | queue        |
      | 3  | admin         | admin        |
      | 6  | admin         | admin        |
      | 7  | admin by name | admin        |

  @clause:MS-MQQB:3.1.7.15:13
  Scenario Outline: The acknowledgment of a refused packet names as response queue the one its DQ field names (<queue>)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And "ledger" is also known by its direct format name as "ledger by name"
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When "remote" sends the prepared message "m1" to "<queue>"
    Then the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG
    And the acknowledgment's response queue is "<queue>"

    Examples: DQ 3 and 7
      | queue          |
      | ledger         |
      | ledger by name |

  @clause:MS-MQQB:3.1.7.15:14
  Scenario Outline: The acknowledgment of a refused packet takes its delivery from DM and its body from the packet (<delivery>)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
      | delivery         | <delivery>       |
      | body             | order 42: tea    |
    When "remote" sends the prepared message "m1" to "ledger"
    Then the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG
    And the acknowledgment's delivery is <delivery>
    And the acknowledgment's body is "order 42: tea"

    Examples:
      | delivery    |
      | express     |
      | recoverable |

  # The refusal comes before the security checks of MS-MQQB 3.1.5.8.3, so the body is never decrypted.
  @clause:MS-MQQB:3.1.7.15:14
  Scenario: The acknowledgment of a refused packet whose body is encrypted carries no body
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
      | body             | 0123456789abcdef |
      | privacy level    | 3                |
    When "remote" sends the prepared message "m1" to "ledger" with packet fields:
      | EB | 1 |
    Then the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG
    And the acknowledgment's body is empty

  # The same refusal for a packet another queue manager sends to a queue that does not exist (by its direct name):
  # NACK_BAD_DST_Q is insecure, so with SendInsecureNacks FALSE no acknowledgment goes to the admin queue.
  @clause:MS-MQQB:3.1.7.15:02 @clause:MS-MQQB:3.1.5.8.2:03
  Scenario: An insecure NACK for a packet from another queue manager is not sent while SendInsecureNacks is FALSE
    Given the target does not send insecure acknowledgments
    And another queue manager "remote" with an MS-MQQB session to the target
    And no queue "ghost" exists
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When "remote" sends the prepared message "m1" to "ghost" by its direct name with packet fields:
      | DQ | 7 |
    And "remote" waits 1000 ms for the target's packets
    Then "admin" holds nothing
    And the session of "remote" is still open
