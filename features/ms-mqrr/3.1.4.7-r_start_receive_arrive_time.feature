Feature: MS-MQRR 3.1.4.7 R_StartReceive: pdwArriveTime
  pdwArriveTime says when the message entered the queue.  A message that spent time on its way
  arrived later than the SentTime its sender wrote, and the call reports the arrival.

  @clause:MS-MQRR:3.1.4.7:08
  Scenario: pdwArriveTime is when the message reached the queue, not the SentTime its sender wrote
    Given a queue "inbox"
    And message "delayed" is sent to "inbox" with:
      | sent                | 120 seconds ago |
      | time to reach queue | INFINITE        |
    And "inbox" is opened with RECEIVE_ACCESS as "h"
    When the client peeks at "h"
    Then the call returns MQ_OK
    And the arrival time returned is 120 seconds after the SentTime of "delayed"
