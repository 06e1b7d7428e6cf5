Feature: MS-MQDMPR 3.1.7.1.5 Open Queue and 3.1.7.1.6 Close Queue
  Opening finds the queue, checks that the name allows the access and applies the sharing rules;
  closing cancels the reads waiting on the handle, closes its cursors and detaches it.

  Background:
    Given a queue "inbox"

  @clause:MS-MQDMPR:3.1.7.1.5:02
  Scenario Outline: Opening a local queue that does not exist for reading fails with MQ_ERROR_QUEUE_NOT_FOUND
    Given a queue name "ghost" that no queue has
    When "ghost" is opened with <access> as "h"
    Then the call returns MQ_ERROR_QUEUE_NOT_FOUND

    Examples:
      | access         |
      | RECEIVE_ACCESS |
      | PEEK_ACCESS    |

  @clause:MS-MQDMPR:3.1.7.1.5:02
  Scenario: Opening a local queue that exists succeeds
    When "inbox" is opened with RECEIVE_ACCESS as "h"
    Then the call returns MQ_OK

  @clause:MS-MQDMPR:3.1.7.1.5:03
  Scenario Outline: A machine format name is never opened for sending
    When message "m" is sent to the format name "<name>"
    Then the send is refused with MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION

    Examples:
      | name                        |
      | MACHINE=$GUID               |
      | MACHINE=$OTHER_GUID         |
      | MACHINE=$OTHER_GUID;JOURNAL |

  @clause:MS-MQDMPR:3.1.7.1.5:03
  Scenario: A machine format name may be opened for reading
    When "the system journal" is opened with PEEK_ACCESS as "h"
    Then the call returns MQ_OK

  @clause:MS-MQDMPR:3.1.7.1.5:03
  Scenario Outline: HTTP, HTTPS and multicast names pass the access check when opened for sending
    When message "m" is sent to the format name "<name>"
    Then the send is not refused as an unsupported format name operation

    Examples:
      | name                                             |
      | DIRECT=HTTP://$COMPUTER/msmq/private$/elsewhere  |
      | DIRECT=HTTPS://$COMPUTER/msmq/private$/elsewhere |
      | MULTICAST=234.1.1.1:8001                         |

  # D-30 is one choice for every read-only queue: a server that refuses a queue's journal for sending
  # refuses the computer's journal and dead-letter queues too, and one that takes them takes them all.
  @clause:MS-MQDMPR:3.1.7.1.5:03 @decision:D-30
  Scenario Outline: A queue journal and a system queue are refused alike, or taken alike, for sending (<system queue>)
    When a message is sent to the format name "DIRECT=OS:{computer}\private$\{name of inbox};JOURNAL"
    Then by D-30 the send is refused with MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION (refuse) or accepted (accept)
    When a message is sent to the format name "DIRECT=OS:{computer}\SYSTEM$;<system queue>"
    Then by D-30 the send is refused with MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION (refuse) or accepted (accept)

    Examples:
      | system queue |
      | JOURNAL      |
      | DEADLETTER   |

  # D-43: the Open Queue event fails with MQ_ERROR_SHARING_VIOLATION, but R_OpenQueue, through which the
  # suite sees it, names no status for a failed Open Queue, only a failure
  @clause:MS-MQDMPR:3.1.7.1.5:04 @clause:MS-MQDMPR:3.1.7.1.5:05 @clause:MS-MQDMPR:3.1.7.1.5:06 @decision:D-43
  Scenario Outline: A new descriptor that breaks the sharing modes of the descriptors already open is refused
    Given the client opens "inbox" with <held access> and <held share> as "first"
    When the client opens "inbox" with <access> and <share> as "second"
    Then by D-43 the call returns MQ_ERROR_SHARING_VIOLATION (open-status) or any other failure (other-failure)

    Examples: an open receiver that denies receiving (rule 04)
      | held access    | held share    | access         | share         |
      | RECEIVE_ACCESS | MQ_DENY_SHARE | RECEIVE_ACCESS | MQ_DENY_SHARE |
      | RECEIVE_ACCESS | MQ_DENY_SHARE | PEEK_ACCESS    | MQ_DENY_SHARE |
      | RECEIVE_ACCESS | MQ_DENY_SHARE | RECEIVE_ACCESS | MQ_DENY_NONE  |

    Examples: an open peeker that denies receiving (rule 05)
      | held access | held share    | access         | share         |
      | PEEK_ACCESS | MQ_DENY_SHARE | RECEIVE_ACCESS | MQ_DENY_NONE  |
      | PEEK_ACCESS | MQ_DENY_SHARE | RECEIVE_ACCESS | MQ_DENY_SHARE |

    Examples: an open receiver that shares (rule 06)
      | held access    | held share   | access         | share         |
      | RECEIVE_ACCESS | MQ_DENY_NONE | PEEK_ACCESS    | MQ_DENY_SHARE |
      | RECEIVE_ACCESS | MQ_DENY_NONE | RECEIVE_ACCESS | MQ_DENY_SHARE |

  @clause:MS-MQDMPR:3.1.7.1.5:04 @clause:MS-MQDMPR:3.1.7.1.5:05 @clause:MS-MQDMPR:3.1.7.1.5:06
  Scenario Outline: A new descriptor that agrees with the sharing modes of the descriptors already open is opened
    Given the client opens "inbox" with <held access> and <held share> as "first"
    When the client opens "inbox" with <access> and <share> as "second"
    Then the call returns MQ_OK

    Examples: an open receiver that denies receiving (rule 04)
      | held access    | held share    | access         | share         |
      | RECEIVE_ACCESS | MQ_DENY_SHARE | PEEK_ACCESS    | MQ_DENY_NONE  |

    Examples: an open peeker that denies receiving (rule 05)
      | held access | held share    | access         | share         |
      | PEEK_ACCESS | MQ_DENY_SHARE | PEEK_ACCESS    | MQ_DENY_NONE  |
      | PEEK_ACCESS | MQ_DENY_SHARE | PEEK_ACCESS    | MQ_DENY_SHARE |

    Examples: an open receiver that shares (rule 06)
      | held access    | held share   | access         | share         |
      | RECEIVE_ACCESS | MQ_DENY_NONE | RECEIVE_ACCESS | MQ_DENY_NONE  |
      | RECEIVE_ACCESS | MQ_DENY_NONE | PEEK_ACCESS    | MQ_DENY_NONE  |

    Examples: an open peeker that shares sets no rule
      | held access | held share   | access         | share         |
      | PEEK_ACCESS | MQ_DENY_NONE | RECEIVE_ACCESS | MQ_DENY_SHARE |
      | PEEK_ACCESS | MQ_DENY_NONE | PEEK_ACCESS    | MQ_DENY_SHARE |

  @clause:MS-MQDMPR:3.1.7.1.5:04
  Scenario: A receiver that denies receiving does not stop senders
    Given the client opens "inbox" with RECEIVE_ACCESS and MQ_DENY_SHARE as "first"
    When message "m" is sent to "inbox"
    Then the send is accepted with status 0

  @clause:MS-MQDMPR:3.1.7.1.5:04 @clause:MS-MQDMPR:3.1.7.1.6:02
  Scenario: Once the descriptor that denies receiving is closed, the queue can be opened again
    Given the client opens "inbox" with RECEIVE_ACCESS and MQ_DENY_SHARE as "first"
    When the handle "first" has been closed with R_CloseQueue
    And the client opens "inbox" with RECEIVE_ACCESS and MQ_DENY_SHARE as "second"
    Then the call returns MQ_OK

  # Close Queue cancels the waits that have a tag; a peek waits untagged where MS-MQRR 3.1.4.7 is
  # read literally (D-18), and such a wait ends cancelled too (D-31 all) or at its time-out (tagged-only).
  @clause:MS-MQDMPR:3.1.7.1.6:01 @decision:D-31
  Scenario: Closing a handle cancels the reads waiting on it, and only those
    Given "inbox" is opened with RECEIVE_ACCESS as "closing"
    And "inbox" is opened with RECEIVE_ACCESS as "staying"
    When the client waits on "closing" for up to INFINITE ms in the background as "gone"
    And in the background, the client peeks at "closing" with a time-out of 3000 ms as "gone too"
    And the client waits on "staying" for up to INFINITE ms in the background as "kept"
    And the handle "closing" has been closed with R_CloseQueue
    And the background call "gone" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    And by D-31 the background call "gone too" ends with MQ_ERROR_OPERATION_CANCELLED (all) at once, or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (tagged-only)
    And the background call "kept" is still waiting
    When message "m" is sent to "inbox"
    And the background call "kept" completes
    Then the call returns MQ_OK
    And the message returned is "m"

  @clause:MS-MQDMPR:3.1.7.1.6:02
  Scenario: Closing a handle closes the cursors on it, ending their waiting reads
    Given "inbox" is opened with RECEIVE_ACCESS as "h"
    And cursor "c" is created on "h"
    When in the background, cursor "c" receives with a time-out of INFINITE ms as "r"
    And the handle "h" has been closed with R_CloseQueue
    And the background call "r" completes
    Then the call returns MQ_ERROR_OPERATION_CANCELLED
    When message "m" is sent to "inbox"
    Then "inbox" holds "m"
