Feature: MS-MQRR 3.1.4.7 R_StartReceive (client)
  A client pairs every receive with an End or a Cancel by its dwRequestId, calls
  through live handles whose access allows the action and live cursors, never
  reuses a dwRequestId on a handle while it is outstanding, and asks for the body
  and compound message sizes the application wants.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1", "m2" and "m3" in "orders"

  @clause:MS-MQRR:3.1.4.7:01 @clause:MS-MQRR:3.1.4.7:05 @clause:MS-MQRR:3.1.4.9:01
  Scenario: Receives one after another each end before their dwRequestId could come back
    Given the application opens "orders" to receive
    When the application receives from "orders"
    And the application peeks at "orders"
    And the application receives from "orders"
    And the application receives from "orders"
    Then the client ended every receive that returned a message, by its handle and dwRequestId
    And the client never reused a dwRequestId on a handle while it was outstanding

  @clause:MS-MQRR:3.1.4.7:05 @clause:MS-MQRR:3.1.4.8:01
  Scenario: A read that waits keeps its dwRequestId while other reads come and go
    Given the judge holds the queue "empty"
    And the application opens "empty" to receive
    And the application opens "orders" to receive
    When the application starts receiving from "empty" as "r1", waiting up to 30 seconds
    And the application receives from "orders"
    And the application peeks at "orders"
    And the application cancels "r1"
    Then the client ended and cancelled with the handle and dwRequestId of a start
    And "r1" ends with MQ_ERROR_OPERATION_CANCELLED
    And the client never reused a dwRequestId on a handle while it was outstanding
    And the client ended every receive that returned a message, by its handle and dwRequestId

  @clause:MS-MQRR:3.1.4.7:05
  Scenario: A second read on a handle where a read waits takes a dwRequestId of its own
    Given the judge holds the queue "empty"
    And the application opens "empty" to receive
    When the application starts receiving from "empty" as "r1", waiting up to 30 seconds
    And the application peeks at "empty"
    And the application cancels "r1"
    Then "r1" ends with MQ_ERROR_OPERATION_CANCELLED
    And the client never reused a dwRequestId on a handle while it was outstanding

  @clause:MS-MQRR:3.1.4.7:02 @decision:D-83
  Scenario: A queue opened only to peek is not received from through its handle
    Given the application opens "orders" to peek
    When the application receives from "orders"
    Then the application is told of a failure
    And the client received, purged, moved and rejected only through handles opened with RECEIVE_ACCESS
    And the judge's "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.7:03
  Scenario: Reads with a cursor name a cursor the client created and has not closed
    Given the application opens "orders" to receive
    When the application creates the cursor "c" on "orders"
    And the application peeks with the cursor "c"
    And the application receives with the cursor "c"
    And the application peeks at the next message with the cursor "c"
    And the application closes the cursor "c"
    Then the client used only cursors it had created and not closed

  @clause:MS-MQRR:3.1.4.7:06
  Scenario: The client asks for no more body than the application wants
    Given the judge holds "big" of 5000 bytes in "orders"
    And the application opens "orders" to receive
    When the application receives from "orders" wanting at most 10 bytes of body
    Then the application gets the first 10 bytes of "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them

  @clause:MS-MQRR:3.1.4.7:07
  Scenario: The client asks for no more compound message than the application wants
    Given the application opens "orders" to receive
    When the application peeks at "orders" wanting at most 64 bytes of compound message
    Then the application gets "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them

  @clause:MS-MQRR:3.1.4.7:15
  Scenario: A read that failed leaves nothing the client uses, not even its pSequenceId
    Given the application opens "orders" to receive
    And the judge will answer MQ_ERROR_INSUFFICIENT_RESOURCES to the next R_StartReceive
    When the application receives from "orders"
    Then the application is told MQ_ERROR_INSUFFICIENT_RESOURCES
    And the client never used the outputs of a call that failed
    When the application receives from "orders"
    Then the application gets "m1"
    And the client never used the outputs of a call that failed
    And the judge's "orders" holds "m2" and "m3"
