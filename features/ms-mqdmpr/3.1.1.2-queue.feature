Feature: MS-MQDMPR 3.1.1.2 Queue
  A queue's attributes are kept across restarts, in the directory for public queues
  and locally for the others; its messages are kept by priority, then by arrival.

  @clause:MS-MQDMPR:3.1.1.2:01
  Scenario Outline: A queue keeps its quota across a restart
    Given <kind> "small" with a quota of 1 KB
    When the queue manager restarts
    And message "big" is sent to "small" with:
      | body size | 2000 |
    Then the send is accepted with status 1
    When message "tiny" is sent to "small" with:
      | body size | 10 |
    Then the send is accepted with status 0

    Examples:
      | kind           |
      | a queue        |
      | a public queue |

  # D-35: the mismatch is refused, or accepted and answered by a NACK; either way "plain" never arrives
  @clause:MS-MQDMPR:3.1.1.2:01 @decision:D-35
  Scenario Outline: A transactional queue is still transactional after a restart
    Given <kind> "ledger"
    And messages "m1" were committed to "ledger"
    When the queue manager restarts
    And message "plain" is sent to "ledger"
    Then by D-35 the send is refused with MQ_ERROR_TRANSACTION_USAGE (refuse) or accepted (accept-then-nack)
    And "ledger" holds "m1"

    Examples:
      | kind                        |
      | a transactional queue        |
      | a public transactional queue |

  @clause:MS-MQDMPR:3.1.1.2:01
  Scenario: A queue keeps its journaling across a restart
    Given a queue "kept" with journaling
    And these messages were sent to "kept":
      | label | delivery    |
      | m1    | recoverable |
    When the queue manager restarts
    And "kept" is opened with RECEIVE_ACCESS as "h"
    And the client receives from "h"
    Then the message returned is "m1"
    And "kept journal" holds "m1"

  @clause:MS-MQDMPR:3.1.1.2:04 @clause:MS-MQDMPR:3.1.1.12:02
  Scenario: Messages are listed by priority, highest first, and by arrival within a priority
    Given a queue "q"
    And these messages were sent to "q":
      | label | priority |
      | p3a   | 3        |
      | p5a   | 5        |
      | p3b   | 3        |
      | p0    | 0        |
      | p5b   | 5        |
      | p7    | 7        |
      | p3c   | 3        |
    Then "q" holds "p7", "p5a", "p5b", "p3a", "p3b", "p3c" and "p0"

  @clause:MS-MQDMPR:3.1.1.2:04
  Scenario: Receives take messages in the order of the list
    Given a queue "q"
    And these messages were sent to "q":
      | label | priority |
      | low   | 1        |
      | high  | 6        |
      | low2  | 1        |
    And "q" is opened with RECEIVE_ACCESS as "h"
    When the client receives from "h"
    Then the message returned is "high"
    When the client receives from "h"
    Then the message returned is "low"
    When the client receives from "h"
    Then the message returned is "low2"

  @clause:MS-MQDMPR:3.1.1.2:04
  Scenario: A message that arrives later goes behind the earlier ones of its priority
    Given a queue "q"
    And "q" holds "first" and "second"
    And "q" is opened with RECEIVE_ACCESS as "h"
    When the client receives from "h"
    And message "third" is sent to "q"
    Then "q" holds "second" and "third"

  # A new message's place depends on the nearest higher priority present, whatever lies between or above.
  @clause:MS-MQDMPR:3.1.1.2:04
  Scenario: The first message of a priority goes right after the nearest higher priority present
    Given a queue "q"
    And these messages were sent to "q":
      | label | priority |
      | top   | 7        |
      | mid   | 3        |
      | four  | 4        |
      | two   | 2        |
    Then "q" holds "top", "four", "mid" and "two"

  # Taking the last message of a priority must not lose that priority's place in the list.
  @clause:MS-MQDMPR:3.1.1.2:04
  Scenario: A message arriving after the last of its priority was taken goes where that one was
    Given a queue "q"
    And these messages were sent to "q":
      | label | priority |
      | high  | 5        |
      | a     | 3        |
      | b     | 3        |
    And "q" is opened with RECEIVE_ACCESS as "h"
    When the client receives "b" by lookup id with MQ_LOOKUP_RECEIVE_CURRENT on "h"
    And message "c" is sent to "q" with:
      | priority | 3 |
    Then "q" holds "high", "a" and "c"
    When the client receives "a" by lookup id with MQ_LOOKUP_RECEIVE_CURRENT on "h"
    And the client receives "c" by lookup id with MQ_LOOKUP_RECEIVE_CURRENT on "h"
    And message "high2" is sent to "q" with:
      | priority | 5 |
    And message "d" is sent to "q" with:
      | priority | 3 |
    Then "q" holds "high", "high2" and "d"
