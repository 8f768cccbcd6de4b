"""Helpers shared by test modules of several folders (not tests themselves).

- ``topics``: creating topics (directly on the embedded broker, or with CreateTopics through a client);
- ``groups``: preparing the librdkafka mock cluster for consumer groups;
- ``waiting``: polling a condition with a deadline;
- ``consuming``: polling a KafkaConsumer until enough records came;
- ``processes``: child processes that a failed test never leaves running, stopped with a signal;
- ``scripted_produce``: a scripted peer that accepts Produce requests like a broker;
- ``classic``: what the tests of the 0.9-era API (SimpleConsumer, classic producers) share.

The classic-API client fixtures live in ``test/legacy/conftest.py``.
"""
