"""Tests of the classic (kafka-python 0.9.x) protocol-level surface."""
