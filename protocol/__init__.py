"""The protocol's vocabulary, owned by neither the suite nor the reference.

Numbers and types that travel on the wire or name an outcome: HRESULTs and RPC
fault statuses (hresult), the constants of calls and packets (constants), the
MS-MQRR interface and its IDL types (idl), and QUEUE_FORMAT (queue_format).
The reference, the adapters and the suite all import from here, and
tests/test_protocol_vocabulary.py checks every value against the
specifications' tables, so a wrong number cannot be agreed with by both sides.
Nothing here holds a protocol rule.
"""
