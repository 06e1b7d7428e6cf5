Feature: MS-MQQB 3.1.7.2.1 Administration Acknowledgment
  When a message leaves its destination queue the reason decides the acknowledgment: a
  receive answers positive receive requests, any other removal negative receive ones.

  Background:
    Given a queue "orders"
    And a queue "admin"

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: A receive sends ACK_RECEIVE only to a sender that asked for positive receive acknowledgments
    Given message "m1" is sent to "orders" with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client receives from "h"
    Then the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks                                  | acknowledgments         |
      | positive receive                      | MQMSG_CLASS_ACK_RECEIVE |
      | full receive                          | MQMSG_CLASS_ACK_RECEIVE |
      | positive receive and negative receive | MQMSG_CLASS_ACK_RECEIVE |
      | negative receive                      | none                    |
      | nack receive                          | none                    |
      | negative arrival                      | none                    |

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: A purge sends NACK_Q_PURGED only to a sender that asked for negative receive acknowledgments
    Given message "m1" is sent to "orders" with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client purges the queue through "h"
    Then "orders" holds nothing
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks             | acknowledgments           |
      | negative receive | MQMSG_CLASS_NACK_Q_PURGED |
      | nack receive     | MQMSG_CLASS_NACK_Q_PURGED |
      | full receive     | MQMSG_CLASS_NACK_Q_PURGED |
      | positive receive | none                      |
      | negative arrival | none                      |

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: Deleting the queue sends NACK_Q_DELETED only to a sender that asked for negative receive acknowledgments
    Given message "m1" is sent to "orders" with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When queue "orders" is deleted
    Then the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks             | acknowledgments            |
      | negative receive | MQMSG_CLASS_NACK_Q_DELETED |
      | full receive     | MQMSG_CLASS_NACK_Q_DELETED |
      | positive receive | none                       |

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: Expiry in the queue sends NACK_RECEIVE_TIMEOUT only to a sender that asked for negative receive acknowledgments
    Given message "m1" is sent to "orders" with:
      | acknowledgements    | <acks> |
      | admin queue         | admin  |
      | time to be received | 5      |
    When 6 seconds pass
    Then "orders" holds nothing
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks             | acknowledgments                  |
      | negative receive | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |
      | full receive     | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |
      | positive receive | none                             |

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario: A message that stays in its queue raises no removal acknowledgment
    Given message "m1" is sent to "orders" with:
      | acknowledgements    | full receive |
      | admin queue         | admin        |
      | time to be received | 60           |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client peeks at "h"
    And 30 seconds pass
    Then "orders" holds "m1"
    And "admin" holds nothing

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario: A two-phase receive ended with RR_NACK puts the message back and sends nothing
    Given message "m1" is sent to "orders" with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client starts a receive on "h" as "r"
    And the client ends "r" with RR_NACK
    Then "orders" holds "m1"
    And "admin" holds nothing

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: A receive rejected with R_SetUserAcknowledgementClass and committed sends NACK_RECEIVE_REJECTED
    Given a transactional queue "ledger"
    And message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    And the prepared message "m1" reaches "ledger" in transaction "load"
    And transaction "load" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client begins transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And the client sets the acknowledgement class of "m1" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    And transaction "t" is committed
    Then "ledger" holds nothing
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks             | acknowledgments                   |
      | negative receive | MQMSG_CLASS_NACK_RECEIVE_REJECTED |
      | nack receive     | MQMSG_CLASS_NACK_RECEIVE_REJECTED |
      | positive receive | none                              |

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario: A rejected receive whose transaction aborts puts the message back and sends nothing
    Given a transactional queue "ledger"
    And message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
    And the prepared message "m1" reaches "ledger" in transaction "load"
    And transaction "load" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client begins transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And the client sets the acknowledgement class of "m1" on "h" to MQMSG_CLASS_NACK_RECEIVE_REJECTED
    And transaction "t" is aborted
    Then "ledger" holds "m1"
    And "admin" holds nothing

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario: A receive committed without a rejection sends ACK_RECEIVE
    Given a transactional queue "ledger"
    And message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
    And the prepared message "m1" reaches "ledger" in transaction "load"
    And transaction "load" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client begins transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And transaction "t" is committed
    Then the acknowledgments of "m1" in "admin" are MQMSG_CLASS_ACK_RECEIVE

  @clause:MS-MQQB:3.1.7.2.1:02
  Scenario Outline: The acknowledgment of a removal is as recoverable as the message it answers
    Given message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
      | delivery         | <delivery>   |
    When the prepared message "m1" <removal>
    Then the acknowledgments of "m1" in "admin" are <class>
    And the acknowledgment's delivery is <delivery>

    Examples:
      | removal                   | delivery    | class                            |
      | is received from "orders" | express     | MQMSG_CLASS_ACK_RECEIVE          |
      | is received from "orders" | recoverable | MQMSG_CLASS_ACK_RECEIVE          |
      | is purged from "orders"   | express     | MQMSG_CLASS_NACK_Q_PURGED        |
      | is purged from "orders"   | recoverable | MQMSG_CLASS_NACK_Q_PURGED        |
      | expires in "orders"       | express     | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |
      | expires in "orders"       | recoverable | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |

  @clause:MS-MQQB:3.1.7.2.1:02
  Scenario Outline: Only the acknowledgment of a recoverable message survives a restart
    Given message "m1" is prepared with:
      | acknowledgements | positive receive |
      | admin queue      | admin            |
      | delivery         | <delivery>       |
    When the prepared message "m1" is received from "orders"
    And the queue manager restarts
    Then the acknowledgments of "m1" in "admin" are <after restart>

    Examples:
      | delivery    | after restart           |
      | recoverable | MQMSG_CLASS_ACK_RECEIVE |
      | express     | none                    |

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: A message purged while a two-phase receive holds it is reported as purged, however the receive ends
    Given message "m1" is sent to "orders" with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders" is opened with RECEIVE_ACCESS as "h2"
    When the client starts a receive on "h" as "r"
    And the client purges the queue through "h2"
    And the client ends "r" with <ack>
    Then "orders" holds nothing
    And the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_Q_PURGED

    Examples:
      | ack     |
      | RR_ACK  |
      | RR_NACK |

  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario: A message that expires while a two-phase receive holds it is reported as timed out, not as received
    Given message "m1" is sent to "orders" with:
      | acknowledgements    | full receive |
      | admin queue         | admin        |
      | time to be received | 5            |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client starts a receive on "h" as "r"
    And 6 seconds pass
    And the client ends "r" with RR_ACK
    Then "orders" holds nothing
    And the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_RECEIVE_TIMEOUT

  # D-16: the abort of a receive whose message was purged meanwhile deletes it as purged.
  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: A message purged while a transaction holds it is reported by how the transaction ends
    Given a transactional queue "ledger"
    And message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
    And the prepared message "m1" reaches "ledger" in transaction "load"
    And transaction "load" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger" is opened with RECEIVE_ACCESS as "h2"
    And the client begins transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And the client purges the queue through "h2"
    And transaction "t" is <outcome>
    Then "ledger" holds nothing
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | outcome   | acknowledgments           |
      | aborted   | MQMSG_CLASS_NACK_Q_PURGED |
      | committed | MQMSG_CLASS_ACK_RECEIVE   |

  # D-24: a purge catches a message whose enqueue is not committed yet; the commit removes it as
  # purged (purged) or, as Transaction Commit reads literally, makes it available (survives).
  @clause:MS-MQQB:3.1.7.2.1:01 @decision:D-24
  Scenario Outline: A message purged before its sending transaction ends is reported as purged only if it is committed
    Given a transactional queue "ledger"
    And message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    When the prepared message "m1" reaches "ledger" in transaction "t"
    And the client purges the queue through "h"
    And transaction "t" is <outcome>
    Then by D-24 "ledger" holds nothing (purged) or <survivor> (survives)
    And by D-24 the acknowledgments of "m1" in "admin" are <acknowledgments> (purged) or none (survives)

    Examples:
      | outcome   | survivor | acknowledgments           |
      | committed | "m1"     | MQMSG_CLASS_NACK_Q_PURGED |
      | aborted   | nothing  | none                      |

  # D-25: a message that expired while a transaction held it does not come back on abort.
  @clause:MS-MQQB:3.1.7.2.1:01
  Scenario Outline: A message that expires while a transaction holds it is reported by how the transaction ends
    Given a transactional queue "ledger"
    And message "m1" is prepared with:
      | acknowledgements    | full receive |
      | admin queue         | admin        |
      | time to be received | 5            |
    And the prepared message "m1" reaches "ledger" in transaction "load"
    And transaction "load" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client begins transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | ulAction          |
      | MQ_ACTION_RECEIVE |
    And the client ends transactional "r" with RR_ACK
    And 6 seconds pass
    And transaction "t" is <outcome>
    Then "ledger" holds nothing
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | outcome   | acknowledgments                  |
      | aborted   | MQMSG_CLASS_NACK_RECEIVE_TIMEOUT |
      | committed | MQMSG_CLASS_ACK_RECEIVE          |

  # D-28: a journal or dead-letter copy asks for nothing (inert), or keeps the acknowledgments its
  # original asked for (verbatim), which its removal then raises.  Both copies here are made under
  # every reading of D-26: a received message is journaled, one too late for its queue dead-lettered.
  @clause:MS-MQQB:3.1.7.2.1:01 @decision:D-28
  Scenario Outline: Removing the copy a message left in <copies> raises no further acknowledgment, or the ones it asked for
    Given message "m1" is prepared with:
      | acknowledgements | full receive |
      | admin queue      | admin        |
      | journal          | yes          |
      | dead letter      | yes          |
    And the prepared message "m1" <event>
    And "<copies>" is opened with RECEIVE_ACCESS as "copies"
    When the client receives from "copies"
    Then the message returned is "m1"
    And "<copies>" holds nothing
    And by D-28 the acknowledgments of "m1" in "admin" are <inert> (inert) or <verbatim> (verbatim)

    Examples:
      | copies                | event                     | inert                                | verbatim                                                     |
      | the system journal    | is received from "orders" | MQMSG_CLASS_ACK_RECEIVE              | MQMSG_CLASS_ACK_RECEIVE and MQMSG_CLASS_ACK_RECEIVE          |
      | the dead-letter queue | reaches "orders" too late | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT and MQMSG_CLASS_ACK_RECEIVE |
