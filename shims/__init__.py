"""Shims: small programs that let the suite drive an MS-MQRR client library (docs/client-shim.md).

mqrr: mqspec's own client (adapters/mqrr's connections and NDR codec).
independent: a client written apart from the rest of mqspec (impacket's transport, its own NDR and packet reader).
wrong: mqrr's client with one misread client clause each, the wrong clients the client scenarios must catch.
"""
