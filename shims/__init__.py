"""Shims: small programs that let the suite drive an MS-MQRR client library (docs/client-shim.md).

mqrr: mqspec's own client (adapters/mqrr's connections and NDR codec).
"""
