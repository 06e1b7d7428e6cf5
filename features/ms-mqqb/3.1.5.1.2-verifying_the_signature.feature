Feature: MS-MQQB 3.1.5.1.2 Verifying the Signature
  Every packet on a session opens with a BaseHeader whose VersionNumber is 0x10 and whose
  Signature is "LIOR" (0x524F494C). A packet with any other value there is discarded and
  the session it came on is closed: the first packet of a session, an EstablishConnection
  request, is then never answered, and a UserMessage never reaches its queue.

  Background:
    Given a queue "orders"

  @clause:MS-MQQB:3.1.5.1.2:01
  Scenario Outline: An EstablishConnection request with <field> <value> is not answered and its session is closed
    Given another queue manager "odd" connected to the target with no session
    When "odd" asks for a session naming the target as ServerGuid in a packet whose <field> is <value>
    Then the target sent "odd" no EstablishConnection response
    And the target closed the session of "odd"

    Examples:
      | field         | value      |
      | VersionNumber | 0x11       |
      | VersionNumber | 0x00       |
      | VersionNumber | 0x0F       |
      | Signature     | 0x4C494F52 |
      | Signature     | 0x00000000 |

  @clause:MS-MQQB:3.1.5.1.2:01
  Scenario: An EstablishConnection request with VersionNumber 0x10 and Signature LIOR is answered
    Given another queue manager "plain" connected to the target with no session
    When "plain" asks for a session naming the target as ServerGuid in a packet whose VersionNumber is 0x10
    Then the target answered "plain" with CS clear, its ClientGuid and the target's GUID as ServerGuid
    And the session of "plain" is still open

  @clause:MS-MQQB:3.1.5.1.2:01
  Scenario Outline: A UserMessage with <field> <value> on an open session closes it and reaches no queue
    Given another queue manager "bad" with an MS-MQQB session to the target
    And another queue manager "good" with an MS-MQQB session to the target
    And message "m1" is prepared with:
      | body | wrong header |
    And message "m2" is prepared with:
      | body | fine |
    When "bad" sends the prepared message "m1" to "orders" with packet fields:
      | <field> | <value> |
    And "good" sends the prepared message "m2" to "orders"
    Then the target closed the session of "bad"
    And the session of "good" is still open
    And "orders" holds "m2"

    Examples:
      | field         | value      |
      | VersionNumber | 0x20       |
      | Signature     | 0x524F494D |
