Feature: MS-MQMQ 2.1.3 - 2.1.4 Public and Private Format Names
  A public format name is PUBLIC= and the queue's GUID; a private one is PRIVATE=, the
  computer's GUID, a backslash and the queue number in 1 to 8 hex digits, maybe ;JOURNAL.

  Background:
    Given a queue "orders"

  @clause:MS-MQMQ:2.1.4:01
  Scenario Outline: A private name of one of this queue manager's queues opens it (<form>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_OK
    And "h" is a usable queue handle

    Examples:
      | form                        | name                                                        |
      | eight digits                | PRIVATE={queue manager}\{private number of orders}          |
      | no leading zeros            | PRIVATE={queue manager}\{short private number of orders}    |
      | keyword in lower case       | private={queue manager}\{private number of orders}          |
      | the queue's journal         | PRIVATE={queue manager}\{private number of orders};JOURNAL  |

  @clause:MS-MQMQ:2.1.4:01
  Scenario: A message sent by private format name reaches the queue
    When a message is sent to the format name "PRIVATE={queue manager}\{short private number of orders}"
    Then the send is accepted with status 0
    And "orders" holds "by format name"

  @clause:MS-MQMQ:2.1.4:01
  Scenario Outline: A well-formed private name of a queue that is not here is not found (<form>)
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

    Examples:
      | form                  | name                          |
      | another computer      | PRIVATE={unknown guid}\1      |
      | no such queue number  | PRIVATE={queue manager}\fffffffe |
      | the highest GUID      | PRIVATE=ffffffff-ffff-ffff-ffff-ffffffffffff\{private number of orders} |
      | the lowest GUID       | PRIVATE=00000000-0000-0000-0000-000000000001\{private number of orders} |

  # The queue number is the queue's own: a later queue's higher number does not answer for a deleted one.
  @clause:MS-MQMQ:2.1.4:01
  Scenario: A private name of a deleted queue is not found, though queues created later exist
    Given a queue "gone"
    And a queue "later"
    And queue "gone" is deleted
    When R_OpenQueue is called as "h" with:
      | pQueueFormat                                       | dwAccess    |
      | PRIVATE={queue manager}\{private number of gone}   | PEEK_ACCESS |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

  # A public queue has no private queue number: its name never stands for a private queue, nor for another public one.
  @clause:MS-MQMQ:2.1.4:01 @clause:MS-MQMQ:2.1.3:01
  Scenario: Public queues and private queues created among them each keep their own messages
    Given a public queue "first"
    And a public queue "second"
    And a queue "late"
    When message "to first" is sent to "first"
    And message "to second" is sent to "second"
    And message "to late" is sent to "late"
    Then "orders" holds nothing
    And "first" holds "to first"
    And "second" holds "to second"
    And "late" holds "to late"

  # PrivateQueueNumber belongs to private queues only (MS-MQDMPR 3.1.1.2): no PRIVATE= name reaches a public queue
  @clause:MS-MQMQ:2.1.4:01
  Scenario: No private queue number opens a public queue created between two private queues
    Given a queue "before"
    And a public queue "pub"
    And a queue "after"
    And message "marker" is sent to "pub"
    Then no private format name numbered from that of "before" to that of "after" opens the queue holding "marker"

  # Queue number 0 is no private queue's: whether the name is refused as illegal or as naming nothing, it must not
  # open a public queue (which has no private queue number).
  @clause:MS-MQMQ:2.1.4:01
  Scenario: A private name with queue number 0 opens no queue, not even a public one
    Given a public queue "pub"
    When R_OpenQueue is called as "h" with:
      | pQueueFormat                     | dwAccess    |
      | PRIVATE={queue manager}\00000000 | PEEK_ACCESS |
    Then the call fails

  @clause:MS-MQMQ:2.1.4:01
  Scenario Outline: A private name the grammar does not allow is refused as illegal (<why>)
    When a message is sent to the format name "<name>"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME

    Examples:
      | why                    | name                                  |
      | nine digits            | PRIVATE={queue manager}\123456789     |
      | no digits              | PRIVATE={queue manager}\              |
      | no backslash           | PRIVATE={queue manager}               |
      | not hexadecimal        | PRIVATE={queue manager}\12g4          |
      | not a GUID             | PRIVATE=1234\1                        |
      | a suffix other than JOURNAL | PRIVATE={queue manager}\1;DEADLETTER |

  @clause:MS-MQMQ:2.1.3:01
  Scenario Outline: A well-formed public name is taken as a name (<form>)
    When a message is sent to the format name "<name>"
    Then the format name was not refused as illegal
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | <name>       | PEEK_ACCESS |
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

    Examples:
      | form                  | name                  |
      | as written            | PUBLIC={unknown guid} |
      | keyword in lower case | public={unknown guid} |

  @clause:MS-MQMQ:2.1.3:01
  Scenario Outline: A public name the grammar does not allow is refused as illegal (<why>)
    When a message is sent to the format name "<name>"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME

    Examples:
      | why                        | name                                          |
      | no GUID                    | PUBLIC=                                       |
      | not a GUID                 | PUBLIC=1234                                   |
      | one hex digit too many     | PUBLIC={unknown guid}0                        |
      | letters that are not hex   | PUBLIC=zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz   |
      | a queue number after it    | PUBLIC={unknown guid}\1                       |
