"""The ``kafkawire`` data source: PySpark's Python Data Source API over our client.

This module imports pyspark and pyarrow; :mod:`kafka.spark` imports it only
when Spark support is asked for. Objects here hold options only (they are
pickled to executors); sockets live in :mod:`kafka.spark.worker` caches on
the executors and in a driver-side :class:`~kafka.spark.offsets.OffsetReader`
that is never pickled.
"""

from __future__ import annotations

import time
from typing import Any, Dict, Iterator, List, Optional, Sequence

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamArrowWriter,
    DataSourceStreamReader,
    InputPartition,
    WriterCommitMessage,
)
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    ReadMinRows,
    SupportsTriggerAvailableNow,
)
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    StringType,
    StructType,
)

from kafka import errors
from kafka.spark.arrow import source_ddl
from kafka.spark.offsets import (
    OffsetRange,
    OffsetReader,
    Offsets,
    from_json_offsets,
    plan_ranges,
    rate_limit,
    to_json_offsets,
)
from kafka.spark.options import EARLIEST, SinkOptions, SourceOptions, parse_sink_options, parse_source_options

NAME = "kafkawire"


class KafkaInputPartition(InputPartition):
    """One Spark partition: an offset range of one Kafka partition."""

    def __init__(self, rng: OffsetRange) -> None:
        super().__init__(tuple(rng))
        self.range = rng


class KafkaDataSource(DataSource):
    """Kafka topics as a Spark data source named ``kafkawire`` (batch and streaming, read and write)."""

    @classmethod
    def name(cls) -> str:
        return NAME

    def _include_headers(self) -> bool:
        lowered = {str(k).lower(): v for k, v in self.options.items()}
        return str(lowered.get("includeheaders", "false")).strip().lower() == "true"

    def schema(self) -> str:
        return source_ddl(self._include_headers())

    def reader(self, schema: StructType) -> "KafkaBatchReader":
        return KafkaBatchReader(parse_source_options(self.options, streaming=False))

    def streamReader(self, schema: StructType) -> "KafkaStreamReader":
        return KafkaStreamReader(parse_source_options(self.options, streaming=True))

    def writer(self, schema: StructType, overwrite: bool) -> "KafkaBatchWriter":
        _refuse_overwrite(overwrite)
        return KafkaBatchWriter(_sink_options(self.options, schema))

    def streamWriter(self, schema: StructType, overwrite: bool) -> "KafkaStreamWriter":
        _refuse_overwrite(overwrite)
        return KafkaStreamWriter(_sink_options(self.options, schema))


def _refuse_overwrite(overwrite: bool) -> None:
    if overwrite:
        # As Spark's connector: a topic cannot be truncated, only appended to.
        raise errors.IllegalArgumentError("kafkawire: save mode overwrite is not allowed for Kafka; "
                                          "use mode('append')")


def _worker() -> Any:
    # Imported on first use: Spark's planner processes on the driver load this
    # module too, and they never read or write records.
    from kafka.spark import worker

    return worker


# -- reading -------------------------------------------------------------------------------

def _read(options: SourceOptions, partition: InputPartition) -> Iterator[Any]:
    if partition.value is None:
        # Spark runs one task with an empty partition when planning found none.
        return iter(())
    rng = OffsetRange(*partition.value)
    return _worker().read_range(options.client, rng, options.include_headers, options.fail_on_data_loss,
                             options.poll_timeout_ms)


class KafkaBatchReader(DataSourceReader):
    """``spark.read.format("kafkawire")``: offsets resolved once, on the driver."""

    def __init__(self, options: SourceOptions) -> None:
        self.options = options

    def partitions(self) -> Sequence[InputPartition]:
        opts = self.options
        with OffsetReader(opts) as offsets:
            parts = offsets.partitions()
            start = offsets.resolve(opts.starting, opts.starting_ts, parts, "starting")
            end = offsets.resolve(opts.ending, opts.ending_ts, parts, "ending")
        for tp in parts:
            if end[tp] < start[tp]:
                raise errors.IllegalArgumentError(
                    "kafkawire: the ending offset %d of %s-%d is before its starting offset %d"
                    % (end[tp], tp[0], tp[1], start[tp]))
        ranges = plan_ranges(start, end, opts.min_partitions, opts.max_records_per_partition)
        return [KafkaInputPartition(r) for r in ranges]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        return _read(self.options, partition)


class KafkaStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """``spark.readStream.format("kafkawire")``: micro-batches between offsets in Spark's JSON form.

    Offsets are ``{"topic": {"partition": offset}}``, stored in the query's
    checkpoint by Spark, so a restarted query plans the very same ranges.
    New partitions (and new topics matching ``subscribePattern``) join at
    their earliest offset.
    """

    def __init__(self, options: SourceOptions) -> None:
        self.options = options
        self._target: Optional[Offsets] = None  # Trigger.AvailableNow's end
        self._last_trigger = time.monotonic()
        self._offsets: Optional[OffsetReader] = None
        self._seen_latest: Optional[Offsets] = None

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_offsets"] = None  # sockets stay on the driver
        return state

    def _reader(self) -> OffsetReader:
        if self._offsets is None:
            self._offsets = OffsetReader(self.options)
        return self._offsets

    def initialOffset(self) -> dict:
        opts = self.options
        reader = self._reader()
        parts = reader.partitions()
        return to_json_offsets(reader.resolve(opts.starting, opts.starting_ts, parts, "starting"))

    def _latest(self, start: Offsets) -> Offsets:
        if self._target is not None:
            latest = dict(self._target)
        else:
            reader = self._reader()
            latest = reader.latest(reader.partitions())
        lost = [tp for tp in start if tp not in latest]
        if lost and self.options.fail_on_data_loss and self._target is None:
            raise errors.UnknownTopicOrPartitionError(
                "kafkawire: partitions %s disappeared (data loss); set failOnDataLoss=false to go on "
                "without them" % ", ".join("%s-%d" % tp for tp in sorted(lost)))
        return latest

    def latestOffset(self, start: dict, limit: ReadLimit) -> dict:
        begin = from_json_offsets(start)
        latest = self._seen_latest = self._latest(begin)
        new = [tp for tp in latest if tp not in begin]
        known = dict(begin)
        if new:
            known.update(self._reader().earliest(new))
        if isinstance(limit, ReadAllAvailable):
            return to_json_offsets(latest)
        opts = self.options
        if opts.min_offsets_per_trigger and self._target is None:
            backlog = sum(max(end - known.get(tp, end), 0) for tp, end in latest.items())
            waited_ms = (time.monotonic() - self._last_trigger) * 1000.0
            if backlog < opts.min_offsets_per_trigger and waited_ms < opts.max_trigger_delay_ms:
                return start
            self._last_trigger = time.monotonic()
        if isinstance(limit, ReadMaxRows):
            return to_json_offsets(rate_limit(limit.max_rows, known, latest))
        return to_json_offsets(latest)

    def getDefaultReadLimit(self) -> ReadLimit:
        opts = self.options
        if opts.max_offsets_per_trigger:
            return ReadMaxRows(opts.max_offsets_per_trigger)
        if opts.min_offsets_per_trigger:
            return ReadMinRows(opts.min_offsets_per_trigger)
        return ReadAllAvailable()

    def reportLatestOffset(self) -> Optional[dict]:
        # What the last latestOffset() call saw: no second lookup per trigger.
        return to_json_offsets(self._seen_latest) if self._seen_latest is not None else None

    def prepareForTriggerAvailableNow(self) -> None:
        reader = self._reader()
        self._target = reader.latest(reader.partitions())

    def partitions(self, start: dict, end: dict) -> Sequence[InputPartition]:
        begin = from_json_offsets(start)
        until = from_json_offsets(end)
        new = [tp for tp in until if tp not in begin]
        if new:
            begin.update(self._reader().earliest(new))
        for tp, offset in until.items():
            if offset < begin[tp]:
                if self.options.fail_on_data_loss:
                    raise errors.OffsetOutOfRangeError(
                        "kafkawire: %s-%d went back from offset %d to %d (data loss); set "
                        "failOnDataLoss=false to go on" % (tp[0], tp[1], begin[tp], offset))
                begin[tp] = offset
        return [KafkaInputPartition(r) for r in plan_ranges(begin, until, self.options.min_partitions,
                                                                 self.options.max_records_per_partition)]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        return _read(self.options, partition)

    def commit(self, end: dict) -> None:
        pass  # progress lives in Spark's checkpoint; nothing to commit to Kafka

    def stop(self) -> None:
        if self._offsets is not None:
            self._offsets.close()
            self._offsets = None


# -- writing -------------------------------------------------------------------------------

_WRITE_COLUMNS = {"key", "value", "topic", "partition", "headers"}


def _check_write_schema(schema: StructType, topic_option: Optional[str]) -> None:
    fields = {f.name.lower(): f.dataType for f in schema.fields}
    if "value" not in fields:
        raise errors.IllegalArgumentError("kafkawire: the DataFrame to write needs a value column")
    for name in ("key", "value"):
        if name in fields and not isinstance(fields[name], (BinaryType, StringType)):
            raise errors.IllegalArgumentError("kafkawire: column %s must be binary or string, not %s"
                                              % (name, fields[name].simpleString()))
    if "topic" in fields and not isinstance(fields["topic"], StringType):
        raise errors.IllegalArgumentError("kafkawire: column topic must be a string, not %s"
                                          % fields["topic"].simpleString())
    if "topic" not in fields and topic_option is None:
        raise errors.IllegalArgumentError("kafkawire: no topic: set the topic option or add a topic column")
    if "partition" in fields and not isinstance(fields["partition"], IntegerType):
        raise errors.IllegalArgumentError("kafkawire: column partition must be an int, not %s"
                                          % fields["partition"].simpleString())
    if "headers" in fields:
        kind = fields["headers"]
        element = kind.elementType if isinstance(kind, ArrayType) else None
        ok = False
        if isinstance(element, StructType):
            inner = {f.name: f.dataType for f in element.fields}
            ok = set(inner) == {"key", "value"} and isinstance(inner["key"], StringType) and \
                isinstance(inner["value"], (BinaryType, StringType))
        if not ok:
            raise errors.IllegalArgumentError(
                "kafkawire: column headers must be array<struct<key:string,value:binary>>, not %s"
                % kind.simpleString())


def _sink_options(options: Any, schema: StructType) -> SinkOptions:
    sink = parse_sink_options(options)
    _check_write_schema(schema, sink.topic)
    return sink


class KafkaCommitMessage(WriterCommitMessage):
    """What one write task reports: how many records it delivered."""

    def __init__(self, count: int) -> None:
        self.count = count


def _write(sink: SinkOptions, batches: Iterator[Any]) -> KafkaCommitMessage:
    # Column names are matched case-insensitively, as Spark's connector does.
    def renamed(source: Iterator[Any]) -> Iterator[Any]:
        for batch in source:
            names = [n.lower() if n.lower() in _WRITE_COLUMNS else n for n in batch.schema.names]
            if names != batch.schema.names:
                batch = batch.rename_columns(names)
            if not sink.include_headers and "headers" in names:
                batch = batch.drop_columns(["headers"])
            yield batch

    return KafkaCommitMessage(_worker().write_batches(sink.client, sink.topic, renamed(batches)))


class KafkaBatchWriter(DataSourceArrowWriter):
    """``df.write.format("kafkawire").mode("append")``: at least once, flushed per task."""

    def __init__(self, sink: SinkOptions) -> None:
        self.sink = sink

    def write(self, iterator: Iterator[Any]) -> KafkaCommitMessage:
        return _write(self.sink, iterator)

    def commit(self, messages: List[Optional[WriterCommitMessage]]) -> None:
        pass  # every task flushed its records before reporting success

    def abort(self, messages: List[Optional[WriterCommitMessage]]) -> None:
        pass  # records already delivered stay (at-least-once, as Spark's connector)


class KafkaStreamWriter(DataSourceStreamArrowWriter):
    """``df.writeStream.format("kafkawire")``: each micro-batch flushed before its tasks succeed."""

    def __init__(self, sink: SinkOptions) -> None:
        self.sink = sink

    def write(self, iterator: Iterator[Any]) -> KafkaCommitMessage:
        return _write(self.sink, iterator)

    def commit(self, messages: List[Optional[WriterCommitMessage]], batchId: int) -> None:  # noqa: N803
        pass

    def abort(self, messages: List[Optional[WriterCommitMessage]], batchId: int) -> None:  # noqa: N803
        pass


__all__ = ["KafkaDataSource", "KafkaBatchReader", "KafkaStreamReader", "KafkaBatchWriter", "KafkaStreamWriter",
           "KafkaInputPartition", "KafkaCommitMessage", "NAME", "EARLIEST"]
