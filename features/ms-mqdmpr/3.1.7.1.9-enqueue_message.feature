Feature: MS-MQDMPR 3.1.7.1.9 Enqueue Message
  Enqueuing checks the queue manager's quota, the queue's quota and lateness (statuses 2, 1, 3);
  an accepted message gets the next lookup id, its place and its timer, and is readable unless sent in a transaction.

  Background:
    Given a queue "inbox"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQDMPR:3.1.7.1.9:07
  Scenario Outline: Enqueue Message reports one of four statuses
    Given the queue manager's quota is 1048576 bytes
    And a queue "small" with a quota of 2 KB
    When message "m" is sent to "small" with:
      | body size           | <body size>           |
      | sent                | <sent>                |
      | time to reach queue | <time to reach queue> |
    Then the send ends with status <status>

    Examples:
      | body size | sent            | time to reach queue | status |
      | 100       | now             | 60                  | 0      |
      | 3000      | now             | 60                  | 1      |
      | 1100000   | now             | 60                  | 2      |
      | 100       | 120 seconds ago | 60                  | 3      |

  @clause:MS-MQDMPR:3.1.7.1.9:01
  Scenario: The queue manager's quota counts the messages of every queue
    Given the queue manager's quota is 1048576 bytes
    And a queue "other"
    And message "big" is sent to "other" with:
      | body size | 600000 |
    When message "too much" is sent to "inbox" with:
      | body size | 600000 |
    Then the send is refused for the queue manager's quota (status 2)
    And "inbox" holds nothing
    When the client receives from "h"
    And message "fits" is sent to "inbox" with:
      | body size | 100000 |
    Then the send is accepted with status 0

  @clause:MS-MQDMPR:3.1.7.1.9:01
  Scenario: The queue manager's quota is checked before the queue's own quota
    Given the queue manager's quota is 1048576 bytes
    And a queue "small" with a quota of 1 KB
    When message "huge" is sent to "small" with:
      | body size | 1100000 |
    Then the send is refused for the queue manager's quota (status 2)

  @clause:MS-MQDMPR:3.1.7.1.9:02
  Scenario: A queue refuses a message that would take it over its quota
    Given a queue "small" with a quota of 2 KB
    And message "first" is sent to "small" with:
      | body size | 1200 |
    When message "second" is sent to "small" with:
      | body size | 1200 |
    Then the send is accepted with status 1
    And "small" holds "first"

  # D-07: a message sent in a transaction is in the queue's list (Locked) at once, but only becomes
  # Available, where 3.1.7.2.2 adds its size, at the commit.
  @clause:MS-MQDMPR:3.1.7.1.9:02 @decision:D-07
  Scenario: A message sent in an open transaction counts against its queue's quota at once, or from its commit
    Given a transactional queue "ledger" with a quota of 2 KB
    And transaction "t1" is begun
    And transaction "t2" is begun
    And message "first" is sent to "ledger" in transaction "t1" with:
      | body size | 1200 |
    When message "second" is sent to "ledger" in transaction "t2" with:
      | body size | 1200 |
    Then by D-07 the send ends with status 1 (count-in-list) or 0 (count-when-available)
    When transaction "t1" is committed
    And transaction "t3" is begun
    And message "third" is sent to "ledger" in transaction "t3" with:
      | body size | 1200 |
    Then the send is accepted with status 1

  @clause:MS-MQDMPR:3.1.7.1.9:08
  Scenario Outline: A message whose time to reach the queue ran out before it arrived is refused with status 3
    Given a queue "small" with a quota of 2 KB
    When message "m" is sent to "small" with:
      | body size           | <body size>           |
      | sent                | <sent>                |
      | time to reach queue | <time to reach queue> |
    Then the send ends with status <status>
    And "small" holds <held>

    Examples:
      | body size | sent            | time to reach queue | status | held    |
      | 100       | 120 seconds ago | 60                  | 3      | nothing |
      | 100       | 120 seconds ago | 300                 | 0      | "m"     |
      | 100       | 120 seconds ago | INFINITE            | 0      | "m"     |
      | 3000      | 120 seconds ago | 60                  | 1      | nothing |

  @clause:MS-MQDMPR:3.1.7.1.9:03
  Scenario: Every enqueue takes the next sequence number of the queue manager, whatever the queue
    Given a queue "other"
    When message "m1" is sent to "inbox"
    And message "m2" is sent to "other"
    And message "m3" is sent to "inbox"
    Then the sequence ids of "m1", "m2" and "m3" follow one another

  @clause:MS-MQDMPR:3.1.7.1.9:03
  Scenario Outline: A message that Enqueue Message refuses takes no sequence number
    Given the queue manager's quota is 1048576 bytes
    And a queue "small" with a quota of 2 KB
    When message "m1" is sent to "small"
    And message "refused" is sent to "small" with:
      | body size           | <body size> |
      | sent                | <sent>      |
      | time to reach queue | 60          |
    Then the send ends with status <status>
    When message "m2" is sent to "small"
    Then the sequence ids of "m1" and "m2" follow one another

    Examples:
      | body size | sent            | status |
      | 3000      | now             | 1      |
      | 1100000   | now             | 2      |
      | 100       | 120 seconds ago | 3      |

  @clause:MS-MQDMPR:3.1.7.1.9:03
  Scenario Outline: The high byte of a lookup identifier is 7 minus the priority for a transactional message, 0 otherwise
    Given a transactional queue "ledger"
    And messages "tx" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And "inbox" holds "plain"
    When the client peeks at the lookup id of "<message>" with high byte <byte> on "<handle>"
    Then the call returns <status>

    Examples:
      | message | handle | byte | status                     |
      | tx      | l      | 0x07 | MQ_OK                      |
      | tx      | l      | 0x00 | MQ_ERROR_MESSAGE_NOT_FOUND |
      | plain   | h      | 0x00 | MQ_OK                      |
      | plain   | h      | 0x04 | MQ_ERROR_MESSAGE_NOT_FOUND |

  @clause:MS-MQDMPR:3.1.7.1.9:04
  Scenario: A new message takes its place by priority, after the messages of its own priority
    Given these messages were sent to "inbox":
      | label | priority |
      | a     | 3        |
      | b     | 5        |
      | c     | 3        |
      | d     | 7        |
      | e     | 0        |
    Then "inbox" holds "d", "b", "a", "c" and "e"

  @clause:MS-MQDMPR:3.1.7.1.9:04
  Scenario: The receive timer starts when the message is enqueued
    Given message "m" is sent to "inbox" with:
      | time to be received | 30 |
    When 25 seconds pass
    Then "inbox" holds "m"
    When 6 seconds pass
    Then "inbox" holds nothing

  @clause:MS-MQDMPR:3.1.7.1.9:05
  Scenario Outline: A message sent in a transaction stays locked until the transaction ends
    Given a transactional queue "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When in transaction "t", message "m" is sent to "ledger"
    Then the send is accepted with status 0
    And "ledger" holds nothing
    When the client peeks at "l"
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When transaction "t" is <outcome>
    Then "ledger" holds <held>

    Examples:
      | outcome   | held    |
      | committed | "m"     |
      | aborted   | nothing |

  @clause:MS-MQDMPR:3.1.7.1.9:05 @clause:MS-MQDMPR:3.1.7.1.9:06
  Scenario: A waiting receiver gets a message as soon as it is enqueued, or, in a transaction, when that commits
    Given a transactional queue "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When the client waits on "l" for up to INFINITE ms in the background as "r"
    And in transaction "t", message "m" is sent to "ledger"
    Then the background call "r" is still waiting
    When transaction "t" is committed
    And the background call "r" completes
    Then the call returns MQ_OK
    And the message returned is "m"

  @clause:MS-MQDMPR:3.1.7.1.9:06
  Scenario: A message enqueued without a transaction is readable at once and wakes a waiting receiver
    When the client waits on "h" for up to INFINITE ms in the background as "r"
    And message "m" is sent to "inbox"
    And the background call "r" completes
    Then the call returns MQ_OK
    And the message returned is "m"
