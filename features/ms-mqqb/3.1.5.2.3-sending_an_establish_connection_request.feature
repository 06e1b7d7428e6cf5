Feature: MS-MQQB 3.1.5.2.3 Sending an EstablishConnection Request Packet
  A queue manager that opens a session of its own (to deliver a FinalAck or an OrderAck to the
  queue manager that sent it the message, under D-76's new-session reading) begins it as every
  initiator does: an EstablishConnection request, then, on the response, a ConnectionParameters
  request (3.1.5.3.2). The suite plays the acceptor. A target that answers on the session it was
  given (same-session) opens none, and the scenario's last check is then not run.

  Background:
    Given a queue "orders"
    And another queue manager "remote" with an MS-MQQB session to the target

  @clause:MS-MQQB:3.1.5.2.3:01 @clause:MS-MQQB:3.1.5.3.2:01 @decision:D-76
  Scenario: A session the target opens to deliver a FinalAck begins with a well-formed EstablishConnection and ConnectionParameters
    Given message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "orders" with packet fields:
      | TH | 1 |
    Then "remote" received a FinalAck of class MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q for "t1"
    And a session the target opened to "remote", if it opened one (D-76 new-session), began as an initiator's does

  @clause:MS-MQQB:3.1.5.3.2:02 @decision:D-76
  Scenario Outline: A session the target opens is closed without ConnectionParameters when the response has <fault>
    Given "remote" answers a session the target opens to it with <fault>
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "orders" with packet fields:
      | TH | 1 |
    And "remote" waits 1000 ms for the target's packets
    Then a session the target opened to "remote", if it opened one (D-76 new-session), was closed without ConnectionParameters

    Examples:
      | fault                            |
      | CS set                           |
      | another ServerGuid               |
      | another ClientGuid               |
      | a ServerGuid above the asked one |
      | a ClientGuid above the target's  |

  # MS-MQQB 2.2.1: the InternalHeader's reserved flags are ignored on receipt, so a response that sets one (CS clear)
  # accepts the session as well as one that does not.
  @clause:MS-MQQB:2.2.1:01 @clause:MS-MQQB:3.1.5.3.2:01 @decision:D-76
  Scenario: A session the target opens goes on when the response sets a reserved InternalHeader flag
    Given "remote" answers a session the target opens to it with the reserved InternalHeader flag X5 set
    And message "t1" is prepared with:
      | delivery | recoverable |
    When "remote" sends the prepared message "t1" to "orders" with packet fields:
      | TH | 1 |
    Then "remote" received a FinalAck of class MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q for "t1"
    And a session the target opened to "remote", if it opened one (D-76 new-session), began as an initiator's does
