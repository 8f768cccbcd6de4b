"""``python -m kafka demo``: the protocol and record layers end to end.

Starts the embedded broker unless ``--bootstrap-server`` names a cluster,
creates a topic, then for every compression codec whose library is installed
builds record batches, produces them, fetches them back, checks that every
record came back unchanged, and prints what came back and the rates.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from typing import Any, List, Optional, Tuple

from kafka import direct
from kafka.conn.blocking import BlockingConnection, parse_address
from kafka.errors import KafkaError
from kafka.record import MemoryRecordsBuilder, codecs

BATCH_SIZE = 1000
VALUE_SIZE = 100


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "demo", help="produce and fetch records of every codec through the protocol layer",
        description=__doc__.split("\n\n")[1] if __doc__ else None)
    parser.add_argument("--bootstrap-server", "--bootstrap-servers", dest="bootstrap",
                        help="HOST:PORT of a broker (default: start the embedded broker)")
    parser.add_argument("--records", type=int, default=20000,
                        help="records per codec (default: %(default)s)")
    parser.add_argument("--topic", default=None, help="topic name (default: a new kafkawire-demo-* topic)")
    return parser


def _events(count: int, codec: str) -> List[Tuple[bytes, bytes, list, int]]:
    """Synthetic JSON events padded to about VALUE_SIZE bytes."""
    now = int(time.time() * 1000)
    out = []
    for i in range(count):
        body = json.dumps({"id": i, "codec": codec, "user": "user-%d" % (i % 97), "amount": i % 1000},
                          separators=(",", ":"))
        value = body.ljust(VALUE_SIZE).encode()
        out.append((b"user-%d" % (i % 97), value, [("source", b"kafkawire-demo")], now + i))
    return out


def _leader_connection(bootstrap: BlockingConnection, info: direct.TopicInfo) -> BlockingConnection:
    leader = info.leaders.get(0)
    address = info.brokers.get(leader) if leader is not None else None
    if address is None or address == (bootstrap.host, bootstrap.port):
        return bootstrap
    return BlockingConnection(*address)


def _run_codec(conn: BlockingConnection, info: direct.TopicInfo, codec: str, count: int) -> dict:
    events = _events(count, codec)
    started = time.perf_counter()
    build_seconds = 0.0
    first_offset: Optional[int] = None
    for start in range(0, count, BATCH_SIZE):
        t0 = time.perf_counter()
        builder = MemoryRecordsBuilder(2, codec)
        for i, (key, value, headers, ts) in enumerate(events[start:start + BATCH_SIZE]):
            builder.append(i, ts, key, value, headers)
        blob = builder.build()
        build_seconds += time.perf_counter() - t0
        offset = direct.produce(conn, info, 0, blob)
        if first_offset is None:
            first_offset = offset
    produce_seconds = time.perf_counter() - started
    assert first_offset is not None
    started = time.perf_counter()
    blobs = direct.fetch_all(conn, info, 0, first_offset, first_offset + count)
    records = direct.batches_to_records(blobs, first_offset, first_offset + count)
    fetch_seconds = time.perf_counter() - started
    intact = len(records) == count and all(
        (r.key, r.value, r.headers, r.timestamp) == (k, v, h, t)
        for r, (k, v, h, t) in zip(records, events))
    return {
        "codec": codec, "count": len(records), "first_offset": first_offset, "intact": intact,
        "produce_rate": count / produce_seconds, "build_rate": count / build_seconds if build_seconds else 0.0,
        "fetch_rate": count / fetch_seconds, "wire_bytes": sum(len(b) for b in blobs),
        "sample": records[-1] if records else None,
    }


def run(args: argparse.Namespace) -> int:
    broker = None
    if args.records <= 0:
        raise KafkaError("--records must be positive")
    try:
        if args.bootstrap:
            host, port = parse_address(args.bootstrap.split(",")[0])
        else:
            from kafka.testing import EmbeddedBroker
            broker = EmbeddedBroker().start()
            host, port = broker.host, broker.port
            print("embedded broker started at %s" % broker.bootstrap_servers, flush=True)
        with BlockingConnection(host, port) as conn:
            topic = args.topic or "kafkawire-demo-%s" % uuid.uuid4().hex[:8]
            direct.create_topic(conn, topic, partitions=1, exist_ok=bool(args.topic))
            info = direct.describe_topic(conn, topic)
            leader = _leader_connection(conn, info)
            print("topic %s: Produce v%d, Fetch v%d negotiated"
                  % (topic, leader.version_for(direct.PRODUCE), leader.version_for(direct.FETCH)), flush=True)
            results = []
            for name in ("none", "gzip", "snappy", "lz4", "zstd"):
                try:
                    codecs.ensure_available(name)
                except KafkaError as exc:
                    print("%-6s skipped: %s" % (name, exc), flush=True)
                    continue
                result = _run_codec(leader, info, name, args.records)
                results.append(result)
                print("%-6s %7d records at offsets %d..%d %s" % (
                    name, result["count"], result["first_offset"], result["first_offset"] + result["count"] - 1,
                    "came back intact" if result["intact"] else "CAME BACK DIFFERENT"), flush=True)
            if leader is not conn:
                leader.close()
        _report(results)
        return 0 if results and all(r["intact"] for r in results) else 1
    finally:
        if broker is not None:
            broker.stop()


def _report(results: List[dict]) -> None:
    print()
    print("%-7s %10s %14s %14s %14s %12s" % ("codec", "records", "build rec/s", "produce rec/s",
                                             "fetch rec/s", "wire bytes"))
    for r in results:
        print("%-7s %10d %14.0f %14.0f %14.0f %12d" % (r["codec"], r["count"], r["build_rate"],
                                                       r["produce_rate"], r["fetch_rate"], r["wire_bytes"]))
    if results and results[-1]["sample"] is not None:
        sample = results[-1]["sample"]
        print()
        print("last record: offset=%d key=%r headers=%r" % (sample.offset, sample.key, sample.headers))
        print("             value=%s" % sample.value.decode().rstrip())
