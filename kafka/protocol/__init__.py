"""The Kafka wire protocol, sans-IO: declarations, encoders, decoders, framing.

Nothing in this package opens a socket, starts a thread or reads a clock.
"""
