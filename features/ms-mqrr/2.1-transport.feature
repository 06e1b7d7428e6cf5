Feature: MS-MQRR 2.1 Transport
  RemoteRead is RPC over TCP/IP (ncacn_ip_tcp): a client that opens a TCP connection to the
  server and binds the RemoteRead interface, version 1.0, is answered; a server that has not
  finished starting does not take calls.

  @clause:MS-MQRR:2.1:01 @clause:MS-MQRR:3.1.3:01
  Scenario: A new TCP connection to the target binds RemoteRead 1.0 and is answered
    Given the calls travel over DCE/RPC
    When a new TCP connection to the target binds RemoteRead 1.0 offering NDR 2.0
    Then the bind accepts NDR 2.0
    And R_GetServerPort called on that connection returns the port of the connection

  # Per-caller access checks (MS-MQRR 2.1; D-81: at open, by the queue's access list, MS-MQDMPR 3.1.1.2)

  @clause:MS-MQRR:2.1:03 @clause:MS-MQDMPR:3.1.1.2:08 @decision:D-80
  Scenario: A caller the queue's access list does not admit cannot open it, one it admits can
    Given a queue "secret" owned by the first identity with the access list:
      | kind  | trustee        | rights                |
      | allow | first identity | MQSEC_RECEIVE_MESSAGE |
    And "secret" holds "m1"
    When the second identity opens "secret" with RECEIVE_ACCESS as "theirs"
    Then the open is refused for want of access
    When the second identity opens "secret" with PEEK_ACCESS as "theirs"
    Then the open is refused for want of access
    When the first identity opens "secret" with RECEIVE_ACCESS as "mine"
    Then the call returns MQ_OK
    When the client receives from "mine"
    Then "secret" holds nothing

  @clause:MS-MQRR:2.1:03 @decision:D-80
  Scenario: The right to peek opens a queue for peeking and not for receiving
    Given a queue "shared" owned by the first identity with the access list:
      | kind  | trustee         | rights                |
      | allow | first identity  | MQSEC_RECEIVE_MESSAGE |
      | allow | second identity | MQSEC_PEEK_MESSAGE    |
    And "shared" holds "m1"
    When the second identity opens "shared" with RECEIVE_ACCESS as "r"
    Then the open is refused for want of access
    When the second identity opens "shared" with PEEK_ACCESS as "p"
    Then the call returns MQ_OK
    When the client peeks at "p"
    Then the message returned is "m1"

  @clause:MS-MQRR:2.1:03 @clause:MS-MQDMPR:3.1.7.1.3.1:01 @decision:D-80
  Scenario: A deny entry ahead of Everyone's allow keeps that caller out and nobody else
    Given a queue "guarded" owned by the first identity with the access list:
      | kind  | trustee         | rights                  |
      | deny  | second identity | MQSEC_DELETE_MESSAGE    |
      | allow | Everyone        | MQSEC_QUEUE_GENERIC_ALL |
    When the second identity opens "guarded" with RECEIVE_ACCESS as "r"
    Then the open is refused for want of access
    When the second identity opens "guarded" with PEEK_ACCESS as "p"
    Then the call returns MQ_OK
    When the first identity opens "guarded" with RECEIVE_ACCESS as "mine"
    Then the call returns MQ_OK

  @clause:MS-MQRR:2.1:03 @decision:D-80 @decision:D-81
  Scenario: Everyone does not take in a caller with no security context; an entry for Anonymous Logon does
    Given a queue "members" owned by the first identity with the access list:
      | kind  | trustee         | rights                  |
      | allow | Everyone        | MQSEC_QUEUE_GENERIC_ALL |
    And a queue "lobby" owned by the first identity with the access list:
      | kind  | trustee         | rights             |
      | allow | Anonymous Logon | MQSEC_PEEK_MESSAGE |
    When a caller with no security context opens "members" with PEEK_ACCESS as "theirs"
    Then the open is refused for want of access
    When a caller with no security context opens "lobby" with PEEK_ACCESS as "lobby"
    Then the call returns MQ_OK
    When the first identity opens "members" with PEEK_ACCESS as "mine"
    Then the call returns MQ_OK
    When the first identity opens "lobby" with PEEK_ACCESS as "not mine"
    Then the open is refused for want of access

  # The Administrators group (S-1-5-32-544) never holds a caller with no security context.
  @clause:MS-MQRR:2.1:03 @decision:D-80 @decision:D-81
  Scenario: An entry for a group does not take in a caller with no security context
    Given a queue "staff" owned by the first identity with the access list:
      | kind  | trustee        | rights                  |
      | allow | Administrators | MQSEC_QUEUE_GENERIC_ALL |
    When a caller with no security context opens "staff" with PEEK_ACCESS as "theirs"
    Then the open is refused for want of access

  @clause:MS-MQRR:2.1:03 @decision:D-80
  Scenario: A refused open leaves no trace: the queue is not held by it
    Given a queue "private" owned by the first identity with the access list:
      | kind  | trustee        | rights                |
      | allow | first identity | MQSEC_RECEIVE_MESSAGE |
    When the second identity opens "private" with RECEIVE_ACCESS as "r"
    Then the open is refused for want of access
    When the first client makes the calls again
    And "private" is opened with RECEIVE_ACCESS and MQ_DENY_SHARE as "exclusive"
    Then the call returns MQ_OK

  @clause:MS-MQRR:2.1:03 @decision:D-80
  Scenario: A queue's journal is judged by the queue's access list
    Given a queue "audited" owned by the first identity with the access list:
      | kind  | trustee         | rights                        |
      | allow | first identity  | MQSEC_QUEUE_GENERIC_ALL       |
      | allow | second identity | MQSEC_RECEIVE_MESSAGE         |
    When the second identity opens "audited journal" with RECEIVE_ACCESS as "j"
    Then the open is refused for want of access
    When the second identity opens "audited journal" with PEEK_ACCESS as "jp"
    Then the call returns MQ_OK
    When the first identity opens "audited journal" with RECEIVE_ACCESS as "mine"
    Then the call returns MQ_OK

  @clause:MS-MQRR:2.1:03 @clause:MS-MQDMPR:3.1.7.1.3.1:02
  Scenario: A queue created without an access list is open to every identity
    Given a queue "open"
    When the second identity opens "open" with RECEIVE_ACCESS as "theirs"
    Then the call returns MQ_OK

  @clause:MS-MQRR:2.1:03 @clause:MS-MQDMPR:3.1.1.2:09 @decision:D-80
  Scenario: A queue's access list outlives a restart of the queue manager
    Given a queue "kept" owned by the first identity with the access list:
      | kind  | trustee        | rights                |
      | allow | first identity | MQSEC_RECEIVE_MESSAGE |
    When the queue manager restarts
    And the second identity opens "kept" with RECEIVE_ACCESS as "theirs"
    Then the open is refused for want of access
    When the first identity opens "kept" with RECEIVE_ACCESS as "mine"
    Then the call returns MQ_OK

  # The access list walked in order, as MS-MQDMPR 3.1.1.2's Security is checked (D-81): a deny entry refuses only
  # the wanted rights that no earlier allow entry granted; each access asks for its own rights.

  @clause:MS-MQRR:2.1:03 @clause:MS-MQDMPR:3.1.1.2:08
  Scenario: A deny entry after the allow entry that granted a right does not take that right back
    Given a queue "layered" owned by the first identity with the access list:
      | kind  | trustee         | rights               |
      | allow | second identity | MQSEC_PEEK_MESSAGE   |
      | deny  | second identity | MQSEC_PEEK_MESSAGE   |
      | allow | second identity | MQSEC_DELETE_MESSAGE |
    And "layered" holds "m1"
    When the second identity opens "layered" with RECEIVE_ACCESS as "r"
    Then the call returns MQ_OK
    When the client receives from "r"
    Then "layered" holds nothing

  @clause:MS-MQRR:2.1:03 @clause:MS-MQDMPR:3.1.1.2:08 @decision:D-80
  Scenario: A deny entry ahead of the allow entry refuses the right it names
    Given a queue "fenced" owned by the first identity with the access list:
      | kind  | trustee         | rights                |
      | deny  | second identity | MQSEC_PEEK_MESSAGE    |
      | allow | second identity | MQSEC_RECEIVE_MESSAGE |
    When the second identity opens "fenced" with RECEIVE_ACCESS as "r"
    Then the open is refused for want of access
    When the second identity opens "fenced" with PEEK_ACCESS as "p"
    Then the open is refused for want of access

  @clause:MS-MQRR:2.1:03 @decision:D-80
  Scenario: The right to peek alone opens for peeking, not for receiving nor for a move
    Given a queue "glass" owned by the first identity with the access list:
      | kind  | trustee         | rights             |
      | allow | second identity | MQSEC_PEEK_MESSAGE |
    When the second identity opens "glass" with PEEK_ACCESS as "p"
    Then the open is granted
    When the second identity opens "glass" with RECEIVE_ACCESS as "r"
    Then the open is refused for want of access
    When the second identity opens "glass" for move as "m"
    Then the open is refused for want of access

  @clause:MS-MQRR:2.1:03 @decision:D-80
  Scenario: The right to delete alone opens nothing: receiving and moving need the right to peek too
    Given a queue "shredder" owned by the first identity with the access list:
      | kind  | trustee         | rights               |
      | allow | second identity | MQSEC_DELETE_MESSAGE |
    When the second identity opens "shredder" with PEEK_ACCESS as "p"
    Then the open is refused for want of access
    When the second identity opens "shredder" with RECEIVE_ACCESS as "r"
    Then the open is refused for want of access
    When the second identity opens "shredder" for move as "m"
    Then the open is refused for want of access

  @clause:MS-MQRR:2.1:03
  Scenario: The right to receive opens for peeking, for receiving and for a move
    Given a queue "counter" owned by the first identity with the access list:
      | kind  | trustee         | rights                |
      | allow | second identity | MQSEC_RECEIVE_MESSAGE |
    When the second identity opens "counter" with PEEK_ACCESS as "p"
    Then the open is granted
    When the second identity opens "counter" with RECEIVE_ACCESS as "r"
    Then the open is granted
    When the second identity opens "counter" for move as "m"
    Then the open is granted

  @clause:MS-MQRR:2.1:03 @decision:D-80
  Scenario: R_OpenQueueForMove is judged by the access list as R_OpenQueue is
    Given a queue "sealed" owned by the first identity with the access list:
      | kind  | trustee        | rights                  |
      | allow | first identity | MQSEC_QUEUE_GENERIC_ALL |
    When the second identity opens "sealed" for move as "theirs"
    Then the open is refused for want of access
    When the first identity opens "sealed" for move as "mine"
    Then the open is granted

  @clause:MS-MQRR:2.1:03 @decision:D-80
  Scenario: A subqueue is judged by its queue's access list
    Given a queue "vault" owned by the first identity with the access list:
      | kind  | trustee        | rights                  |
      | allow | first identity | MQSEC_QUEUE_GENERIC_ALL |
    And a subqueue "sub" of "vault"
    When the second identity opens "vault;sub" with PEEK_ACCESS as "p"
    Then the open is refused for want of access
    When the second identity opens "vault;sub" for move as "m"
    Then the open is refused for want of access
    When the first identity opens "vault;sub" with RECEIVE_ACCESS as "mine"
    Then the open is granted

  @clause:MS-MQRR:2.1:03 @clause:MS-MQDMPR:3.1.7.1.3.1:01
  Scenario: A queue created with an owner and no access list takes the default list, open to every identity
    Given a queue "owned" owned by the second identity, with no access list
    When the first identity opens "owned" with RECEIVE_ACCESS as "mine"
    Then the open is granted
