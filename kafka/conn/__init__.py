"""Broker connections: the only layer that touches sockets."""
