"""Share group consumption (KIP-932): membership, share sessions and acknowledgements."""
