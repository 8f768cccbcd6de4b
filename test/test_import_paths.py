"""Every public import path of the package keeps working.

``MODULES`` lists each module that was importable before the 0.9 API moved
to :mod:`kafka.simple` (and the paths of the kafka-python 0.9.5 API
reference), with the public names it offered. Old paths may now be aliases
of the new modules; they must still import and still carry those names.
"""

import importlib

import pytest

MODULES = {
    'kafka': ('BrokerMetadata', 'ConfigResource', 'ConfigResourceType', 'HashedPartitioner', 'KafkaAdminClient', 'KafkaClient', 'KafkaConnection', 'KafkaConsumer', 'KafkaProducer', 'KafkaProtocol', 'KeyedProducer', 'LegacyPartitioner', 'MultiProcessConsumer', 'Murmur2Partitioner', 'NewPartitions', 'NewTopic', 'OffsetAndMetadata', 'RoundRobinPartitioner', 'SimpleConsumer', 'SimpleProducer', 'TopicPartition', '__version__', 'create_gzip_message', 'create_message', 'create_message_set', 'create_snappy_message'),
    'kafka.__main__': (),
    'kafka.admin': ('ACL', 'ACLFilter', 'ACLOperation', 'ACLPermissionType', 'ACLResourcePatternType', 'AdminResultError', 'AlterConfigOp', 'ClusterDescription', 'ConfigEntry', 'ConfigResource', 'ConfigResourceType', 'ConfigSource', 'DeletedRecords', 'GroupDescription', 'GroupListing', 'KafkaAdminClient', 'MemberDescription', 'NewPartitions', 'NewTopic', 'ResourcePattern', 'ResourcePatternFilter', 'ResourceType', 'TopicDescription'),
    'kafka.admin.acl': ('ACL', 'ACLFilter', 'ACLOperation', 'ACLPermissionType', 'ACLResourcePatternType', 'ResourcePattern', 'ResourcePatternFilter', 'ResourceType'),
    'kafka.admin.acl_resource': ('ACL', 'ACLFilter', 'ACLOperation', 'ACLPermissionType', 'ACLResourcePatternType', 'ResourcePattern', 'ResourcePatternFilter', 'ResourceType'),
    'kafka.admin.acls': ('AclsMixin',),
    'kafka.admin.base': ('ADMIN_CONFIG', 'AdminBase', 'broker_error'),
    'kafka.admin.client': ('KafkaAdminClient',),
    'kafka.admin.config_docs': (),
    'kafka.admin.configs': ('ConfigsMixin', 'resource_type'),
    'kafka.admin.groups': ('GroupsMixin', 'check_group_id', 'decode_assignment'),
    'kafka.admin.records': ('RecordsMixin',),
    'kafka.admin.resources': ('AlterConfigOp', 'ConfigEntry', 'ConfigResource', 'ConfigResourceType', 'ConfigSource', 'NewPartitions', 'NewTopic', 'check_partitions', 'check_topic_name'),
    'kafka.admin.results': ('AdminResultError', 'ClusterDescription', 'DeletedRecords', 'GroupDescription', 'GroupListing', 'MemberDescription', 'TopicDescription'),
    'kafka.admin.topics': ('TopicsMixin',),
    'kafka.cli': ('ArgumentParser', 'build_parser', 'main', 'report_error'),
    'kafka.cli._common': ('ReaderGone', 'StopFlag', 'add_producer_options', 'header', 'non_negative_int', 'positive_int', 'producer_settings', 'records', 'separator', 'silence_stdout', 'topic_partitions', 'usage_error'),
    'kafka.cli.broker': ('add_parser', 'run'),
    'kafka.cli.consume': ('add_parser', 'formatter', 'json_record', 'run'),
    'kafka.cli.demo': ('add_parser', 'run'),
    'kafka.cli.groups': ('add_parser', 'describe_group', 'run'),
    'kafka.cli.options': ('add_bootstrap_option', 'add_connection_options', 'add_timeout_option', 'command_description', 'default_bootstrap_servers', 'split_servers'),
    'kafka.cli.perf': ('add_parser', 'percentile', 'run'),
    'kafka.cli.produce': ('LineFormatError', 'add_parser', 'run'),
    'kafka.cli.progress': ('Progress',),
    'kafka.cli.topics': ('add_parser', 'connect', 'report_failures', 'run'),
    'kafka.client': ('KafkaClient', 'Outcome'),
    'kafka.client.classic': ('ClassicClientMixin',),
    'kafka.client.config_docs': (),
    'kafka.client.network': ('NetworkClient', 'parse_bootstrap'),
    'kafka.client.routing': ('COORDINATOR_GROUP', 'COORDINATOR_TRANSACTION', 'Outcome', 'RoutingClient'),
    'kafka.client.topic_ids': ('choose_version', 'ids_by_name', 'name_only_cap', 'names_by_id', 'response_topic'),
    'kafka.cluster': ('ClusterMetadata',),
    'kafka.codec': ('gzip_decode', 'gzip_encode', 'has_gzip', 'has_lz4', 'has_snappy', 'has_zstd', 'lz4_decode', 'lz4_decode_old_kafka', 'lz4_encode', 'lz4_encode_old_kafka', 'snappy_decode', 'snappy_encode', 'zstd_decode', 'zstd_encode'),
    'kafka.common': ('AsyncProducerQueueFull', 'BrokerMetadata', 'BrokerNotAvailableError', 'BrokerNotFoundError', 'BrokerResponseError', 'BufferUnderflowError', 'ChecksumError', 'ConsumerCoordinatorNotAvailable', 'ConsumerCoordinatorNotAvailableCode', 'ConsumerFetchSizeTooSmall', 'ConsumerMetadataRequest', 'ConsumerMetadataResponse', 'ConsumerNoMoreData', 'ConsumerTimeout', 'FailedPayloadsError', 'FetchRequest', 'FetchResponse', 'InvalidFetchRequest', 'InvalidFetchRequestError', 'InvalidMessageError', 'KafkaConfigurationError', 'KafkaConnectionError', 'KafkaError', 'KafkaMessage', 'KafkaTimeoutError', 'KafkaUnavailableError', 'LeaderNotAvailableError', 'LeaderNotFoundError', 'Message', 'MessageSizeTooLargeError', 'MetadataRequest', 'MetadataResponse', 'NotCoordinatorForConsumerCode', 'NotLeaderForPartitionError', 'OffsetAndMessage', 'OffsetCommitRequest', 'OffsetCommitResponse', 'OffsetFetchRequest', 'OffsetFetchResponse', 'OffsetMetadataTooLargeError', 'OffsetOutOfRangeError', 'OffsetOutOfRangeException', 'OffsetRequest', 'OffsetResponse', 'OffsetsLoadInProgressCode', 'PartitionMetadata', 'ProduceRequest', 'ProduceResponse', 'ProtocolError', 'RETRY_BACKOFF_ERROR_TYPES', 'RETRY_ERROR_TYPES', 'RETRY_REFRESH_ERROR_TYPES', 'ReplicaNotAvailableError', 'RequestTimedOutError', 'RetryOptions', 'StaleControllerEpochError', 'StaleLeaderEpochCodeError', 'TopicAndPartition', 'TopicMetadata', 'UnknownError', 'UnknownTopicOrPartitionError', 'UnsupportedCodecError', 'check_error', 'kafka_errors'),
    'kafka.conn': ('DEFAULT_KAFKA_PORT', 'DEFAULT_SOCKET_TIMEOUT_SECONDS', 'KafkaConnection', 'collect_hosts'),
    'kafka.conn.blocking': ('BlockingConnection', 'parse_address'),
    'kafka.conn.connection': ('BrokerConnection', 'InFlight', 'os_strerror', 'resolve_addresses'),
    'kafka.conn.legacy': ('DEFAULT_KAFKA_PORT', 'DEFAULT_SOCKET_TIMEOUT_SECONDS', 'KafkaConnection', 'collect_hosts'),
    'kafka.conn.sasl': ('OAuthBearerMechanism', 'PlainMechanism', 'SUPPORTED_MECHANISMS', 'SaslAuthenticationError', 'SaslMechanism', 'SaslPrepError', 'ScramMechanism', 'create_mechanism', 'escape_saslname', 'reauthentication_delay_ms', 'saslprep'),
    'kafka.conn.sasl.base': ('SaslMechanism', 'check_text', 'reauthentication_delay_ms'),
    'kafka.conn.sasl.errors': ('SaslAuthenticationError',),
    'kafka.conn.sasl.factory': ('create_mechanism',),
    'kafka.conn.sasl.oauth': ('OAuthBearerMechanism',),
    'kafka.conn.sasl.plain': ('PlainMechanism',),
    'kafka.conn.sasl.saslprep': ('SaslPrepError', 'saslprep'),
    'kafka.conn.sasl.scram': ('ScramMechanism', 'escape_saslname'),
    'kafka.conn.tls': ('build_ssl_context', 'check_security_protocol', 'uses_sasl', 'uses_tls'),
    'kafka.consumer': ('ConsumerRecord', 'KafkaConsumer'),
    'kafka.consumer.config_docs': (),
    'kafka.consumer.fetch_errors': ('classify_partition_error', 'partition_error'),
    'kafka.consumer.fetcher': ('CompletedFetch', 'ConsumerRecord', 'Fetcher'),
    'kafka.consumer.first_api': ('FirstApiMixin', 'OFFSET_GROUPS'),
    'kafka.consumer.group': ('CommitFailedError', 'ConsumerCoordinator', 'GroupMetadata'),
    'kafka.consumer.group.assignors': ('ASSIGNORS', 'CooperativeStickyAssignor', 'GroupAssignment', 'MemberSubscription', 'PartitionAssignor', 'RangeAssignor', 'RoundRobinAssignor', 'StickyAssignor', 'lookup', 'lookup_all', 'rebalance_protocol'),
    'kafka.consumer.group.assignors.base': ('MemberSubscription', 'PartitionAssignor', 'finish', 'member_order', 'normalize_members', 'partitions_per_topic', 'sorted_members'),
    'kafka.consumer.group.assignors.range': ('RangeAssignor',),
    'kafka.consumer.group.assignors.roundrobin': ('RoundRobinAssignor',),
    'kafka.consumer.group.assignors.sticky': ('CooperativeStickyAssignor', 'StickyAssignor', 'balanced_assignment', 'decode_cooperative_user_data', 'decode_sticky_user_data', 'encode_cooperative_user_data', 'encode_sticky_user_data', 'resolve_owners'),
    'kafka.consumer.group.classic': ('ClassicMembership',),
    'kafka.consumer.group.common': ('CommitFailedError', 'Generation', 'GroupMetadata', 'call_listener'),
    'kafka.consumer.group.coordinator': ('CommitFailedError', 'ConsumerCoordinator', 'DEFAULT_CONFIG', 'GroupMetadata'),
    'kafka.consumer.group.kip848': ('ConsumerGroupMembership',),
    'kafka.consumer.group.link': ('CoordinatorLink', 'left_ms'),
    'kafka.consumer.group.members': ('GroupSubscriptions', 'read_member', 'read_subscriptions'),
    'kafka.group': (),
    'kafka.group.assignors': ('ASSIGNORS', 'CooperativeStickyAssignor', 'GroupAssignment', 'MemberSubscription', 'PartitionAssignor', 'RangeAssignor', 'RoundRobinAssignor', 'StickyAssignor', 'lookup', 'lookup_all', 'rebalance_protocol'),
    'kafka.group.assignors.base': ('MemberSubscription', 'PartitionAssignor', 'finish', 'member_order', 'normalize_members', 'partitions_per_topic', 'sorted_members'),
    'kafka.group.assignors.range': ('RangeAssignor',),
    'kafka.group.assignors.roundrobin': ('RoundRobinAssignor',),
    'kafka.group.assignors.sticky': ('CooperativeStickyAssignor', 'StickyAssignor', 'balanced_assignment', 'decode_cooperative_user_data', 'decode_sticky_user_data', 'encode_cooperative_user_data', 'encode_sticky_user_data', 'resolve_owners'),
    'kafka.group.members': ('GroupSubscriptions', 'read_member', 'read_subscriptions'),
    'kafka.group.payloads': ('assigned_partitions', 'assignment_payload', 'by_topic', 'subscription_payload'),
    'kafka.group.protocols': ('COOPERATIVE', 'EAGER'),
    'kafka.consumer.group.offsets': ('OffsetCommitter',),
    'kafka.consumer.kafka': ('KafkaConsumer',),
    'kafka.consumer.offset_reset': ('OffsetResetter', 'list_offsets_request', 'list_offsets_results'),
    'kafka.consumer.subscription': ('AsyncConsumerRebalanceListener', 'ConsumerRebalanceListener', 'PartitionState', 'SubscriptionState', 'reset_strategy'),
    'kafka.consumer.subscription_state': ('AsyncConsumerRebalanceListener', 'ConsumerRebalanceListener', 'SubscriptionState'),
    'kafka.context': ('OffsetCommitContext',),
    'kafka.direct': ('FetchedPartition', 'TopicInfo', 'batches_to_records', 'create_topic', 'describe_topic', 'fetch', 'fetch_all', 'produce'),
    'kafka.errors': ('AsyncProducerQueueFull', 'BrokerIdNotRegisteredError', 'BrokerNotAvailableError', 'BrokerNotFoundError', 'BrokerResponseError', 'BufferUnderflowError', 'ChecksumError', 'ClusterAuthorizationFailedError', 'ConcurrentTransactionsError', 'ConsumerCoordinatorNotAvailableCode', 'ConsumerFetchSizeTooSmall', 'ConsumerNoMoreData', 'ConsumerTimeout', 'CoordinatorLoadInProgressError', 'CoordinatorNotAvailableError', 'CorrelationIdError', 'CorruptMessageError', 'CorruptRecordError', 'DelegationTokenAuthDisabledError', 'DelegationTokenAuthorizationFailedError', 'DelegationTokenExpiredError', 'DelegationTokenNotFoundError', 'DelegationTokenOwnerMismatchError', 'DelegationTokenRequestNotAllowedError', 'DuplicateBrokerRegistrationError', 'DuplicateResourceError', 'DuplicateSequenceNumberError', 'DuplicateVoterError', 'ElectionNotNeededError', 'EligibleLeadersNotAvailableError', 'FailedPayloadsError', 'FeatureUpdateFailedError', 'FencedInstanceIdError', 'FencedLeaderEpochError', 'FencedMemberEpochError', 'FencedStateEpochError', 'FetchSessionIdNotFoundError', 'FetchSessionTopicIdError', 'FrameTooLargeError', 'GroupAuthorizationFailedError', 'GroupCoordinatorNotAvailableError', 'GroupIdNotFoundError', 'GroupLoadInProgressError', 'GroupMaxSizeReachedError', 'GroupSubscribedToTopicError', 'IllegalArgumentError', 'IllegalArgumentTypeError', 'IllegalGenerationError', 'IllegalSaslStateError', 'IllegalStateError', 'InconsistentClusterIdError', 'InconsistentGroupProtocolError', 'InconsistentTopicIdError', 'InconsistentVoterSetError', 'IneligibleReplicaError', 'InvalidCommitOffsetSizeError', 'InvalidConfigurationError', 'InvalidFetchRequest', 'InvalidFetchRequestError', 'InvalidFetchSessionEpochError', 'InvalidFetchSizeError', 'InvalidGroupIdError', 'InvalidMessageError', 'InvalidPartitionsError', 'InvalidPrincipalTypeError', 'InvalidProducerEpochError', 'InvalidProducerIdMappingError', 'InvalidRecordError', 'InvalidRecordStateError', 'InvalidRegistrationError', 'InvalidRegularExpressionError', 'InvalidReplicaAssignmentError', 'InvalidReplicationAssignmentError', 'InvalidReplicationFactorError', 'InvalidRequestError', 'InvalidRequiredAcksError', 'InvalidSessionTimeoutError', 'InvalidShareSessionEpochError', 'InvalidTimestampError', 'InvalidTopicError', 'InvalidTransactionTimeoutError', 'InvalidTxnStateError', 'InvalidUpdateVersionError', 'InvalidVoterKeyError', 'KafkaConfigurationError', 'KafkaConnectionError', 'KafkaError', 'KafkaStorageError', 'KafkaTimeoutError', 'KafkaUnavailableError', 'LeaderNotAvailableError', 'LeaderNotFoundError', 'ListenerNotFoundError', 'LogDirNotFoundError', 'MemberIdRequiredError', 'MessageSizeTooLargeError', 'MismatchedEndpointTypeError', 'NetworkExceptionError', 'NewLeaderElectedError', 'NoBrokersAvailable', 'NoReassignmentInProgressError', 'NodeNotReadyError', 'NonEmptyGroupError', 'NotControllerError', 'NotCoordinatorError', 'NotCoordinatorForConsumerCode', 'NotCoordinatorForGroupError', 'NotEnoughReplicasAfterAppendError', 'NotEnoughReplicasError', 'NotLeaderForPartitionError', 'NotLeaderOrFollowerError', 'OffsetMetadataTooLargeError', 'OffsetMovedToTieredStorageError', 'OffsetNotAvailableError', 'OffsetOutOfRangeError', 'OffsetsLoadInProgressCode', 'OperationNotAttemptedError', 'OutOfOrderSequenceNumberError', 'PolicyViolationError', 'PositionOutOfRangeError', 'PreferredLeaderNotAvailableError', 'PrincipalDeserializationFailureError', 'ProducerFencedError', 'ProtocolError', 'ReassignmentInProgressError', 'RebalanceInProgressError', 'RebootstrapRequiredError', 'RecordListTooLargeError', 'RecordTooLargeError', 'ReplicaNotAvailableError', 'RequestTimedOutError', 'ResourceNotFoundError', 'SaslAuthenticationFailedError', 'SecurityDisabledError', 'ShareSessionLimitReachedError', 'ShareSessionNotFoundError', 'SnapshotNotFoundError', 'SslCertificateError', 'StaleBrokerEpochError', 'StaleControllerEpochError', 'StaleLeaderEpochCodeError', 'StaleMemberEpochError', 'StreamsInvalidTopologyEpochError', 'StreamsInvalidTopologyError', 'StreamsTopologyFencedError', 'TelemetryTooLargeError', 'ThrottlingQuotaExceededError', 'TopicAlreadyExistsError', 'TopicAuthorizationFailedError', 'TopicDeletionDisabledError', 'TransactionAbortableError', 'TransactionCoordinatorFencedError', 'TransactionalIdAuthorizationFailedError', 'TransactionalIdNotFoundError', 'UnacceptableCredentialError', 'UnknownControllerIdError', 'UnknownError', 'UnknownLeaderEpochError', 'UnknownMemberIdError', 'UnknownProducerIdError', 'UnknownSubscriptionIdError', 'UnknownTopicError', 'UnknownTopicIdError', 'UnknownTopicOrPartitionError', 'UnreleasedInstanceIdError', 'UnstableOffsetCommitError', 'UnsupportedAssignorError', 'UnsupportedCodecError', 'UnsupportedCompressionTypeError', 'UnsupportedEndpointTypeError', 'UnsupportedForMessageFormatError', 'UnsupportedSaslMechanismError', 'UnsupportedVersionError', 'VoterNotFoundError', 'check_error_code', 'for_code'),
    'kafka.future': ('Future',),
    'kafka.legacy': ('ACK_AFTER_CLUSTER_COMMIT', 'ACK_AFTER_LOCAL_WRITE', 'ACK_NOT_REQUIRED', 'Consumer', 'KeyedProducer', 'MultiProcessConsumer', 'Producer', 'SimpleConsumer', 'SimpleProducer'),
    'kafka.legacy.base': ('ACK_AFTER_CLUSTER_COMMIT', 'ACK_AFTER_LOCAL_WRITE', 'ACK_NOT_REQUIRED', 'ASYNC_LOG_MESSAGES_ON_ERROR', 'ASYNC_QUEUE_MAXSIZE', 'ASYNC_QUEUE_PUT_TIMEOUT', 'ASYNC_RETRY_BACKOFF_MS', 'ASYNC_RETRY_LIMIT', 'ASYNC_RETRY_ON_TIMEOUTS', 'ASYNC_STOP_TIMEOUT_SECS', 'BATCH_SEND_DEFAULT_INTERVAL', 'BATCH_SEND_MSG_COUNT', 'DEFAULT_ACK_TIMEOUT', 'Producer', 'STOP_ASYNC_PRODUCER'),
    'kafka.legacy.keyed': ('KeyedProducer',),
    'kafka.legacy.multiprocess': ('Events', 'MultiProcessConsumer'),
    'kafka.legacy.simple': ('SimpleProducer',),
    'kafka.legacy.simple_consumer': ('AUTO_COMMIT_INTERVAL', 'AUTO_COMMIT_MSG_COUNT', 'Consumer', 'FETCH_BUFFER_SIZE_BYTES', 'FETCH_MAX_WAIT_TIME', 'FETCH_MIN_BYTES', 'ITER_TIMEOUT_SECONDS', 'MAX_FETCH_BUFFER_SIZE_BYTES', 'SEEK_CURRENT', 'SEEK_HEAD', 'SEEK_TAIL', 'SimpleConsumer', 'check_fetch_options'),
    'kafka.partitioner': ('HashedPartitioner', 'LegacyPartitioner', 'Murmur2Partitioner', 'Partitioner', 'RoundRobinPartitioner', 'murmur2'),
    'kafka.partitioner.base': ('Partitioner',),
    'kafka.partitioner.hashed': ('HashedPartitioner', 'LegacyPartitioner', 'Murmur2Partitioner', 'murmur2'),
    'kafka.partitioner.roundrobin': ('RoundRobinPartitioner',),
    'kafka.peer_text': ('shorten',),
    'kafka.producer': ('FutureRecordMetadata', 'KafkaProducer', 'RecordMetadata'),
    'kafka.producer.accumulator': ('RecordAccumulator',),
    'kafka.producer.batch': ('ProducerBatch', 'estimate_record_size'),
    'kafka.producer.config_docs': (),
    'kafka.producer.future': ('FutureRecordMetadata', 'ProduceResult', 'RecordMetadata'),
    'kafka.producer.idempotence': ('ProducerIdentity',),
    'kafka.producer.kafka': ('KafkaProducer',),
    'kafka.producer.partitioner': ('DefaultPartitioner', 'murmur2', 'murmur2_partition'),
    'kafka.producer.record_checks': ('check_bytes', 'check_headers', 'check_key_value', 'check_partition', 'check_record_size', 'check_timestamp'),
    'kafka.producer.sender': ('Sender',),
    'kafka.producer.transactions': ('TransactionAbortableError', 'TransactionManager'),
    'kafka.protocol': ('ALL_CODECS', 'ATTRIBUTE_CODEC_MASK', 'CODEC_GZIP', 'CODEC_LZ4', 'CODEC_NONE', 'CODEC_SNAPPY', 'CODEC_ZSTD', 'KafkaProtocol', 'create_gzip_message', 'create_lz4_message', 'create_message', 'create_message_set', 'create_snappy_message', 'create_zstd_message'),
    'kafka.protocol.apis': ('api_for', 'by_key', 'by_name'),
    'kafka.protocol.apis.acls': (),
    'kafka.protocol.apis.admin': (),
    'kafka.protocol.apis.api_versions': (),
    'kafka.protocol.apis.fetch': (),
    'kafka.protocol.apis.groups': ('decode_assignment', 'decode_subscription', 'encode_assignment', 'encode_subscription'),
    'kafka.protocol.apis.metadata': (),
    'kafka.protocol.apis.offsets': (),
    'kafka.protocol.apis.produce': (),
    'kafka.protocol.apis.sasl': (),
    'kafka.protocol.apis.txn': (),
    'kafka.protocol.framing': ('ClientFramer', 'FrameAssembler', 'FrameBuffer', 'RequestHeader', 'Response', 'decode_request_header', 'encode_request', 'encode_request_header', 'encode_response', 'response_header_version', 'skip_tagged_fields'),
    'kafka.protocol.legacy': ('ALL_CODECS', 'ATTRIBUTE_CODEC_MASK', 'CODEC_GZIP', 'CODEC_LZ4', 'CODEC_NONE', 'CODEC_SNAPPY', 'CODEC_ZSTD', 'DEFAULT_VERSIONS', 'FetchedMessages', 'KafkaProtocol', 'create_gzip_message', 'create_lz4_message', 'create_message', 'create_message_set', 'create_snappy_message', 'create_zstd_message'),
    'kafka.protocol.negotiate': ('VersionTable', 'api_versions_request', 'api_versions_retry_version', 'decode_api_versions_response'),
    'kafka.protocol.schema': ('Api', 'Field', 'Route', 'Struct', 'StructValue', 'iter_structs', 'parse_versions'),
    'kafka.protocol.types': ('Array', 'DecodeError', 'EncodeError', 'FlexibleType', 'WireType', 'array_reader', 'array_writer', 'read_uvarint', 'read_varint', 'write_uvarint', 'write_varint'),
    'kafka.record': ('ControlRecord', 'ControlRecordType', 'GZIP', 'LZ4', 'LegacyRecordBatch', 'LegacyRecordBatchBuilder', 'MemoryRecords', 'MemoryRecordsBuilder', 'NONE', 'Record', 'RecordBatch', 'RecordBatchBuilder', 'SNAPPY', 'TimestampType', 'ZSTD', 'codec_id', 'codec_name', 'compress', 'decompress', 'encode_control_key', 'encode_marker_value', 'encode_message', 'is_available'),
    'kafka.record._lz4frame': ('FrameLayout', 'header_checksum', 'repair_v0_checksum', 'walk_frame', 'write_frame', 'xxh32'),
    'kafka.record._snappy': ('decode', 'is_xerial', 'raw_length', 'xerial_encode'),
    'kafka.record._zstdframe': ('zstd_bound',),
    'kafka.record.batch': ('HEADER_SIZE', 'RecordBatch', 'RecordBatchBuilder'),
    'kafka.record.codecs': ('DEFAULT_MAX_OUTPUT', 'GZIP', 'LZ4', 'NONE', 'SNAPPY', 'ZSTD', 'codec_id', 'codec_name', 'compress', 'decompress', 'ensure_available', 'is_available'),
    'kafka.record.crc': ('CRC32C_ACCELERATED', 'CRC32C_BACKEND', 'crc32', 'crc32c', 'crc32c_pure'),
    'kafka.record.legacy': ('LegacyRecordBatch', 'LegacyRecordBatchBuilder', 'encode_message'),
    'kafka.record.memory_records': ('Batch', 'MemoryRecords', 'MemoryRecordsBuilder'),
    'kafka.record.record': ('AnyRecord', 'BytesLike', 'ControlRecord', 'ControlRecordType', 'Header', 'NO_TIMESTAMP', 'Record', 'TimestampType'),
    'kafka.record.record_reader': ('RecordReader', 'decode_each'),
    'kafka.record.uniform_runs': ('ENABLED', 'Layout', 'MIN_RUN', 'build_run', 'probe', 'run_length'),
    'kafka.record.varint': ('VARINT_TABLE', 'VARINT_TABLE_SIZE', 'ZIGZAG_BYTE', 'ZIGZAG_PAIR', 'decode_varint', 'decode_varlong', 'encode_varint', 'size_of_varint'),
    'kafka.spark': ('DefaultSource', 'NAME', 'configure_python', 'register'),
    'kafka.spark.aborted': ('AbortedTransactions',),
    'kafka.spark.arrow': ('BatchBuilder', 'arrow_schema', 'source_ddl'),
    'kafka.spark.fetch': ('RangeFetcher',),
    'kafka.spark.offsets': ('OffsetRange', 'OffsetReader', 'from_json_offsets', 'plan_ranges', 'rate_limit', 'to_json_offsets'),
    'kafka.spark.options': ('SinkOptions', 'SourceOptions', 'TimestampSpec', 'kafka_settings', 'parse_duration_ms', 'parse_offsets', 'parse_sink_options', 'parse_source_options'),
    'kafka.spark.pipeline': ('AGGREGATE_SQL', 'EVENT_SCHEMA', 'create_topics', 'expected_aggregates', 'make_event', 'produce_events', 'run_batch_pipeline', 'run_streaming_pipeline'),
    'kafka.spark.source': ('EARLIEST', 'KafkaBatchReader', 'KafkaBatchWriter', 'KafkaCommitMessage', 'KafkaDataSource', 'KafkaInputPartition', 'KafkaStreamReader', 'KafkaStreamWriter', 'NAME'),
    'kafka.spark.worker': ('cached_fetcher', 'cached_producer', 'read_range', 'write_batches'),
    'kafka.structs': ('BrokerMetadata', 'OffsetAndMetadata', 'OffsetAndTimestamp', 'PartitionMetadata', 'TopicPartition'),
    'kafka.testing': ('BINARY_ENV_VAR', 'BrokerBinaryNotFoundError', 'CLOSE', 'EmbeddedBroker', 'EmbeddedBrokerError', 'NO_REPLY', 'ReceivedRequest', 'ScriptedPeer', 'find_broker_binary', 'free_port', 'probe_api_versions'),
    'kafka.testing.broker': ('EmbeddedBroker', 'free_port', 'port_in_use'),
    'kafka.testing.locate': ('BrokerBinaryNotFoundError', 'EmbeddedBrokerError', 'find_broker_binary'),
    'kafka.testing.mock_cluster': ('DISCONNECT', 'LIBRARY_ENV_VAR', 'LibrdkafkaNotFoundError', 'MockCluster', 'MockClusterError', 'MockRequest', 'error_name', 'has_function', 'librdkafka_version', 'load_librdkafka'),
    'kafka.testing.probe': ('decode_api_versions_v0', 'encode_api_versions_v0', 'probe_api_versions'),
    'kafka.testing.scripted_peer': ('ReceivedRequest', 'ScriptedPeer'),
    'kafka.topic_names': ('check_partition_number', 'check_topic_name', 'check_topic_partition'),
    'kafka.util': ('ReentrantTimer', 'crc32', 'group_by_topic_and_partition', 'kafka_bytestring', 'read_int_string', 'read_short_string', 'relative_unpack', 'write_int_string', 'write_short_string'),
}

#: Paths of the kafka-python 0.9.5 API reference that kafkawire serves too.
SEED_MODULES = {
    "kafka.producer.base": ("Producer",),
    "kafka.producer.simple": ("SimpleProducer",),
    "kafka.producer.keyed": ("KeyedProducer",),
    "kafka.consumer.base": ("Consumer",),
    "kafka.consumer.simple": ("SimpleConsumer",),
    "kafka.consumer.multiprocess": ("MultiProcessConsumer",),
    "kafka.consumer.kafka": ("KafkaConsumer",),
    "kafka.partitioner.base": ("Partitioner",),
    "kafka.partitioner.hashed": ("HashedPartitioner",),
    "kafka.partitioner.roundrobin": ("RoundRobinPartitioner",),
    "kafka.consumer": ("KafkaConsumer", "SimpleConsumer", "MultiProcessConsumer"),
    "kafka.conn": ("KafkaConnection", "collect_hosts", "DEFAULT_KAFKA_PORT", "DEFAULT_SOCKET_TIMEOUT_SECONDS"),
}

#: The confluent-kafka-style package's module paths (old ones included), when the package is present.
CONFLUENT_MODULES = {
    "kafka.confluent.admin": ("AdminClient", "NewTopic", "NewPartitions", "ConfigResource", "ConfigEntry", "ConfigSource",
                              "AlterConfigOpType", "AclBinding", "AclBindingFilter", "AclOperation",
                              "AclPermissionType", "ResourceType", "ResourcePatternType", "ConsumerGroupListing",
                              "ListConsumerGroupsResult", "ConsumerGroupDescription", "MemberDescription",
                              "MemberAssignment", "ConsumerGroupTopicPartitions", "ConsumerGroupState",
                              "ConsumerGroupType", "GroupMetadata", "GroupMember", "OffsetSpec",
                              "ListOffsetsResultInfo", "IsolationLevel", "DeletedRecords", "TopicDescription",
                              "TopicPartitionInfo", "TopicCollection", "DescribeClusterResult", "Node",
                              "ClusterMetadata", "TopicMetadata", "PartitionMetadata", "BrokerMetadata",
                              "ScramMechanism", "ScramCredentialInfo", "UserScramCredentialsDescription",
                              "UserScramCredentialAlteration", "UserScramCredentialUpsertion",
                              "UserScramCredentialDeletion", "KafkaError", "KafkaException"),
    "kafka.confluent.admin._client": ("AdminClient",),
    "kafka.confluent._admin_client": ("AdminClient",),
    "kafka.confluent._admin_types": ("NewTopic", "ConsumerGroupState", "ElectionType"),
    "kafka.confluent._admin_scram": ("ScramMechanism",),
    "kafka.confluent._list_groups": ("list_groups",),
    "kafka.confluent._list_offsets": ("list_offsets",),
    "kafka.confluent.kafka_error": ("KafkaError", "KafkaException", "ConcurrentModificationException", "from_engine"),
    "kafka.confluent.errors": ("KafkaError", "KafkaException", "ConcurrentModificationException", "from_engine"),
    "kafka.confluent.error": ("KafkaError", "KafkaException", "ConsumeError", "ProduceError", "KeySerializationError",
                              "ValueSerializationError", "KeyDeserializationError", "ValueDeserializationError"),
}

#: Names that several paths must give as the very same object.
SAME_OBJECT = [
    ("kafka.KafkaClient", "kafka.client.KafkaClient"),
    ("kafka.KafkaConsumer", "kafka.consumer.KafkaConsumer", "kafka.consumer.kafka.KafkaConsumer"),
    ("kafka.KafkaConnection", "kafka.conn.KafkaConnection"),
    ("kafka.SimpleConsumer", "kafka.consumer.SimpleConsumer"),
    ("kafka.KafkaProtocol", "kafka.protocol.legacy.KafkaProtocol", "kafka.simple.protocol.KafkaProtocol"),
    ("kafka.legacy.SimpleProducer", "kafka.simple.SimpleProducer", "kafka.producer.simple.SimpleProducer"),
    ("kafka.common.KafkaError", "kafka.simple.common.KafkaError"),
    ("kafka.admin.ACL", "kafka.admin.acl.ACL", "kafka.admin.acl_resource.ACL"),
    ("kafka.consumer.subscription.SubscriptionState", "kafka.consumer.subscription_state.SubscriptionState"),
    ("kafka.ConsumerRebalanceListener", "kafka.consumer.subscription_state.ConsumerRebalanceListener",
     "kafka.consumer.subscription.ConsumerRebalanceListener"),
    ("kafka.gc_pause.gc_paused", "kafka.consumer.gc_pause.gc_paused"),
]

#: The same, for the confluent-kafka-style package.
CONFLUENT_SAME_OBJECT = [
    ("kafka.confluent.KafkaError", "kafka.confluent.errors.KafkaError", "kafka.confluent.kafka_error.KafkaError",
     "kafka.confluent.error.KafkaError", "kafka.confluent.admin.KafkaError"),
    ("kafka.confluent.admin.AdminClient", "kafka.confluent._admin_client.AdminClient",
     "kafka.confluent.admin._client.AdminClient"),
]


def _resolve(dotted: str) -> object:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_path_and_names(module: str) -> None:
    mod = importlib.import_module(module)
    missing = [name for name in MODULES[module] if not hasattr(mod, name)]
    assert not missing, "%s lost %s" % (module, missing)


@pytest.mark.parametrize("module", sorted(SEED_MODULES))
def test_seed_document_paths(module: str) -> None:
    mod = importlib.import_module(module)
    missing = [name for name in SEED_MODULES[module] if not hasattr(mod, name)]
    assert not missing, "%s lost %s" % (module, missing)


@pytest.mark.parametrize("paths", SAME_OBJECT, ids=lambda p: p[0])
def test_paths_give_the_same_object(paths: tuple) -> None:
    objects = [_resolve(p) for p in paths]
    assert all(o is objects[0] for o in objects), paths


@pytest.mark.parametrize("module", sorted(CONFLUENT_MODULES))
def test_confluent_module_paths(module: str) -> None:
    pytest.importorskip("kafka.confluent")
    mod = importlib.import_module(module)
    missing = [name for name in CONFLUENT_MODULES[module] if not hasattr(mod, name)]
    assert not missing, "%s lost %s" % (module, missing)


@pytest.mark.parametrize("paths", CONFLUENT_SAME_OBJECT, ids=lambda p: p[0])
def test_confluent_paths_give_the_same_object(paths: tuple) -> None:
    pytest.importorskip("kafka.confluent")
    objects = [_resolve(p) for p in paths]
    assert all(o is objects[0] for o in objects), paths
