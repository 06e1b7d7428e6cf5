"""msmq://: a Windows host certified with nothing but the network (MS-MQRR and MS-MQQB, no control interface).

target      the MsmqTarget: MS-MQRR's client with the scene set through what a host offers
sender      the suite's sending queue manager: an MS-MQQB session to the host's 1801
acceptor    the suite's own MS-MQQB port, where the host opens sessions back to it
queues      the queues of `mqspec windows-setup`'s script: names, properties, access lists, PowerShell
"""
