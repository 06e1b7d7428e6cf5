@clause:MS-MQMQ:2.1.5:01
Feature: MS-MQMQ 2.1.5 Distribution List Format Names
  A distribution list is named DL= and its GUID, optionally followed by @ and a domain
  name of 1 to 255 visible characters.

  Scenario Outline: A well-formed distribution list name is taken as a name (<form>)
    When a message is sent to the format name "<name>"
    Then the format name was not refused as illegal

    Examples:
      | form                          | name                              |
      | the GUID alone                | DL={unknown guid}                 |
      | with a domain                 | DL={unknown guid}@example.com     |
      | keyword in lower case         | dl={unknown guid}@EXAMPLE.COM     |
      | a domain of 255 characters    | DL={unknown guid}@{255 × d}       |

  # D-19: with no directory to expand the list, the send fails; MS-MQDMPR 3.1.7.1.5 names no status for it
  @decision:D-19
  Scenario Outline: Without a directory a distribution list cannot be sent to (<form>)
    When a message is sent to the format name "<name>"
    Then by D-19 the call returns MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION (refuse) or any other failure (other-failure)

    Examples:
      | form           | name                          |
      | the GUID alone | DL={unknown guid}             |
      | with a domain  | DL={unknown guid}@example.com |

  Scenario Outline: A distribution list name the grammar does not allow is refused as illegal (<why>)
    When a message is sent to the format name "<name>"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME

    Examples:
      | why                      | name                 |
      | no GUID                  | DL=                  |
      | not a GUID               | DL=1234@example.com  |
      | an @ without a domain    | DL={unknown guid}@   |


  Scenario Outline: A domain the grammar does not allow is refused as illegal (<why>)
    When a message is sent to the format name "<name>"
    Then the send is refused with MQ_ERROR_ILLEGAL_FORMATNAME

    Examples:
      | why                          | name                            |
      | a domain of 256 characters   | DL={unknown guid}@{256 × d}     |
      | a space in the domain        | DL={unknown guid}@exa mple.com  |

  Scenario: A distribution list cannot be opened for reading
    Given a QUEUE_FORMAT "list" with:
      | m_qft      | QUEUE_FORMAT_TYPE_DL          |
      | identifier | {unknown guid}@example.com    |
    When R_OpenQueue is called as "h" with:
      | pQueueFormat | dwAccess    |
      | list         | PEEK_ACCESS |
    Then the call returns MQ_ERROR_INVALID_PARAMETER
