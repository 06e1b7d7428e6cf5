Feature: MS-MQMQ 2.2.20.6 SecurityHeader
  A packet may carry a SecurityHeader (Windows puts the sender's SID there).  Where the
  target writes one, its flags and sizes follow the rules: a known sender-id type, the
  reserved AU and AS fields zero, at least one item, each item 4-byte aligned.  A packet
  without one has nothing to judge; the scenario then records the header as absent.

  Background:
    Given a queue "orders"
    And a transactional queue "tq"
    And a queue "admin"
    And the client begins transaction "t"

  @clause:MS-MQMQ:2.2.20.6:01
  Scenario Outline: A SecurityHeader, where the target writes one, is well formed (<shape>)
    Given message "m1" is sent to "<queue>" carrying:
      | body             | x             |
      | delivery         | <delivery>    |
      | transaction      | <transaction> |
      | acknowledgements | <acks>        |
      | admin queue      | <admin>       |
    And transaction "t" is committed
    When every message in "<queue>" is peeked
    Then the packet of "m1" follows every layout rule
    And the packet of "m1" has a well-formed SecurityHeader, if it has one

    Examples:
      | shape                 | queue  | delivery    | transaction | acks             | admin |
      | express               | orders | express     |             |                  |       |
      | recoverable           | orders | recoverable |             |                  |       |
      | transactional         | tq     |             | t           |                  |       |
      | asking for an ack     | orders | express     |             | positive arrival | admin |

  @clause:MS-MQMQ:2.2.20.6:01
  Scenario: An acknowledgment's SecurityHeader, where the target writes one, is well formed
    Given "admin" is opened with PEEK_ACCESS as "a"
    When message "m1" is sent to "orders" with:
      | acknowledgements | positive arrival |
      | admin queue      | admin            |
    And the client peeks at "a"
    Then the returned packet follows every layout rule
    And the returned packet has a well-formed SecurityHeader, if it has one
