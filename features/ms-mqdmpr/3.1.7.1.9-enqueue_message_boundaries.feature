Feature: MS-MQDMPR 3.1.7.1.9 Enqueue Message at its exact boundaries
  A quota is a ceiling that a message may reach but not pass, and a message is late only once its
  time to reach the queue has passed, not at the very second it runs out.  A message's size is the
  size of its packet (D-07's choice), learnt from the packets the target itself returns.

  Background:
    Given a queue "inbox"

  @clause:MS-MQDMPR:3.1.7.1.9:02
  Scenario: A message that fills the queue's quota to the byte is accepted, and the next one is refused
    Given a queue "small" with a quota of 2 KB
    When message "exact" whose packet is exactly 2048 bytes is sent to "small"
    Then the send is accepted with status 0
    When message "one more" is sent to "small"
    Then the send is accepted with status 1
    And "small" holds "exact"

  @clause:MS-MQDMPR:3.1.7.1.9:01
  Scenario: A message that fills the queue manager's quota to the byte is accepted, and the next one is refused
    Given the queue manager's quota is 4096 bytes
    When message "exact" whose packet is exactly 4096 bytes is sent to "inbox"
    Then the send is accepted with status 0
    When message "one more" is sent to "inbox"
    Then the send is refused for the queue manager's quota (status 2)
    And "inbox" holds "exact"

  # packets come in whole 4-byte units, so only a quota that is not one can be missed by a single byte
  @clause:MS-MQDMPR:3.1.7.1.9:01
  Scenario: A message one byte larger than the queue manager's quota is refused
    Given the queue manager's quota is 4095 bytes
    When message "too big" whose packet is exactly 4096 bytes is sent to "inbox"
    Then the send is refused for the queue manager's quota (status 2)
    And "inbox" holds nothing

  # a quota counts kilobytes of 1024 bytes: 4 KB is 4096 bytes, and a 4100-byte packet passes it
  @clause:MS-MQDMPR:3.1.7.1.9:02
  Scenario: A message one packet unit larger than the queue's quota in kilobytes is refused
    Given a queue "small" with a quota of 4 KB
    When message "too big" whose packet is exactly 4100 bytes is sent to "small"
    Then the send is accepted with status 1
    And "small" holds nothing

  @clause:MS-MQDMPR:3.1.7.1.9:08
  Scenario: A message that arrives at the very second its time to reach the queue runs out is in time
    When message "punctual" reaches "inbox" at the very second its time to reach the queue of 60 seconds runs out
    Then the send is accepted with status 0
    And "inbox" holds "punctual"
