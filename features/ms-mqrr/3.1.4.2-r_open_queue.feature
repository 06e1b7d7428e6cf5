Feature: MS-MQRR 3.1.4.2 R_OpenQueue (Opnum 2)
  R_OpenQueue turns a QUEUE_FORMAT into a context handle for the other methods; the
  access and share mode asked for decide what the handle may do and who else may open.

  Background:
    Given a queue "orders"
    And a subqueue "sub" of "orders"
    And "orders" holds "m1"

  @clause:MS-MQRR:3.1.4.2:02 @clause:MS-MQRR:3.1.4.2:15
  Scenario Outline: Every queue-format type the method allows opens its queue (<kind>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat   | dwAccess    | dwShareMode  |
      | <queue format> | PEEK_ACCESS | MQ_DENY_NONE |
    Then the call returns MQ_OK
    And "h" is a usable queue handle
    And "h" is a 20-byte context handle

    Examples:
      | kind                   | queue format                                                  |
      | the created name       | orders                                                        |
      | private                | PRIVATE={queue manager}\{private number of orders}            |
      | direct                 | DIRECT=OS:{computer}\private$\{name of orders}                |
      | direct, queue journal  | DIRECT=OS:{computer}\private$\{name of orders};JOURNAL        |
      | machine dead letter    | MACHINE={queue manager};DEADLETTER                            |
      | machine journal        | MACHINE={queue manager};JOURNAL                               |
      | subqueue               | DIRECT=OS:{computer}\private$\{name of orders};sub            |

  @clause:MS-MQRR:3.1.4.2:02 @clause:MS-MQRR:3.1.4.2:12
  Scenario Outline: A queue-format type outside the allowed five is invalid input (<type>)
    Given a QUEUE_FORMAT "other" with:
      | m_qft            | <type>       |
      | m_SuffixAndFlags | <suffix>     |
      | identifier       | <identifier> |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess       |
      | other        | RECEIVE_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | type                        | suffix                   | identifier      |
      | QUEUE_FORMAT_TYPE_UNKNOWN   | QUEUE_SUFFIX_TYPE_NONE   |                 |
      | QUEUE_FORMAT_TYPE_CONNECTOR | QUEUE_SUFFIX_TYPE_NONE   | {unknown guid}  |
      | QUEUE_FORMAT_TYPE_CONNECTOR | QUEUE_SUFFIX_TYPE_XACTONLY | {unknown guid} |
      | QUEUE_FORMAT_TYPE_DL        | QUEUE_SUFFIX_TYPE_NONE   | {unknown guid}  |
      | QUEUE_FORMAT_TYPE_MULTICAST | QUEUE_SUFFIX_TYPE_NONE   | 224.0.0.1:1801  |
      | 9                           | QUEUE_SUFFIX_TYPE_NONE   |                 |

  @clause:MS-MQRR:3.1.4.2:02 @clause:MS-MQRR:3.1.4.2:12
  Scenario: A NULL pQueueFormat is invalid input
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess       |
      | NULL         | RECEIVE_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

  @clause:MS-MQRR:3.1.4.2:12
  Scenario Outline: A queue name the grammar or this protocol does not allow is invalid input (<why>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat   | dwAccess       |
      | <queue format> | RECEIVE_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | why                          | queue format                                                  |
      | HTTP is not a remote-read protocol | DIRECT=HTTP://{computer}/msmq/private$/{name of orders} |
      | HTTPS is not either          | DIRECT=HTTPS://{computer}/msmq/private$/{name of orders}      |
      | IPX is not either            | DIRECT=IPX:00000001:00a0c9123456\private$\{name of orders}    |
      | unknown protocol             | DIRECT=SMTP:{computer}\private$\{name of orders}              |
      | no queue after the address   | DIRECT=OS:{computer}                                          |
      | not a dotted IPv4 address    | DIRECT=TCP:300.1.2.3\private$\{name of orders}                |
      | dead-letter suffix on a queue | DIRECT=OS:{computer}\private$\{name of orders};DEADLETTER    |

  @clause:MS-MQRR:3.1.4.2:13
  Scenario Outline: A well-formed name of a queue the queue manager does not have is not found (<kind>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat   | dwAccess       |
      | <queue format> | RECEIVE_ACCESS |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

    Examples:
      | kind                   | queue format                                                  |
      | no such private queue  | DIRECT=OS:{computer}\private$\{name of nowhere}               |
      | no such public queue   | PUBLIC={unknown guid}                                         |
      | another machine        | MACHINE={unknown guid};JOURNAL                                |
      | another host by TCP    | DIRECT=TCP:192.0.2.7\private$\{name of orders}                |
      | no such queue number   | PRIVATE={queue manager}\00ffffff                              |

  # D-22: how a subqueue comes to exist is left to the protocol that creates it; a server may
  # create it when it is first named
  @clause:MS-MQRR:3.1.4.2:13 @decision:D-22
  Scenario: A subqueue nobody created is not found, or comes into being when it is named
    When R_OpenQueue is called as "h" with:
      | pQueueFormat                                             | dwAccess       |
      | DIRECT=OS:{computer}\private$\{name of orders};nosuchsub | RECEIVE_ACCESS |
    Then by D-22 the call returns MQ_ERROR_QUEUE_NOT_FOUND (explicit) or MQ_OK (implicit)

  @clause:MS-MQRR:3.1.4.2:13
  Scenario: A queue that was deleted is not found any more
    Given queue "orders" is deleted
    When R_OpenQueue is called as "h" with:
      | pQueueFormat                                   | dwAccess       |
      | DIRECT=OS:{computer}\private$\{name of orders} | RECEIVE_ACCESS |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

  @clause:MS-MQRR:3.1.4.2:14
  Scenario Outline: RECEIVE_ACCESS gives a receiving handle, every other dwAccess a peeking one (<access>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess | dwShareMode  |
      | orders       | <access> | MQ_DENY_NONE |
    Then the call returns MQ_OK
    When the client peeks at "h"
    Then the call returns MQ_OK
    And the message returned is "m1"
    When the client receives from "h"
    Then the call returns <receive>
    And "orders" holds <left>

    Examples:
      | access         | receive | left    |
      | RECEIVE_ACCESS | MQ_OK   | nothing |

  # D-49: no processing step checks the handle's access; permitting the action is the client's MUST, so a
  # receive through a peeking handle is refused (check) or goes on (no-check)
  @clause:MS-MQRR:3.1.4.2:14 @decision:D-49
  Scenario: PEEK_ACCESS gives a peeking handle, whose receive is refused or left to the client
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    | dwShareMode  |
      | orders       | PEEK_ACCESS | MQ_DENY_NONE |
    Then the call returns MQ_OK
    When the client peeks at "h"
    Then the call returns MQ_OK
    And the message returned is "m1"
    When the client receives from "h"
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And by D-49 "orders" holds "m1" (check) or nothing (no-check)

  # D-42: the mapping makes any value but RECEIVE_ACCESS PeekAccess, while the table lists two values and
  # step 1 may refuse any other as invalid input; a peeking handle sets no sharing rule (MS-MQDMPR 3.1.7.1.5),
  # a receiving one would keep out a receiver that denies sharing
  @clause:MS-MQRR:3.1.4.2:14 @decision:D-42
  Scenario Outline: A dwAccess outside the table gives a peeking handle, or is refused as invalid input (<access>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess | dwShareMode  |
      | orders       | <access> | MQ_DENY_NONE |
    Then by D-42 the call returns MQ_OK (any-is-peek) or MQ_ERROR_INVALID_PARAMETER (refuse-unknown)
    And where D-42 is any-is-peek, "h" is a usable queue handle
    When R_OpenQueue is called as "exclusive" with:
      | pQueueFormat | dwAccess       | dwShareMode   |
      | orders       | RECEIVE_ACCESS | MQ_DENY_SHARE |
    Then the call returns MQ_OK
    And "orders" holds "m1"

    Examples:
      | access      |
      | SEND_ACCESS |
      | 0x00000000  |
      | 0x00000021  |

  @clause:MS-MQRR:3.1.4.2:14
  Scenario: MQ_DENY_NONE shares the queue with other receivers
    When R_OpenQueue is called as "first" with:
      | pQueueFormat | dwAccess       | dwShareMode  |
      | orders       | RECEIVE_ACCESS | MQ_DENY_NONE |
    Then the call returns MQ_OK
    When R_OpenQueue is called as "second" with:
      | pQueueFormat | dwAccess       | dwShareMode  |
      | orders       | RECEIVE_ACCESS | MQ_DENY_NONE |
    Then the call returns MQ_OK

  # D-43: R_OpenQueue names no status for a failed Open Queue, only a failure
  @clause:MS-MQRR:3.1.4.2:14 @decision:D-43
  Scenario: MQ_DENY_SHARE denies other receivers
    When R_OpenQueue is called as "first" with:
      | pQueueFormat | dwAccess       | dwShareMode   |
      | orders       | RECEIVE_ACCESS | MQ_DENY_SHARE |
    Then the call returns MQ_OK
    When R_OpenQueue is called as "second" with:
      | pQueueFormat | dwAccess       | dwShareMode  |
      | orders       | RECEIVE_ACCESS | MQ_DENY_NONE |
    Then by D-43 the call returns MQ_ERROR_SHARING_VIOLATION (open-status) or any other failure (other-failure)

  # D-73: the mapping makes any value but MQ_DENY_NONE DenyReceive, while the parameter lists two values
  # and step 1 may refuse any other as invalid input
  @clause:MS-MQRR:3.1.4.2:14 @decision:D-73 @decision:D-43
  Scenario: A dwShareMode outside the table denies other receivers, or is refused as invalid input
    When R_OpenQueue is called as "first" with:
      | pQueueFormat | dwAccess       | dwShareMode |
      | orders       | RECEIVE_ACCESS | 0x00000007  |
    Then by D-73 the call returns MQ_OK (deny-receive) or MQ_ERROR_INVALID_PARAMETER (refuse-unknown)
    When R_OpenQueue is called as "second" with:
      | pQueueFormat | dwAccess       | dwShareMode  |
      | orders       | RECEIVE_ACCESS | MQ_DENY_NONE |
    Then where D-73 is deny-receive, by D-43 the call returns MQ_ERROR_SHARING_VIOLATION (open-status) or any other failure (other-failure)
    And where D-73 is refuse-unknown, the call returns MQ_OK

  @clause:MS-MQRR:3.1.4.2:14 @decision:D-43
  Scenario: A peeking handle that denies sharing still lets other peekers in but no receiver
    When R_OpenQueue is called as "first" with:
      | pQueueFormat | dwAccess    | dwShareMode   |
      | orders       | PEEK_ACCESS | MQ_DENY_SHARE |
    Then the call returns MQ_OK
    When R_OpenQueue is called as "peeker" with:
      | pQueueFormat | dwAccess    | dwShareMode  |
      | orders       | PEEK_ACCESS | MQ_DENY_NONE |
    Then the call returns MQ_OK
    When R_OpenQueue is called as "receiver" with:
      | pQueueFormat | dwAccess       | dwShareMode  |
      | orders       | RECEIVE_ACCESS | MQ_DENY_NONE |
    Then by D-43 the call returns MQ_ERROR_SHARING_VIOLATION (open-status) or any other failure (other-failure)

  @clause:MS-MQRR:3.1.4.2:15
  Scenario: Each successful open hands out a handle of its own
    When R_OpenQueue is called as "h1" with:
      | pQueueFormat | dwAccess       |
      | orders       | RECEIVE_ACCESS |
    And R_OpenQueue is called as "h2" with:
      | pQueueFormat | dwAccess       |
      | orders       | RECEIVE_ACCESS |
    Then the handles "h1" and "h2" are not the same
    And "h1" is a usable queue handle
    When R_CloseQueue is called on "h1"
    Then the call returns MQ_OK
    And "h2" is a usable queue handle

  @clause:MS-MQRR:3.1.4.2:04 @clause:MS-MQRR:3.1.4.2:06
  Scenario Outline: The client identifier does not change the outcome (<client id>, fNonRoutingServer <routing>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess       | pClientId   | fNonRoutingServer |
      | orders       | RECEIVE_ACCESS | <client id> | <routing>         |
    Then the call returns MQ_OK
    When the client receives from "h"
    Then the message returned is "m1"

    Examples:
      | client id                      | routing |
      | random client A                | TRUE    |
      | zero                           | TRUE    |
      | the queue manager's identifier | TRUE    |
      | random client B                | FALSE   |
      | zero                           | FALSE   |

  @clause:MS-MQRR:3.1.4.2:04
  Scenario: Many distinct client identifiers are all served
    When R_OpenQueue is called as "h1" with:
      | pQueueFormat | dwAccess    | pClientId       |
      | orders       | PEEK_ACCESS | random client 1 |
    And R_OpenQueue is called as "h2" with:
      | pQueueFormat | dwAccess    | pClientId       |
      | orders       | PEEK_ACCESS | random client 2 |
    And R_OpenQueue is called as "h3" with:
      | pQueueFormat | dwAccess    | pClientId       |
      | orders       | PEEK_ACCESS | random client 3 |
    Then the call returns MQ_OK
    And "h1" is a usable queue handle
    And "h2" is a usable queue handle
    And "h3" is a usable queue handle

  @clause:MS-MQRR:3.1.4.2:16
  Scenario Outline: The client's version numbers do not change the outcome (<major>.<minor>.<build>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess       | Major   | Minor   | BuildNumber | fWorkgroup |
      | orders       | RECEIVE_ACCESS | <major> | <minor> | <build>     | <workgroup> |
    Then the call returns MQ_OK
    When the client receives from "h"
    Then the message returned is "m1"

    Examples:
      | major | minor | build | workgroup |
      | 0     | 0     | 0     | FALSE     |
      | 5     | 1     | 2600  | TRUE      |
      | 6     | 3     | 9600  | FALSE     |
      | 10    | 0     | 20348 | TRUE      |
      | 255   | 255   | 65535 | FALSE     |

  @clause:MS-MQRR:3.1.4.2:09
  Scenario: With the fWorkgroup policy a client in a domain must open at packet privacy, one in a workgroup need not
    Given the target requires packet privacy of a client that says it is in a domain
    When the second identity at connect opens "orders" with RECEIVE_ACCESS and fWorkgroup 0 as "weak"
    Then the open is refused for its authentication level
    When the second identity at integrity opens "orders" with RECEIVE_ACCESS and fWorkgroup 0 as "signed"
    Then the open is refused for its authentication level
    When the second identity at connect opens "orders" with RECEIVE_ACCESS and fWorkgroup 1 as "workgroup"
    Then the call returns MQ_OK
    When the second identity at privacy opens "orders" with RECEIVE_ACCESS and fWorkgroup 0 as "sealed"
    Then the call returns MQ_OK

  @clause:MS-MQRR:3.1.4.2:09
  Scenario: Without the policy the level of an open does not depend on fWorkgroup
    When the second identity at connect opens "orders" with RECEIVE_ACCESS and fWorkgroup 0 as "weak"
    Then the call returns MQ_OK

  @clause:MS-MQRR:3.1.4.2:09
  Scenario: With the fWorkgroup policy R_OpenQueueForMove asks the same level as R_OpenQueue
    Given the target requires packet privacy of a client that says it is in a domain
    When the second identity at connect opens "orders" for move with fWorkgroup 0 as "weak"
    Then the open is refused for its authentication level
    When the second identity at integrity opens "orders" for move with fWorkgroup 0 as "signed"
    Then the open is refused for its authentication level
    When the second identity at connect opens "orders" for move with fWorkgroup 1 as "workgroup"
    Then the open is granted
