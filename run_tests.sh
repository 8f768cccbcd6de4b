#!/usr/bin/env bash
# Set up (./build_integration.sh) and run the whole test suite, then run the
# unit tests of the code that has fast paths a second time with every fast
# path off (KAFKAWIRE_NO_FAST_PATHS=1, see docs/fast_paths.rst).
#
# Arguments are passed on to the first, main pytest run only, e.g.
#   ./run_tests.sh -x test/test_errors.py
# The second run always takes the files listed in REFERENCE_RUN below (about
# 30 s with four workers); KAFKAWIRE_REFERENCE_RUN=0 leaves it out, e.g. for a
# quick run of one file. The script fails if either run fails.
set -euo pipefail
cd "$(dirname "$0")"
./build_integration.sh
# A missing embedded broker must fail the run, not skip its tests silently.
export KAFKAWIRE_REQUIRE_BROKER=1
# Any other skip fails too, but those test/conftest.py documents (printed by -rs).
export KAFKAWIRE_STRICT=1
# Hypothesis without deadlines: the workers share the machine's cores.
export KAFKAWIRE_HYPOTHESIS_PROFILE=ci
# Several pytest-xdist workers, each with its own embedded broker: most tests
# wait on sockets, group joins and child processes rather than compute, so
# four workers keep two cores busy. The Spark tests share one session and run
# on one worker (loadgroup; test/conftest.py groups them).
# KAFKAWIRE_TEST_WORKERS=0 runs everything in this process.
PYTEST=(.venv/bin/python -m pytest -q -p no:cacheprovider -rfEs -n "${KAFKAWIRE_TEST_WORKERS:-4}" --dist loadgroup)

# The second run: the record layer, the producer and consumer tests that go
# through the fast code (batches, futures, keyed routing, send_batch, fetch
# and decode), the Spark codec tests, and murmur2. Fast, mostly unit-level
# files: keep this run under about a minute.
REFERENCE_RUN=(
    test/record
    test/producer/test_accumulator_lock.py
    test/producer/test_accumulator_queues.py
    test/producer/test_batch_split.py
    test/producer/test_bulk_runs.py
    test/producer/test_completion_hook.py
    test/producer/test_encoded.py
    test/producer/test_exit_and_flush.py
    test/producer/test_held_keyed.py
    test/producer/test_kafka_producer.py
    test/producer/test_partition_fast_path.py
    test/producer/test_partitioner_keys.py
    test/producer/test_purge.py
    test/producer/test_queue_prepared.py
    test/producer/test_record_checks.py
    test/producer/test_reliability_units.py
    test/producer/test_retry_count.py
    test/producer/test_send_batch.py
    test/producer/test_send_checks.py
    test/producer/test_value_columns.py
    test/consumer/test_decompression_budget.py
    test/consumer/test_deserializer_errors.py
    test/consumer/test_fetch_ahead.py
    test/consumer/test_fetch_answers_end_to_end.py
    test/consumer/test_fetch_chunks.py
    test/consumer/test_fetch_errors.py
    test/consumer/test_gc_pause.py
    test/consumer/test_kafka_consumer.py
    test/consumer/test_offset_overflow.py
    test/consumer/test_offset_reset.py
    test/consumer/test_record_class.py
    test/consumer/test_row_layout.py
    test/consumer/test_seek_bounds.py
    test/spark/test_columnar_encode.py
    test/spark/test_encoded_write.py
    test/spark/test_columnar_decode.py
    test/test_fast_paths.py
    test/test_murmur2.py
)

status=0
"${PYTEST[@]}" "$@" || status=$?
if [ "${KAFKAWIRE_REFERENCE_RUN:-1}" != 0 ]; then
    echo "run_tests.sh: again with every fast path off (KAFKAWIRE_NO_FAST_PATHS=1)" >&2
    KAFKAWIRE_NO_FAST_PATHS=1 "${PYTEST[@]}" "${REFERENCE_RUN[@]}" || status=$?
fi
exit "$status"
