Feature: MS-MQRR 2.2.6 SectionBuffer
  A read hands the packet back as one or two SectionBuffers: the whole packet, or a first
  section cut short inside the body plus a second section with the rest of the headers.

  Background:
    Given a queue "orders"
    And "orders" is opened with PEEK_ACCESS as "h"

  @clause:MS-MQRR:2.2.6:01 @clause:MS-MQRR:2.2.6:03 @clause:MS-MQRR:2.2.6:05
  Scenario Outline: A body within the limit comes back as one full-packet section (<size> bytes, limit <limit>)
    Given message "m1" is sent to "orders" carrying:
      | body size | <size> |
    When the client peeks at "h" with at most <limit> body bytes
    Then the message came back in 1 section
    And section 1 is an stFullPacket
    And section 1 has SectionSizeAlloc equal to its SectionSize
    And every section's SectionSize is the length of its buffer
    And the single section holds the whole packet
    And the returned packet follows every layout rule
    And the returned packet shows:
      | MessageSize         | <size> |
      | body bytes returned | <size> |

    Examples:
      | size | limit   |
      | 0    | 0       |
      | 1    | 1       |
      | 3    | 7       |
      | 100  | 100     |
      | 5000 | 4194304 |

  @clause:MS-MQRR:2.2.6:01 @clause:MS-MQRR:2.2.6:02 @clause:MS-MQRR:2.2.6:03 @clause:MS-MQRR:2.2.6:04
  @clause:MS-MQRR:2.2.6:05 @decision:D-61
  Scenario Outline: A body over the limit comes back as a first and a second binary section (<size> bytes, limit <limit>)
    Given message "m1" is sent to "orders" carrying:
      | body size | <size> |
    When the client peeks at "h" with at most <limit> body bytes
    Then the message came back in 2 sections
    And section 1 is an stBinaryFirstSection
    And section 2 is an stBinarySecondSection
    And section 1 has SectionSizeAlloc at least its SectionSize
    And section 2 has SectionSizeAlloc equal to its SectionSize
    And every section's SectionSize is the length of its buffer
    And the first section's SectionSizeAlloc counts the part of the body that was not sent
    And the returned packet follows every layout rule
    And the returned packet shows:
      | MessageSize         | <size>  |
      | body bytes returned | <limit> |

    Examples:
      | size | limit |
      | 1    | 0     |
      | 100  | 0     |
      | 100  | 1     |
      | 100  | 37    |
      | 100  | 99    |
      | 5000 | 1000  |

  @clause:MS-MQRR:2.2.6:01 @clause:MS-MQRR:2.2.6:03 @clause:MS-MQRR:2.2.6:05
  Scenario: An SRMP message within the limit comes back as one full-packet section
    Given message "s1" is sent to "orders" carrying:
      | srmp envelope         | envelope                                 |
      | srmp compound message | POST /msmq HTTP/1.1 forty bytes of data! |
    When the client peeks at "h" with at most 1000 body bytes
    Then the message came back in 1 section
    And section 1 is an stFullPacket
    And the single section holds the whole packet
    And the returned packet follows every layout rule

  @clause:MS-MQRR:2.2.6:01 @clause:MS-MQRR:2.2.6:02 @clause:MS-MQRR:2.2.6:03 @clause:MS-MQRR:2.2.6:04
  @clause:MS-MQRR:2.2.6:05 @decision:D-61 @decision:D-62
  Scenario Outline: An SRMP message over the limit comes back as a first and a second SRMP section (limit <limit>)
    Given message "s1" is sent to "orders" carrying:
      | srmp envelope         | envelope                                 |
      | srmp compound message | POST /msmq HTTP/1.1 forty bytes of data! |
    When the client peeks at "h" with at most <limit> body bytes
    Then the message came back in 2 sections
    And section 1 is an stSrmpFirstSection
    And section 2 is an stSrmpSecondSection
    And section 1 has SectionSizeAlloc at least its SectionSize
    And section 2 has SectionSizeAlloc equal to its SectionSize
    And every section's SectionSize is the length of its buffer
    And the first section's SectionSizeAlloc counts the part of the body that was not sent
    And the returned packet follows every layout rule

    Examples:
      | limit |
      | 0     |
      | 13    |
      | 39    |

  @clause:MS-MQRR:3.1.4.7:11 @clause:MS-MQRR:3.1.4.7:12 @decision:D-62
  Scenario Outline: A limit between the compound data and the whole CompoundMessageHeader cuts the message only if the header counts (limit <limit>)
    Given message "s1" is sent to "orders" carrying:
      | srmp envelope         | envelope                                 |
      | srmp compound message | POST /msmq HTTP/1.1 forty bytes of data! |
    When the client peeks at "h" with at most <limit> body bytes
    Then by D-62 the message came back whole (data) or cut in two (header)
    And every section's SectionSize is the length of its buffer
    And the returned packet follows every layout rule

    Examples:
      | limit |
      | 40    |
      | 47    |
      | 55    |
