"""Configuration checking compared with the real confluent_kafka, property by property.

For every librdkafka property (from the generated table) one valid and a few
invalid values go through ``kafka.confluent.config.parse`` and through a real
``confluent_kafka.Producer``; both must accept or both refuse. The oracle can
also fail later, while creating the client (a certificate file that does not
exist, a SASL mechanism this build lacks): such failures are not about the
value's validity and count as accepted.
"""

from __future__ import annotations

import pytest

from kafka.confluent import KafkaError, KafkaException
from kafka.confluent import config as confmod
from kafka.confluent._tables import PROPERTIES

ck = pytest.importorskip("confluent_kafka")

#: Words of librdkafka's messages that mean "this property/value is refused".
_VALUE_REFUSALS = ("No such configuration property", "Invalid value", "Expected bool", "cannot be set to empty",
                   "outside allowed range", "must be set through dedicated", "Failed to parse pattern",
                   "requires a callable", "not settable", "Unsupported value")


def _oracle_accepts(conf):
    try:
        client = ck.Producer(conf)
    except ck.KafkaException as exc:
        error = exc.args[0]
        if error.code() == ck.KafkaError._INVALID_ARG and any(w in error.str() for w in _VALUE_REFUSALS):
            return False
        return True  # refused while creating the client, not for the value
    except (TypeError, ValueError):
        return False
    del client
    return True


def _ours_accepts(conf):
    try:
        confmod.parse(conf, "producer")
    except KafkaException as exc:
        assert exc.args[0].code() == KafkaError._INVALID_ARG
        return False
    except (TypeError, ValueError):
        return False
    return True


def _values(name, kind, spec, default):
    valid = [default] if default not in ("", None) else []
    invalid = []
    if kind == "integer" or kind == "float":
        low, high = (float(x) for x in spec.split(".."))
        valid += [str(int(low)), int(high)]
        invalid += ["notanumber", ""]
        if high < 2 ** 31 - 1:
            invalid.append(int(high) + 1)
        if low > -(2 ** 31):
            invalid.append(str(int(low) - 1))
    elif kind == "boolean":
        valid += [True, False] + (["true", "false"] if name != "delivery.report.only.error" else [])
        invalid += ["maybe", ""]
    elif kind == "enum":
        choices = [c.strip() for c in spec.split(",")]
        valid += [choices[-1], choices[0].upper()]
        invalid += ["bogus-value", ""]
    elif kind == "flags":
        choices = [c.strip() for c in spec.split(",")]
        valid += [choices[0], ",".join(choices[:2])]
        invalid += ["bogus-flag", ""]
    elif kind == "pattern":
        valid += ["^abc.*", ""]
        invalid += ["[["]
    elif kind == "api":
        invalid += ["x"]
    else:
        valid += ["some-text"]
    return valid, invalid


_SKIP_ORACLE_VALUES = {
    # Values the oracle accepts as text but that make it try to load or run something at creation.
    "plugin.library.paths", "ssl.engine.location", "sasl.kerberos.kinit.cmd",
}
_CASES = []
for _name, _scope, _level, _kind, _spec, _default, _alias in PROPERTIES:
    if _name in _SKIP_ORACLE_VALUES:
        continue
    _valid, _invalid = _values(_name, _kind, _spec, _default)
    for _v in _valid:
        _CASES.append((_name, _v))
    for _v in _invalid:
        _CASES.append((_name, _v))


@pytest.mark.parametrize("name,value", _CASES, ids=["%s=%r" % c for c in _CASES])
def test_property_value_accepted_like_librdkafka(name, value):
    conf = {name: value}
    assert _ours_accepts(conf) == _oracle_accepts(conf)


@pytest.mark.parametrize("value", ["1e3", "0x10", " 7", "-0", "10abc", "1.5", 2 ** 40, "010", True, None])
def test_integer_parsing_like_librdkafka(value):
    conf = {"batch.num.messages": value}
    assert _ours_accepts(conf) == _oracle_accepts(conf)


@pytest.mark.parametrize("value", ["t", "f", "1", "0", "TRUE", "True", 0, 1, 2, " true", "yes"])
def test_boolean_parsing_like_librdkafka(value):
    conf = {"enable.idempotence": value}
    assert _ours_accepts(conf) == _oracle_accepts(conf)


@pytest.mark.parametrize("conf", [
    {"acks": "all"}, {"acks": "ALL"}, {"acks": -1}, {"acks": "bogus"},
    {"partitioner": "murmur2_random"}, {"partitioner": "bogus"},
    {"compression.type": "GZIP"}, {"compression.type": " gzip"}, {"compression.type": None},
    {"linger.ms": 5.7}, {"linger.ms": "1e6"}, {"linger.ms": True},
    {"debug": "broker,  topic"}, {"default.topic.config": {"auto.offset.reset": "smallest"}},
    {"default.topic.config": {"auto.offset.reset": "bogus"}},
    {"bogus.property": 1}, {"dr_cb": print}, {"error_cb": 5}, {"on_delivery": 5}, {"on_delivery": print},
    {"on_commit": print},
])
def test_special_values_like_librdkafka(conf):
    assert _ours_accepts(conf) == _oracle_accepts(conf)


def test_unknown_property_names_the_property():
    with pytest.raises(KafkaException) as info:
        confmod.parse({"no.such.thing": 1}, "producer")
    assert info.value.args[0].code() == KafkaError._INVALID_ARG
    assert "no.such.thing" in info.value.args[0].str()


def test_consumer_needs_group_id_like_confluent_kafka():
    with pytest.raises(ValueError):
        ck.Consumer({})
    with pytest.raises(ValueError):
        confmod.parse({}, "consumer")


def test_on_delivery_is_a_producer_property_only():
    conf = {"group.id": "g", "on_delivery": print}
    with pytest.raises(ck.KafkaException):
        ck.Consumer(conf)
    with pytest.raises(KafkaException):
        confmod.parse(conf, "consumer")


def test_ignored_properties_are_listed():
    config = confmod.parse({"socket.keepalive.enable": True, "linger.ms": 7}, "producer")
    assert confmod.ignored(config, "producer") == ["socket.keepalive.enable"]


def test_producer_settings_follow_librdkafka_defaults():
    settings = confmod.producer_settings(confmod.parse({}, "producer"))
    assert settings["linger_ms"] == 5
    assert settings["acks"] == "all"
    assert settings["enable_idempotence"] is False
    assert settings["delivery_timeout_ms"] == 300000


@pytest.mark.parametrize("alias,expected", [("smallest", "earliest"), ("earliest", "earliest"),
                                            ("beginning", "earliest"), ("largest", "latest"),
                                            ("latest", "latest"), ("end", "latest"), ("error", "none")])
def test_auto_offset_reset_aliases(alias, expected):
    settings = confmod.consumer_settings(confmod.parse({"group.id": "g", "auto.offset.reset": alias}, "consumer"))
    assert settings["auto_offset_reset"] == expected


def test_honoured_property_lists_use_librdkafka_names():
    for name in confmod.HONOURED_COMMON | confmod.HONOURED_PRODUCER | confmod.HONOURED_CONSUMER:
        assert confmod.TABLE[name][5] == name


def test_aliases_are_honoured_under_their_canonical_name():
    config = confmod.parse({"compression.type": "gzip", "max.partition.fetch.bytes": 1000, "group.id": "g"},
                           "consumer")
    assert "compression.codec" not in confmod.ignored(config, "producer")
    assert "fetch.message.max.bytes" not in confmod.ignored(config, "consumer")
    assert confmod.producer_settings(config)["compression_type"] == "gzip"


def test_generated_tables_match_the_installed_librdkafka():
    import importlib.util
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "..", "..", "tools", "gen_confluent_tables.py")
    spec = importlib.util.spec_from_file_location("gen_confluent_tables", script)
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    with open(generator.OUT, encoding="utf-8") as f:
        checked_in = f.read()
    assert generator.render(generator.find_librdkafka()) == checked_in, \
        "run tools/gen_confluent_tables.py to regenerate kafka/confluent/_tables.py"
