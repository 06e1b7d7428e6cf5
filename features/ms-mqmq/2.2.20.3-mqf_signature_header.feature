Feature: MS-MQMQ 2.2.20.3 MQFSignatureHeader
  A copy of a message sent to several queues at once may carry the list of its
  destinations (D-67); the list then ends with an MQFSignatureHeader whose ID is 0x015E
  and whose Size is the length of the signature that follows it.  A copy without the
  list has nothing to judge; the scenario then records the header as absent.

  @clause:MS-MQMQ:2.2.20.3:01
  Scenario: Each copy sent through a list carries a well-formed MQFSignatureHeader if it carries the list
    Given a queue "a"
    And a queue "b"
    When a message is sent to the format name "{format name of a},{format name of b}"
    Then the send is accepted with status 0
    When every message in "a" is peeked
    Then the packet of "by format name" follows every layout rule
    And the packet of "by format name" has a well-formed MQFSignatureHeader, if it has a MultiQueueFormatHeader
    When every message in "b" is peeked
    Then the packet of "by format name" follows every layout rule
    And the packet of "by format name" has a well-formed MQFSignatureHeader, if it has a MultiQueueFormatHeader
