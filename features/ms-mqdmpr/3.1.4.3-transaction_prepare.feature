Feature: MS-MQDMPR 3.1.4.3 Transaction Prepare
  Preparing a transaction finds it by identifier and marks the messages of its
  first and last operations, which their packets then show.

  Background:
    Given a transactional queue "ledger"

  @clause:MS-MQDMPR:3.1.4.3:01
  Scenario: Preparing a transaction the queue manager does not know fails
    Given an XACTUOW "x" that the queue manager has never seen
    When transaction "x" is prepared
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE

  @clause:MS-MQDMPR:3.1.4.3:01
  Scenario: Preparing a transaction that already committed fails
    Given the client begins transaction "t"
    And the client sends "m1" to "ledger" in transaction "t"
    And transaction "t" is committed
    When transaction "t" is prepared
    Then the call returns MQ_ERROR_TRANSACTION_SEQUENCE
    And "ledger" holds "m1"

  @clause:MS-MQDMPR:3.1.4.3:01
  Scenario Outline: Preparing a known transaction succeeds
    Given <creation>
    And the client sends "m1" to "ledger" in transaction "t"
    When transaction "t" is prepared
    Then the call returns MQ_OK
    And "ledger" holds nothing
    When transaction "t" is committed
    Then "ledger" holds "m1"

    Examples:
      | creation                                                             |
      | the client begins transaction "t"                                    |
      | the client enlists transaction "t" with R_QMEnlistRemoteTransaction |

  @clause:MS-MQDMPR:3.1.4.3:02
  Scenario Outline: The first and the last message of a prepared transaction are marked
    Given the client begins transaction "t"
    And the client sends "m1", "m2" and "m3" to "ledger" in transaction "t"
    And transaction "t" is prepared
    And transaction "t" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    When the client peeks "<label>" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the message returned is "<label>"
    And the returned message's first-in-transaction flag is <first>
    And the returned message's last-in-transaction flag is <last>

    Examples:
      | label | first | last  |
      | m1    | set   | clear |
      | m2    | clear | clear |
      | m3    | clear | set   |

  @clause:MS-MQDMPR:3.1.4.3:02
  Scenario: The only message of a transaction is both its first and its last
    Given the client begins transaction "t"
    And the client sends "only" to "ledger" in transaction "t"
    And transaction "t" is prepared
    And transaction "t" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    When the client peeks at "h"
    Then the message returned is "only"
    And the returned message's first-in-transaction flag is set
    And the returned message's last-in-transaction flag is set

  @clause:MS-MQDMPR:3.1.4.3:02 @clause:MS-MQDMPR:3.1.1.12:03
  Scenario Outline: The marks set by the prepare survive a restart before the commit
    Given the client begins transaction "t"
    And the client sends "m1", "m2" and "m3" to "ledger" in transaction "t"
    And transaction "t" is prepared
    When the queue manager restarts
    And transaction "t" is committed
    And "ledger" is opened with RECEIVE_ACCESS as "h"
    And the client peeks "<label>" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the message returned is "<label>"
    And the returned message's first-in-transaction flag is <first>
    And the returned message's last-in-transaction flag is <last>

    Examples:
      | label | first | last  |
      | m1    | set   | clear |
      | m3    | clear | set   |
