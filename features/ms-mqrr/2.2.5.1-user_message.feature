Feature: MS-MQRR 2.2.5.1 UserMessage
  A returned packet starts with the MS-MQMQ UserMessage, with the sender's address in place of
  the destination GUID for direct names and two extra headers for messages that came by SRMP.

  Background:
    Given a queue "orders"
    And "orders" is opened with PEEK_ACCESS as "h"

  @clause:MS-MQRR:2.2.5.1:01 @clause:MS-MQRR:2.2.5.1:02 @clause:MS-MQRR:2.2.5.1:03 @clause:MS-MQRR:2.2.5.1:04
  Scenario Outline: A message for a direct name carries the sender's address over QueueManagerAddress (<shape>)
    Given message "d1" is sent to "DIRECT=OS:{computer}\private$\{name of orders}" carrying:
      | body     | <body>     |
      | delivery | <delivery> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | UserHeader flag DQ | 7                                              |
      | destination queue  | DIRECT=OS:{computer}\private$\{name of orders} |
    And the returned packet has QueueManagerAddress holding the sender's address

    Examples:
      | shape       | body  | delivery    |
      | express     | hello | express     |
      | recoverable |       | recoverable |

  @clause:MS-MQRR:2.2.5.1:07
  Scenario: A message for a queue named by its queue number carries the queue manager's GUID instead
    Given message "p1" is sent to "PRIVATE={queue manager}\{private number of orders}" carrying:
      | body | hello |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | UserHeader flag DQ | 3      |
      | destination queue  | orders |
    And the returned packet has QueueManagerAddress equal to this queue manager's identifier

  @clause:MS-MQRR:2.2.5.1.1:01 @clause:MS-MQRR:2.2.5.1:05 @clause:MS-MQRR:2.2.5.1:06
  Scenario Outline: A message sent without SRMP parts comes back as a binary message (<shape>)
    Given message "m1" is sent to "orders" carrying:
      | body     | <body>     |
      | delivery | <delivery> |
      | tracing  | <tracing>  |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | UserHeader flag AH | 0      |
      | srmp               | no     |
      | srmp envelope      | none   |
      | compound message   | none   |
      | body               | <body> |
    And the returned packet has BaseHeader flag SH clear

    Examples:
      | shape           | body  | delivery    | tracing |
      | empty           |       | express     |         |
      | short body      | abc   | express     |         |
      | recoverable     | abcd  | recoverable |         |
      | traced          | abcde | express     | yes     |

  @clause:MS-MQRR:2.2.5.1.2:01 @clause:MS-MQRR:2.2.5.1:05 @clause:MS-MQRR:2.2.5.1:06
  @clause:MS-MQRR:2.2.5.1.2.1:01 @clause:MS-MQRR:2.2.5.1.2.1:03
  @clause:MS-MQRR:2.2.5.1.2.2:01 @clause:MS-MQRR:2.2.5.1.2.2:03
  Scenario Outline: A message with both SRMP parts comes back as an SRMP message (<shape>)
    Given message "s1" is sent to "orders" carrying:
      | srmp envelope         | <envelope> |
      | srmp compound message | <compound> |
    When the client peeks at "h"
    Then the returned packet follows every layout rule
    And the returned packet shows:
      | UserHeader flag AH | 1          |
      | srmp               | yes        |
      | srmp envelope      | <envelope> |
      | compound message   | <compound> |
    And the returned packet has BaseHeader flag SH clear

    Examples:
      | shape                     | envelope            | compound                          |
      | one-character envelope    | e                   | POST /msmq HTTP/1.1               |
      | two-character envelope    | ev                  | POST /msmq HTTP/1.1 x             |
      | three-character envelope  | env                 | POST /msmq HTTP/1.1 xy            |
      | longer envelope           | soap:Envelope-12345 | POST /msmq HTTP/1.1 xyz           |
      | envelope beyond ASCII     | enveloppe-é         | p                                 |
      | envelope beyond the BMP   | clef-𝄞              | pq                                |
      | empty compound message    | envelope            |                                   |
