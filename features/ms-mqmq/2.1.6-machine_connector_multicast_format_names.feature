@clause:MS-MQMQ:2.1.6:01
Feature: MS-MQMQ 2.1.6 Machine, Connector, and Multicast Format Names
  MACHINE= and a computer GUID names that computer's journal and dead-letter queues,
  CONNECTOR= and a GUID a connector queue, MULTICAST= a class D address and a port.

  Scenario Outline: A machine name with a system-queue suffix opens that queue (<name>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_OK
    And "h" is a usable queue handle

    Examples:
      | name                                |
      | MACHINE={queue manager};JOURNAL     |
      | MACHINE={queue manager};DEADLETTER  |
      | MACHINE={queue manager};DEADXACT    |
      | machine={queue manager};deadletter  |

  Scenario Outline: A machine name that designates no queue here is not found (<why>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

    Examples:
      | why                      | name                            |
      | another computer         | MACHINE={unknown guid};JOURNAL  |
      | another computer's dead-letter queue | MACHINE={unknown guid};DEADLETTER |

  Scenario: A machine QUEUE_FORMAT without a system-queue suffix is invalid input
    When R_OpenQueue is called as "h" with:
      | pQueueFormat            | dwAccess    |
      | MACHINE={queue manager} | PEEK_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

  Scenario: The machine's queues cannot be sent to
    When a message is sent to the format name "MACHINE={queue manager};DEADLETTER"
    Then the send is refused with MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION

  Scenario Outline: Well-formed machine, connector and multicast names are taken as names (<name>)
    When a message is sent to the format name "<name>"
    Then the format name was not refused as illegal

    Examples:
      | name                            |
      | MACHINE={queue manager}         |
      | MACHINE={unknown guid};JOURNAL  |
      | CONNECTOR={unknown guid}        |
      | MULTICAST=224.0.0.1:1801        |
      | MULTICAST=230.1.2.3:80          |
      | MULTICAST=239.255.255.255:65535 |

  Scenario Outline: A machine, connector or multicast name the grammar does not allow is refused as illegal (<why>)
    When a message is sent to the format name "<name>"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME

    Examples:
      | why                                  | name                             |
      | a machine that is not a GUID         | MACHINE=1234;JOURNAL             |
      | a suffix no machine queue has        | MACHINE={queue manager};XACTONLY |
      | a connector without a GUID           | CONNECTOR=                       |
      | a connector that is not a GUID       | CONNECTOR=1234                   |
      | an address below the class D range   | MULTICAST=223.255.255.255:80     |
      | an address above the class D range   | MULTICAST=240.0.0.1:80           |
      | no port                              | MULTICAST=224.0.0.1              |
      | a port above 65535                   | MULTICAST=224.0.0.1:65536        |
      | an octet above 255                   | MULTICAST=224.0.0.256:80         |
      | three octets                         | MULTICAST=224.0.0:80             |


  Scenario: A multicast port of 0 is allowed by the grammar
    When a message is sent to the format name "MULTICAST=224.0.0.1:0"
    Then the format name was not refused as illegal


  Scenario: A multicast address octet with a leading zero is not allowed by the grammar
    When a message is sent to the format name "MULTICAST=224.0.0.01:80"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME

  Scenario Outline: Connector and multicast queues cannot be opened for reading (<type>)
    Given a QUEUE_FORMAT "other" with:
      | m_qft      | <type>       |
      | identifier | <identifier> |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | other        | PEEK_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | type                        | identifier     |
      | QUEUE_FORMAT_TYPE_CONNECTOR | {unknown guid} |
      | QUEUE_FORMAT_TYPE_MULTICAST | 224.0.0.1:1801 |
