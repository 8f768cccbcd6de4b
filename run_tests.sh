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
exec .venv/bin/python -m pytest -q -p no:cacheprovider -rfEs "$@"
