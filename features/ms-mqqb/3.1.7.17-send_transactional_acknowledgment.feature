Feature: MS-MQQB 3.1.7.17 Send Transactional Acknowledgment
  OrderAcks and FinalAcks go to the order queue of the queue manager that sent the message: its
  private queue 4, named by its GUID, or, once the session carried a UserMessage addressed by a direct
  format name, TCP:<its address>\PRIVATE$\order_queue$. The suite plays the sending queue manager.

  Background:
    Given a transactional queue "ledger"
    And a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target

  @clause:MS-MQQB:3.1.7.17:01 @clause:MS-MQQB:3.1.5.8.6:02 @decision:D-76
  Scenario: The OrderAck for a message sent by the queue's direct name goes to the sender's order queue by address
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "ledger" by its direct name with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "ledger" holds "t1"
    And "remote" received an OrderAck for "t1"

  @clause:MS-MQQB:3.1.7.17:01 @decision:D-76
  Scenario: The FinalAck refusing a message sent by a direct name goes to the sender's order queue by address
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "orders" by its direct name with packet fields:
      | TH | 1 |
    Then "remote" received a FinalAck of class MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q for "t1"

  @clause:MS-MQQB:3.1.7.17:01 @decision:D-76
  Scenario: The FinalAck refusing a message sent by the target's name for the queue goes to private queue 4 of the sender
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "orders" with packet fields:
      | TH | 1 |
    Then "remote" received a FinalAck of class MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q for "t1"

  # DirectFormatSession is set in the general processing of a UserMessage (3.1.5.8.2). An OrderAck or FinalAck the
  # peer addresses to the target's order_queue$ by a direct name (2.2.4, 2.2.5: DQ 7) goes to 3.1.5.6 or 3.1.5.7,
  # which do not set it: the OrderAck for a message sent after it by the target's name for the queue still names
  # private queue 4 of the sender.
  @clause:MS-MQQB:3.1.5.8.2:05 @clause:MS-MQQB:3.1.7.17:01 @decision:D-76
  Scenario Outline: An <kind> the peer sends by a direct name leaves the target's OrderAcks addressed by the sender's GUID
    Given a queue name "order queue" for the format name "DIRECT=OS:{computer}\private$\order_queue$"
    And message "QM Ordering Ack" is prepared with:
      | body     | 0123456789abcdef0123456789abcdef0123 |
      | class    | <class>                              |
      | priority | 0                                    |
      | delivery | <delivery>                           |
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "QM Ordering Ack" to "order queue" by its direct name with packet fields:
      | DQ | 7 |
    And "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 2000 ms for the target's packets
    Then "ledger" holds "t1"
    And "remote" received an OrderAck for "t1"
    And the session of "remote" is still open

    Examples:
      | kind     | class  | delivery    |
      | OrderAck | 0x00FF | express     |
      | FinalAck | 0x4000 | recoverable |
