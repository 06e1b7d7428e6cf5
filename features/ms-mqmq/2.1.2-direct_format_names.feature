@clause:MS-MQMQ:2.1.2:01
Feature: MS-MQMQ 2.1.2 Direct Format Names
  A direct format name reaches a queue by protocol and host address plus the queue's path,
  with DIRECT= in front; remote read accepts the TCP and OS protocols.

  Background:
    Given a queue "orders"
    And a subqueue "sub" of "orders"

  Scenario Outline: A direct name of one of this queue manager's queues opens it (<form>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_OK
    And "h" is a usable queue handle

    Examples:
      | form                        | name                                                   |
      | a private queue             | DIRECT=OS:{computer}\private$\{name of orders}         |
      | a private queue by address  | DIRECT=TCP:{address}\private$\{name of orders}        |
      | keywords in other cases     | direct=os:{computer}\PRIVATE$\{name of orders}         |
      | a queue journal             | DIRECT=OS:{computer}\private$\{name of orders};JOURNAL |
      | a subqueue                  | DIRECT=OS:{computer}\private$\{name of orders};sub     |
      | the computer journal        | DIRECT=OS:{computer}\SYSTEM$;JOURNAL                   |
      | the dead-letter queue       | DIRECT=OS:{computer}\SYSTEM$;DEADLETTER                |
      | the transactional dead-letter queue | DIRECT=OS:{computer}\SYSTEM$;DEADXACT          |

  Scenario Outline: A well-formed direct name of a queue that is not here is not found (<form>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

    Examples:
      | form                  | name                                            |
      | another host by TCP   | DIRECT=TCP:192.0.2.7\private$\{name of orders}  |
      | no such private queue | DIRECT=OS:{computer}\private$\{name of nowhere} |
      | no such public queue  | DIRECT=OS:{computer}\{name of nowhere}          |

  Scenario Outline: A direct name the grammar does not allow is invalid input (<why>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | why                              | name                                                      |
      | an unknown protocol              | DIRECT=SMTP:{computer}\private$\{name of orders}          |
      | no protocol separator            | DIRECT=OS{computer}\private$\{name of orders}             |
      | no address                       | DIRECT=OS:\private$\{name of orders}                      |
      | no queue after the address       | DIRECT=OS:{computer}                                      |
      | a host name where TCP needs an IP address | DIRECT=TCP:{computer}\private$\{name of orders}  |
      | an address octet above 255       | DIRECT=TCP:10.0.0.256\private$\{name of orders}           |
      | a system queue suffix no one has | DIRECT=OS:{computer}\SYSTEM$;XACTONLY                     |
      | a machine suffix on a queue      | DIRECT=OS:{computer}\private$\{name of orders};DEADLETTER |
      | a subqueue of 33 characters      | DIRECT=OS:{computer}\private$\{name of orders};{33 × s}   |

  Scenario Outline: The HTTP forms are direct names, but not ones remote read takes (<form>)
    When a message is sent to the format name "<name>"
    Then the format name was not refused as illegal
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | form           | name                                                          |
      | HTTP           | DIRECT=HTTP://{computer}/msmq/private$/{name of orders}       |
      | HTTPS          | DIRECT=HTTPS://{computer}/msmq/private$/{name of orders}      |
      | HTTP with port | DIRECT=HTTP://{computer}:8080/msmq/private$/{name of orders}  |

  Scenario Outline: A malformed direct name is refused as illegal when a message is sent to it (<why>)
    When a message is sent to the format name "<name>"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME

    Examples:
      | why                         | name                                          |
      | HTTP without the slashes    | DIRECT=HTTP:{computer}/msmq/private$/x        |
      | nothing after the protocol  | DIRECT=OS:                                    |
      | nothing after DIRECT=       | DIRECT=                                       |
      | an unknown format-name type | DIRECTLY=OS:{computer}\private$\{name of orders} |

  # An HTTP name whose address is the bare computer name names no queue of it: malformed, or not found here.
  Scenario: A direct HTTP name with nothing after the host is refused
    When a message is sent to the format name "DIRECT=HTTP://{computer}"
    Then the send fails

  # A message keeps its administration and response queues as queue formats (MS-MQMQ 2.2.18.1.5): a name that
  # does not parse cannot be kept, so the send is refused as one to such a name is.
  Scenario Outline: A malformed direct name as the <which> queue refuses the send as illegal (<why>)
    When message "m" is sent to "orders" carrying:
      | <which> format name | <name> |
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME
    And "orders" holds nothing

    Examples:
      | which    | why                        | name                   |
      | admin    | nothing after the protocol | DIRECT=OS:             |
      | response | nothing after the protocol | DIRECT=OS:             |
      | admin    | HTTP without the slashes   | DIRECT=HTTP:{computer}/msmq/private$/x |
      | response | nothing after DIRECT=      | DIRECT=                |

  Scenario: A message sent by direct name reaches the queue
    When a message is sent to the format name "DIRECT=OS:{computer}\private$\{name of orders}"
    Then the send is accepted with status 0
    And "orders" holds "by format name"
