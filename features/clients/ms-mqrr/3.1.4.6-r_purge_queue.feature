Feature: MS-MQRR 3.1.4.6 R_PurgeQueue (client)
  Only a handle opened with RECEIVE_ACCESS is purged through.

  Background:
    Given the judge holds the queue "orders"
    And the judge holds "m1" and "m2" in "orders"

  @clause:MS-MQRR:3.1.4.6:01 @clause:MS-MQRR:3.2.4.7:01
  Scenario: A queue opened to receive is purged
    When the application opens "orders" to receive
    And the application purges "orders"
    Then the application is told of success
    And the client received, purged, moved and rejected only through handles opened with RECEIVE_ACCESS
    And the client made the calls of each operation as MS-MQRR 3.2.4 gives them
    And the judge's "orders" holds nothing

  @clause:MS-MQRR:3.1.4.6:01 @decision:D-83
  Scenario: A queue opened only to peek is not purged through its handle
    When the application opens "orders" to peek
    And the application purges "orders"
    Then the application is told of a failure
    And the client received, purged, moved and rejected only through handles opened with RECEIVE_ACCESS
    And the judge's "orders" holds "m1" and "m2"
