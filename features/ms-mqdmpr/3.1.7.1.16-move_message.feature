Feature: MS-MQDMPR 3.1.7.1.16 Move Message
  A move takes a message out of its queue and puts it, readable, at its place in the target
  queue; inside a transaction the message stays locked in its queue until the transaction ends.

  Background:
    Given a queue "admin"

  @clause:MS-MQDMPR:3.1.7.1.16:02
  Scenario: A move without a transaction takes the message out of its queue and into the subqueue, without acknowledgment
    Given a queue "orders"
    And a subqueue "held" of "orders"
    And these messages were sent to "orders":
      | label | acknowledgements                      | admin queue |
      | m1    | positive receive and negative receive | admin       |
      | m2    | none                                  |             |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders;held" is opened for move as "to-held"
    When the client moves "m1" from "h" to "to-held" without a transaction
    Then the call returns MQ_OK
    And "orders" holds "m2"
    And "orders;held" holds "m1"
    And the acknowledgments of "m1" in "admin" are none

  # MS-MQDMPR:3.1.1.12:03 a recoverable message stays recoverable in the queue a move put it in
  @clause:MS-MQDMPR:3.1.7.1.16:02
  Scenario: A recoverable message moved without a transaction is still in the subqueue after a restart
    Given a queue "orders"
    And a subqueue "held" of "orders"
    And these messages were sent to "orders":
      | label | delivery    |
      | m1    | recoverable |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders;held" is opened for move as "to-held"
    When the client moves "m1" from "h" to "to-held" without a transaction
    And the queue manager restarts
    Then "orders;held" holds "m1"
    And "orders" holds nothing

  @clause:MS-MQDMPR:3.1.7.1.16:02
  Scenario: A moved message takes its place in the target queue by priority
    Given a queue "orders"
    And a subqueue "held" of "orders"
    And these messages were sent to "orders":
      | label | priority |
      | high  | 6        |
      | low   | 1        |
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders;held" is opened for move as "to-held"
    When the client moves "low" from "h" to "to-held" without a transaction
    And the client moves "high" from "h" to "to-held" without a transaction
    Then "orders;held" holds "high" and "low"

  @clause:MS-MQDMPR:3.1.7.1.16:02
  Scenario: A moved message is offered to a reader waiting on the target queue
    Given a queue "orders"
    And a subqueue "held" of "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders;held" is opened for move as "to-held"
    And "orders;held" is opened with RECEIVE_ACCESS as "reader"
    When the client waits on "reader" for up to INFINITE ms in the background as "r"
    And the client moves "m1" from "h" to "to-held" without a transaction
    And the background call "r" completes
    Then the call returns MQ_OK
    And the message returned is "m1"

  @clause:MS-MQDMPR:3.1.7.1.16:03
  Scenario Outline: A move inside a transaction locks the message until the transaction decides
    Given a transactional queue "ledger"
    And a subqueue "held" of "ledger"
    And messages "m1" and "m2" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger;held" is opened for move as "to-held"
    And the client begins transaction "t"
    When the client moves "m1" from "h" to "to-held" in transaction "t"
    Then the call returns MQ_OK
    And "ledger" holds "m2"
    And "ledger;held" holds nothing
    When transaction "t" is <outcome>
    Then "ledger" holds <in queue>
    And "ledger;held" holds <in subqueue>

    Examples:
      | outcome   | in queue      | in subqueue |
      | committed | "m2"          | "m1"        |
      | aborted   | "m1" and "m2" | nothing     |
