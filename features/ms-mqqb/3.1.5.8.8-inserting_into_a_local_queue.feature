Feature: MS-MQQB 3.1.5.8.8 Inserting a Message into a Local Queue
  An arriving message that its queue's quota cannot hold is dropped and, if the sender
  asked for negative arrival acknowledgments, answered with NACK_Q_EXCEED_QUOTA.

  Background:
    Given a queue "small" with a quota of 1 KB
    And a queue "admin"

  @clause:MS-MQQB:3.1.5.8.8:01
  Scenario Outline: A message the queue quota cannot hold is refused, with a NACK when one was asked for
    Given message "m1" is prepared with:
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When the prepared message "m1" overflows the quota of "small"
    Then the send is accepted with status 1
    And "small" holds nothing
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks                                  | acknowledgments                 |
      | negative arrival                      | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA |
      | full reach queue                      | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA |
      | negative arrival and negative receive | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA |
      | positive arrival                      | none                            |
      | negative receive                      | none                            |
      | none                                  | none                            |

  @clause:MS-MQQB:3.1.5.8.8:01
  Scenario: A message within the queue quota is inserted without a NACK
    Given message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
      | body             | small enough     |
    When the prepared message "m1" reaches "small"
    Then the send is accepted with status 0
    And "small" holds "m1"
    And the acknowledgments of "m1" in "admin" are none

  @clause:MS-MQQB:3.1.5.8.8:01
  Scenario: A message refused for the queue quota is dead-lettered when it asked for negative journaling
    Given message "m1" is prepared with:
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
      | dead letter      | yes              |
    When the prepared message "m1" overflows the quota of "small"
    Then the send is accepted with status 1
    And message "m1" in "the dead-letter queue" has class MQMSG_CLASS_NACK_Q_EXCEED_QUOTA

  # Sets QueueManagerQuota (MS-MQDMPR 3.1.1.1) rather than relying on its default, a SHOULD (D-20):
  # a 1.1 MB message exceeds it.  The session that MS-MQQB closes instead is not visible
  # through MS-MQRR; what is visible is that no NACK_Q_EXCEED_QUOTA is sent.
  @clause:MS-MQQB:3.1.5.8.8:01
  Scenario: A message refused for the queue-manager quota gets no quota NACK
    Given the queue manager's quota is 1048576 bytes
    And a queue "orders"
    When message "big" is sent to "orders" with:
      | body size        | 1100000          |
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    Then the send is refused for the queue manager's quota (status 2)
    And "orders" holds nothing
    And "admin" holds nothing

  # The same two refusals for a packet that arrives on an MS-MQQB session, the suite playing the sending
  # queue manager: a queue's quota refuses the message and keeps the session; the queue manager's closes it.
  @clause:MS-MQQB:3.1.5.8.8:01
  Scenario Outline: A packet the queue quota cannot hold is refused on an open session (<acks>)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body size        | 2000   |
      | acknowledgements | <acks> |
      | admin queue      | admin  |
    When "remote" sends the prepared message "m1" to "small"
    And "remote" waits 1000 ms for the target's packets
    Then "small" holds nothing
    And the session of "remote" is still open
    And the acknowledgments of "m1" in "admin" are <acknowledgments>

    Examples:
      | acks             | acknowledgments                 |
      | negative arrival | MQMSG_CLASS_NACK_Q_EXCEED_QUOTA |
      | positive arrival | none                            |

  @clause:MS-MQQB:3.1.5.8.8:01
  Scenario: A packet the queue manager's quota cannot hold closes its session, unqueued and unacknowledged
    Given the queue manager's quota is 1048576 bytes
    And a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target
    And message "big" is prepared with:
      | body size        | 1100000          |
      | acknowledgements | negative arrival |
      | admin queue      | admin            |
    When "remote" sends the prepared message "big" to "orders"
    And "remote" waits 1000 ms for the target's packets
    Then the target closed the session of "remote"
    And "orders" holds nothing
    And "admin" holds nothing

  @clause:MS-MQQB:3.1.5.8.8:01
  Scenario Outline: A packet refused for the queue quota is dead-lettered only when it asked for negative journaling (<dead letter>)
    Given another queue manager "remote" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body size   | 2000          |
      | dead letter | <dead letter> |
    When "remote" sends the prepared message "m1" to "small"
    And "remote" waits 1000 ms for the target's packets
    Then "small" holds nothing
    And "the dead-letter queue" holds <copies>

    Examples:
      | dead letter | copies  |
      | yes         | "m1"    |
      | no          | nothing |
