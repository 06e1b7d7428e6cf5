"""MS-MQRR over DCE/RPC (ncacn_ip_tcp): the codec, the server runtime and the client Target.

ndr             the RemoteRead IDL (MS-MQRR 6) as impacket NDR types, NDR 2.0 and NDR64
dcerpc_server   a connection-oriented DCE/RPC server: one thread per connection,
                fragments, multi-context binds, association groups, faults
"""
