"""kafka-python 3's cluster-state methods: the KRaft quorum, feature updates, config resource names."""

from __future__ import annotations

import enum
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from kafka import errors
from kafka.admin.base import AdminBase, broker_error
from kafka.admin.kafka_python.shapes import error_text, plain
from kafka.admin.resources import ConfigResourceType, _resource_type
from kafka.protocol.apis import DESCRIBE_QUORUM, LIST_CONFIG_RESOURCES, UPDATE_FEATURES

#: The KRaft partition holding the cluster metadata.
_METADATA_TOPIC = "__cluster_metadata"


class UpdateFeatureType(enum.IntEnum):
    """How :meth:`~kafka.admin.KafkaAdminClient.update_features` may move a feature's level."""

    UNKNOWN = 0
    UPGRADE = 1
    SAFE_DOWNGRADE = 2
    UNSAFE_DOWNGRADE = 3


def _update_type(value: Any) -> UpdateFeatureType:
    try:
        if isinstance(value, str):
            return UpdateFeatureType[value.upper()]
        return UpdateFeatureType(value)
    except (KeyError, ValueError):
        raise errors.IllegalArgumentError("unknown feature update type %r" % (value,)) from None


FeatureSpec = Union[int, Tuple[Any, int]]


class KafkaPythonQuorum(AdminBase):
    """The metadata quorum and cluster-wide feature levels."""

    def describe_metadata_quorum(self) -> Dict[str, Any]:
        """The KRaft quorum of the cluster metadata log (``__cluster_metadata`` partition 0).

        Returns DescribeQuorum's answer as a dict: ``{'topics': [{'topic_name',
        'partitions': [{'partition_index', 'leader_id', 'leader_epoch',
        'high_watermark', 'current_voters', 'observers', 'error'}]}],
        'nodes': [...]}`` where ``error`` is None or the partition's error
        text; a top-level error is raised.
        """
        R = DESCRIBE_QUORUM.Request
        first = R.TopicData.PartitionData(partition_index=0)
        request = R(topics=[R.TopicData(topic_name=_METADATA_TOPIC, partitions=[first])])
        response = self._send_any(DESCRIBE_QUORUM, lambda v: request)
        if response.error_code:
            raise broker_error(response.error_code, response.error_message, "describe_metadata_quorum")
        out = plain(response)
        for key in ("error_code", "error_message"):
            out.pop(key)
        for topic in out["topics"]:
            for partition in topic["partitions"]:
                code, message = partition.pop("error_code"), partition.pop("error_message")
                partition["error"] = error_text(code, message) if code else None
        return out

    def update_features(self, feature_updates: Mapping[str, FeatureSpec], validate_only: bool = False,
                        timeout_ms: int = 60000) -> Dict[str, str]:
        """Set finalized feature levels (KIP-584), through the controller.

        ``feature_updates``: ``{feature: max_version_level}`` (an upgrade) or
        ``{feature: (update type, max_version_level)}`` with an
        :class:`UpdateFeatureType`, its name or value; a level below 1
        removes the feature. ``validate_only`` checks without applying
        (UpdateFeatures v1, Kafka 3.3+). Returns ``{feature: 'OK' or the
        error text}``; a top-level error is raised.
        """
        if not isinstance(feature_updates, Mapping):
            raise errors.IllegalArgumentError("feature_updates must be a dict of {feature: max_version_level} "
                                              "or {feature: (update type, max_version_level)}")
        updates = []
        for feature, spec in feature_updates.items():
            kind, level = (spec if isinstance(spec, tuple) else (UpdateFeatureType.UPGRADE, spec))
            updates.append((feature, _update_type(kind), int(level)))
        R = UPDATE_FEATURES.Request

        def build(version: int) -> Any:
            if validate_only and version < 1:
                raise errors.UnsupportedVersionError("validate_only needs UpdateFeatures v1 (Kafka 3.3+)")
            downgrades = (UpdateFeatureType.SAFE_DOWNGRADE, UpdateFeatureType.UNSAFE_DOWNGRADE)
            # v0 says whether a downgrade is allowed; v1 names the kind of update instead.
            return R(timeout_ms=timeout_ms, validate_only=validate_only, feature_updates=[
                R.FeatureUpdateKey(feature=f, max_version_level=level,
                                   allow_downgrade=version == 0 and kind in downgrades,
                                   upgrade_type=int(kind) if version >= 1 else UpdateFeatureType.UPGRADE)
                for f, kind, level in updates])

        response = self._send_to_controller(UPDATE_FEATURES, build, lambda r: r.error_code,
                                            self._deadline(timeout_ms + self.config["request_timeout_ms"]))
        if response.error_code:
            raise broker_error(response.error_code, response.error_message, "update_features")
        out = {r.feature: error_text(r.error_code, r.error_message) if r.error_code else "OK"
               for r in response.results}
        for feature in feature_updates:  # v2 answers with the top-level error alone
            out.setdefault(feature, "OK")
        return out

    def list_config_resources(self, resource_types: Optional[Sequence[Any]] = None) -> Dict[str, List[str]]:
        """The names of config resources, by type: ``{'topic': [...], 'client_metrics': [...], ...}``.

        ``resource_types``: :class:`~kafka.admin.ConfigResourceType` values or
        names to list (default: every type the broker lists). Filtering by a
        type other than CLIENT_METRICS needs ListConfigResources v1 (Kafka 4.1+).
        """
        wanted = [int(_resource_type(t)) for t in resource_types or ()]

        def build(version: int) -> Any:
            if version < 1 and any(t != ConfigResourceType.CLIENT_METRICS for t in wanted):
                raise errors.UnsupportedVersionError("listing config resources other than client metrics "
                                                     "needs ListConfigResources v1 (Kafka 4.1+)")
            return LIST_CONFIG_RESOURCES.Request(resource_types=wanted)

        response = self._send_any(LIST_CONFIG_RESOURCES, build)
        if response.error_code:
            raise broker_error(response.error_code, None, "list_config_resources")
        out: Dict[str, List[str]] = {}
        for resource in response.config_resources:
            try:
                name = ConfigResourceType(resource.resource_type).name.lower()
            except ValueError:
                name = "unknown"
            out.setdefault(name, []).append(resource.resource_name)
        return out


__all__ = ["KafkaPythonQuorum", "UpdateFeatureType"]
