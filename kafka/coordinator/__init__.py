"""kafka-python's module path of the group coordinator's assignors.

kafkawire's assignors live in :mod:`kafka.group.assignors`; the
modules under :mod:`kafka.coordinator.assignors` give them kafka-python's
paths and class names.
"""
