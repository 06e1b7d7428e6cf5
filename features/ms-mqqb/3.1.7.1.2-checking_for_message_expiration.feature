Feature: MS-MQQB 3.1.7.1.2 Checking for Message Expiration
  A message whose time to reach its queue ran out before delivery is not delivered; the
  sender may ask for a NACK_REACH_QUEUE_TIMEOUT and for a copy in a dead-letter queue.

  Background:
    Given a queue "orders"
    And a queue "admin"

  @clause:MS-MQQB:3.1.7.1.2:01
  Scenario Outline: A message that arrives after its time to reach queue is dropped
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" reaches "orders" too late
    Then the send is accepted with status 3
    And "orders" holds nothing
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks             | acknowledgments                      |
      | negative arrival | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT |
      | full reach queue | MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT |
      | positive arrival | none                                 |
      | negative receive | none                                 |

  @clause:MS-MQQB:3.1.7.1.2:01
  Scenario: A message that arrives within its time to reach queue is delivered
    When message "m1" is sent to "orders" with:
      | sent                | 5 seconds ago    |
      | time to reach queue | 60               |
      | acknowledgements    | negative arrival |
      | admin queue         | admin            |
    Then the send is accepted with status 0
    And "orders" holds "m1"
    And "admin" holds nothing

  @clause:MS-MQQB:3.1.7.1.2:01
  Scenario Outline: A late message asking for negative journaling is copied to the dead-letter queue
    Given message "m1" is prepared with:
      | dead letter | <dead letter> |
    When the prepared message "m1" reaches "orders" too late
    Then the send is accepted with status 3
    And "the dead-letter queue" holds <copies>

    Examples:
      | dead letter | copies  |
      | yes         | "m1"    |
      | no          | nothing |

  @clause:MS-MQQB:3.1.7.1.2:01
  Scenario: The dead-letter copy of a late message carries the reason it was dropped
    Given message "m1" is prepared with:
      | dead letter | yes |
    When the prepared message "m1" reaches "orders" too late
    Then message "m1" in "the dead-letter queue" has class MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT

  @clause:MS-MQQB:3.1.7.1.2:01
  Scenario: A late transactional message asking for negative journaling goes to the transactional dead-letter queue
    Given a transactional queue "ledger"
    And message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
      | dead letter      | yes              |
    When the prepared message "m1" reaches "ledger" too late in transaction "t"
    Then the send is accepted with status 3
    And "ledger" holds nothing
    And "the transactional dead-letter queue" holds "m1"
    And "the dead-letter queue" holds nothing
    And the acknowledgments of "m1" in "admin" are MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT

  # The same for a packet that arrives on an MS-MQQB session too late, the suite playing the sending queue
  # manager; a transactional one is answered with a FinalAck instead of a local dead-letter copy.
  @clause:MS-MQQB:3.1.7.1.2:01
  Scenario Outline: A packet that arrives after its time to reach queue is dropped, and dead-lettered if it asked (<dead letter>)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | sent                | 600 seconds ago |
      | time to reach queue | 60              |
      | dead letter         | <dead letter>   |
    When "remote" sends the prepared message "m1" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then "orders" holds nothing
    And "the dead-letter queue" holds <copies>
    And the session of "remote" is still open

    Examples:
      | dead letter | copies  |
      | yes         | "m1"    |
      | no          | nothing |
