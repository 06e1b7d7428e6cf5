"""Public bytes of real MSMQ traffic, each with its source: test vectors for every reader of the project."""
