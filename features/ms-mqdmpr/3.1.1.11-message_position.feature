Feature: MS-MQDMPR 3.1.1.11 MessagePosition
  The place and state of a recoverable message in its queue are persistent: after a
  restart it is where it was, and a transaction that holds it still holds it.

  @clause:MS-MQDMPR:3.1.1.11:02
  Scenario: Recoverable messages keep their places across a restart
    Given a queue "q"
    And these messages were sent to "q":
      | label | priority | delivery    |
      | a     | 2        | recoverable |
      | b     | 6        | recoverable |
      | c     | 2        | recoverable |
      | d     | 6        | recoverable |
    When the queue manager restarts
    Then "q" holds "b", "d", "a" and "c"

  @clause:MS-MQDMPR:3.1.1.11:02
  Scenario: A message received in a prepared transaction is still taken after a restart
    Given a transactional queue "ledger"
    And messages "m1" and "m2" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client begins transaction "t"
    When the client starts R_StartTransactionalReceive on "h" in transaction "t" as "r" with:
      | LookupId   | ulAction                  |
      | id of "m2" | MQ_LOOKUP_RECEIVE_CURRENT |
    And the client ends transactional "r" with RR_ACK
    And transaction "t" is prepared
    And the queue manager restarts
    Then "ledger" holds "m1"
    When transaction "t" is aborted
    Then "ledger" holds "m1" and "m2"

  @clause:MS-MQDMPR:3.1.1.11:02
  Scenario: A message moved in a prepared transaction is still on its way after a restart
    Given a transactional queue "ledger"
    And a subqueue "hold" of "ledger"
    And messages "m1" and "m2" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And "ledger;hold" is opened for move as "to hold"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    When the client moves "m1" from "h" to "to hold" in transaction "t"
    And transaction "t" is prepared
    And the queue manager restarts
    Then "ledger" holds "m2"
    And "ledger;hold" holds nothing
    When transaction "t" is committed
    Then "ledger;hold" holds "m1"
    And "ledger" holds "m2"

  @clause:MS-MQDMPR:3.1.1.11:02
  Scenario: A recoverable message that was received stays gone after a restart
    Given a queue "q"
    And these messages were sent to "q":
      | label | delivery    |
      | a     | recoverable |
      | b     | recoverable |
    And "q" is opened with RECEIVE_ACCESS as "h"
    When the client receives from "h"
    Then the message returned is "a"
    When the queue manager restarts
    Then "q" holds "b"

  @clause:MS-MQDMPR:3.1.1.11:02
  Scenario: A recoverable message moved into a subqueue is found there after a restart
    Given a queue "q"
    And a subqueue "later" of "q"
    And these messages were sent to "q":
      | label | delivery    |
      | a     | recoverable |
      | b     | recoverable |
    And "q" is opened with RECEIVE_ACCESS as "h"
    And "q;later" is opened for move as "to later"
    When the client moves "a" from "h" to "to later" without a transaction
    And the queue manager restarts
    Then "q" holds "b"
    And "q;later" holds "a"
