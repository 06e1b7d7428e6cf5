"""MS-MQRR over DCE/RPC (ncacn_ip_tcp): the codec, the service, the judge and the client Target.

ndr, ndr_*      the RemoteRead IDL (MS-MQRR 6): impacket NDR types (ndr_types) as the definition, a strict
                struct-based codec (ndr_wire, ndr_calls) proven equal to them, NDR 2.0 and NDR64
service         RemoteRead served on a hosted in-process Target; context handles per association
judging         the judging server of client certification: every call recorded, faults injected
control         the set-up and control interface (docs/control.md), server and client side
client          the mqrr:// client Target

The DCE/RPC runtime they run on is adapters/wire/; adapters/serve.py serves both interfaces on one port.
"""
