"""The one exception hierarchy of kafkawire.

Every exception the library raises on purpose derives from :class:`KafkaError`.
Client-side problems (bad bytes from a peer, a codec that is not installed,
no protocol version in common) have their own classes below; errors reported
by a broker as an error code are :class:`BrokerResponseError` subclasses, one
per code, looked up with :func:`for_code`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Type, TypeVar

from kafka.peer_text import shorten

#: Longest text argument kept by a broker error (it usually carries the
#: broker's own error message, whose length the broker chooses).
BROKER_ERROR_TEXT_LIMIT = 1000


class KafkaError(RuntimeError):
    """Base class of every error raised by kafkawire.

    ``retriable`` tells whether the same operation may succeed if tried again;
    ``invalid_metadata`` tells whether cluster metadata should be refreshed
    before retrying.
    """

    retriable = False
    invalid_metadata = False

    def __str__(self) -> str:
        if not self.args:
            return self.__class__.__name__
        return "{0}: {1}".format(self.__class__.__name__, super().__str__())


class RetriableError(KafkaError):
    """Base class of errors after which the same operation may succeed (kafka-python's name)."""

    retriable = True


class InvalidMetadataError(RetriableError):
    """Base class of retriable errors that call for a metadata refresh first (kafka-python's name)."""

    invalid_metadata = True


class IllegalStateError(KafkaError):
    """An operation was called at a time the object cannot perform it."""


class IllegalArgumentError(KafkaError, ValueError):
    """An argument given by the caller is invalid."""


class IllegalArgumentTypeError(IllegalArgumentError, TypeError):
    """An argument given by the caller has the wrong type."""


class KafkaConfigurationError(KafkaError, ValueError):
    """A configuration value is unknown or invalid."""


class KafkaTimeoutError(RetriableError):
    """An operation did not complete within its time limit."""

    retriable = True


class CoordinatorWaitTimeoutError(KafkaTimeoutError):
    """No coordinator for the group (or transaction) could be found within the time allowed."""


class KafkaProtocolError(KafkaError):
    """Bytes received from a peer do not follow the Kafka protocol (kafka-python's name; also ``ProtocolError``)."""


#: kafkawire's shorter name for :class:`KafkaProtocolError`.
ProtocolError = KafkaProtocolError


class FrameTooLargeError(ProtocolError):
    """A frame's length prefix exceeds the configured maximum frame size."""


class CorrelationIdError(RetriableError, ProtocolError):
    """A response carried a correlation id that no request in flight has."""


class UnsupportedCodecError(KafkaError):
    """A compression codec is unknown, or its optional library is missing."""


class ConfigurationValueError(KafkaConfigurationError, IllegalArgumentError):
    """A configuration value is out of its range.

    Also an :class:`IllegalArgumentError`, which the simple clients raised
    for their options before.
    """


class ConfigurationTypeError(KafkaConfigurationError, IllegalArgumentTypeError):
    """A configuration value has the wrong type, or a keyword argument is unexpected.

    Also a ``TypeError``, as Python raises for an unexpected keyword argument.
    """


class UnsupportedCodecConfigurationError(KafkaConfigurationError, UnsupportedCodecError):
    """The configured compression codec is unknown, or its optional library is missing."""


class BrokerResponseError(KafkaError):
    """An error code returned by a broker.

    Each subclass stands for one code: ``errno`` is the code, ``message`` the
    protocol's upper-case name and ``description`` a sentence about it.
    """

    errno: Optional[int] = None  # a subclass's code; None on the bases, as in kafka-python
    message = "UNKNOWN"
    description = ""
    #: For an error a broker answered: the message it sent with the code ("" when it sent none).
    #: None for an error raised without one.
    broker_message: Optional[str] = None

    def __init__(self, *args: Any) -> None:
        super().__init__(*(shorten(a, BROKER_ERROR_TEXT_LIMIT) if isinstance(a, str) else a for a in args))

    def __str__(self) -> str:
        text = "[Error {0}] {1}".format(self.errno, self.__class__.__name__)
        if self.args:
            text += ": " + " ".join(str(a) for a in self.args)
        return text


class CorruptRecordError(KafkaProtocolError, BrokerResponseError):
    """A record batch or message set is malformed or fails its checksum.

    Raised by the client when it decodes records, and the base of the
    broker's code 2 (:class:`CorruptMessageError`); as in kafka-python its
    ``errno`` is 2 and it is a :class:`BrokerResponseError`.
    """

    errno = 2
    message = "CORRUPT_MESSAGE"


class ChecksumError(CorruptRecordError):
    """A CRC-32 (message v0/v1) or CRC-32C (batch v2) check failed."""


#: Broker error classes by code; filled by :func:`_register` below.
_BY_CODE: Dict[int, Type[BrokerResponseError]] = {}


def _register(cls: Type[BrokerResponseError]) -> Type[BrokerResponseError]:
    assert cls.errno is not None
    _BY_CODE[cls.errno] = cls
    return cls


class UnknownError(BrokerResponseError):
    errno = -1
    message = "UNKNOWN_SERVER_ERROR"
    description = "The server experienced an unexpected error when processing the request."


_register(UnknownError)


class UnsupportedVersionError(BrokerResponseError):
    """The broker does not support a version of an API the client needs.

    Raised both when a broker answers with code 35 and when version
    negotiation finds no version both sides support.
    """

    errno = 35
    message = "UNSUPPORTED_VERSION"
    description = "The version of API is not supported."


_register(UnsupportedVersionError)


# ---------------------------------------------------------------------------
# BROKER ERROR TABLE: one class per broker error code follows.
# ---------------------------------------------------------------------------
#
# Each class below stands for one code of the Kafka protocol (Apache Kafka up
# to 4.1). The decorator fills in ``errno``, ``message`` (the protocol's name),
# ``description`` (the docstring on one line) and the two retry flags, then
# registers the class for :func:`for_code`. ``invalid_metadata`` marks codes
# after which a client should refresh cluster metadata before it retries.

_ClassT = TypeVar("_ClassT", bound=Type[BrokerResponseError])


class AuthorizationError(BrokerResponseError):
    """Base class of the ``*_AUTHORIZATION_FAILED`` codes (kafka-python's name)."""


class NoError(BrokerResponseError):
    """Code 0: success. Never raised; :func:`for_code` returns ``None`` for 0."""

    errno = 0
    message = "NONE"


def _add_kafka_python_bases(cls: Type[BrokerResponseError]) -> None:
    # kafka-python expresses the flags as base classes too, so that
    # ``except RetriableError`` / ``except AuthorizationError`` catch these.
    bases: List[type] = [AuthorizationError if cls.message.endswith("_AUTHORIZATION_FAILED") else
                         CorruptRecordError if cls.errno == CorruptRecordError.errno else BrokerResponseError]
    if cls.invalid_metadata:
        bases.append(InvalidMetadataError)
    elif cls.retriable:
        bases.append(RetriableError)
    if cls.__bases__ != tuple(bases):
        cls.__bases__ = tuple(bases)


def _broker_error(code: int, name: str, retriable: bool = False,
                  invalid_metadata: bool = False) -> Callable[[_ClassT], _ClassT]:
    def define(cls: _ClassT) -> _ClassT:
        if code in _BY_CODE:
            raise AssertionError("broker error code {0} defined twice".format(code))
        cls.errno = code
        cls.message = name
        cls.description = " ".join((cls.__doc__ or "").split())
        cls.retriable = retriable
        cls.invalid_metadata = invalid_metadata
        _add_kafka_python_bases(cls)
        _register(cls)
        return cls
    return define


@_broker_error(1, "OFFSET_OUT_OF_RANGE")
class OffsetOutOfRangeError(BrokerResponseError):
    """The requested offset lies outside the range of offsets the broker holds for the
    partition.
    """


@_broker_error(2, "CORRUPT_MESSAGE", retriable=True)
class CorruptMessageError(BrokerResponseError):
    """A message failed its CRC check, has an invalid size, has a null key on a compacted
    topic, or is otherwise malformed.
    """


@_broker_error(3, "UNKNOWN_TOPIC_OR_PARTITION", retriable=True, invalid_metadata=True)
class UnknownTopicOrPartitionError(BrokerResponseError):
    """The broker does not host this topic or partition."""


@_broker_error(4, "INVALID_FETCH_SIZE")
class InvalidFetchRequestError(BrokerResponseError):
    """The fetch size in the request is not valid."""


@_broker_error(5, "LEADER_NOT_AVAILABLE", retriable=True, invalid_metadata=True)
class LeaderNotAvailableError(BrokerResponseError):
    """The partition has no leader right now, typically because a leader election is in
    progress.
    """


@_broker_error(6, "NOT_LEADER_OR_FOLLOWER", retriable=True, invalid_metadata=True)
class NotLeaderForPartitionError(BrokerResponseError):
    """The broker is not the leader (or, for requests any replica may serve, not a replica)
    of the partition.
    """


@_broker_error(7, "REQUEST_TIMED_OUT", retriable=True)
class RequestTimedOutError(BrokerResponseError):
    """The broker did not complete the request in time."""


@_broker_error(8, "BROKER_NOT_AVAILABLE")
class BrokerNotAvailableError(BrokerResponseError):
    """The broker is not available."""


@_broker_error(9, "REPLICA_NOT_AVAILABLE", retriable=True, invalid_metadata=True)
class ReplicaNotAvailableError(BrokerResponseError):
    """A replica of the partition is not available."""


@_broker_error(10, "MESSAGE_TOO_LARGE")
class MessageSizeTooLargeError(BrokerResponseError):
    """A message is larger than the broker's maximum accepted message size."""


@_broker_error(11, "STALE_CONTROLLER_EPOCH")
class StaleControllerEpochError(BrokerResponseError):
    """The request came from a controller that has since been replaced."""


@_broker_error(12, "OFFSET_METADATA_TOO_LARGE")
class OffsetMetadataTooLargeError(BrokerResponseError):
    """The metadata string attached to a committed offset is too long."""


@_broker_error(13, "NETWORK_EXCEPTION", retriable=True, invalid_metadata=True)
class NetworkExceptionError(BrokerResponseError):
    """The broker closed the connection before a response was received."""


@_broker_error(14, "COORDINATOR_LOAD_IN_PROGRESS", retriable=True)
class CoordinatorLoadInProgressError(BrokerResponseError):
    """The coordinator is still loading its state and cannot serve the request yet."""


@_broker_error(15, "COORDINATOR_NOT_AVAILABLE", retriable=True)
class CoordinatorNotAvailableError(BrokerResponseError):
    """The coordinator is not available."""


@_broker_error(16, "NOT_COORDINATOR", retriable=True)
class NotCoordinatorError(BrokerResponseError):
    """The broker is not the coordinator for this group or transactional id."""


@_broker_error(17, "INVALID_TOPIC_EXCEPTION")
class InvalidTopicError(BrokerResponseError):
    """The request names a topic that is not valid for this operation."""


@_broker_error(18, "RECORD_LIST_TOO_LARGE")
class RecordListTooLargeError(BrokerResponseError):
    """A batch of records is larger than the broker's configured segment size."""


@_broker_error(19, "NOT_ENOUGH_REPLICAS", retriable=True)
class NotEnoughReplicasError(BrokerResponseError):
    """The write was refused because fewer replicas are in sync than required."""


@_broker_error(20, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", retriable=True)
class NotEnoughReplicasAfterAppendError(BrokerResponseError):
    """The records were written, but to fewer in-sync replicas than required."""


@_broker_error(21, "INVALID_REQUIRED_ACKS")
class InvalidRequiredAcksError(BrokerResponseError):
    """The produce request asked for an acknowledgement level the broker does not accept."""


@_broker_error(22, "ILLEGAL_GENERATION")
class IllegalGenerationError(BrokerResponseError):
    """The group generation id in the request is not the current one."""


@_broker_error(23, "INCONSISTENT_GROUP_PROTOCOL")
class InconsistentGroupProtocolError(BrokerResponseError):
    """The member's protocol type or protocols do not match those of the group."""


@_broker_error(24, "INVALID_GROUP_ID")
class InvalidGroupIdError(BrokerResponseError):
    """The group id is empty or otherwise not valid."""


@_broker_error(25, "UNKNOWN_MEMBER_ID")
class UnknownMemberIdError(BrokerResponseError):
    """The coordinator does not know this group member."""


@_broker_error(26, "INVALID_SESSION_TIMEOUT")
class InvalidSessionTimeoutError(BrokerResponseError):
    """The session timeout is outside the range the broker allows."""


@_broker_error(27, "REBALANCE_IN_PROGRESS")
class RebalanceInProgressError(BrokerResponseError):
    """The group is rebalancing; the member has to rejoin."""


@_broker_error(28, "INVALID_COMMIT_OFFSET_SIZE")
class InvalidCommitOffsetSizeError(BrokerResponseError):
    """The size of the offset commit data is not valid."""


@_broker_error(29, "TOPIC_AUTHORIZATION_FAILED")
class TopicAuthorizationFailedError(BrokerResponseError):
    """The client is not authorized to access the topic."""


@_broker_error(30, "GROUP_AUTHORIZATION_FAILED")
class GroupAuthorizationFailedError(BrokerResponseError):
    """The client is not authorized to access the group."""


@_broker_error(31, "CLUSTER_AUTHORIZATION_FAILED")
class ClusterAuthorizationFailedError(BrokerResponseError):
    """The client is not authorized to perform this cluster operation."""


@_broker_error(32, "INVALID_TIMESTAMP")
class InvalidTimestampError(BrokerResponseError):
    """A record timestamp is outside the range the broker accepts."""


@_broker_error(33, "UNSUPPORTED_SASL_MECHANISM")
class UnsupportedSaslMechanismError(BrokerResponseError):
    """The broker does not offer the requested SASL mechanism."""


@_broker_error(34, "ILLEGAL_SASL_STATE")
class IllegalSaslStateError(BrokerResponseError):
    """The request is not allowed in the current state of the SASL exchange."""


@_broker_error(36, "TOPIC_ALREADY_EXISTS")
class TopicAlreadyExistsError(BrokerResponseError):
    """A topic with this name exists already."""


@_broker_error(37, "INVALID_PARTITIONS")
class InvalidPartitionsError(BrokerResponseError):
    """The requested number of partitions is not valid."""


@_broker_error(38, "INVALID_REPLICATION_FACTOR")
class InvalidReplicationFactorError(BrokerResponseError):
    """The replication factor is below one or above the number of available brokers."""


@_broker_error(39, "INVALID_REPLICA_ASSIGNMENT")
class InvalidReplicationAssignmentError(BrokerResponseError):
    """The requested replica assignment is not valid."""


@_broker_error(40, "INVALID_CONFIG")
class InvalidConfigurationError(BrokerResponseError):
    """A configuration entry in the request is not valid."""


@_broker_error(41, "NOT_CONTROLLER", retriable=True, invalid_metadata=True)
class NotControllerError(BrokerResponseError):
    """The broker is not the active controller of the cluster."""


@_broker_error(42, "INVALID_REQUEST")
class InvalidRequestError(BrokerResponseError):
    """The broker could not make sense of the request; it may be malformed or meant for
    another broker version.
    """


@_broker_error(43, "UNSUPPORTED_FOR_MESSAGE_FORMAT")
class UnsupportedForMessageFormatError(BrokerResponseError):
    """The message format on the broker is too old for this request."""


@_broker_error(44, "POLICY_VIOLATION")
class PolicyViolationError(BrokerResponseError):
    """The request breaks a policy configured on the broker."""


@_broker_error(45, "OUT_OF_ORDER_SEQUENCE_NUMBER")
class OutOfOrderSequenceNumberError(BrokerResponseError):
    """The broker received a producer sequence number out of order."""


@_broker_error(46, "DUPLICATE_SEQUENCE_NUMBER")
class DuplicateSequenceNumberError(BrokerResponseError):
    """The broker received a producer sequence number it has seen before."""


@_broker_error(47, "INVALID_PRODUCER_EPOCH")
class InvalidProducerEpochError(BrokerResponseError):
    """The producer epoch is older than the broker's; a newer producer exists or the
    transaction expired.
    """


@_broker_error(48, "INVALID_TXN_STATE")
class InvalidTxnStateError(BrokerResponseError):
    """The transactional operation is not allowed in the transaction's current state."""


@_broker_error(49, "INVALID_PRODUCER_ID_MAPPING")
class InvalidProducerIdMappingError(BrokerResponseError):
    """The producer id is not the one assigned to this transactional id."""


@_broker_error(50, "INVALID_TRANSACTION_TIMEOUT")
class InvalidTransactionTimeoutError(BrokerResponseError):
    """The transaction timeout exceeds the broker's maximum."""


@_broker_error(51, "CONCURRENT_TRANSACTIONS", retriable=True)
class ConcurrentTransactionsError(BrokerResponseError):
    """Another operation on the same transaction is still in progress."""


@_broker_error(52, "TRANSACTION_COORDINATOR_FENCED")
class TransactionCoordinatorFencedError(BrokerResponseError):
    """The transaction coordinator that sent the request is no longer the current one for
    the producer.
    """


@_broker_error(53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED")
class TransactionalIdAuthorizationFailedError(BrokerResponseError):
    """The client is not authorized to use the transactional id."""


@_broker_error(54, "SECURITY_DISABLED")
class SecurityDisabledError(BrokerResponseError):
    """Security features are turned off on the broker."""


@_broker_error(55, "OPERATION_NOT_ATTEMPTED")
class OperationNotAttemptedError(BrokerResponseError):
    """The broker skipped this operation because another part of the same batched request
    failed.
    """


@_broker_error(56, "KAFKA_STORAGE_ERROR", retriable=True, invalid_metadata=True)
class KafkaStorageError(BrokerResponseError):
    """The broker hit a disk error while accessing the log."""


@_broker_error(57, "LOG_DIR_NOT_FOUND")
class LogDirNotFoundError(BrokerResponseError):
    """The requested log directory is not configured on the broker."""


@_broker_error(58, "SASL_AUTHENTICATION_FAILED")
class SaslAuthenticationFailedError(BrokerResponseError):
    """SASL authentication was refused."""


@_broker_error(59, "UNKNOWN_PRODUCER_ID")
class UnknownProducerIdError(BrokerResponseError):
    """The broker has no state for this producer id, for example because its records were
    removed by retention.
    """


@_broker_error(60, "REASSIGNMENT_IN_PROGRESS")
class ReassignmentInProgressError(BrokerResponseError):
    """A partition reassignment is already in progress."""


@_broker_error(61, "DELEGATION_TOKEN_AUTH_DISABLED")
class DelegationTokenAuthDisabledError(BrokerResponseError):
    """Delegation tokens are not enabled on the broker."""


@_broker_error(62, "DELEGATION_TOKEN_NOT_FOUND")
class DelegationTokenNotFoundError(BrokerResponseError):
    """The broker has no such delegation token."""


@_broker_error(63, "DELEGATION_TOKEN_OWNER_MISMATCH")
class DelegationTokenOwnerMismatchError(BrokerResponseError):
    """The principal is neither the owner nor a renewer of the token."""


@_broker_error(64, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED")
class DelegationTokenRequestNotAllowedError(BrokerResponseError):
    """Delegation token requests are not allowed on this kind of connection."""


@_broker_error(65, "DELEGATION_TOKEN_AUTHORIZATION_FAILED")
class DelegationTokenAuthorizationFailedError(BrokerResponseError):
    """The client is not authorized for this delegation token operation."""


@_broker_error(66, "DELEGATION_TOKEN_EXPIRED")
class DelegationTokenExpiredError(BrokerResponseError):
    """The delegation token has expired."""


@_broker_error(67, "INVALID_PRINCIPAL_TYPE")
class InvalidPrincipalTypeError(BrokerResponseError):
    """The principal type is not supported."""


@_broker_error(68, "NON_EMPTY_GROUP")
class NonEmptyGroupError(BrokerResponseError):
    """The operation needs an empty group, but the group still has members."""


@_broker_error(69, "GROUP_ID_NOT_FOUND")
class GroupIdNotFoundError(BrokerResponseError):
    """No group with this id exists."""


@_broker_error(70, "FETCH_SESSION_ID_NOT_FOUND", retriable=True)
class FetchSessionIdNotFoundError(BrokerResponseError):
    """The broker does not know the fetch session id."""


@_broker_error(71, "INVALID_FETCH_SESSION_EPOCH", retriable=True)
class InvalidFetchSessionEpochError(BrokerResponseError):
    """The fetch session epoch does not match the broker's."""


@_broker_error(72, "LISTENER_NOT_FOUND", retriable=True, invalid_metadata=True)
class ListenerNotFoundError(BrokerResponseError):
    """The partition leader has no listener matching the one the metadata request arrived
    on.
    """


@_broker_error(73, "TOPIC_DELETION_DISABLED")
class TopicDeletionDisabledError(BrokerResponseError):
    """Deleting topics is turned off on the broker."""


@_broker_error(74, "FENCED_LEADER_EPOCH", retriable=True, invalid_metadata=True)
class FencedLeaderEpochError(BrokerResponseError):
    """The leader epoch in the request is older than the broker's."""


@_broker_error(75, "UNKNOWN_LEADER_EPOCH", retriable=True, invalid_metadata=True)
class UnknownLeaderEpochError(BrokerResponseError):
    """The leader epoch in the request is newer than the broker's."""


@_broker_error(76, "UNSUPPORTED_COMPRESSION_TYPE")
class UnsupportedCompressionTypeError(BrokerResponseError):
    """The client's request version cannot carry the partition's compression type."""


@_broker_error(77, "STALE_BROKER_EPOCH")
class StaleBrokerEpochError(BrokerResponseError):
    """The broker epoch in the request is out of date."""


@_broker_error(78, "OFFSET_NOT_AVAILABLE", retriable=True)
class OffsetNotAvailableError(BrokerResponseError):
    """The new leader's high watermark has not caught up yet, so offsets cannot be served."""


@_broker_error(79, "MEMBER_ID_REQUIRED")
class MemberIdRequiredError(BrokerResponseError):
    """The member must join again with the member id the coordinator assigned."""


@_broker_error(80, "PREFERRED_LEADER_NOT_AVAILABLE", retriable=True, invalid_metadata=True)
class PreferredLeaderNotAvailableError(BrokerResponseError):
    """The preferred leader replica is not available."""


@_broker_error(81, "GROUP_MAX_SIZE_REACHED")
class GroupMaxSizeReachedError(BrokerResponseError):
    """The group already has as many members as the broker allows."""


@_broker_error(82, "FENCED_INSTANCE_ID")
class FencedInstanceIdError(BrokerResponseError):
    """Another member with the same group instance id has replaced this static member."""


@_broker_error(83, "ELIGIBLE_LEADERS_NOT_AVAILABLE", retriable=True, invalid_metadata=True)
class EligibleLeadersNotAvailableError(BrokerResponseError):
    """No replica eligible to become leader is available."""


@_broker_error(84, "ELECTION_NOT_NEEDED", retriable=True, invalid_metadata=True)
class ElectionNotNeededError(BrokerResponseError):
    """The partition does not need a leader election."""


@_broker_error(85, "NO_REASSIGNMENT_IN_PROGRESS")
class NoReassignmentInProgressError(BrokerResponseError):
    """No partition reassignment is in progress."""


@_broker_error(86, "GROUP_SUBSCRIBED_TO_TOPIC")
class GroupSubscribedToTopicError(BrokerResponseError):
    """Offsets of a topic cannot be deleted while the group is subscribed to it."""


@_broker_error(87, "INVALID_RECORD")
class InvalidRecordError(BrokerResponseError):
    """The broker's validation rejected a record."""


@_broker_error(88, "UNSTABLE_OFFSET_COMMIT", retriable=True)
class UnstableOffsetCommitError(BrokerResponseError):
    """Pending transactional offset commits must complete before offsets can be read."""


@_broker_error(89, "THROTTLING_QUOTA_EXCEEDED", retriable=True)
class ThrottlingQuotaExceededError(BrokerResponseError):
    """The client exceeded its throttling quota."""


@_broker_error(90, "PRODUCER_FENCED")
class ProducerFencedError(BrokerResponseError):
    """A newer producer with the same transactional id has fenced this one."""


@_broker_error(91, "RESOURCE_NOT_FOUND")
class ResourceNotFoundError(BrokerResponseError):
    """The request refers to a resource that does not exist."""


@_broker_error(92, "DUPLICATE_RESOURCE")
class DuplicateResourceError(BrokerResponseError):
    """The request names the same resource more than once."""


@_broker_error(93, "UNACCEPTABLE_CREDENTIAL")
class UnacceptableCredentialError(BrokerResponseError):
    """The credential does not meet the broker's requirements."""


@_broker_error(94, "INCONSISTENT_VOTER_SET")
class InconsistentVoterSetError(BrokerResponseError):
    """The sender or receiver of a voter-only request is not an expected voter."""


@_broker_error(95, "INVALID_UPDATE_VERSION")
class InvalidUpdateVersionError(BrokerResponseError):
    """The update version is not valid."""


@_broker_error(96, "FEATURE_UPDATE_FAILED")
class FeatureUpdateFailedError(BrokerResponseError):
    """The finalized features could not be updated because of an unexpected broker error."""


@_broker_error(97, "PRINCIPAL_DESERIALIZATION_FAILURE")
class PrincipalDeserializationFailureError(BrokerResponseError):
    """A forwarded request's principal could not be deserialized."""


@_broker_error(98, "SNAPSHOT_NOT_FOUND")
class SnapshotNotFoundError(BrokerResponseError):
    """The requested snapshot does not exist."""


@_broker_error(99, "POSITION_OUT_OF_RANGE")
class PositionOutOfRangeError(BrokerResponseError):
    """The requested position is negative or beyond the end of the snapshot."""


@_broker_error(100, "UNKNOWN_TOPIC_ID", retriable=True, invalid_metadata=True)
class UnknownTopicIdError(BrokerResponseError):
    """The broker does not host a topic with this id."""


@_broker_error(101, "DUPLICATE_BROKER_REGISTRATION")
class DuplicateBrokerRegistrationError(BrokerResponseError):
    """Another broker already registered with this broker id."""


@_broker_error(102, "BROKER_ID_NOT_REGISTERED")
class BrokerIdNotRegisteredError(BrokerResponseError):
    """No broker is registered with this id."""


@_broker_error(103, "INCONSISTENT_TOPIC_ID", retriable=True, invalid_metadata=True)
class InconsistentTopicIdError(BrokerResponseError):
    """The topic id in the request differs from the one in the broker's log."""


@_broker_error(104, "INCONSISTENT_CLUSTER_ID")
class InconsistentClusterIdError(BrokerResponseError):
    """The cluster id in the request differs from the broker's."""


@_broker_error(105, "TRANSACTIONAL_ID_NOT_FOUND")
class TransactionalIdNotFoundError(BrokerResponseError):
    """No transaction with this transactional id is known."""


@_broker_error(106, "FETCH_SESSION_TOPIC_ID_ERROR", retriable=True)
class FetchSessionTopicIdError(BrokerResponseError):
    """The fetch session mixed requests with and without topic ids inconsistently."""


@_broker_error(107, "INELIGIBLE_REPLICA")
class IneligibleReplicaError(BrokerResponseError):
    """The proposed in-sync replica set contains a replica that may not join it."""


@_broker_error(108, "NEW_LEADER_ELECTED")
class NewLeaderElectedError(BrokerResponseError):
    """The partition state was updated, but a new leader has been elected meanwhile."""


@_broker_error(109, "OFFSET_MOVED_TO_TIERED_STORAGE")
class OffsetMovedToTieredStorageError(BrokerResponseError):
    """The requested offset is only available from tiered storage."""


@_broker_error(110, "FENCED_MEMBER_EPOCH")
class FencedMemberEpochError(BrokerResponseError):
    """The coordinator fenced the member's epoch; it must give up its partitions and
    rejoin.
    """


@_broker_error(111, "UNRELEASED_INSTANCE_ID")
class UnreleasedInstanceIdError(BrokerResponseError):
    """The group instance id is still held by another member, which has to leave first."""


@_broker_error(112, "UNSUPPORTED_ASSIGNOR")
class UnsupportedAssignorError(BrokerResponseError):
    """The group does not support the requested assignor or its version range."""


@_broker_error(113, "STALE_MEMBER_EPOCH")
class StaleMemberEpochError(BrokerResponseError):
    """The member epoch is out of date; the member must learn its current epoch by
    heartbeating.
    """


@_broker_error(114, "MISMATCHED_ENDPOINT_TYPE")
class MismatchedEndpointTypeError(BrokerResponseError):
    """The request was sent to the wrong kind of endpoint (broker versus controller)."""


@_broker_error(115, "UNSUPPORTED_ENDPOINT_TYPE")
class UnsupportedEndpointTypeError(BrokerResponseError):
    """This kind of endpoint is not supported for the request."""


@_broker_error(116, "UNKNOWN_CONTROLLER_ID")
class UnknownControllerIdError(BrokerResponseError):
    """No controller with this id is known."""


@_broker_error(117, "UNKNOWN_SUBSCRIPTION_ID")
class UnknownSubscriptionIdError(BrokerResponseError):
    """The telemetry subscription id is unknown or out of date."""


@_broker_error(118, "TELEMETRY_TOO_LARGE")
class TelemetryTooLargeError(BrokerResponseError):
    """The pushed telemetry is larger than the broker accepts."""


@_broker_error(119, "INVALID_REGISTRATION")
class InvalidRegistrationError(BrokerResponseError):
    """The controller considers the broker's registration invalid."""


@_broker_error(120, "TRANSACTION_ABORTABLE")
class TransactionAbortableError(BrokerResponseError):
    """The transaction hit an error; abort it to keep using the transactional id."""


@_broker_error(121, "INVALID_RECORD_STATE")
class InvalidRecordStateError(BrokerResponseError):
    """The record is not in a state that allows the acknowledgement."""


@_broker_error(122, "SHARE_SESSION_NOT_FOUND", retriable=True)
class ShareSessionNotFoundError(BrokerResponseError):
    """The broker does not know the share session."""


@_broker_error(123, "INVALID_SHARE_SESSION_EPOCH", retriable=True)
class InvalidShareSessionEpochError(BrokerResponseError):
    """The share session epoch does not match the broker's."""


@_broker_error(124, "FENCED_STATE_EPOCH")
class FencedStateEpochError(BrokerResponseError):
    """The share group state epoch in the request does not match the share coordinator's."""


@_broker_error(125, "INVALID_VOTER_KEY")
class InvalidVoterKeyError(BrokerResponseError):
    """The voter key does not match the receiving replica's key."""


@_broker_error(126, "DUPLICATE_VOTER")
class DuplicateVoterError(BrokerResponseError):
    """The voter is already in the voter set."""


@_broker_error(127, "VOTER_NOT_FOUND")
class VoterNotFoundError(BrokerResponseError):
    """The voter is not in the voter set."""


@_broker_error(128, "INVALID_REGULAR_EXPRESSION")
class InvalidRegularExpressionError(BrokerResponseError):
    """The subscription's regular expression is not valid."""


@_broker_error(129, "REBOOTSTRAP_REQUIRED")
class RebootstrapRequiredError(BrokerResponseError):
    """The client's metadata is too stale; it must bootstrap again from its configured
    servers.
    """


@_broker_error(130, "STREAMS_INVALID_TOPOLOGY")
class StreamsInvalidTopologyError(BrokerResponseError):
    """The streams topology is not valid."""


@_broker_error(131, "STREAMS_INVALID_TOPOLOGY_EPOCH")
class StreamsInvalidTopologyEpochError(BrokerResponseError):
    """The streams topology epoch is not valid."""


@_broker_error(132, "STREAMS_TOPOLOGY_FENCED")
class StreamsTopologyFencedError(BrokerResponseError):
    """The streams topology epoch is out of date."""


@_broker_error(133, "SHARE_SESSION_LIMIT_REACHED", retriable=True)
class ShareSessionLimitReachedError(BrokerResponseError):
    """The broker has no room for another share session."""


# Other names for the classes above: the 0.9.x ``kafka.common`` names, older
# protocol names of renamed codes, and names other clients use.
InvalidMessageError = CorruptMessageError
InvalidFetchRequest = InvalidFetchRequestError
InvalidFetchSizeError = InvalidFetchRequestError
UnknownTopicError = UnknownTopicOrPartitionError
LeaderNotFoundError = LeaderNotAvailableError
NotLeaderOrFollowerError = NotLeaderForPartitionError
BrokerNotFoundError = BrokerNotAvailableError
StaleLeaderEpochCodeError = NetworkExceptionError
OffsetsLoadInProgressCode = CoordinatorLoadInProgressError
GroupLoadInProgressError = CoordinatorLoadInProgressError
ConsumerCoordinatorNotAvailableCode = CoordinatorNotAvailableError
GroupCoordinatorNotAvailableError = CoordinatorNotAvailableError
NotCoordinatorForConsumerCode = NotCoordinatorError
NotCoordinatorForGroupError = NotCoordinatorError
InvalidReplicaAssignmentError = InvalidReplicationAssignmentError


# ---------------------------------------------------------------------------
# CLIENT-SIDE ERRORS: raised by the client itself, never sent by a broker.
# ---------------------------------------------------------------------------


class KafkaConnectionError(InvalidMetadataError):
    """A connection to a broker could not be opened or was lost."""

    retriable = True
    invalid_metadata = True


class HostResolutionError(KafkaConnectionError):
    """A broker's host name could not be resolved to an address."""


class SslCertificateError(KafkaConnectionError):
    """A broker's TLS certificate was rejected: retrying will not help."""

    retriable = False
    invalid_metadata = False


class RecordTooLargeError(KafkaError):
    """A record batch does not fit in the consumer's fetch size limits."""


class NodeNotReadyError(RetriableError):
    """A request was routed to a broker whose connection is not ready yet."""

    retriable = True


class NoBrokersAvailable(KafkaError):
    """None of the bootstrap servers or known brokers could be reached."""

    retriable = True
    invalid_metadata = True


class KafkaUnavailableError(KafkaError):
    """No broker answered a request that any broker could serve."""


class BufferUnderflowError(KafkaError):
    """A decoder needed more bytes than the buffer holds."""


class ConsumerFetchSizeTooSmall(KafkaError):
    """A single message is larger than the largest fetch size the consumer allows."""


class ConsumerNoMoreData(KafkaError):
    """The consumer has no more messages to return."""


class ConsumerTimeout(KafkaError):
    """No message arrived within the consumer's timeout."""


class FailedPayloadsError(KafkaError):
    """A request failed for some of its payloads; ``payload`` holds the failed one."""

    def __init__(self, payload: Any, *args: Any) -> None:
        super().__init__(payload, *args)
        self.payload = payload


class AsyncProducerQueueFull(KafkaError):
    """The asynchronous producer's queue is full; ``failed_msgs`` were not queued."""

    def __init__(self, failed_msgs: Any, *args: Any) -> None:
        super().__init__(failed_msgs, *args)
        self.failed_msgs = failed_msgs


class CommitFailedError(KafkaError):
    """An offset commit was refused because the group rebalanced meanwhile.

    The member's generation (or epoch) is no longer current: its partitions
    may already belong to another member, so the commit cannot be retried.
    Call ``poll()`` to rejoin the group; records processed since the last
    successful commit may be delivered again.
    """

    retriable = False


class RecordsPurgedError(KafkaError):
    """The application purged the producer's records before they were acknowledged."""


class PurgedInQueueError(RecordsPurgedError):
    """The record was purged while waiting in the producer's queue: it was never sent."""


class PurgedInFlightError(RecordsPurgedError):
    """The record was purged while its request was in flight: the broker may have written it."""


# -- names kafka-python has and kafkawire's own code does not raise -----------------
# Programs catch or import these; they are defined so those programs run.

#: kafka-python's second name for code 2.
CorruptRecordException = CorruptRecordError


class Cancelled(RetriableError):
    """A request was cancelled before an answer came."""


class InvalidReceiveError(ProtocolError):
    """Bytes received from a broker could not be read as a response."""


class MetadataEmptyBrokerList(RetriableError):
    """Metadata named no broker."""


class NoOffsetForPartitionError(KafkaError):
    """A partition has no position and no reset policy applies."""


class LogTruncationError(KafkaError):
    """The broker's log was truncated below the consumer's position."""


class UnknownBrokerIdError(KafkaError):
    """A request named a broker id that is not in the cluster metadata."""


class QuotaViolationError(KafkaError):
    """A client quota was exceeded."""


class StaleMetadata(InvalidMetadataError):
    """Cluster metadata is out of date."""


class TooManyInFlightRequests(RetriableError):
    """A connection already has as many requests in flight as allowed."""


class UnrecognizedBrokerVersion(KafkaError):
    """The broker's version could not be determined."""


class IncompatibleBrokerVersion(UnsupportedVersionError):
    """The broker is too old for the operation asked."""


class TransactionAbortedError(KafkaError):
    """A record's transaction was aborted before it could be sent."""


def for_code(code: int) -> Optional[Type[BrokerResponseError]]:
    """Return the exception class for a broker error ``code``.

    ``0`` (no error) returns ``None``; a code this version of the library does
    not know returns a fresh :class:`UnknownError` subclass carrying that code,
    so the number is never lost.
    """
    if code == 0:
        return None
    cls = _BY_CODE.get(code)
    if cls is None:
        cls = type("UnknownBrokerError{0}".format(code if code >= 0 else "_" + str(-code)),
                   (UnknownError,), {"errno": code, "message": "UNKNOWN_CODE_{0}".format(code)})
        _BY_CODE[code] = cls
    return cls


def check_error_code(code: int) -> None:
    """Raise the broker error for ``code``, or return if it is ``0``."""
    cls = for_code(code)
    if cls is not None:
        raise cls()


#: Broker error classes by code, ``0`` (:class:`NoError`) included, as kafka-python names it.
kafka_errors: Dict[int, Type[BrokerResponseError]] = dict(_BY_CODE)
kafka_errors[0] = NoError
