"""MS-MQQB, the binary protocol between queue managers, over TCP (MS-MQQB 2.1.1).

packets         the suite's own packets: what it writes as another queue manager, how it reads the answers
connection      the transport the suite opens to a queue manager's MS-MQQB port (capability mqqb_peer)
in_process      that connection straight into the in-process reference's session
tcp             that connection over TCP, to `mqspec serve` or a real queue manager's 1801
listener        the served side: the MS-MQQB port of `mqspec serve`, sessions into a hosted target
"""
