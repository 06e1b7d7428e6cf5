Feature: MS-MQRR 3.1.4.8 R_CancelReceive (client)
  A cancel names the handle and dwRequestId of the Start*Receive it cancels.

  @clause:MS-MQRR:3.1.4.8:01 @clause:MS-MQRR:3.2.4.11:01
  Scenario: A waiting receive is cancelled by its handle and dwRequestId
    Given the judge holds the queue "empty"
    And the application opens "empty" to receive
    When the application starts receiving from "empty" as "r1", waiting up to 30 seconds
    And the application cancels "r1"
    Then the application is told of success
    And "r1" ends with MQ_ERROR_OPERATION_CANCELLED
    And the client ended and cancelled with the handle and dwRequestId of a start
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
