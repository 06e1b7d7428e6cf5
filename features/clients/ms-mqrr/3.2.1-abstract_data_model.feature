Feature: MS-MQRR 3.2.1 Abstract Data Model (client)
  A client keeps one handle per open queue and a table of cursors per handle: each
  operation on a queue goes through that queue's handle, each cursor with its own.

  @clause:MS-MQRR:3.2.1:01
  Scenario: Two open queues, each read through its own handle and cursor
    Given the judge holds the queue "orders"
    And the judge holds the queue "returns"
    And the judge holds "m1" and "m2" in "orders"
    And the judge holds "r1" and "r2" in "returns"
    When the application opens "orders" to receive
    And the application opens "returns" to receive
    And the application creates the cursor "co" on "orders"
    And the application creates the cursor "cr" on "returns"
    And the application peeks with the cursor "cr"
    And the application receives from "orders"
    And the application peeks with the cursor "co"
    And the application receives from "returns"
    And the application closes the cursor "co"
    And the application closes "returns"
    Then the client opened each queue once, as the application asked
    And the client used each queue's own handle for it
    And the client used only cursors it had created and not closed
