Feature: MS-MQRR 3.2.4.1 Opening a Queue (client)
  The client calls R_OpenQueue with the format name, access and share mode the
  application gave, and keeps the handle.

  Background:
    Given the judge holds the queue "orders"

  @clause:MS-MQRR:3.2.4.1:01
  Scenario Outline: A queue is opened to <access>
    When the application opens "orders" to <access>
    Then the application is told of success
    And the client opened each queue once, as the application asked

    Examples:
      | access  |
      | receive |
      | peek    |

  @clause:MS-MQRR:3.2.4.1:01
  Scenario: A queue is opened to receive, denying others receive
    When the application opens "orders" to receive, denying others receive
    Then the application is told of success
    And the client opened each queue once, as the application asked

  @clause:MS-MQRR:3.2.4.1:01
  Scenario: A queue that is not there is not opened
    When the application opens "missing" to receive
    Then the application is told MQ_ERROR_QUEUE_NOT_FOUND
    And the client opened each queue once, as the application asked
