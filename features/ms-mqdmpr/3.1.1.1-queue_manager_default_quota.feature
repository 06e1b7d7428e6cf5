Feature: MS-MQDMPR 3.1.1.1 QueueManager: the default quota to the byte
  Without configuration the queue manager holds messages up to its default quota, and a message
  that fills the SHOULD default of 0x00100000 bytes exactly still fits.  A message's size is its
  packet's size (D-07's choice), learnt from the packets the target returns.

  # A SHOULD: 0x00100000 bytes (bytes), or a larger default such as Windows' 4 GB computer quota (windows).
  @clause:MS-MQDMPR:3.1.1.1:01 @decision:D-20
  Scenario: Without configuration a message that fills 0x00100000 bytes exactly is accepted
    Given a queue "bulk"
    When message "exact" whose packet is exactly 1048576 bytes is sent to "bulk"
    Then the send is accepted with status 0
    When message "one more" is sent to "bulk"
    Then by D-20 the send ends with status 2 (bytes) or 0 (windows)
