"""kafka-python's module path of the group coordinator's assignors.

kafkawire's assignors live in :mod:`kafka.consumer.group.assignors`; the
modules under :mod:`kafka.coordinator.assignors` give them kafka-python's
paths and class names.
"""
