Feature: MS-MQDMPR 3.1.7.1.1 Open Cursor and 3.1.7.1.2 Close Cursor
  A cursor belongs to the open queue descriptor it was created on and starts before the
  first message; closing it ends the reads that wait through it and takes it off its descriptor.

  Background:
    Given a queue "inbox"
    And "inbox" holds "m1" and "m2"
    And "inbox" is opened with RECEIVE_ACCESS as "h"

  # D-46: Open Cursor returns no cursor for a descriptor whose queue is gone; R_CreateCursor names no status
  @clause:MS-MQDMPR:3.1.7.1.1:01 @decision:D-46
  Scenario: No cursor can be opened on a handle whose queue was deleted
    When queue "inbox" is deleted
    And the client asks for a cursor on "h" as "c"
    Then by D-46 the call returns MQ_ERROR_QUEUE_NOT_AVAILABLE (not-available, purge-ok) or any other failure (other-failure, purge-ok)

  @clause:MS-MQDMPR:3.1.7.1.1:02
  Scenario: A new cursor is usable on its own handle and starts at the first message
    When the client asks for a cursor on "h" as "c"
    Then the call returns MQ_OK
    When cursor "c" peeks the current message
    Then the call returns MQ_OK
    And the message returned is "m1"

  # D-48: the cursor sits in its own descriptor's collection, but MS-MQRR 3.1.4.7 looks hCursor up among every
  # cursor of the queue manager: another handle of the same queue is refused it (own-handle) or may use it
  @clause:MS-MQDMPR:3.1.7.1.1:02 @decision:D-48 @decision:D-47
  Scenario: A cursor is added to its own descriptor, so another handle cannot use it, or uses it as its own
    Given "inbox" is opened with RECEIVE_ACCESS as "other"
    When the client asks for a cursor on "h" as "c"
    And R_StartReceive is called on "other" with:
      | LookupId | hCursor | ulAction               | ulTimeout |
      | 0        | c       | MQ_ACTION_PEEK_CURRENT | 0         |
    Then by D-48 the message returned is "m1" (qm-wide) or the call fails (own-handle)
    And where D-48 is own-handle, the call returns STATUS_INVALID_HANDLE
    When R_CloseCursor is called on "other" for "c"
    Then by D-47 the call returns STATUS_INVALID_HANDLE (status-invalid-handle) or any other failure (other-failure)
    When R_CloseCursor is called on "h" for "c"
    Then the call returns MQ_OK

  # Close Cursor drops the cursor's waiting reads without a status; their timers still run (D-14):
  # they end cancelled at once, or with MQ_ERROR_IO_TIMEOUT at their time-out.
  @clause:MS-MQDMPR:3.1.7.1.2:01 @decision:D-14
  Scenario: Closing a cursor ends the read waiting through it and removes the cursor from its handle
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    And cursor "c" is created on "e"
    When in the background, cursor "c" peeks at the current message with a time-out of 3000 ms as "r"
    And the client closes its cursor "c"
    Then the call returns MQ_OK
    And by D-14 the background call "r" ends with MQ_ERROR_OPERATION_CANCELLED (cancelled) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (times-out)
    When message "new" is sent to "empty"
    And cursor "c" peeks the current message
    Then the call returns STATUS_INVALID_HANDLE
    And "empty" holds "new"

  @clause:MS-MQDMPR:3.1.7.1.2:01 @decision:D-14
  Scenario: Closing a cursor leaves the other waiting reads of its handle alone
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    And cursor "c" is created on "e"
    When in the background, cursor "c" receives with a time-out of 3000 ms as "by cursor"
    And the client waits on "e" for up to INFINITE ms in the background as "plain"
    And the client closes its cursor "c"
    Then by D-14 the background call "by cursor" ends with MQ_ERROR_OPERATION_CANCELLED (cancelled) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (times-out)
    And the background call "plain" is still waiting
    When message "new" is sent to "empty"
    And the background call "plain" completes
    Then the call returns MQ_OK
    And the message returned is "new"

  # D-14 either way the read is gone from the handle: a message arriving before its time-out is not handed to it
  @clause:MS-MQDMPR:3.1.7.1.2:01 @decision:D-14
  Scenario: A message sent after its cursor closed does not go to the read that waited through the cursor
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    And cursor "c" is created on "e"
    When in the background, cursor "c" receives with a time-out of 3000 ms as "by cursor"
    And the client closes its cursor "c"
    And message "new" is sent to "empty"
    Then by D-14 the background call "by cursor" ends with MQ_ERROR_OPERATION_CANCELLED (cancelled) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (times-out)
    And "empty" holds "new"

  @clause:MS-MQDMPR:3.1.7.1.2:01 @decision:D-14
  Scenario: Closing the second of two cursors ends its read even when the first cursor's read waits before it
    Given a queue "empty"
    And "empty" is opened with RECEIVE_ACCESS as "e"
    And cursor "c1" is created on "e"
    And cursor "c2" is created on "e"
    When in the background, cursor "c1" receives with a time-out of 3000 ms as "first"
    And in the background, cursor "c2" receives with a time-out of 3000 ms as "second"
    And the client closes its cursor "c2"
    And message "m1" is sent to "empty"
    And the background call "first" completes
    Then the call returns MQ_OK
    And the message returned is "m1"
    When message "m2" is sent to "empty"
    Then by D-14 the background call "second" ends with MQ_ERROR_OPERATION_CANCELLED (cancelled) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (times-out)
    And "empty" holds "m2"
