"""kafka-python 3's cluster methods: API versions, features, log dirs, leader elections."""

from __future__ import annotations

from kafka.admin.base import AdminBase


class KafkaPythonCluster(AdminBase):
    """Cluster-wide inspection and maintenance."""


__all__ = ["KafkaPythonCluster"]
