"""MS-MQRR over DCE/RPC (ncacn_ip_tcp): the codec, the server runtime, the service and the client Target.

ndr, ndr_*      the RemoteRead IDL (MS-MQRR 6): impacket NDR types (ndr_types) as the definition, a strict
                struct-based codec (ndr_wire, ndr_calls) proven equal to them, NDR 2.0 and NDR64
dcerpc_*        a connection-oriented DCE/RPC server: one thread per connection, fragments,
                multi-context binds, association groups, faults
service         RemoteRead served on a hosted in-process Target; context handles per association
control         the set-up and control interface (docs/control.md), server and client side
connections     client connections (impacket) in one association group
client          the mqrr:// client Target
serve           both interfaces on one port
"""
