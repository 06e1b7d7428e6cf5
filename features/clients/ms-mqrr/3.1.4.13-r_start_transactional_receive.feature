Feature: MS-MQRR 3.1.4.13 R_StartTransactionalReceive (client)
  A transactional receive goes through a live handle of R_OpenQueue with
  RECEIVE_ACCESS, with a dwRequestId not in use, and ends with
  R_EndTransactionalReceive by the same dwRequestId.

  Background:
    Given the judge holds the transactional queue "ledger"
    And the judge holds "m1", "m2" and "m3" in "ledger"
    And the application opens "ledger" to receive
    And the application begins the transaction "t"

  @clause:MS-MQRR:3.1.4.13:01 @clause:MS-MQRR:3.1.4.13:02 @clause:MS-MQRR:3.1.4.13:04 @clause:MS-MQRR:3.1.4.15:01
  Scenario: Two transactional receives each end by their own dwRequestId
    When the application receives from "ledger" in the transaction "t"
    And the application receives from "ledger" in the transaction "t"
    And the coordinator commits "t"
    Then the client ended every receive that returned a message, by its handle and dwRequestId
    And the client received, purged, moved and rejected only through handles opened with RECEIVE_ACCESS
    And the client never reused a dwRequestId on a handle while it was outstanding
    And the judge's "ledger" holds "m3"

  @clause:MS-MQRR:3.1.4.13:05
  Scenario: A transactional receive asks for no more body than the application wants
    When the application receives from "ledger" in the transaction "t" wanting at most 5 bytes of body
    And the coordinator aborts "t"
    Then the application gets the first 5 bytes of "m1"
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "ledger" holds "m1", "m2" and "m3"
