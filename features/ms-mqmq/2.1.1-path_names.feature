@clause:MS-MQMQ:2.1.1:01
Feature: MS-MQMQ 2.1.1 Path Names
  A path name is a computer name, an optional private$ part and a queue name of 1 to 124
  characters, with an optional subqueue of 1 to 32 characters after a semicolon.

  Background:
    Given a queue "parent"

  Scenario Outline: A path name the grammar allows creates a queue (<case>)
    When a queue is created with the path name <path>
    Then the call returns MQ_OK
    And the new queue can be opened for receiving

    Examples:
      | case                           | path                                                      |
      | a short queue name             | {computer}\private$\{name of q}                           |
      | a queue name of 124 characters | {computer}\private$\{124 characters}                      |
      | every punctuation mark allowed | {computer}\private$\{name of p}!#$%&'()*-./:<=>?@[]^_`~   |
      | PRIVATE$ in capitals           | {computer}\PRIVATE$\{name of q}                           |
      | a subqueue of 1 character      | {computer}\private$\{name of parent};s                    |
      | a subqueue of 32 characters    | {computer}\private$\{name of parent};{32 × s}             |

  Scenario Outline: A path name the grammar does not allow is refused (<case>)
    When a queue is created with the path name <path>
    Then the call returns MQ_ERROR_ILLEGAL_QUEUE_PATHNAME

    Examples:
      | case                              | path                                          |
      | a queue name of 125 characters    | {computer}\private$\{125 characters}          |
      | an empty queue name               | {computer}\private$\                          |
      | an empty computer name            | \private$\{name of q}                         |
      | no computer part at all           | {name of q}                                   |
      | a space in the queue name         | {computer}\private$\{name of q} x             |
      | a plus sign in the queue name     | {computer}\private$\{name of q}+x             |
      | a comma in the queue name         | {computer}\private$\{name of q},x             |
      | a double quote in the queue name  | {computer}\private$\{name of q}"x             |
      | a backslash in the queue name     | {computer}\private$\{name of q}\x             |
      | a subqueue of 33 characters       | {computer}\private$\{name of parent};{33 × s} |
      | an empty subqueue name            | {computer}\private$\{name of parent};         |
      | a semicolon in the subqueue name  | {computer}\private$\{name of parent};a;b      |

  Scenario: A subqueue path name needs its queue to exist
    When a queue is created with the path name {computer}\private$\{name of nowhere};s
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND
