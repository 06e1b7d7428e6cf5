Feature: MS-MQQB 3.1.5.8.2 General Processing
  A message that reaches this queue manager for one of its own queues is refused when
  its queue does not exist or when message and queue disagree about transactions.

  Background:
    Given a queue "orders"
    And a transactional queue "ledger"
    And a queue "admin"

  @clause:MS-MQQB:3.1.5.8.2:01
  Scenario Outline: A transactional message for a non-transactional queue is refused
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" reaches "orders" in transaction "t"
    Then the send is refused with MQ_ERROR_TRANSACTION_USAGE
    And the acknowledgments of "m1" in "admin" are <acknowledgments>
    And "orders" holds nothing

    Examples:
      | acks                                  | acknowledgments                      |
      | negative arrival                      | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q |
      | negative arrival and negative receive | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q |
      | positive arrival                      | none                                 |
      | negative receive                      | none                                 |
      | none                                  | none                                 |

  @clause:MS-MQQB:3.1.5.8.2:01
  Scenario: A transactional message for a transactional queue is accepted without a negative acknowledgment
    Given message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When the prepared message "m1" reaches "ledger" in transaction "t"
    And transaction "t" is committed
    Then "ledger" holds "m1"
    And the acknowledgments of "m1" in "admin" are none

  @clause:MS-MQQB:3.1.5.8.2:02
  Scenario Outline: A non-transactional message for a transactional queue is refused
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" reaches "ledger" outside a transaction
    Then the send is refused with MQ_ERROR_TRANSACTION_USAGE
    And the acknowledgments of "m1" in "admin" are <acknowledgments>
    And "ledger" holds nothing

    Examples:
      | acks             | acknowledgments                        |
      | negative arrival | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG |
      | full reach queue | MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG |
      | positive arrival | none                                   |
      | negative receive | none                                   |

  @clause:MS-MQQB:3.1.5.8.2:02
  Scenario: A non-transactional message for a non-transactional queue is accepted without a negative acknowledgment
    Given message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When the prepared message "m1" reaches "orders" outside a transaction
    Then the send is accepted with status 0
    And "orders" holds "m1"
    And the acknowledgments of "m1" in "admin" are none

  # The NACK_BAD_DST_Q acknowledgment is one of the "insecure" classes that MS-MQQB
  # 3.1.7.15 sends only when SendInsecureNacks is TRUE.  Its default is FALSE and the
  # Target interface cannot change it, so this scenario checks the refusal and the
  # silence of the default setting only.
  @clause:MS-MQQB:3.1.5.8.2:03
  Scenario Outline: A message for a queue that does not exist is refused, silently while insecure NACKs are off
    Given no queue "ghost" exists
    And message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" reaches "ghost"
    Then the send is refused with MQ_ERROR_QUEUE_NOT_FOUND
    And "admin" holds nothing

    Examples:
      | acks             |
      | negative arrival |
      | none             |
