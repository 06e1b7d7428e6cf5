Feature: MS-MQRR 3.1.4.2 R_OpenQueue (client)
  The client identifies itself in R_OpenQueue (a GUID of its own, not a routing
  server, its own version, whether it is in a workgroup), opens a queue before any
  other call on it, and takes any thrown status as a failure, using no output.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1" and "m2" in "orders"

  @clause:MS-MQRR:3.1.4.2:03 @clause:MS-MQRR:3.1.4.2:05 @clause:MS-MQRR:3.1.4.2:07 @clause:MS-MQRR:3.1.4.2:08
  @decision:D-84
  Scenario: The client says who it is the same way in every open
    When the application opens "orders" to receive
    And the application opens "archive" to peek
    Then the client identified itself with one non-null GUID
    And the client said whether it is a routing server
    And the client sent its own version numbers
    And the client said whether it is in a workgroup

  @clause:MS-MQRR:3.1.4.2:01
  Scenario: Every handle the client reads, cursors, purges or ends with comes from R_OpenQueue
    When the application opens "orders" to receive
    And the application creates the cursor "c" on "orders"
    And the application peeks with the cursor "c"
    And the application receives from "orders"
    And the application purges "orders"
    Then the client called R_OpenQueue for every handle it read, cursored, purged or ended with

  @clause:MS-MQRR:3.1.4.2:11
  Scenario Outline: A thrown <status> fails the open and leaves no handle behind, not even a NULL one
    Given the judge will throw <status> at the next R_OpenQueue
    When the application opens "orders" to receive
    Then the application is told <status>
    When the application peeks at "orders"
    Then the application is told of a failure
    And the client used only live handles that opening a queue gave it
    When the application opens "orders" to receive
    And the application receives from "orders"
    Then the application gets "m1"
    And the client used only live handles that opening a queue gave it

    Examples:
      | status                          |
      | MQ_ERROR_QUEUE_NOT_FOUND        |
      | MQ_ERROR_SHARING_VIOLATION      |
      | MQ_ERROR_ACCESS_DENIED          |
      | 0xC00E9999                      |

  @clause:MS-MQRR:3.1.4.2:11
  Scenario: An RPC fault or a lost connection fails the open like any thrown status
    Given the judge will answer the RPC fault RPC_S_ACCESS_DENIED to the next R_OpenQueue
    When the application opens "orders" to receive
    Then the application is told of a failure
    Given the judge will drop the connection at the next R_OpenQueue
    When the application opens "orders" to receive
    Then the application is told of a failure
    When the application opens "orders" to receive
    And the application peeks at "orders"
    Then the application gets "m1"
    And the client used only live handles that opening a queue gave it
