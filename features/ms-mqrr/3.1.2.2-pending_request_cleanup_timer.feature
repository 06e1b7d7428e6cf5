Feature: MS-MQRR 3.1.2.2 Pending Request Cleanup Timer
  How long a receive nobody ends may hold its message is not fixed by the protocol: it
  comes from the queue manager's configuration (Windows: the RpcCancelTimeout registry
  value, in minutes, 5 when unset).  A queue manager configured otherwise honours it.

  Background:
    Given a queue "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.2.2:02
  Scenario Outline: A receive nobody ends holds its message for the configured period and no longer (<period>)
    Given the target's pending-request clean-up period is configured to <period>
    When the client starts a receive on "h" as "r"
    Then the message returned is "m1"
    When <just before> pass
    Then "orders" holds nothing
    When 2 seconds pass
    Then "orders" holds "m1"

    Examples:
      | period     | just before |
      | 1 minute   | 59 seconds  |
      | 12 minutes | 719 seconds |

