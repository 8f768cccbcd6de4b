"""Old module paths kept importable after their modules moved.

The kafka-python 0.9 API (the "simple" layer) moved into :mod:`kafka.simple`.
``import kafka.legacy.base`` (or any path in :data:`MOVED`) loads the new
module and registers that same module object under the old name too, so
attributes, ``mock.patch`` targets and ``isinstance`` checks are shared. The
paths of the kafka-python 0.9.5 API reference (``kafka.producer.simple``,
``kafka.consumer.multiprocess``, ...) and engine modules that were renamed
or merged (``kafka.spark.aborted``, ``kafka.confluent.errors``, ...) are
served the same way, and so is kafka-python's
``kafka.consumer.subscription_state``.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Dict, Optional, Sequence

#: Old (or kafka-python 0.9.5) module path -> the module that serves it now.
MOVED: Dict[str, str] = {
    # kafkawire's own earlier layout
    "kafka.legacy": "kafka.simple",
    "kafka.legacy.base": "kafka.simple.producer",
    "kafka.legacy.simple": "kafka.simple.simple_producer",
    "kafka.legacy.keyed": "kafka.simple.keyed_producer",
    "kafka.legacy.simple_consumer": "kafka.simple.simple_consumer",
    "kafka.legacy.multiprocess": "kafka.simple.multiprocess",
    "kafka.client.classic": "kafka.simple.client",
    "kafka.conn.legacy": "kafka.simple.connection",
    "kafka.protocol.legacy": "kafka.simple.protocol",
    "kafka.consumer.first_api": "kafka.simple.consumer_methods",
    "kafka.common": "kafka.simple.common",
    "kafka.context": "kafka.simple.context",
    "kafka.util": "kafka.simple.util",
    "kafka.simple.codec": "kafka.codec",  # kafka.codec is a real module (the decoder honours it)
    "kafka.consumer.gc_pause": "kafka.gc_pause",
    # the classic group protocol's pure parts, shared by the synchronous and asyncio consumers
    "kafka.consumer.group.assignors": "kafka.group.assignors",
    "kafka.consumer.group.assignors.base": "kafka.group.assignors.base",
    "kafka.consumer.group.assignors.range": "kafka.group.assignors.range",
    "kafka.consumer.group.assignors.roundrobin": "kafka.group.assignors.roundrobin",
    "kafka.consumer.group.assignors.sticky": "kafka.group.assignors.sticky",
    "kafka.consumer.group.members": "kafka.group.members",  # shared by the synchronous and asyncio consumers
    "kafka.partitioner": "kafka.simple.partitioner",
    "kafka.partitioner.base": "kafka.simple.partitioner.base",
    "kafka.partitioner.hashed": "kafka.simple.partitioner.hashed",
    "kafka.partitioner.roundrobin": "kafka.simple.partitioner.roundrobin",
    "kafka.spark.aborted": "kafka.record.aborted",  # the consumer's read_committed rule, shared
    "kafka.spark.record_columns": "kafka.spark.columnar_decode",
    "kafka.spark.column_records": "kafka.spark.columnar_encode",
    # name pairs that said too little (kafka.confluent.error is confluent-kafka's own path and stays)
    "kafka.admin.acl": "kafka.admin.acl_resource",  # the ACL value classes (kafka-python 2.x's path)
    "kafka.confluent.errors": "kafka.confluent.kafka_error",
    # confluent-kafka's admin code in one package, as confluent-kafka keeps it
    "kafka.confluent._admin_client": "kafka.confluent.admin._client",
    "kafka.confluent._admin_types": "kafka.confluent.admin._types",
    "kafka.confluent._admin_scram": "kafka.confluent.admin._scram",
    "kafka.confluent._list_groups": "kafka.confluent.admin._list_groups",
    "kafka.confluent._list_offsets": "kafka.confluent.admin._list_offsets",
    # kafka-python 0.9.5 paths
    "kafka.producer.base": "kafka.simple.producer",
    "kafka.producer.simple": "kafka.simple.simple_producer",
    "kafka.producer.keyed": "kafka.simple.keyed_producer",
    "kafka.consumer.base": "kafka.simple.simple_consumer",
    "kafka.consumer.simple": "kafka.simple.simple_consumer",
    "kafka.consumer.multiprocess": "kafka.simple.multiprocess",
    # kafka-python 2.x/3.x paths
    "kafka.consumer.subscription_state": "kafka.consumer.subscription",  # SubscriptionState and the listeners
}


class _AliasLoader(importlib.abc.Loader):
    """Hands out the already-imported target module instead of building one."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[ModuleType]:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        pass  # the target ran when it was imported


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds the paths of :data:`MOVED` and nothing else."""

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(new))


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
