Feature: MS-MQRR 3.1.2 Timers
  The server keeps two kinds of timer per Start*Receive call: one bounds how long a blocked
  call waits (its ulTimeout), the other bounds how long a receive may stay unfinished.

  # The clean-up scenarios assume the clean-up period of Windows and of the reference: 5 minutes.

  Background:
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"

  @clause:MS-MQRR:3.1.2:01
  Scenario: Both timers run: a wait ends after its time-out and an unfinished receive is released
    Given a queue "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client waits on "e" for up to 10000 ms in the background as "w"
    And the client starts a receive on "h" as "r"
    And 11 seconds pass
    And the background call "w" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And "orders" holds nothing
    When 5 minutes pass
    Then "orders" holds "m1"

  @clause:MS-MQRR:3.1.2.1:01
  Scenario: The time-out timer of a waiting receive is set to its ulTimeout
    When the client waits on "e" for up to 60000 ms in the background as "w"
    And 59 seconds pass
    Then the background call "w" is still waiting
    When 2 seconds pass
    And the background call "w" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQRR:3.1.2.1:01
  Scenario Outline: Every kind of waiting read has a time-out timer of its own ulTimeout
    Given cursor "c" is created on "e"
    When in the background, <read> with a time-out of 60000 ms as "w"
    And 59 seconds pass
    Then the background call "w" is still waiting
    When 2 seconds pass
    And the background call "w" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

    Examples:
      | read                                    |
      | the client peeks at "e"                 |
      | cursor "c" receives                     |
      | cursor "c" peeks at the current message |

  @clause:MS-MQRR:3.1.2.1:01
  Scenario: A waiting transactional receive has a time-out timer too
    Given a transactional queue "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When the client waits in transaction "t" on "l" for up to 60000 ms in the background as "w"
    And 59 seconds pass
    Then the background call "w" is still waiting
    When 2 seconds pass
    And the background call "w" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQRR:3.1.2.1:01
  Scenario: Each waiting call has its own time-out timer
    When the client waits on "e" for up to 10000 ms in the background as "w1"
    And the client waits on "e" for up to 20000 ms in the background as "w2"
    And 11 seconds pass
    And the background call "w1" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And the background call "w2" is still waiting
    When 10 seconds pass
    And the background call "w2" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQRR:3.1.2.1:01
  Scenario: A message that arrives before the time-out ends the wait, and the time-out no longer matters
    When the client waits on "e" for up to 10000 ms in the background as "w"
    And message "late" is sent to "empty"
    And the background call "w" completes
    Then the call returns MQ_OK
    And the message returned is "late"
    When 11 seconds pass
    And the client ends "w" with RR_ACK
    Then the call returns MQ_OK
    And "empty" holds nothing

  @clause:MS-MQRR:3.1.2.2:01
  Scenario: Each receive has its own clean-up timer, started with its request
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    When the client starts a receive on "h" as "r1"
    And 4 minutes pass
    And the client starts a receive on "h" as "r2"
    And 90 seconds pass
    Then "orders" holds "m1" and "m3"
    When 4 minutes pass
    Then "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.2.2:01
  Scenario: A transactional receive gets a clean-up timer as well
    Given a transactional queue "ledger"
    And messages "t1" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    And the client begins transaction "t"
    When the client starts a receive on "l" in transaction "t" as "r"
    And 5 minutes pass
    And the client ends transactional "r" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
