"""The error names aiokafka programs import (``from aiokafka.errors import ...``), as kafkawire classes.

Each name is the kafkawire class for the same condition (:mod:`kafka.errors`), so an
``except`` written for aiokafka catches what the asyncio clients raise. aiokafka names
that kafkawire spells with an ``Error`` suffix are aliases of those classes; the few
conditions only the asyncio clients know (:class:`ProducerClosed`,
:class:`IllegalOperation`, :class:`ConsumerStoppedError`) are defined here.
"""

from __future__ import annotations

from kafka.errors import (
    BrokerNotAvailableError,
    BrokerResponseError,
    Cancelled,
    ClusterAuthorizationFailedError,
    CommitFailedError,
    ConcurrentTransactionsError,
    CoordinatorLoadInProgressError,
    CoordinatorNotAvailableError,
    CorrelationIdError,
    CorruptRecordException,
    DelegationTokenAuthDisabledError,
    DelegationTokenAuthorizationFailedError,
    DelegationTokenExpiredError,
    DelegationTokenNotFoundError,
    DelegationTokenOwnerMismatchError,
    DelegationTokenRequestNotAllowedError,
    DuplicateSequenceNumberError,
    FetchSessionIdNotFoundError,
    GroupAuthorizationFailedError,
    GroupCoordinatorNotAvailableError,
    GroupIdNotFoundError,
    GroupLoadInProgressError,
    IllegalArgumentError,
    IllegalGenerationError,
    IllegalSaslStateError,
    IllegalStateError,
    IncompatibleBrokerVersion,
    InconsistentGroupProtocolError,
    InvalidCommitOffsetSizeError,
    InvalidConfigurationError,
    InvalidFetchRequestError,
    InvalidFetchSessionEpochError,
    InvalidGroupIdError,
    InvalidMessageError,
    InvalidPartitionsError,
    InvalidPrincipalTypeError,
    InvalidProducerEpochError,
    InvalidProducerIdMappingError,
    InvalidReplicationAssignmentError,
    InvalidReplicationFactorError,
    InvalidRequestError,
    InvalidRequiredAcksError,
    InvalidSessionTimeoutError,
    InvalidTimestampError,
    InvalidTopicError,
    InvalidTransactionTimeoutError,
    InvalidTxnStateError,
    KafkaConfigurationError,
    KafkaConnectionError,
    KafkaError,
    KafkaProtocolError,
    KafkaStorageError,
    KafkaTimeoutError,
    KafkaUnavailableError,
    LeaderNotAvailableError,
    ListenerNotFoundError,
    LogDirNotFoundError,
    MemberIdRequiredError,
    MessageSizeTooLargeError,
    MetadataEmptyBrokerList,
    NoBrokersAvailable,
    NoError,
    NoOffsetForPartitionError,
    NodeNotReadyError,
    NonEmptyGroupError,
    NotControllerError,
    NotCoordinatorError,
    NotCoordinatorForGroupError,
    NotEnoughReplicasAfterAppendError,
    NotEnoughReplicasError,
    NotLeaderForPartitionError,
    OffsetMetadataTooLargeError,
    OffsetOutOfRangeError,
    OperationNotAttemptedError,
    OutOfOrderSequenceNumberError,
    PolicyViolationError,
    ProducerFencedError,
    QuotaViolationError,
    ReassignmentInProgressError,
    RebalanceInProgressError,
    RecordListTooLargeError,
    RecordTooLargeError,
    ReplicaNotAvailableError,
    RequestTimedOutError,
    SaslAuthenticationFailedError,
    SecurityDisabledError,
    StaleControllerEpochError,
    StaleLeaderEpochCodeError,
    StaleMetadata,
    TooManyInFlightRequests,
    TopicAlreadyExistsError,
    TopicAuthorizationFailedError,
    TransactionCoordinatorFencedError,
    TransactionalIdAuthorizationFailedError,
    UnknownError,
    UnknownMemberIdError,
    UnknownProducerIdError,
    UnknownTopicOrPartitionError,
    UnrecognizedBrokerVersion,
    UnsupportedCodecError,
    UnsupportedForMessageFormatError,
    UnsupportedSaslMechanismError,
    UnsupportedVersionError,
)

AuthenticationFailedError = SaslAuthenticationFailedError
AuthenticationMethodNotSupported = UnsupportedSaslMechanismError
ConcurrentTransactions = ConcurrentTransactionsError
DelegationTokenAuthDisabled = DelegationTokenAuthDisabledError
DelegationTokenAuthorizationFailed = DelegationTokenAuthorizationFailedError
DelegationTokenExpired = DelegationTokenExpiredError
DelegationTokenNotFound = DelegationTokenNotFoundError
DelegationTokenOwnerMismatch = DelegationTokenOwnerMismatchError
DelegationTokenRequestNotAllowed = DelegationTokenRequestNotAllowedError
DuplicateSequenceNumber = DuplicateSequenceNumberError
FetchSessionIdNotFound = FetchSessionIdNotFoundError
GroupIdNotFound = GroupIdNotFoundError
InvalidFetchSessionEpoch = InvalidFetchSessionEpochError
InvalidPrincipalType = InvalidPrincipalTypeError
InvalidProducerEpoch = InvalidProducerEpochError
InvalidProducerIdMapping = InvalidProducerIdMappingError
InvalidTransactionTimeout = InvalidTransactionTimeoutError
InvalidTxnState = InvalidTxnStateError
ListenerNotFound = ListenerNotFoundError
LogDirNotFound = LogDirNotFoundError
MemberIdRequired = MemberIdRequiredError
NonEmptyGroup = NonEmptyGroupError
OperationNotAttempted = OperationNotAttemptedError
OutOfOrderSequenceNumber = OutOfOrderSequenceNumberError
ProducerFenced = ProducerFencedError
ReassignmentInProgress = ReassignmentInProgressError
SaslAuthenticationFailed = SaslAuthenticationFailedError
SecurityDisabled = SecurityDisabledError
TransactionCoordinatorFenced = TransactionCoordinatorFencedError
TransactionalIdAuthorizationFailed = TransactionalIdAuthorizationFailedError
UnknownProducerId = UnknownProducerIdError


class ProducerClosed(KafkaError):
    """The producer was stopped before the record could be sent."""


class IllegalOperation(KafkaError):
    """The operation is not allowed in the client's current state."""


class ConsumerStoppedError(KafkaError):
    """The consumer was stopped (kept for aiokafka programs that import it)."""


__all__ = [
    "AuthenticationFailedError", "AuthenticationMethodNotSupported", "BrokerNotAvailableError",
    "BrokerResponseError", "Cancelled", "ClusterAuthorizationFailedError", "CommitFailedError",
    "ConcurrentTransactions", "ConsumerStoppedError", "CoordinatorLoadInProgressError",
    "CoordinatorNotAvailableError", "CorrelationIdError", "CorruptRecordException",
    "DelegationTokenAuthDisabled", "DelegationTokenAuthorizationFailed", "DelegationTokenExpired",
    "DelegationTokenNotFound", "DelegationTokenOwnerMismatch", "DelegationTokenRequestNotAllowed",
    "DuplicateSequenceNumber", "FetchSessionIdNotFound", "GroupAuthorizationFailedError",
    "GroupCoordinatorNotAvailableError", "GroupIdNotFound", "GroupLoadInProgressError",
    "IllegalArgumentError", "IllegalGenerationError", "IllegalOperation", "IllegalSaslStateError",
    "IllegalStateError", "IncompatibleBrokerVersion", "InconsistentGroupProtocolError",
    "InvalidCommitOffsetSizeError", "InvalidConfigurationError", "InvalidFetchRequestError",
    "InvalidFetchSessionEpoch", "InvalidGroupIdError", "InvalidMessageError", "InvalidPartitionsError",
    "InvalidPrincipalType", "InvalidProducerEpoch", "InvalidProducerIdMapping",
    "InvalidReplicationAssignmentError", "InvalidReplicationFactorError", "InvalidRequestError",
    "InvalidRequiredAcksError", "InvalidSessionTimeoutError", "InvalidTimestampError", "InvalidTopicError",
    "InvalidTransactionTimeout", "InvalidTxnState", "KafkaConfigurationError", "KafkaConnectionError",
    "KafkaError", "KafkaProtocolError", "KafkaStorageError", "KafkaTimeoutError", "KafkaUnavailableError",
    "LeaderNotAvailableError", "ListenerNotFound", "LogDirNotFound", "MemberIdRequired",
    "MessageSizeTooLargeError", "MetadataEmptyBrokerList", "NoBrokersAvailable", "NoError",
    "NoOffsetForPartitionError", "NodeNotReadyError", "NonEmptyGroup", "NotControllerError",
    "NotCoordinatorError", "NotCoordinatorForGroupError", "NotEnoughReplicasAfterAppendError",
    "NotEnoughReplicasError", "NotLeaderForPartitionError", "OffsetMetadataTooLargeError",
    "OffsetOutOfRangeError", "OperationNotAttempted", "OutOfOrderSequenceNumber", "PolicyViolationError",
    "ProducerClosed", "ProducerFenced", "QuotaViolationError", "ReassignmentInProgress",
    "RebalanceInProgressError", "RecordListTooLargeError", "RecordTooLargeError", "ReplicaNotAvailableError",
    "RequestTimedOutError", "SaslAuthenticationFailed", "SecurityDisabled", "StaleControllerEpochError",
    "StaleLeaderEpochCodeError", "StaleMetadata", "TooManyInFlightRequests", "TopicAlreadyExistsError",
    "TopicAuthorizationFailedError", "TransactionCoordinatorFenced", "TransactionalIdAuthorizationFailed",
    "UnknownError", "UnknownMemberIdError", "UnknownProducerId", "UnknownTopicOrPartitionError",
    "UnrecognizedBrokerVersion", "UnsupportedCodecError", "UnsupportedForMessageFormatError",
    "UnsupportedSaslMechanismError", "UnsupportedVersionError",
]
