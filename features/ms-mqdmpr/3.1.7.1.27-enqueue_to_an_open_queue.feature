Feature: MS-MQDMPR 3.1.7.1.27 Enqueue Message To An Open Queue and 3.1.7.3.8 Expand Format Name
  A message sent through a multiple-element name gets one copy in each queue of the sorted list,
  duplicates removed; the copies stop at the first queue that refuses one.

  Background:
    Given a queue "a"
    And a queue "b"
    And a queue "c"

  @clause:MS-MQDMPR:3.1.7.1.27:01
  Scenario: Each queue of a multiple-element name gets its own copy
    When one message "m" is sent through a multiple-element format name made of:
      | queue |
      | a     |
      | b     |
      | c     |
    Then the send is accepted with status 0
    And "a" holds "m"
    And "b" holds "m"
    And "c" holds "m"

  @clause:MS-MQDMPR:3.1.7.1.27:01 @clause:MS-MQDMPR:3.1.7.3.8:01
  Scenario: The copies go in the order of the sorted names and stop at the first queue that refuses one
    Given a queue "b-small" with a quota of 1 KB
    When one message "small" is sent through a multiple-element format name made of:
      | queue   |
      | c       |
      | b-small |
      | a       |
    Then the send is accepted with status 0
    When one message "big" with a body of 2000 bytes is sent through a multiple-element format name made of:
      | queue   |
      | c       |
      | b-small |
      | a       |
    Then the send is accepted with status 1
    And "a" holds "small" and "big"
    And "b-small" holds "small"
    And "c" holds "small"

  @clause:MS-MQDMPR:3.1.7.3.8:01
  Scenario: A queue named twice, in any case, gets one copy
    When one message "m" is sent through a multiple-element format name made of:
      | queue | written in |
      | a     | as created |
      | b     | as created |
      | a     | capitals   |
      | a     | as created |
    Then the send is accepted with status 0
    And "a" holds "m"
    And "b" holds "m"

  # Without its duplicates the list may be a single name, which names one queue like any other.
  @clause:MS-MQDMPR:3.1.7.3.8:01
  Scenario Outline: A list that names one queue twice gives that queue one copy (<second>)
    When one message "m" is sent through a multiple-element format name made of:
      | queue | written in |
      | a     | as created |
      | a     | <second>   |
    Then the send is accepted with status 0
    And "a" holds "m"
    And "b" holds nothing

    Examples:
      | second     |
      | as created |
      | capitals   |
