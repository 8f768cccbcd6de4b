"""``python -m kafka``: the kafkawire command line (see :mod:`kafka.cli`)."""

import sys

from kafka.cli import main

if __name__ == "__main__":
    sys.exit(main())
