"""mqspec: an executable specification and conformance suite for MSMQ."""

__version__ = "0.1.0"
