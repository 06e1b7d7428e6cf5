"""What the protocols' wire code shares: the DCE/RPC runtime (server and client) and its security.

dcerpc_server, dcerpc_connection   a connection-oriented DCE/RPC server on one event loop
dcerpc_pdu, dcerpc_negotiation     PDUs, presentation contexts and fragment sizes
dcerpc_types                       the server's API types and fault statuses
dcerpc_auth                        NTLM and SPNEGO at connect, integrity and privacy (the server side)
ntlm_security                      NTLM signing and sealing of PDUs, both ends; the client's NTLM handshake
dcerpc_client, dcerpc_probe        client connections (struct-built PDUs) and bind probes
"""
