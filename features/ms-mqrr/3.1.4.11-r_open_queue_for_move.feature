Feature: MS-MQRR 3.1.4.11 R_OpenQueueForMove (Opnum 11)
  R_OpenQueueForMove opens the destination of a later R_MoveMessage: the handle has move
  access only, and a random move context stands for it in the move call.

  Background:
    Given a queue "orders"
    And a subqueue "sub" of "orders"
    And "orders" holds "m1"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  @clause:MS-MQRR:3.1.4.11:08 @clause:MS-MQRR:3.1.4.11:10
  Scenario: The move context returned stands for the new handle in R_MoveMessage
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat                                       | dwAccess       | dwShareMode  |
      | DIRECT=OS:{computer}\private$\{name of orders};sub | MQ_MOVE_ACCESS | MQ_DENY_NONE |
    Then the call returns MQ_OK
    And the move context of "mv" is not zero
    And "mv" is a usable queue handle
    And "mv" is a 20-byte context handle
    When the client moves "m1" from "h" through the move context of "mv"
    Then the call returns MQ_OK
    And "orders;sub" holds "m1"
    And "orders" holds nothing

  @clause:MS-MQRR:3.1.4.11:08
  Scenario: Each open hands out its own handle and move context
    When R_OpenQueueForMove is called as "mv1" with:
      | pQueueFormat |
      | orders;sub   |
    And R_OpenQueueForMove is called as "mv2" with:
      | pQueueFormat |
      | orders;sub   |
    Then the call returns MQ_OK
    And the handles "mv1" and "mv2" are not the same
    And the move contexts of "mv1" and "mv2" are all different and nonzero

  # pMoveContext is a ULONGLONG: a value the reply cannot carry is no move context at all
  @clause:MS-MQRR:3.1.4.11:08
  Scenario: Every move context handed out fits a ULONGLONG
    When R_OpenQueueForMove is called as "mv1" with:
      | pQueueFormat |
      | orders;sub   |
    And R_OpenQueueForMove is called as "mv2" with:
      | pQueueFormat |
      | orders;sub   |
    And R_OpenQueueForMove is called as "mv3" with:
      | pQueueFormat |
      | orders;sub   |
    And R_OpenQueueForMove is called as "mv4" with:
      | pQueueFormat |
      | orders;sub   |
    Then the move contexts of "mv1", "mv2", "mv3" and "mv4" fit a ULONGLONG

  @clause:MS-MQRR:3.1.4.11:08
  Scenario: A closed move handle takes its move context with it
    Given R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat |
      | orders;sub   |
    When R_CloseQueue is called on "mv"
    Then the call returns MQ_OK
    When the client moves "m1" from "h" through the move context of "mv"
    Then the call returns MQ_ERROR_INVALID_HANDLE
    And "orders" holds "m1"

  @clause:MS-MQRR:3.1.4.11:10
  Scenario Outline: A destination the queue manager does not have is not found (<kind>)
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat   |
      | <queue format> |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

    Examples:
      | kind             | queue format                                             |
      | no such queue    | DIRECT=OS:{computer}\private$\{name of nowhere}          |
      | another machine  | MACHINE={unknown guid};DEADLETTER                        |
      | no such public   | PUBLIC={unknown guid}                                    |

  # D-22: a server may create a subqueue when it is first named
  @clause:MS-MQRR:3.1.4.11:10 @decision:D-22
  Scenario: A destination subqueue nobody created is not found, or comes into being when it is named
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat                                             |
      | DIRECT=OS:{computer}\private$\{name of orders};nosuchsub |
    Then by D-22 the call returns MQ_ERROR_QUEUE_NOT_FOUND (explicit) or MQ_OK (implicit)

  # D-49: reads through a move handle are refused (check) or left to the client's duty (no-check); the
  # purge keeps its own explicit access test
  @clause:MS-MQRR:3.1.4.11:10 @decision:D-49
  Scenario Outline: The handle has move access whatever dwAccess asked for (<access>)
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat | dwAccess |
      | orders       | <access> |
    Then the call returns MQ_OK
    When the client peeks at "mv"
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    When the client receives from "mv"
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    When R_PurgeQueue is called on "mv"
    Then the call returns STATUS_ACCESS_DENIED
    And by D-49 "orders" holds "m1" (check) or nothing (no-check)

    Examples:
      | access         |
      | MQ_MOVE_ACCESS |
      | RECEIVE_ACCESS |
      | PEEK_ACCESS    |

  # D-43: like R_OpenQueue, 3.1.4.11 names no status for a failed Open Queue, only a failure
  @clause:MS-MQRR:3.1.4.11:10 @decision:D-43
  Scenario: A destination that cannot be shared as asked is refused
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat | dwShareMode   |
      | orders       | MQ_DENY_SHARE |
    Then by D-43 the call returns MQ_ERROR_SHARING_VIOLATION (open-status) or any other failure (other-failure)
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat | dwShareMode  |
      | orders       | MQ_DENY_NONE |
    Then the call returns MQ_OK

  @clause:MS-MQRR:3.1.4.11:02
  Scenario: A NULL pQueueFormat is refused
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat |
      | NULL         |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

  @clause:MS-MQRR:3.1.4.11:02
  Scenario Outline: A queue-format type outside the allowed five is refused (<type>)
    Given a QUEUE_FORMAT "other" with:
      | m_qft      | <type>         |
      | identifier | {unknown guid} |
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat |
      | other        |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | type                        |
      | QUEUE_FORMAT_TYPE_UNKNOWN   |
      | QUEUE_FORMAT_TYPE_CONNECTOR |
      | QUEUE_FORMAT_TYPE_DL        |

  @clause:MS-MQRR:3.1.4.11:02
  Scenario Outline: Each allowed queue-format type opens a move destination (<kind>)
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat   |
      | <queue format> |
    Then the call returns MQ_OK
    And the move context of "mv" is not zero

    Examples:
      | kind     | queue format                                       |
      | private  | PRIVATE={queue manager}\{private number of orders} |
      | direct   | DIRECT=OS:{computer}\private$\{name of orders}     |
      | subqueue | DIRECT=OS:{computer}\private$\{name of orders};sub |
      | machine  | MACHINE={queue manager};DEADLETTER                 |

  @clause:MS-MQRR:3.1.4.11:05 @clause:MS-MQRR:3.1.4.11:11
  Scenario Outline: The client identifier does not change the outcome (<client id>, fNonRoutingServer <routing>)
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat | pClientId   | fNonRoutingServer |
      | orders;sub   | <client id> | <routing>         |
    Then the call returns MQ_OK
    When the client moves "m1" from "h" through the move context of "mv"
    Then the call returns MQ_OK
    And "orders;sub" holds "m1"

    Examples:
      | client id                      | routing |
      | random client A                | TRUE    |
      | zero                           | TRUE    |
      | random client B                | FALSE   |
      | zero                           | FALSE   |
      | the queue manager's identifier | FALSE   |

  @clause:MS-MQRR:3.1.4.11:12
  Scenario Outline: The client's version numbers do not change the outcome (<major>.<minor>.<build>)
    When R_OpenQueueForMove is called as "mv" with:
      | pQueueFormat | Major   | Minor   | BuildNumber |
      | orders;sub   | <major> | <minor> | <build>     |
    Then the call returns MQ_OK
    When the client moves "m1" from "h" through the move context of "mv"
    Then the call returns MQ_OK
    And "orders;sub" holds "m1"

    Examples:
      | major | minor | build |
      | 0     | 0     | 0     |
      | 6     | 3     | 9600  |
      | 255   | 255   | 65535 |
