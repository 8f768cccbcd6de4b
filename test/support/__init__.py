"""Helpers shared by test modules of several folders (not tests themselves).

- ``topics``: creating topics (directly on the embedded broker, or with CreateTopics through a client);
- ``groups``: preparing the librdkafka mock cluster for consumer groups;
- ``waiting``: polling a condition with a deadline;
- ``consuming``: polling a KafkaConsumer until enough records came;
- ``processes``: child processes that a failed test never leaves running, stopped with a signal;
- ``scripted_produce``: a scripted peer that accepts Produce requests like a broker;
- ``simple``: what the tests of the simple layer (the 0.9 API: SimpleConsumer, SimpleProducer, ...) share.

The simple-layer client fixtures live in ``test/simple/conftest.py``.
"""
