@clause:MS-MQMQ:2.1.7:01
Feature: MS-MQMQ 2.1.7 Multiple-Element Format Names
  Several format names separated by commas address several queues at once; every element
  must itself be a format name, and read-only queues cannot be among them.

  Background:
    Given a queue "a"
    And a queue "b"

  Scenario Outline: A message sent to a list of names reaches every queue of the list (<form>)
    When a message is sent to the format name "<names>"
    Then the send is accepted with status 0
    And "a" holds "by format name"
    And "b" holds "by format name"

    Examples:
      | form                | names                                                                                  |
      | two queue names     | {format name of a},{format name of b}                                                  |
      | direct and created  | DIRECT=OS:{computer}\private$\{name of a},{format name of b}                           |
      | two direct names    | DIRECT=OS:{computer}\private$\{name of a},DIRECT=OS:{computer}\private$\{name of b}    |

  Scenario Outline: A list with an empty or malformed element is refused as illegal (<why>)
    When a message is sent to the format name "<names>"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME
    And "a" holds nothing

    Examples:
      | why                       | names                                   |
      | an empty last element     | {format name of a},                     |
      | an empty first element    | ,{format name of a}                     |
      | an empty middle element   | {format name of a},,{format name of b}  |
      | an element that is no name | {format name of a},nonsense            |

  Scenario Outline: A list that includes a read-only queue is refused and nothing is sent (<why>)
    When a message is sent to the format name "<names>"
    Then the send is refused with MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION
    And "a" holds nothing
    And "b" holds nothing

    Examples:
      | why                     | names                                                      |
      | a queue journal         | {format name of a},DIRECT=OS:{computer}\private$\{name of b};JOURNAL |
      | the computer journal    | {format name of a},DIRECT=OS:{computer}\SYSTEM$;JOURNAL    |
      | a dead-letter queue     | {format name of a},MACHINE={queue manager};DEADLETTER      |
