"""kafka-python 3's admin method names, arguments and result shapes, on kafkawire's admin operations.

Each module here subclasses one operations mixin and overrides or adds the
methods kafka-python 3 names: :mod:`.topics`, :mod:`.groups`,
:mod:`.configs`, :mod:`.offsets`, :mod:`.cluster`. Results are
kafka-python's plain dicts and lists (:mod:`.shapes`); the methods that
also exist in kafkawire's own form return that form when called with
kafkawire's ``raise_error`` keyword (:mod:`.forms`).
``docs/compatibility.rst`` lists the remaining differences.
"""

from __future__ import annotations

from kafka.admin.kafka_python.cluster import KafkaPythonCluster
from kafka.admin.kafka_python.configs import KafkaPythonConfigs
from kafka.admin.kafka_python.groups import KafkaPythonGroups, MemberToRemove
from kafka.admin.kafka_python.offsets import KafkaPythonOffsets
from kafka.admin.kafka_python.topics import KafkaPythonTopics


class KafkaPythonAdminMixin(KafkaPythonTopics, KafkaPythonGroups, KafkaPythonConfigs,
                            KafkaPythonOffsets, KafkaPythonCluster):
    """kafka-python 3's admin methods, each over the operations mixin it extends."""


__all__ = ["KafkaPythonAdminMixin", "MemberToRemove"]
