#!/usr/bin/env bash
# Set up (./build_integration.sh) and run the whole test suite.
# Arguments are passed on to pytest, e.g. ./run_tests.sh -x test/test_errors.py
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
exec .venv/bin/python -m pytest -q -p no:cacheprovider -rfEs \
    -n "${KAFKAWIRE_TEST_WORKERS:-4}" --dist loadgroup "$@"
