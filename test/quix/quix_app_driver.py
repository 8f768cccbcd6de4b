"""A small quixstreams application, run by ``test_quixstreams_application.py`` in quixstreams' own venv.

Usage: ``python quix_app_driver.py BOOTSTRAP PREFIX STATE_DIR [--kafkawire] [--exactly-once]``.

With ``--kafkawire`` the driver calls
:func:`kafka.confluent.install_as_confluent_kafka` before quixstreams is
imported, so quixstreams runs on kafkawire; without it, on the real
confluent-kafka. Everything else is the same application, written against
quixstreams' public API only:

* ``app.get_producer()`` writes :func:`readings` (sensor readings, keyed by
  sensor, each with its own timestamp) to ``PREFIX-readings``;
* a ``StreamingDataFrame`` drops negative readings, scales the rest, sums,
  counts and takes the peak of them per sensor over 10 s tumbling windows,
  and sends each closed window to ``PREFIX-windows``;
* ``app.get_consumer()`` reads ``PREFIX-windows`` back.

It prints one JSON object: which ``confluent_kafka`` module ran, what
``Application.run`` collected, and the output topic's records partition by
partition. The standard library and quixstreams are all it imports
(kafkawire only with ``--kafkawire``), so this module also serves the test
as the source of the input records.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Dict, List, Tuple

#: Window starts are multiples of the window length counted from the epoch; this is one.
BASE_MS = 1_700_000_000_000
WINDOW_MS = 10_000
SENSORS = ("boiler", "dryer", "fan", "kiln", "press", "valve")  # keys in all three partitions
PARTITIONS = 3


def readings() -> List[Tuple[str, Dict[str, Any], int]]:
    """The input: (key, value, timestamp in ms), in the order they are produced.

    Each sensor reports every 2.5 s for 27.5 s, a little after the sensor
    before it; every fifth reading is negative (a fault the application drops).
    """
    out = []
    for step in range(12):
        for number, sensor in enumerate(SENSORS):
            reading = (step * 7 + number * 3) % 11 + 1
            if (step + number) % 5 == 4:
                reading = -reading
            out.append((sensor, {"sensor": sensor, "reading": reading, "step": step},
                        BASE_MS + step * 2_500 + number * 100))
    return out


def expected_windows() -> Dict[str, List[Dict[str, int]]]:
    """The closed windows per sensor, computed without Kafka: the application's answer.

    A window closes (for its key, quixstreams' default) once a record of that
    key at or past its end has been processed; dropped readings do not count.
    """
    kept: Dict[str, List[Tuple[int, int]]] = {}
    for sensor, value, timestamp in readings():
        if value["reading"] >= 0:
            kept.setdefault(sensor, []).append((timestamp, value["reading"] * 10))
    result: Dict[str, List[Dict[str, int]]] = {}
    for sensor, points in kept.items():
        latest = max(ts for ts, _ in points)
        windows: Dict[int, List[int]] = {}
        for ts, scaled in points:
            windows.setdefault(ts - ts % WINDOW_MS, []).append(scaled)
        result[sensor] = [{"start": start, "end": start + WINDOW_MS, "total": sum(values), "count": len(values),
                           "peak": max(values)}
                          for start, values in sorted(windows.items()) if start + WINDOW_MS <= latest]
    return result


def main(argv: List[str]) -> Dict[str, Any]:
    """Run the application once and answer what it did (see the module docstring)."""
    bootstrap, prefix, state_dir = argv[:3]
    if "--kafkawire" in argv[3:]:
        from kafka.confluent import install_as_confluent_kafka

        install_as_confluent_kafka()
    import confluent_kafka
    import quixstreams
    from quixstreams import Application
    from quixstreams.dataframe.windows import Count, Max, Sum
    from quixstreams.models import TopicConfig

    guarantee = "exactly-once" if "--exactly-once" in argv[3:] else "at-least-once"
    app = Application(broker_address=bootstrap, consumer_group=prefix + "-app", auto_offset_reset="earliest",
                      state_dir=state_dir, processing_guarantee=guarantee, commit_interval=1.0,
                      consumer_extra_config={"session.timeout.ms": 10_000})
    # quixstreams derives its changelog topics' retention from the input
    # topic's "retention.ms", which the embedded broker (Tansu) describes only
    # when it was set at creation.
    layout = TopicConfig(num_partitions=PARTITIONS, replication_factor=1,
                         extra_config={"retention.ms": str(7 * 24 * 3600 * 1000)})
    source = app.topic(prefix + "-readings", key_serializer="str", key_deserializer="str", config=layout)
    sink = app.topic(prefix + "-windows", key_serializer="str", key_deserializer="str", config=layout)

    with app.get_producer() as producer:
        for sensor, value, timestamp in readings():
            record = source.serialize(key=sensor, value=value, timestamp_ms=timestamp)
            producer.produce(topic=source.name, key=record.key, value=record.value, timestamp=timestamp)

    sdf = app.dataframe(source)
    sdf = sdf.filter(lambda value: value["reading"] >= 0)
    sdf = sdf.apply(lambda value: {"sensor": value["sensor"], "scaled": value["reading"] * 10})
    sdf = sdf.tumbling_window(duration_ms=WINDOW_MS).agg(total=Sum("scaled"), count=Count(),
                                                         peak=Max("scaled")).final()
    sdf = sdf.apply(lambda window: {"start": window["start"], "end": window["end"], "total": window["total"],
                                    "count": window["count"], "peak": window["peak"]})
    sdf.to_topic(sink)

    wanted = sum(len(windows) for windows in expected_windows().values())
    started = time.monotonic()
    collected = app.run(count=wanted, timeout=30.0)
    ran_for = time.monotonic() - started

    return {"confluent_kafka": confluent_kafka.__name__ + " from " + str(confluent_kafka.__file__),
            "quixstreams": quixstreams.__version__, "guarantee": guarantee,
            "collected": [dict(row) for row in collected], "ran_for": ran_for,
            "output": read_back(app, sink.name, wanted)}


def read_back(app: Any, topic: str, wanted: int) -> Dict[str, List[Any]]:
    """The records of ``topic`` as [key, value, timestamp] lists per partition, read with quixstreams' Consumer.

    Reads until ``wanted`` records have come and then a second more, so that
    any extra record shows too. (The embedded broker's high watermark is not
    exact for batches of several records, so it cannot tell where the end is.)
    """
    from confluent_kafka import TopicPartition

    records: Dict[str, List[Any]] = {str(p): [] for p in range(PARTITIONS)}
    with app.get_consumer(auto_commit_enable=False) as consumer:
        consumer.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
        seen = 0
        deadline = time.monotonic() + 30.0
        quiet_until = None
        while time.monotonic() < (deadline if quiet_until is None else quiet_until):
            msg = consumer.poll(0.2)
            if msg is None:
                continue
            if msg.error() is not None:
                raise RuntimeError("consuming %s: %s" % (topic, msg.error()))
            key = msg.key().decode() if msg.key() is not None else None
            records[str(msg.partition())].append([key, json.loads(msg.value()), msg.timestamp()[1]])
            seen += 1
            if seen >= wanted and quiet_until is None:
                quiet_until = time.monotonic() + 1.0
    return records


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), sort_keys=True))
