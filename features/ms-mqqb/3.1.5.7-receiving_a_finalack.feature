Feature: MS-MQQB 3.1.5.7 Receiving a FinalAck Packet
  The final acknowledgment of a transactional message tells its source whether it was received:
  if not, and the sender asked for negative journaling, the source moves its copy to the
  message's own dead-letter queue when it names one, otherwise to the transactional dead-letter
  queue.  One queue manager is here both source and destination.

  Background:
    Given a transactional queue "ledger"
    And a transactional queue "own-dlq"
    And transaction "t" is begun

  @clause:MS-MQQB:3.1.5.7:01 @decision:D-26
  Scenario: An unreceived transactional message goes to the dead-letter queue it names
    Given message "tm" is sent to "ledger" carrying:
      | dead letter         | yes                                            |
      | time to be received | 1                                              |
      | dead-letter path    | {computer}\private$\{name of own-dlq} |
      | transaction         | t                                              |
    And transaction "t" is committed
    When 2 seconds pass
    Then "ledger" holds nothing
    And "own-dlq" keeps a copy of "tm" of class MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    And "the transactional dead-letter queue" has no copy of "tm"

  @clause:MS-MQQB:3.1.5.7:01 @decision:D-26
  Scenario: An unreceived transactional message that names no dead-letter queue goes to the transactional one
    Given message "tm" is sent to "ledger" carrying:
      | dead letter         | yes |
      | time to be received | 1   |
      | transaction         | t   |
    And transaction "t" is committed
    When 2 seconds pass
    Then "ledger" holds nothing
    And "the transactional dead-letter queue" keeps a copy of "tm" of class MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    And "own-dlq" has no copy of "tm"

  @clause:MS-MQQB:3.1.5.7:01 @decision:D-26
  Scenario: A received transactional message is not dead-lettered, wherever its dead-letter queue is
    Given message "tm" is sent to "ledger" carrying:
      | dead letter      | yes                                            |
      | dead-letter path | {computer}\private$\{name of own-dlq} |
      | transaction      | t                                              |
    And transaction "t" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    When the client receives from "l"
    Then the message returned is "tm"
    And "own-dlq" holds nothing
    And "the transactional dead-letter queue" has no copy of "tm"
