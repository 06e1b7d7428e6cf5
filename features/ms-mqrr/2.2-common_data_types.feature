Feature: MS-MQRR 2.2 Common Data Types
  The server offers both transfer syntaxes, NDR 2.0 and NDR64, negotiates which one a
  presentation context uses, and every method works in either.

  @clause:MS-MQRR:2.2:01
  Scenario Outline: A client that speaks only <syntax> can do everything
    Given a queue "orders"
    And message "big" is sent to "orders" with:
      | body size | 100 |
    And a transactional queue "ledger"
    And messages "t1" were committed to "ledger"
    And a second client "N" bound with <syntax> only
    When client "N" makes the calls
    And "orders" is opened with RECEIVE_ACCESS as "h"
    And the client peeks at "h" allowing 10 body bytes and 4194304 compound message bytes
    Then the message comes back as stBinaryFirstSection with the first 10 bytes of its body and stBinarySecondSection with the trailers
    When the client receives from "h"
    Then the message returned is "big"
    And "orders" holds nothing
    When the client begins transaction "t"
    And the client enlists transaction "t" with R_QMEnlistRemoteTransaction
    Then the call returns MQ_OK
    When "ledger" is opened with RECEIVE_ACCESS as "l"
    And cursor "c" is created on "l"
    And cursor "c" receives in transaction "t"
    Then the message returned is "t1"
    When transaction "t" is committed
    Then "ledger" holds nothing
    When R_CloseQueue is called on "h"
    Then the call returns MQ_OK
    And the context handle given back is NULL

    Examples:
      | syntax  |
      | NDR 2.0 |
      | NDR64   |

  @clause:MS-MQRR:2.2:02
  Scenario Outline: A bind that offers several transfer syntaxes gets one it offered (<offer>)
    Given the calls travel over DCE/RPC
    When a new TCP connection to the target binds RemoteRead 1.0 offering <offer>
    Then the bind accepts at least one presentation context, each with a transfer syntax offered for it
    And R_GetServerPort called on that connection returns a nonzero port

    Examples:
      | offer                                                                            |
      | NDR 2.0 and NDR64 in one presentation context                                    |
      | NDR64 and NDR 2.0 in one presentation context                                    |
      | an unknown transfer syntax and NDR 2.0 in one presentation context               |
      | an unknown transfer syntax and NDR64 in one presentation context                 |
      | NDR 2.0 and NDR64 in two presentation contexts                                   |
      | NDR 2.0, NDR64 and bind-time feature negotiation in three presentation contexts |

  @clause:MS-MQRR:2.2:01
  Scenario: A bind that offers NDR64 alone is accepted
    Given the calls travel over DCE/RPC
    When a new TCP connection to the target binds RemoteRead 1.0 offering NDR64
    Then the bind accepts NDR64
    And R_GetServerPort called on that connection returns a nonzero port

  @clause:MS-MQRR:2.2:02
  Scenario: A presentation context offering only an unknown transfer syntax is rejected
    Given the calls travel over DCE/RPC
    When a new TCP connection to the target binds RemoteRead 1.0 offering an unknown transfer syntax
    Then the bind rejects that presentation context as proposed_transfer_syntaxes_not_supported
