Feature: MS-MQRR 2.1 Transport: RPC security
  A server that authenticates its callers (NTLM over MS-RPCE) holds every call to the level it
  demands and to the security context it was made in: a call below the level is refused as the
  RPC runtime refuses it, a request whose verifier does not check or that replays a sequence
  number is not processed, and at packet privacy the responses go sealed.  The suite sends each
  offending packet itself, on a connection of its own, with an account of the target's; a target
  without accounts reports these scenarios not run (capability authentication).

  @clause:MS-MQRR:2.1:05
  Scenario: A call that carries no security context is refused by a server that demands a level
    Given the target authenticates its callers over DCE/RPC
    And the target refuses calls that carry no security context
    When a caller at none calls R_GetServerPort
    Then the call is refused with the RPC runtime's access denied

  @clause:MS-MQRR:2.1:06
  Scenario Outline: A request whose verifier was changed after signing is refused at <level>
    Given the target authenticates its callers over DCE/RPC
    When a caller at <level> calls R_GetServerPort
    Then the call is answered
    When the caller calls R_GetServerPort with its request's verifier changed after signing
    Then the call is refused

    Examples:
      | level     |
      | integrity |
      | privacy   |

  @clause:MS-MQRR:2.1:07
  Scenario: At packet privacy the response comes sealed
    Given the target authenticates its callers over DCE/RPC
    When a caller at privacy calls R_GetServerPort
    Then the call is answered
    And the response came sealed: a verifier, and on the wire a stub that is not the plain one

  @clause:MS-MQRR:2.1:08
  Scenario Outline: A request sent again with its sequence number is refused at <level>
    Given the target authenticates its callers over DCE/RPC
    When a caller at <level> calls R_GetServerPort
    Then the call is answered
    When the caller sends its last request again, octet for octet
    Then the call is refused

    Examples:
      | level     |
      | integrity |
      | privacy   |

  @clause:MS-MQRR:2.1:08
  Scenario Outline: A request signed at a sequence number skipped ahead is refused at <level>
    Given the target authenticates its callers over DCE/RPC
    When a caller at <level> calls R_GetServerPort
    Then the call is answered
    When the caller calls R_GetServerPort signed at the sequence number after the next
    Then the call is refused

    Examples:
      | level     |
      | integrity |
      | privacy   |
