Feature: MS-MQMQ 2.2.7 QUEUE_FORMAT
  QUEUE_FORMAT is the binary queue name of RPC calls: m_qft says which identifier follows,
  and the suffix nibble of m_SuffixAndFlags must fit both the type and the flags nibble.

  Background:
    Given a queue "orders"
    And a subqueue "sub" of "orders"
    And "orders" holds "m1"

  @clause:MS-MQMQ:2.2.7:01
  Scenario Outline: m_qft decides how the identifier is read (<type>)
    Given a QUEUE_FORMAT "name" with:
      | m_qft            | <type>       |
      | m_SuffixAndFlags | <suffix>     |
      | identifier       | <identifier> |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | name         | PEEK_ACCESS |
    Then the call returns <status>

    Examples:
      | type                        | suffix                     | identifier                                         | status                     |
      | QUEUE_FORMAT_TYPE_PRIVATE   | QUEUE_SUFFIX_TYPE_NONE     | {queue manager}\{private number of orders}         | MQ_OK                      |
      | QUEUE_FORMAT_TYPE_DIRECT    | QUEUE_SUFFIX_TYPE_NONE     | OS:{computer}\private$\{name of orders}            | MQ_OK                      |
      | QUEUE_FORMAT_TYPE_MACHINE   | QUEUE_FORMAT_FLAG_SYSTEM \| QUEUE_SUFFIX_TYPE_DEADLETTER | {queue manager} | MQ_OK   |
      | QUEUE_FORMAT_TYPE_SUBQUEUE  | QUEUE_SUFFIX_TYPE_SUBQUEUE | OS:{computer}\private$\{name of orders};sub        | MQ_OK                      |
      | QUEUE_FORMAT_TYPE_PUBLIC    | QUEUE_SUFFIX_TYPE_NONE     | {unknown guid}                                     | MQ_ERROR_QUEUE_NOT_FOUND   |
      | QUEUE_FORMAT_TYPE_UNKNOWN   | QUEUE_SUFFIX_TYPE_NONE     |                                                    | MQ_ERROR_INVALID_PARAMETER |
      | 9                           | QUEUE_SUFFIX_TYPE_NONE     |                                                    | MQ_ERROR_INVALID_PARAMETER |
      | 255                         | QUEUE_SUFFIX_TYPE_NONE     |                                                    | MQ_ERROR_INVALID_PARAMETER |

  @clause:MS-MQMQ:2.2.7:01
  Scenario: The same queue reached through two kinds of QUEUE_FORMAT is one queue
    Given "orders" is opened with RECEIVE_ACCESS as "by number"
    When R_OpenQueue is called as "by name" with:
      | pQueueFormat                                   | dwAccess    |
      | DIRECT=OS:{computer}\private$\{name of orders} | PEEK_ACCESS |
    And the client receives from "by number"
    And the client peeks at "by name"
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQMQ:2.2.7:02
  Scenario Outline: Suffix, flags and type go together as the suffix table says (<type>, 0x<suffix and flags>)
    Given a QUEUE_FORMAT "name" with:
      | m_qft            | <type>                 |
      | m_SuffixAndFlags | 0x<suffix and flags>   |
      | identifier       | <identifier>           |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | name         | PEEK_ACCESS |
    Then the call returns <status>

    Examples: allowed combinations
      | type                       | suffix and flags | identifier                                  | status                   |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 00               | {queue manager}\{private number of orders}  | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 81               | {queue manager}\{private number of orders}  | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_DIRECT   | 81               | OS:{computer}\private$\{name of orders}     | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_DIRECT   | 82               | OS:{computer}                               | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_DIRECT   | 83               | OS:{computer}                               | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_MACHINE  | 81               | {queue manager}                             | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_MACHINE  | 82               | {queue manager}                             | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_MACHINE  | 83               | {queue manager}                             | MQ_OK                    |
      | QUEUE_FORMAT_TYPE_PUBLIC   | 81               | {unknown guid}                              | MQ_ERROR_QUEUE_NOT_FOUND |
      | QUEUE_FORMAT_TYPE_SUBQUEUE | 05               | OS:{computer}\private$\{name of orders};sub | MQ_OK                    |

    Examples: combinations the table forbids
      | type                       | suffix and flags | identifier                                  | status                     |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 80               | {queue manager}\{private number of orders}  | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 01               | {queue manager}\{private number of orders}  | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 82               | {queue manager}\{private number of orders}  | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 83               | {queue manager}\{private number of orders}  | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 04               | {queue manager}\{private number of orders}  | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_PRIVATE  | 05               | {queue manager}\{private number of orders}  | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_PUBLIC   | 82               | {unknown guid}                              | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_DIRECT   | 02               | OS:{computer}                               | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_DIRECT   | 05               | OS:{computer}\private$\{name of orders};sub | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_MACHINE  | 00               | {queue manager}                             | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_MACHINE  | 80               | {queue manager}                             | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_MACHINE  | 05               | {queue manager}                             | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_SUBQUEUE | 85               | OS:{computer}\private$\{name of orders};sub | MQ_ERROR_INVALID_PARAMETER |
      | QUEUE_FORMAT_TYPE_DIRECT   | 06               | OS:{computer}\private$\{name of orders}     | MQ_ERROR_INVALID_PARAMETER |

  @clause:MS-MQMQ:2.2.7:03
  Scenario Outline: Whatever the client puts in m_reserved, the server does not use it (<reserved>)
    Given a QUEUE_FORMAT "name" with:
      | m_qft      | QUEUE_FORMAT_TYPE_DIRECT                |
      | m_reserved | <reserved>                              |
      | identifier | OS:{computer}\private$\{name of orders} |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess       |
      | name         | RECEIVE_ACCESS |
    Then the call returns MQ_OK
    When the client receives from "h"
    Then the message returned is "m1"

    Examples:
      | reserved |
      | 0        |
      | 1        |
      | 0xFFFF   |

  @clause:MS-MQMQ:2.2.7:04
  Scenario: A subqueue QUEUE_FORMAT opens the subqueue its direct name ends with
    Given a QUEUE_FORMAT "name" with:
      | m_qft            | QUEUE_FORMAT_TYPE_SUBQUEUE                  |
      | m_SuffixAndFlags | QUEUE_SUFFIX_TYPE_SUBQUEUE                  |
      | identifier       | OS:{computer}\private$\{name of orders};sub |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | name         | PEEK_ACCESS |
    Then the call returns MQ_OK
    When the client peeks at "h"
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQMQ:2.2.7:04
  Scenario Outline: A subqueue QUEUE_FORMAT whose direct name has no subqueue is invalid input (<suffix>)
    Given a QUEUE_FORMAT "name" with:
      | m_qft            | QUEUE_FORMAT_TYPE_SUBQUEUE              |
      | m_SuffixAndFlags | <suffix>                                |
      | identifier       | OS:{computer}\private$\{name of orders} |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | name         | PEEK_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | suffix                     |
      | QUEUE_SUFFIX_TYPE_SUBQUEUE |
      | QUEUE_SUFFIX_TYPE_NONE     |
