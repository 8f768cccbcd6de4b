"""kafka-python's paths of the partition assignors (see :mod:`kafka.group.assignors`)."""
