"""Message built by programs and tests: confluent_kafka's and kafka.confluent's compared.

Programs build messages for their own tests (and libraries pickle them): the
constructor's arguments and defaults, what reads back as None, pickling,
and the errors for wrong arguments are confluent-kafka's.
"""

from __future__ import annotations

import pickle

import pytest


def _observed(message):
    return (len(message), message.topic(), message.partition(), message.offset(), message.key(), message.value(),
            message.headers(), message.error(), message.timestamp(), message.latency(), message.leader_epoch(),
            message.delivery_count())


ARGUMENTS = [
    ((), {}),
    (("t", 1, 2, b"k", b"value", [("h", b"1")], None, (1, 1700000000000), 0.25, 3, 2), {}),
    ((), dict(topic="t", partition=-7, offset=-3, leader_epoch=-1, latency=-1.0, delivery_count=0)),
    ((None, -2, -2, None, None, None, None, None, -2.0, -2), {}),
    ((), dict(value=b"v", timestamp=(2, 5))),
]


@pytest.mark.parametrize("args, kwargs", ARGUMENTS, ids=range(len(ARGUMENTS)))
def test_constructed_messages_read_back_reduce_and_pickle_alike(ck, kc, args, kwargs):
    built = {lib.__name__: lib.Message(*args, **kwargs) for lib in (ck, kc)}
    ours, theirs = built["kafka.confluent"], built["confluent_kafka"]
    assert _observed(ours) == _observed(theirs)
    assert ours.__reduce__()[1] == theirs.__reduce__()[1]
    restored = pickle.loads(pickle.dumps(ours))
    assert type(restored) is type(ours) and restored is not ours
    assert _observed(restored) == _observed(ours)


def test_new_alone_gives_zero_values(ck, kc):
    assert _observed(kc.Message.__new__(kc.Message)) == _observed(ck.Message.__new__(ck.Message))


def test_a_subclass_calls_the_base_init(ck, kc):
    for lib in (ck, kc):
        class Tagged(lib.Message):
            def __init__(self, *args):
                super().__init__(*args)
                self.tag = 1

        message = Tagged("t", 0, 5)
        assert (type(message), message.tag, message.offset()) == (Tagged, 1, 5)
        assert message.__reduce__()[0] is lib.Message


@pytest.mark.parametrize("args, kwargs, error", [
    (("t", 1.5), {}, TypeError),
    (("t", 0, "2"), {}, TypeError),
    ((), dict(timestamp=5), TypeError),
    ((), dict(timestamp=(1, 2, 3)), TypeError),
    ((), dict(latency="slow"), TypeError),
    (("t", 0, 0, None, None, None, None, (0, 0), -1.0, -1, 32768), {}, OverflowError),
    (("t", 0, 0, None, None, None, None, (0, 0), -1.0, -1, -32769), {}, OverflowError),
    (("t", 2 ** 31), {}, OverflowError),
])
def test_wrong_arguments_raise_what_confluent_kafka_raises(ck, kc, args, kwargs, error):
    for lib in (ck, kc):
        with pytest.raises(error):
            lib.Message(*args, **kwargs)


@pytest.mark.parametrize("method", ["topic", "partition", "offset", "key", "value", "headers", "error", "timestamp",
                                    "latency", "leader_epoch"])
def test_methods_called_on_something_else_raise_type_error(ck, kc, method):
    for lib in (ck, kc):
        for other in (None, object()):
            with pytest.raises(TypeError):
                getattr(lib.Message, method)(other)
            with pytest.raises(TypeError):
                lib.Message.set_value(other, b"v")
        with pytest.raises(TypeError):
            lib.Message.__new__(str)
        with pytest.raises(TypeError):
            len(lib.Message(value=1))
