Feature: MS-MQRR 3.1.4.7 R_StartReceive (Opnum 7)
  R_StartReceive peeks at or starts a two-phase receive of a message, chosen by
  lookup identifier, by cursor, or as the first message of the queue.

  Background:
    Given a queue "orders"
    And "orders" holds "m1", "m2" and "m3"
    And "orders" is opened with RECEIVE_ACCESS as "h"

  # -- the parameter table ---------------------------------------------------------------------

  @clause:MS-MQRR:3.1.4.7:16 @clause:MS-MQRR:3.1.4.7:04
  Scenario Outline: A lookup action needs a lookup identifier
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | 0       | <action> | 0         |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

    Examples:
      | action                    |
      | MQ_LOOKUP_PEEK_CURRENT    |
      | MQ_LOOKUP_PEEK_NEXT       |
      | MQ_LOOKUP_PEEK_PREV       |
      | MQ_LOOKUP_RECEIVE_CURRENT |
      | MQ_LOOKUP_RECEIVE_NEXT    |
      | MQ_LOOKUP_RECEIVE_PREV    |

  @clause:MS-MQRR:3.1.4.7:16 @clause:MS-MQRR:3.1.4.7:04
  Scenario Outline: A lookup identifier goes only with a lookup action, no cursor and no time-out
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId   | hCursor  | ulAction | ulTimeout |
      | id of "m2" | <cursor> | <action> | <timeout> |
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | action                       | cursor | timeout  |
      | MQ_ACTION_RECEIVE            | 0      | 0        |
      | MQ_ACTION_PEEK_CURRENT       | 0      | 0        |
      | MQ_ACTION_PEEK_NEXT          | 0      | 0        |
      | MQ_ACTION_RECEIVE            | c1     | 0        |
      | MQ_LOOKUP_PEEK_CURRENT       | c1     | 0        |
      | MQ_LOOKUP_RECEIVE_NEXT       | c1     | 0        |
      | MQ_LOOKUP_PEEK_CURRENT       | 0      | 100      |
      | MQ_LOOKUP_RECEIVE_PREV       | 0      | INFINITE |
      | MQ_LOOKUP_PEEK_FIRST         | 0      | 0        |
      | MQ_LOOKUP_RECEIVE_LAST       | 0      | 0        |
      | MQ_LOOKUP_RECEIVE_ALLOW_PEEK | 0      | 0        |
      | 0x12345678                   | 0      | 0        |

  @clause:MS-MQRR:3.1.4.7:16 @clause:MS-MQRR:3.1.4.7:04
  Scenario Outline: A cursor goes only with MQ_ACTION_RECEIVE, MQ_ACTION_PEEK_CURRENT or MQ_ACTION_PEEK_NEXT
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | c1      | <action> | 0         |
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | action                    |
      | MQ_LOOKUP_PEEK_CURRENT    |
      | MQ_LOOKUP_RECEIVE_CURRENT |
      | MQ_LOOKUP_RECEIVE_PREV    |
      | 0x00000001                |
      | 0x80000002                |

  @clause:MS-MQRR:3.1.4.7:16 @clause:MS-MQRR:3.1.4.7:04
  Scenario Outline: Without a cursor or a lookup identifier only MQ_ACTION_RECEIVE and MQ_ACTION_PEEK_CURRENT are valid
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | 0       | <action> | <timeout> |
    Then the call returns MQ_ERROR_INVALID_PARAMETER
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | action               | timeout |
      | MQ_ACTION_PEEK_NEXT  | 0       |
      | MQ_ACTION_PEEK_NEXT  | 100     |
      | MQ_LOOKUP_PEEK_FIRST | 0       |
      | 0x40000000           | 0       |

  @clause:MS-MQRR:3.1.4.7:04 @clause:MS-MQRR:3.1.4.7:20
  Scenario Outline: Every combination the table allows is accepted and raises the event of its action
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor  | ulAction | ulTimeout | dwRequestId |
      | <lookup> | <cursor> | <action> | <timeout> | 7           |
    Then the call returns MQ_OK
    And the message returned is "<returned>"
    And "orders" holds <left>

    Examples:
      | lookup     | cursor | action                    | timeout  | returned | left                |
      | 0          | 0      | MQ_ACTION_RECEIVE         | 0        | m1       | "m2" and "m3"       |
      | 0          | 0      | MQ_ACTION_RECEIVE         | INFINITE | m1       | "m2" and "m3"       |
      | 0          | 0      | MQ_ACTION_PEEK_CURRENT    | 100      | m1       | "m1", "m2" and "m3" |
      | 0          | c1     | MQ_ACTION_RECEIVE         | 100      | m1       | "m2" and "m3"       |
      | 0          | c1     | MQ_ACTION_PEEK_CURRENT    | 0        | m1       | "m1", "m2" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_CURRENT    | 0        | m2       | "m1", "m2" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_NEXT       | 0        | m3       | "m1", "m2" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_PREV       | 0        | m1       | "m1", "m2" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_CURRENT | 0        | m2       | "m1" and "m3"       |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_NEXT    | 0        | m3       | "m1" and "m2"       |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_PREV    | 0        | m1       | "m2" and "m3"       |

  @clause:MS-MQRR:3.1.4.7:04 @clause:MS-MQRR:3.1.4.7:20 @clause:MS-MQRR:3.1.4.7:28
  Scenario: MQ_ACTION_PEEK_NEXT is valid with a cursor
    Given cursor "c1" is created on "h"
    When cursor "c1" peeks the current message
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction            | ulTimeout |
      | 0        | c1      | MQ_ACTION_PEEK_NEXT | 0         |
    Then the call returns MQ_OK
    And the message returned is "m2"

  # -- handles, cursors and access ---------------------------------------------------------------

  # D-44: 3.1.4.7 asks only for "a failure HRESULT" when the handle is not found
  @clause:MS-MQRR:3.1.4.7:17 @clause:MS-MQRR:3.1.4.7:15 @decision:D-44
  Scenario Outline: A queue handle the server never issued is refused
    Given a queue handle "x" that the server never issued
    When R_StartReceive is called on "x" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | <lookup> | 0       | <action> | 0         |
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And the status has the failure bit set
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | lookup     | action                    |
      | 0          | MQ_ACTION_RECEIVE         |
      | 0          | MQ_ACTION_PEEK_CURRENT    |
      | id of "m1" | MQ_LOOKUP_PEEK_CURRENT    |
      | id of "m1" | MQ_LOOKUP_RECEIVE_CURRENT |

  @clause:MS-MQRR:3.1.4.7:17 @decision:D-44
  Scenario Outline: A queue handle closed with R_CloseQueue is refused
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    When R_CloseQueue is called on "h2"
    And R_StartReceive is called on "h2" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | 0       | <action> | 0         |
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | action                 |
      | MQ_ACTION_RECEIVE      |
      | MQ_ACTION_PEEK_CURRENT |

  @clause:MS-MQRR:3.1.4.7:18
  Scenario Outline: A cursor the server never issued is refused with STATUS_INVALID_HANDLE
    Given "cx" is a cursor handle the server never issued on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | cx      | <action> | 0         |
    Then the call returns STATUS_INVALID_HANDLE
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | action                 |
      | MQ_ACTION_RECEIVE      |
      | MQ_ACTION_PEEK_CURRENT |
      | MQ_ACTION_PEEK_NEXT    |

  @clause:MS-MQRR:3.1.4.7:18
  Scenario Outline: A cursor closed with R_CloseCursor is refused with STATUS_INVALID_HANDLE
    Given cursor "c1" is created on "h"
    When cursor "c1" peeks the current message
    And R_CloseCursor is called on "h" for "c1"
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | c1      | <action> | 0         |
    Then the call returns STATUS_INVALID_HANDLE
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | action                 |
      | MQ_ACTION_RECEIVE      |
      | MQ_ACTION_PEEK_CURRENT |
      | MQ_ACTION_PEEK_NEXT    |

  # D-48: step 3 looks hCursor up among every cursor of the queue manager, R_CloseCursor among the handle's
  # own; a cursor of another handle of the same queue is refused (own-handle) or walks this queue (qm-wide)
  @clause:MS-MQRR:3.1.4.7:18 @decision:D-48
  Scenario Outline: A cursor of another handle of the same queue is refused, or used like one of this handle
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    And cursor "c2" is created on "h2"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | c2      | <action> | 0         |
    Then by D-48 the message returned is "m1" (qm-wide) or the call fails (own-handle)
    And where D-48 is own-handle, the call returns STATUS_INVALID_HANDLE
    And by D-48 "orders" holds "m1", "m2" and "m3" (own-handle) or <left> (qm-wide)

    Examples:
      | action                 | left                   |
      | MQ_ACTION_RECEIVE      | "m2" and "m3"          |
      | MQ_ACTION_PEEK_CURRENT | "m1", "m2" and "m3"    |

  # a cursor on another queue would walk that queue's messages for this handle: refused under every reading
  @clause:MS-MQRR:3.1.4.7:18
  Scenario Outline: A cursor of a handle of another queue is refused with STATUS_INVALID_HANDLE
    Given a queue "elsewhere"
    And "elsewhere" holds "e1"
    And "elsewhere" is opened with RECEIVE_ACCESS as "h2"
    And cursor "c2" is created on "h2"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | c2      | <action> | 0         |
    Then the call returns STATUS_INVALID_HANDLE
    And "orders" holds "m1", "m2" and "m3"
    And "elsewhere" holds "e1"

    Examples:
      | action                 |
      | MQ_ACTION_RECEIVE      |
      | MQ_ACTION_PEEK_CURRENT |

  # D-49: the handle MUST permit the action, a duty of the client that no processing step checks: the
  # receive is refused (check) or takes its message (no-check)
  @clause:MS-MQRR:3.1.4.7:33 @decision:D-49
  Scenario Outline: A handle opened for peeking cannot receive
    Given "orders" is opened with PEEK_ACCESS as "p"
    And cursor "pc" is created on "p"
    When R_StartReceive is called on "p" with:
      | LookupId | hCursor  | ulAction | ulTimeout |
      | <lookup> | <cursor> | <action> | 0         |
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And by D-49 "orders" holds "m1", "m2" and "m3" (check) or <left> (no-check)

    Examples:
      | lookup     | cursor | action                    | left            |
      | 0          | 0      | MQ_ACTION_RECEIVE         | "m2" and "m3"   |
      | 0          | pc     | MQ_ACTION_RECEIVE         | "m2" and "m3"   |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_CURRENT | "m1" and "m3"   |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_NEXT    | "m1" and "m2"   |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_PREV    | "m2" and "m3"   |

  @clause:MS-MQRR:3.1.4.7:33
  Scenario Outline: A handle opened for peeking can peek
    Given "orders" is opened with PEEK_ACCESS as "p"
    And cursor "pc" is created on "p"
    When R_StartReceive is called on "p" with:
      | LookupId | hCursor  | ulAction | ulTimeout |
      | <lookup> | <cursor> | <action> | 0         |
    Then the call returns MQ_OK
    And the message returned is "<returned>"

    Examples:
      | lookup     | cursor | action                 | returned |
      | 0          | 0      | MQ_ACTION_PEEK_CURRENT | m1       |
      | 0          | pc     | MQ_ACTION_PEEK_CURRENT | m1       |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_NEXT    | m3       |

  # -- what each action reads ----------------------------------------------------------------------

  @clause:MS-MQRR:3.1.4.7:29 @clause:MS-MQRR:3.1.4.7:20
  Scenario: Without a cursor or lookup identifier the first unlocked message is read
    When the client starts a receive on "h" as "r1"
    Then the message returned is "m1"
    When the client peeks at "h"
    Then the message returned is "m2"
    When the client receives from "h"
    Then the message returned is "m2"
    And "orders" holds "m3"

  @clause:MS-MQRR:3.1.4.7:29
  Scenario: A plain peek reads the front of the queue and leaves it there
    When the client peeks at "h"
    Then the call returns MQ_OK
    And the message returned is "m1"
    And "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.7:29
  Scenario: The front of the queue follows priority before arrival
    Given a queue "mixed"
    And message "low" is sent to "mixed" with:
      | priority | 1 |
    And message "high" is sent to "mixed" with:
      | priority | 6 |
    And "mixed" is opened with RECEIVE_ACCESS as "x"
    When the client peeks at "x"
    Then the message returned is "high"
    When the client receives from "x"
    Then the message returned is "high"
    And "mixed" holds "low"

  @clause:MS-MQRR:3.1.4.7:19
  Scenario: MQ_ACTION_RECEIVE locks the message until R_EndReceive finishes the request
    When the client starts a receive on "h" as "r"
    Then the call returns MQ_OK
    And the message returned is "m1"
    And "orders" holds "m2" and "m3"
    When the client ends "r" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds "m2" and "m3"

  # D-52: nothing removes the entry filed before the read failed, so it is gone (remove) or stays with
  # LookupIdentifier 0 (keep) until an End removes it and finds no message (3.1.4.9)
  @clause:MS-MQRR:3.1.4.7:19 @decision:D-52
  Scenario: A receive that finds nothing leaves no request behind
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When R_StartReceive is called on "e" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    Then the call returns MQ_ERROR_IO_TIMEOUT
    When the client ends request id 7 on "e" with RR_ACK
    Then by D-52 the call returns MQ_ERROR_INVALID_HANDLE (remove) or MQ_ERROR_MESSAGE_NOT_FOUND (keep)
    When the client ends request id 7 on "e" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE

  @clause:MS-MQRR:3.1.4.7:22
  Scenario Outline: A peek is complete when it returns and leaves nothing to end
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor  | ulAction | ulTimeout | dwRequestId |
      | <lookup> | <cursor> | <action> | 0         | 7           |
    Then the call returns MQ_OK
    When the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_ERROR_INVALID_HANDLE
    When the client cancels request id 7 on "h"
    Then the status has the failure bit set
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | lookup     | cursor | action                 |
      | 0          | 0      | MQ_ACTION_PEEK_CURRENT |
      | 0          | c1     | MQ_ACTION_PEEK_CURRENT |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_CURRENT |
      | id of "m2" | 0      | MQ_LOOKUP_PEEK_PREV    |

  @clause:MS-MQRR:3.1.4.7:22
  Scenario Outline: A receive leaves a request that R_EndReceive finishes
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor  | ulAction | ulTimeout | dwRequestId |
      | <lookup> | <cursor> | <action> | 0         | 7           |
    Then the message returned is "<taken>"
    And "orders" holds <left>
    When the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds <left>

    Examples:
      | lookup     | cursor | action                    | taken | left          |
      | 0          | 0      | MQ_ACTION_RECEIVE         | m1    | "m2" and "m3" |
      | 0          | c1     | MQ_ACTION_RECEIVE         | m1    | "m2" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_CURRENT | m2    | "m1" and "m3" |
      | id of "m2" | 0      | MQ_LOOKUP_RECEIVE_NEXT    | m3    | "m1" and "m2" |

  @clause:MS-MQRR:3.1.4.7:25 @clause:MS-MQRR:3.1.4.7:20
  Scenario Outline: Lookup peeks read the message with that identifier, or the one after or before it
    When R_StartReceive is called on "h" with:
      | LookupId   | hCursor | ulAction | ulTimeout |
      | id of "m2" | 0       | <action> | 0         |
    Then the call returns MQ_OK
    And the message returned is "<returned>"
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | action                 | returned |
      | MQ_LOOKUP_PEEK_CURRENT | m2       |
      | MQ_LOOKUP_PEEK_NEXT    | m3       |
      | MQ_LOOKUP_PEEK_PREV    | m1       |

  @clause:MS-MQRR:3.1.4.7:25 @clause:MS-MQRR:3.1.4.7:20
  Scenario Outline: Lookup receives take the message with that identifier, or the one after or before it
    When R_StartReceive is called on "h" with:
      | LookupId   | hCursor | ulAction | ulTimeout | dwRequestId |
      | id of "m2" | 0       | <action> | 0         | 7           |
    Then the message returned is "<returned>"
    When the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_OK
    And "orders" holds <left>

    Examples:
      | action                    | returned | left          |
      | MQ_LOOKUP_RECEIVE_CURRENT | m2       | "m1" and "m3" |
      | MQ_LOOKUP_RECEIVE_NEXT    | m3       | "m1" and "m2" |
      | MQ_LOOKUP_RECEIVE_PREV    | m1       | "m2" and "m3" |

  @clause:MS-MQRR:3.1.4.7:25
  Scenario Outline: Lookups after or before a message skip messages that are locked
    When the client locks "m2" by lookup id with MQ_LOOKUP_RECEIVE_CURRENT on "h"
    And R_StartReceive is called on "h" with:
      | LookupId       | hCursor | ulAction | ulTimeout |
      | id of "<from>" | 0       | <action> | 0         |
    Then the call returns MQ_OK
    And the message returned is "<returned>"

    Examples:
      | from | action                 | returned |
      | m1   | MQ_LOOKUP_PEEK_NEXT    | m3       |
      | m3   | MQ_LOOKUP_PEEK_PREV    | m1       |
      | m1   | MQ_LOOKUP_RECEIVE_NEXT | m3       |
      | m3   | MQ_LOOKUP_RECEIVE_PREV | m1       |

  @clause:MS-MQRR:3.1.4.7:25 @clause:MS-MQRR:3.1.4.7:21 @decision:D-04
  Scenario Outline: A lookup that finds no message fails with the status of its event
    When the client locks "m2" by lookup id with MQ_LOOKUP_RECEIVE_CURRENT on "h"
    And R_StartReceive is called on "h" with:
      | LookupId       | hCursor | ulAction | ulTimeout |
      | id of "<from>" | 0       | <action> | 0         |
    Then <outcome>

    # Nothing after or before the message: the seek gives End or Start, for which MS-MQDMPR 3.1.7.1.13
    # names no status (D-04); a locked message under SeekCurrent has its statuses (3.1.7.3.3).
    Examples:
      | from | action                    | outcome                                                                                              |
      | m3   | MQ_LOOKUP_PEEK_NEXT       | by D-04 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (not-found) or any other failure (other-failure) |
      | m1   | MQ_LOOKUP_PEEK_PREV       | by D-04 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (not-found) or any other failure (other-failure) |
      | m3   | MQ_LOOKUP_RECEIVE_NEXT    | by D-04 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (not-found) or any other failure (other-failure) |
      | m2   | MQ_LOOKUP_RECEIVE_CURRENT | the call returns MQ_ERROR_MESSAGE_NOT_FOUND                                                          |
      | m2   | MQ_LOOKUP_PEEK_CURRENT    | the call returns MQ_ERROR_TRANSACTION_USAGE                                                          |

  # LookupId is a ULONGLONG: any value is a valid parameter, and one that no message has is not found
  @clause:MS-MQRR:3.1.4.7:25
  Scenario Outline: A lookup identifier that no message has is not found, however large (<id>)
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction               | ulTimeout |
      | <id>     | 0       | MQ_LOOKUP_PEEK_CURRENT | 0         |
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    And "orders" holds "m1", "m2" and "m3"

    Examples:
      | id                 |
      | 0x7FFFFFFFFFFFFFFF |
      | 0x8000000000000000 |
      | 0xFFFFFFFFFFFFFFFF |

  @clause:MS-MQRR:3.1.4.7:25 @clause:MS-MQRR:3.1.4.7:21
  Scenario: A lookup of a message that left the queue fails with MQ_ERROR_MESSAGE_NOT_FOUND
    When the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    And the client receives from "h"
    And the client peeks "m1" by lookup id with MQ_LOOKUP_PEEK_CURRENT on "h"
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND

  @clause:MS-MQRR:3.1.4.7:21 @clause:MS-MQRR:3.1.4.7:15
  Scenario Outline: Reads through a handle whose queue was deleted fail with MQ_ERROR_QUEUE_NOT_AVAILABLE
    When queue "orders" is deleted
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | 0       | <action> | 0         |
    Then the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE
    And the status has the failure bit set

    Examples:
      | action                 |
      | MQ_ACTION_RECEIVE      |
      | MQ_ACTION_PEEK_CURRENT |

  @clause:MS-MQRR:3.1.4.7:26
  Scenario: A receive through a cursor takes the message under it and moves the cursor on
    Given cursor "c1" is created on "h"
    When cursor "c1" peeks the current message
    Then the message returned is "m1"
    When cursor "c1" receives
    Then the message returned is "m1"
    When cursor "c1" peeks the current message
    Then the message returned is "m2"
    And "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.7:26
  Scenario: Receives through a fresh cursor walk the queue from the front
    Given cursor "c1" is created on "h"
    When cursor "c1" receives
    Then the message returned is "m1"
    When cursor "c1" receives
    Then the message returned is "m2"
    And "orders" holds "m3"

  @clause:MS-MQRR:3.1.4.7:27
  Scenario: A cursor peek returns the message under the cursor and leaves it there
    Given cursor "c1" is created on "h"
    When cursor "c1" peeks the current message
    Then the message returned is "m1"
    When cursor "c1" peeks the current message
    Then the message returned is "m1"
    And "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.7:27 @clause:MS-MQRR:3.1.4.7:21
  Scenario Outline: A cursor whose message was taken by another reader reports MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    Given cursor "c1" is created on "h"
    When cursor "c1" peeks the current message
    And the client receives from "h"
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | c1      | <action> | 0         |
    Then the call returns MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    And "orders" holds "m2" and "m3"

    Examples:
      | action                 |
      | MQ_ACTION_PEEK_CURRENT |
      | MQ_ACTION_RECEIVE      |

  @clause:MS-MQRR:3.1.4.7:28
  Scenario: Peeking next moves the cursor along without removing anything
    Given cursor "c1" is created on "h"
    When cursor "c1" peeks the current message
    And cursor "c1" peeks the next message
    Then the message returned is "m2"
    When cursor "c1" peeks the next message
    Then the message returned is "m3"
    When cursor "c1" peeks the current message
    Then the message returned is "m3"
    When cursor "c1" peeks the next message
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.7:28 @clause:MS-MQRR:3.1.4.7:21
  Scenario: Peeking next through a cursor that has read nothing yet is an illegal cursor action
    Given cursor "c1" is created on "h"
    When cursor "c1" peeks the next message
    Then the call returns MQ_ERROR_ILLEGAL_CURSOR_ACTION
    And "orders" holds "m1", "m2" and "m3"

  @clause:MS-MQRR:3.1.4.7:26 @clause:MS-MQRR:3.1.4.7:21 @decision:D-03
  Scenario: A cursor receive past the last message finds nothing
    Given cursor "c1" is created on "h"
    When cursor "c1" receives
    And cursor "c1" receives
    And cursor "c1" receives
    And cursor "c1" receives
    Then by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)

  # -- waiting -----------------------------------------------------------------------------------

  @clause:MS-MQRR:3.1.4.7:23 @clause:MS-MQRR:3.1.4.7:21
  Scenario Outline: A read with a zero time-out on an empty queue ends at once
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When R_StartReceive is called on "e" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | 0        | 0       | <action> | 0         |
    Then the call returns MQ_ERROR_IO_TIMEOUT

    Examples:
      | action                 |
      | MQ_ACTION_RECEIVE      |
      | MQ_ACTION_PEEK_CURRENT |

  @clause:MS-MQRR:3.1.4.7:23
  Scenario: A receive with a time-out waits exactly that long for a message, then gives up
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When the client waits on "e" for up to 150 ms in the background as "w"
    And 149 milliseconds pass
    Then the background call "w" is still waiting
    When 1 millisecond passes
    And the background call "w" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQRR:3.1.4.7:23
  Scenario: A peek with a time-out waits exactly that long for a message, then gives up
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When in the background, the client peeks at "e" with a time-out of 150 ms as "w"
    And 149 milliseconds pass
    Then the background call "w" is still waiting
    When 1 millisecond passes
    And the background call "w" completes
    Then the call returns MQ_ERROR_IO_TIMEOUT

  @clause:MS-MQRR:3.1.4.7:23
  Scenario: A waiting receive gets the message that arrives and locks it
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When the client waits on "e" for up to 60000 ms in the background as "w"
    Then the background call "w" is still waiting
    When message "late" is sent to "empty"
    And the background call "w" completes
    Then the call returns MQ_OK
    And the message returned is "late"
    And "empty" holds nothing
    When the client ends "w" with RR_ACK
    Then the call returns MQ_OK

  @clause:MS-MQRR:3.1.4.7:23
  Scenario: A waiting peek gets the message that arrives and leaves it
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When in the background, the client peeks at "e" with a time-out of 60000 ms as "w"
    Then the background call "w" is still waiting
    When message "late" is sent to "empty"
    And the background call "w" completes
    Then the call returns MQ_OK
    And the message returned is "late"
    And "empty" holds "late"

  @clause:MS-MQRR:3.1.4.7:23
  Scenario: A waiting cursor peek gets the message that arrives
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    And cursor "c" is created on "e"
    When in the background, cursor "c" peeks at the current message with a time-out of 60000 ms as "w"
    And message "late" is sent to "empty"
    And the background call "w" completes
    Then the message returned is "late"
    When cursor "c" peeks the current message
    Then the message returned is "late"

  @clause:MS-MQRR:3.1.4.7:23
  Scenario: An INFINITE wait has no limit
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When the client waits on "e" for up to INFINITE ms in the background as "w"
    And 6 minutes pass
    Then the background call "w" is still waiting
    When message "late" is sent to "empty"
    And the background call "w" completes
    Then the call returns MQ_OK
    And the message returned is "late"
    When the client ends "w" with RR_ACK
    Then the call returns MQ_OK
    And "empty" holds nothing

  @clause:MS-MQRR:3.1.4.7:24
  Scenario: A waiting receive can be cancelled with its handle and request id
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When the client waits on "e" for up to INFINITE ms in the background as "w"
    And the client cancels "w"
    Then the call returns MQ_OK
    When the background call "w" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED

  # The peek actions raise Peek Message / Peek Next Message without iTag, so R_CancelReceive may not
  # reach them, though this section says a pending call can be cancelled (D-18).
  @clause:MS-MQRR:3.1.4.7:24 @decision:D-18
  Scenario: A waiting peek can be cancelled with its handle and request id, or runs on to its time-out
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When in the background, the client peeks at "e" with a time-out of 3000 ms as "w"
    And the client cancels "w"
    Then by D-18 the call returns MQ_OK (tagged) or any other failure (untagged)
    And by D-18 the background call "w" ends with MQ_ERROR_OPERATION_CANCELLED (tagged) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (untagged)

  # -- request ids -------------------------------------------------------------------------------

  # D-36: reusing a busy dwRequestId breaks the client's MUST; the server refuses it, or lets the new entry
  # replace the old one (accept), whose message nothing can end any more
  @clause:MS-MQRR:3.1.4.7:34 @decision:D-36
  Scenario: A request id cannot start a second receive on the handle before the first one ends
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    Then the message returned is "m1"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    Then by D-36 the call returns MQ_ERROR_INVALID_PARAMETER (refuse) or MQ_OK (accept)
    And by D-36 "orders" holds "m2" and "m3" (refuse) or "m3" (accept)
    When the client ends request id 7 on "h" with RR_ACK
    Then the call returns MQ_OK
    And by D-36 "orders" holds "m2" and "m3" (refuse) or "m3" (accept)

  @clause:MS-MQRR:3.1.4.7:34 @decision:D-36
  Scenario: A lookup receive also keeps its request id busy
    When R_StartReceive is called on "h" with:
      | LookupId   | hCursor | ulAction                  | ulTimeout | dwRequestId |
      | id of "m2" | 0       | MQ_LOOKUP_RECEIVE_CURRENT | 0         | 7           |
    And R_StartReceive is called on "h" with:
      | LookupId   | hCursor | ulAction                  | ulTimeout | dwRequestId |
      | id of "m3" | 0       | MQ_LOOKUP_RECEIVE_CURRENT | 0         | 7           |
    Then by D-36 the call returns MQ_ERROR_INVALID_PARAMETER (refuse) or MQ_OK (accept)
    And by D-36 "orders" holds "m1" and "m3" (refuse) or "m1" (accept)

  @clause:MS-MQRR:3.1.4.7:34
  Scenario: A request id is free again once its receive ended, and is free on another handle
    Given "orders" is opened with RECEIVE_ACCESS as "h2"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    And R_StartReceive is called on "h2" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    Then the call returns MQ_OK
    And the message returned is "m2"
    When the client ends request id 7 on "h" with RR_NACK
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    Then the call returns MQ_OK
    And the message returned is "m1"

  @clause:MS-MQRR:3.1.4.7:34 @decision:D-36
  Scenario: A peek cannot reuse the request id of an unfinished receive on the handle
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    And R_StartReceive is called on "h" with:
      | LookupId | hCursor | ulAction               | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_PEEK_CURRENT | 0         | 7           |
    Then by D-36 the call returns MQ_ERROR_INVALID_PARAMETER (refuse) or MQ_OK (accept)
    And "orders" holds "m2" and "m3"

  @clause:MS-MQRR:3.1.4.7:34 @decision:D-36
  Scenario: A receive cannot reuse the request id of a read that is still waiting on the handle
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When in the background, the client peeks at "e" with request id 7 and a time-out of INFINITE ms as "w"
    And R_StartReceive is called on "e" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 7           |
    Then by D-36 the call returns MQ_ERROR_INVALID_PARAMETER (refuse) or MQ_ERROR_IO_TIMEOUT (accept)
    And the background call "w" is still waiting
    When message "m" is sent to "empty"
    And the background call "w" completes
    Then the message returned is "m"

  # 3.1.4.7:34 forbids reusing the same dwRequestId only: a smaller one than a waiting read's is another request
  @clause:MS-MQRR:3.1.4.7:34
  Scenario: A request id lower than that of a read still waiting on the handle is served
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    When in the background, the client peeks at "e" with request id 7 and a time-out of INFINITE ms as "w"
    And R_StartReceive is called on "e" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwRequestId |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 3           |
    Then the call returns MQ_ERROR_IO_TIMEOUT
    And the background call "w" is still waiting
    When message "m" is sent to "empty"
    And the background call "w" completes
    Then the message returned is "m"

  @clause:MS-MQRR:3.1.4.7:16
  Scenario: The parameters are checked before the queue handle
    Given a queue handle "x" that the server never issued
    When R_StartReceive is called on "x" with:
      | LookupId | hCursor | ulAction            | ulTimeout |
      | 0        | 0       | MQ_ACTION_PEEK_NEXT | 0         |
    Then the call returns MQ_ERROR_INVALID_PARAMETER

  # -- what comes back ---------------------------------------------------------------------------

  # an unknown queue handle is refused with a failure too: "A queue handle the server never issued is refused" (D-44)
  @clause:MS-MQRR:3.1.4.7:15
  Scenario Outline: Every refusal is a failure HRESULT
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    And "orders" is opened with PEEK_ACCESS as "p"
    And "cx" is a cursor handle the server never issued on "h"
    When R_StartReceive is called on "<handle>" with:
      | LookupId | hCursor  | ulAction | ulTimeout |
      | <lookup> | <cursor> | <action> | 0         |
    Then the call returns <status>
    And the status has the failure bit set

    Examples:
      | handle | lookup     | cursor | action                 | status                     |
      | h      | 0          | 0      | MQ_ACTION_PEEK_NEXT    | MQ_ERROR_INVALID_PARAMETER |
      | h      | 0          | cx     | MQ_ACTION_PEEK_CURRENT | STATUS_INVALID_HANDLE      |
      | e      | 0          | 0      | MQ_ACTION_RECEIVE      | MQ_ERROR_IO_TIMEOUT        |
      | e      | id of "m1" | 0      | MQ_LOOKUP_PEEK_CURRENT | MQ_ERROR_MESSAGE_NOT_FOUND |

  # D-49: a receive through a peeking handle is refused with a failure HRESULT (check), or goes on (no-check)
  @clause:MS-MQRR:3.1.4.7:15 @decision:D-49
  Scenario: A receive through a peeking handle is refused with a failure HRESULT, or left to the client
    Given "orders" is opened with PEEK_ACCESS as "p"
    When R_StartReceive is called on "p" with:
      | LookupId | hCursor | ulAction          | ulTimeout |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         |
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And by D-49 "orders" holds "m1", "m2" and "m3" (check) or "m2" and "m3" (no-check)

  @clause:MS-MQRR:3.1.4.7:15 @clause:MS-MQRR:3.1.4.7:21
  Scenario Outline: Success is MQ_OK with the message's outputs
    Given cursor "c1" is created on "h"
    When R_StartReceive is called on "h" with:
      | LookupId | hCursor  | ulAction | ulTimeout |
      | <lookup> | <cursor> | <action> | 0         |
    Then the call returns MQ_OK
    And the message returned is "<returned>"
    And the arrival time returned is when "<returned>" was sent, in epoch seconds
    And pdwNumberOfSections is 1, the number of sections returned

    Examples:
      | lookup     | cursor | action                 | returned |
      | 0          | 0      | MQ_ACTION_RECEIVE      | m1       |
      | 0          | 0      | MQ_ACTION_PEEK_CURRENT | m1       |
      | 0          | c1     | MQ_ACTION_RECEIVE      | m1       |
      | id of "m3" | 0      | MQ_LOOKUP_PEEK_CURRENT | m3       |
      | id of "m3" | 0      | MQ_LOOKUP_RECEIVE_PREV | m2       |

  @clause:MS-MQRR:3.1.4.7:08 @clause:MS-MQRR:3.1.4.7:21
  Scenario Outline: pdwArriveTime is when the message entered the queue, not when it is read
    Given a queue "timed"
    And message "early" is sent to "timed"
    And 30 seconds pass
    And message "later" is sent to "timed"
    And "timed" is opened with RECEIVE_ACCESS as "t"
    Then "later" arrived 30 seconds after "early"
    When 40 seconds pass
    And R_StartReceive is called on "t" with:
      | LookupId | hCursor | ulAction | ulTimeout |
      | <lookup> | 0       | <action> | 0         |
    Then the arrival time returned is when "<returned>" was sent, in epoch seconds

    Examples:
      | lookup        | action                    | returned |
      | 0             | MQ_ACTION_PEEK_CURRENT    | early    |
      | 0             | MQ_ACTION_RECEIVE         | early    |
      | id of "later" | MQ_LOOKUP_PEEK_CURRENT    | later    |
      | id of "later" | MQ_LOOKUP_RECEIVE_CURRENT | later    |

  @clause:MS-MQRR:3.1.4.7:08
  Scenario: pdwArriveTime survives a restart of the queue manager
    Given a queue "timed"
    And message "kept" is sent to "timed" with:
      | delivery | recoverable |
    When 30 seconds pass
    And the queue manager restarts
    And "timed" is opened with RECEIVE_ACCESS as "t"
    And the client peeks at "t"
    Then the arrival time returned is when "kept" was sent, in epoch seconds

  @clause:MS-MQRR:3.1.4.7:09
  Scenario: pSequenceId is the lookup identifier of the message
    When the client peeks at "h"
    Then the pSequenceId returned fits in 7 bytes
    When the client peeks at the lookup id of "m1" with high byte 0 on "h"
    Then the call returns MQ_OK
    And the message returned is "m1"

  @clause:MS-MQRR:3.1.4.7:09
  Scenario: pSequenceId leaves out the top byte of a transactional message's lookup identifier
    Given a transactional queue "ledger"
    And messages "t1" were committed to "ledger"
    And "ledger" is opened with RECEIVE_ACCESS as "l"
    When the client peeks at "l"
    Then the message returned is "t1"
    And the pSequenceId returned fits in 7 bytes
    When the client peeks at the lookup id of "t1" with high byte 0 on "l"
    Then the call returns MQ_ERROR_MESSAGE_NOT_FOUND
    When the client peeks at the lookup id of "t1" with high byte 7 on "l"
    Then the call returns MQ_OK
    And the message returned is "t1"

  @clause:MS-MQRR:3.1.4.7:11 @clause:MS-MQRR:3.1.4.7:10
  Scenario Outline: A body within dwMaxBodySize comes back whole in one section
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size | <size> |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing <limit> body bytes and 4194304 compound message bytes
    Then the message comes back whole in one stFullPacket section
    And pdwNumberOfSections is 1, the number of sections returned

    Examples:
      | size | limit   |
      | 100  | 100     |
      | 100  | 101     |
      | 100  | 4194304 |
      | 0    | 0       |

  @clause:MS-MQRR:3.1.4.7:12 @clause:MS-MQRR:3.1.4.7:13 @clause:MS-MQRR:3.1.4.7:10
  Scenario Outline: A body larger than dwMaxBodySize is cut, and the trailers come in a second section
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size | <size> |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing <limit> body bytes and 4194304 compound message bytes
    Then the message comes back as stBinaryFirstSection with the first <limit> bytes of its body and stBinarySecondSection with the trailers
    And pdwNumberOfSections is 2, the number of sections returned

    Examples:
      | size | limit |
      | 100  | 99    |
      | 100  | 10    |
      | 101  | 1     |
      | 102  | 0     |

  @clause:MS-MQRR:3.1.4.7:12 @clause:MS-MQRR:3.1.4.7:13 @clause:MS-MQRR:3.1.4.7:21
  Scenario: A received message is cut like a peeked one
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size | 100 |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When R_StartReceive is called on "s" with:
      | LookupId | hCursor | ulAction          | ulTimeout | dwMaxBodySize | dwMaxCompoundMessageSize |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         | 10            | 10                       |
    Then the message comes back as stBinaryFirstSection with the first 10 bytes of its body and stBinarySecondSection with the trailers

  @clause:MS-MQRR:3.1.4.7:30
  Scenario Outline: The sections laid out by SectionSizeAlloc make up the message packet
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size | <size> |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing 4194304 body bytes and 4194304 compound message bytes
    And the client peeks at "s" allowing <limit> body bytes and 4194304 compound message bytes
    Then the sections placed at their SectionSizeAlloc offsets rebuild the packet of the whole peek

    Examples:
      | size | limit |
      | 100  | 10    |
      | 101  | 0     |
      | 103  | 50    |
      | 64   | 4096  |

  @clause:MS-MQRR:3.1.4.7:14
  Scenario Outline: The first section carries the absolute time the message had to reach the queue by
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size           | 100    |
      | time to reach queue | <ttrq> |
      | sent                | <sent> |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing <limit> body bytes and 4194304 compound message bytes
    Then the returned BaseHeader.TimeToReachQueue is <expected>

    Examples:
      | ttrq       | sent            | limit   | expected           |
      | 3600       | now             | 4194304 | SentTime + 3600    |
      | 3600       | now             | 10      | SentTime + 3600    |
      | 3600       | 100 seconds ago | 4194304 | SentTime + 3600    |
      | 0x54600    | now             | 4194304 | SentTime + 0x54600 |

  # D-64: the sum has 4 bytes and no rule for overflow or for the infinite value: it saturates (0xFFFFFFFF
  # stays, a larger sum is 0xFFFFFFFE) or wraps modulo 2^32
  @clause:MS-MQRR:3.1.4.7:14 @decision:D-64
  Scenario Outline: A TimeToReachQueue whose sum overflows saturates or wraps (<ttrq>)
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size           | 100    |
      | time to reach queue | <ttrq> |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing 4194304 body bytes and 4194304 compound message bytes
    Then by D-64 the returned BaseHeader.TimeToReachQueue is <saturated> (saturate) or SentTime + <ttrq> modulo 2^32 (wrap)

    Examples:
      | ttrq       | saturated  |
      | INFINITE   | INFINITE   |
      | 0xFFFFFFF0 | 0xFFFFFFFE |

  @clause:MS-MQRR:3.1.4.7:14
  Scenario: A receive also gets the absolute TimeToReachQueue
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | time to reach queue | 7200 |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client receives from "s"
    Then the returned BaseHeader.TimeToReachQueue is SentTime + 7200

  @clause:MS-MQRR:3.1.4.7:35 @clause:MS-MQRR:3.1.4.7:11
  Scenario Outline: dwMaxBodySize does not cut an SRMP message
    Given a queue "soap"
    And message "s1" is sent to "soap" with:
      | srmp envelope         | <se:Envelope/>                          |
      | srmp compound message | POST /q HTTP/1.1 and a body of 40 bytes |
    And "soap" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing <limit> body bytes and 4194304 compound message bytes
    Then the message comes back whole in one stFullPacket section

    Examples:
      | limit |
      | 0     |
      | 1     |
      | 10    |

  @clause:MS-MQRR:3.1.4.7:35 @clause:MS-MQRR:3.1.4.7:12 @clause:MS-MQRR:3.1.4.7:13 @decision:D-62
  Scenario: dwMaxCompoundMessageSize cuts an SRMP message, whatever dwMaxBodySize says
    Given a queue "soap"
    And message "s1" is sent to "soap" with:
      | srmp envelope         | <se:Envelope/>                          |
      | srmp compound message | POST /q HTTP/1.1 and a body of 40 bytes |
    And "soap" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing 4194304 body bytes and 20 compound message bytes
    Then the message comes back as stSrmpFirstSection with the first 20 bytes of its compound message and stSrmpSecondSection with the trailers

  @clause:MS-MQRR:3.1.4.7:36
  Scenario Outline: dwMaxCompoundMessageSize does not cut a binary message
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size | 100 |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing 100 body bytes and <limit> compound message bytes
    Then the message comes back whole in one stFullPacket section

    Examples:
      | limit |
      | 0     |
      | 10    |
      | 99    |

  @clause:MS-MQRR:3.1.4.7:36
  Scenario: dwMaxBodySize cuts a binary message, whatever dwMaxCompoundMessageSize says
    Given a queue "sized"
    And message "big" is sent to "sized" with:
      | body size | 100 |
    And "sized" is opened with RECEIVE_ACCESS as "s"
    When the client peeks at "s" allowing 30 body bytes and 4194304 compound message bytes
    Then the message comes back as stBinaryFirstSection with the first 30 bytes of its body and stBinarySecondSection with the trailers

  @clause:MS-MQRR:3.1.4.7:32
  Scenario Outline: R_StartReceive hands its failures back as return values, not as RPC faults (<case>)
    Given the calls travel over DCE/RPC
    And a queue "q32"
    And "q32" holds "m1"
    And "q32" is opened with <access> as "h32"
    And "bogus" is a cursor handle the server never issued on "h32"
    When R_StartReceive is called on "h32" with:
      | LookupId | hCursor  | ulAction | ulTimeout |
      | <lookup> | <cursor> | <action> | 0         |
    Then the call returns <status>
    And the status came back as the method's return value, not as an RPC fault

    Examples:
      | case                       | access         | lookup | cursor | action                 | status                     |
      | an action the table lacks  | RECEIVE_ACCESS | 0      | 0      | 0x12345678             | MQ_ERROR_INVALID_PARAMETER |
      | a cursor never issued      | RECEIVE_ACCESS | 0      | bogus  | MQ_ACTION_PEEK_CURRENT | STATUS_INVALID_HANDLE      |
      | a lookup id no message has | RECEIVE_ACCESS | 0x0100 | 0      | MQ_LOOKUP_PEEK_CURRENT | MQ_ERROR_MESSAGE_NOT_FOUND |
      | nothing there in time      | RECEIVE_ACCESS | 0x0100 | 0      | MQ_LOOKUP_PEEK_NEXT    | MQ_ERROR_MESSAGE_NOT_FOUND |

  # a failed call's outputs mean nothing to the client (3.1.4.7:15), yet the reply still carries them: the
  # array is sized by pdwNumberOfSections and each value has its IDL type, or the failure turns into an RPC fault
  @clause:MS-MQRR:3.1.4.7:10 @clause:MS-MQRR:3.1.4.7:32
  Scenario Outline: A failed R_StartReceive still hands back outputs its reply can carry (<case>)
    Given a queue "q32"
    And "q32" holds "m1"
    And "q32" is opened with RECEIVE_ACCESS as "h32"
    And "bogus" is a cursor handle the server never issued on "h32"
    When R_StartReceive is called on "h32" with:
      | LookupId | hCursor  | ulAction | ulTimeout |
      | <lookup> | <cursor> | <action> | 0         |
    Then the call returns <status>
    And the outputs fit the reply: pdwNumberOfSections counts ppPacketSections, pdwArriveTime is a DWORD and pSequenceId a ULONGLONG

    Examples:
      | case                       | lookup | cursor | action                 | status                     |
      | an action the table lacks  | 0      | 0      | 0x12345678             | MQ_ERROR_INVALID_PARAMETER |
      | a cursor never issued      | 0      | bogus  | MQ_ACTION_PEEK_CURRENT | STATUS_INVALID_HANDLE      |
      | a lookup id no message has | 0x0100 | 0      | MQ_LOOKUP_PEEK_CURRENT | MQ_ERROR_MESSAGE_NOT_FOUND |

  # D-49: the access check is the client's duty; a server that makes it answers in the return value too
  @clause:MS-MQRR:3.1.4.7:32 @decision:D-49
  Scenario: A receive on a peek handle is answered in the return value, not as an RPC fault
    Given the calls travel over DCE/RPC
    And a queue "q32"
    And "q32" holds "m1"
    And "q32" is opened with PEEK_ACCESS as "h32"
    When R_StartReceive is called on "h32" with:
      | LookupId | hCursor | ulAction          | ulTimeout |
      | 0        | 0       | MQ_ACTION_RECEIVE | 0         |
    Then by D-49 the call returns MQ_ERROR_ACCESS_DENIED (check) or MQ_OK (no-check)
    And the status came back as the method's return value, not as an RPC fault
