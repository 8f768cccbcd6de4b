"""Tests of the simple layer (kafka.simple): the kafka-python 0.9 API over the engine."""
