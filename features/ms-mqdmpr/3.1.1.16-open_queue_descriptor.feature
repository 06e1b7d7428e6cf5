Feature: MS-MQDMPR 3.1.1.16 OpenQueueDescriptor
  Every opening of a queue is a descriptor of its own whose handle no other
  descriptor of the queue manager shares, whatever queue it is for.

  @clause:MS-MQDMPR:3.1.1.16:01
  Scenario: Handles of every opening differ, for the same queue and for different queues
    Given a queue "orders"
    And a queue "other"
    And a subqueue "retry" of "orders"
    When "orders" is opened with RECEIVE_ACCESS as "h1"
    And "orders" is opened with RECEIVE_ACCESS as "h2"
    And "orders" is opened with PEEK_ACCESS as "h3"
    And "other" is opened with RECEIVE_ACCESS as "h4"
    And "orders;retry" is opened with RECEIVE_ACCESS as "h5"
    Then the queue handles "h1", "h2", "h3", "h4" and "h5" are all different

  @clause:MS-MQDMPR:3.1.1.16:01
  Scenario: Openings for a move get handles and move contexts of their own
    Given a queue "orders"
    And a subqueue "retry" of "orders"
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And "orders;retry" is opened for move as "m1"
    And "orders;retry" is opened for move as "m2"
    And "orders" is opened for move as "m3"
    Then the queue handles "h", "m1", "m2" and "m3" are all different
    And the move contexts of "m1", "m2" and "m3" are all different and nonzero

  # D-44: MS-MQRR 3.1.4.7 asks only for "a failure HRESULT" for a handle it does not find
  @clause:MS-MQDMPR:3.1.1.16:01 @decision:D-44
  Scenario: Closing one opening leaves another opening of the same queue working
    Given a queue "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h1"
    And "orders" is opened with RECEIVE_ACCESS as "h2"
    When the handle "h1" has been closed with R_CloseQueue
    And the client peeks at "h2"
    Then the message returned is "m1"
    When the client peeks at "h1"
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
