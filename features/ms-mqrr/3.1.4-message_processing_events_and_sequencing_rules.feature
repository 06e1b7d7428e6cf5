Feature: MS-MQRR 3.1.4 Message Processing Events and Sequencing Rules
  The server checks every request stub strictly (NDR consistency at target level 6.0): a stub
  whose sizes, counts, strings, union arms or ranges disagree never reaches a method, and the
  server goes on serving.

  Background:
    Given the calls travel over DCE/RPC
    And a queue "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.4:01
  Scenario Outline: A request stub that breaks an NDR consistency rule is refused before the method runs (<method>: <defect>)
    When the client sends <method> with a stub whose <defect>
    Then the RPC runtime refused the stub as malformed
    And "orders" holds "m1"

    Examples:
      | method                      | defect                                                       |
      | R_QMEnlistRemoteTransaction | pbPropagationToken max count differs from cbPropagationToken |
      | R_QMEnlistRemoteTransaction | pbPropagationToken runs past the end of the stub             |
      | R_OpenQueue                 | DIRECT format name has a nonzero offset                      |
      | R_OpenQueue                 | DIRECT format name has an actual count above its max count   |
      | R_OpenQueue                 | DIRECT format name lacks its terminating NUL                 |
      | R_OpenQueue                 | QUEUE_FORMAT union tag is not its m_qft                      |
      | R_OpenQueue                 | stub is cut short inside pClientId                           |
      | R_StartReceive              | stub is cut short after hCursor                              |

  @clause:MS-MQRR:3.1.4:01
  Scenario: A cbPropagationToken above range(0,131072) is refused by the RPC runtime
    When the client sends R_QMEnlistRemoteTransaction with a stub whose cbPropagationToken is 131073
    Then the call returns RPC_X_INVALID_BOUND
    And "orders" holds "m1"
