Feature: MS-MQQB 3.1.5.8.3 Security Processing
  A receiving queue manager decrypts a body the SecurityHeader says is encrypted and verifies a
  signature the packet carries before it queues the message; when either fails, the message is
  rejected with MQMSG_CLASS_NACK_BAD_ENCRYPTION or MQMSG_CLASS_NACK_BAD_SIGNATURE.  The suite plays
  the sender with an EncryptionKey and a Signature made of bytes no key or certificate matches, so
  every target fails them; a transactional message makes the rejection visible as a negative FinalAck.

  Background:
    Given a transactional queue "ledger"
    And another queue manager "remote" with an MS-MQQB session to the target

  @clause:MS-MQQB:3.1.5.8.3:01
  Scenario Outline: A transactional message <what> is rejected with a FinalAck of class <class>
    Given message "t1" is prepared with:
      | delivery | recoverable |
      | body     | secret      |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH      | 1       |
      | <field> | <value> |
    Then "remote" received a FinalAck of class <class> for "t1"
    And "ledger" holds nothing

    Examples:
      | what                                    | field          | value                            | class                           |
      | whose body the target cannot decrypt    | EB             | 1                                | MQMSG_CLASS_NACK_BAD_ENCRYPTION |
      | whose signature the target cannot check | Signature item | 00112233445566778899aabbccddeeff | MQMSG_CLASS_NACK_BAD_SIGNATURE  |
      | with a one-byte signature               | Signature item | 5a                               | MQMSG_CLASS_NACK_BAD_SIGNATURE  |

  # Neither encrypted nor signed, whatever else the SecurityHeader's flags say (DE 0x0040: the default provider).
  @clause:MS-MQQB:3.1.5.8.3:01
  Scenario Outline: A transactional message with a sender's SID and no signature is queued (SecurityHeader.Flags <flags>)
    Given message "t1" is prepared with:
      | delivery | recoverable |
      | body     | clear       |
    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH            | 1              |
      | SID           | S-1-5-21-1-2-3 |
      | SecurityFlags | <flags>        |
    And "remote" waits 1000 ms for the target's packets
    Then "ledger" holds "t1"

    Examples:
      | flags  |
      | 0      |
      | 0x0040 |
