#!/usr/bin/env bash
# Set up (./build_integration.sh) and run the demo; arguments go to the demo.
set -euo pipefail
cd "$(dirname "$0")"
./build_integration.sh >&2
exec .venv/bin/python -m kafka demo "$@"
