// Code generated from the error table of Apache Kafka's protocol (name, code,
// default message, client exception class, retriable). DO NOT EDIT.

package protocol

// Kafka's error codes, by their protocol names.
const (
	UNKNOWN_SERVER_ERROR                  ErrorCode = -1
	NONE                                  ErrorCode = 0
	OFFSET_OUT_OF_RANGE                   ErrorCode = 1
	CORRUPT_MESSAGE                       ErrorCode = 2
	UNKNOWN_TOPIC_OR_PARTITION            ErrorCode = 3
	INVALID_FETCH_SIZE                    ErrorCode = 4
	LEADER_NOT_AVAILABLE                  ErrorCode = 5
	NOT_LEADER_OR_FOLLOWER                ErrorCode = 6
	REQUEST_TIMED_OUT                     ErrorCode = 7
	BROKER_NOT_AVAILABLE                  ErrorCode = 8
	REPLICA_NOT_AVAILABLE                 ErrorCode = 9
	MESSAGE_TOO_LARGE                     ErrorCode = 10
	STALE_CONTROLLER_EPOCH                ErrorCode = 11
	OFFSET_METADATA_TOO_LARGE             ErrorCode = 12
	NETWORK_EXCEPTION                     ErrorCode = 13
	COORDINATOR_LOAD_IN_PROGRESS          ErrorCode = 14
	COORDINATOR_NOT_AVAILABLE             ErrorCode = 15
	NOT_COORDINATOR                       ErrorCode = 16
	INVALID_TOPIC_EXCEPTION               ErrorCode = 17
	RECORD_LIST_TOO_LARGE                 ErrorCode = 18
	NOT_ENOUGH_REPLICAS                   ErrorCode = 19
	NOT_ENOUGH_REPLICAS_AFTER_APPEND      ErrorCode = 20
	INVALID_REQUIRED_ACKS                 ErrorCode = 21
	ILLEGAL_GENERATION                    ErrorCode = 22
	INCONSISTENT_GROUP_PROTOCOL           ErrorCode = 23
	INVALID_GROUP_ID                      ErrorCode = 24
	UNKNOWN_MEMBER_ID                     ErrorCode = 25
	INVALID_SESSION_TIMEOUT               ErrorCode = 26
	REBALANCE_IN_PROGRESS                 ErrorCode = 27
	INVALID_COMMIT_OFFSET_SIZE            ErrorCode = 28
	TOPIC_AUTHORIZATION_FAILED            ErrorCode = 29
	GROUP_AUTHORIZATION_FAILED            ErrorCode = 30
	CLUSTER_AUTHORIZATION_FAILED          ErrorCode = 31
	INVALID_TIMESTAMP                     ErrorCode = 32
	UNSUPPORTED_SASL_MECHANISM            ErrorCode = 33
	ILLEGAL_SASL_STATE                    ErrorCode = 34
	UNSUPPORTED_VERSION                   ErrorCode = 35
	TOPIC_ALREADY_EXISTS                  ErrorCode = 36
	INVALID_PARTITIONS                    ErrorCode = 37
	INVALID_REPLICATION_FACTOR            ErrorCode = 38
	INVALID_REPLICA_ASSIGNMENT            ErrorCode = 39
	INVALID_CONFIG                        ErrorCode = 40
	NOT_CONTROLLER                        ErrorCode = 41
	INVALID_REQUEST                       ErrorCode = 42
	UNSUPPORTED_FOR_MESSAGE_FORMAT        ErrorCode = 43
	POLICY_VIOLATION                      ErrorCode = 44
	OUT_OF_ORDER_SEQUENCE_NUMBER          ErrorCode = 45
	DUPLICATE_SEQUENCE_NUMBER             ErrorCode = 46
	INVALID_PRODUCER_EPOCH                ErrorCode = 47
	INVALID_TXN_STATE                     ErrorCode = 48
	INVALID_PRODUCER_ID_MAPPING           ErrorCode = 49
	INVALID_TRANSACTION_TIMEOUT           ErrorCode = 50
	CONCURRENT_TRANSACTIONS               ErrorCode = 51
	TRANSACTION_COORDINATOR_FENCED        ErrorCode = 52
	TRANSACTIONAL_ID_AUTHORIZATION_FAILED ErrorCode = 53
	SECURITY_DISABLED                     ErrorCode = 54
	OPERATION_NOT_ATTEMPTED               ErrorCode = 55
	KAFKA_STORAGE_ERROR                   ErrorCode = 56
	LOG_DIR_NOT_FOUND                     ErrorCode = 57
	SASL_AUTHENTICATION_FAILED            ErrorCode = 58
	UNKNOWN_PRODUCER_ID                   ErrorCode = 59
	REASSIGNMENT_IN_PROGRESS              ErrorCode = 60
	DELEGATION_TOKEN_AUTH_DISABLED        ErrorCode = 61
	DELEGATION_TOKEN_NOT_FOUND            ErrorCode = 62
	DELEGATION_TOKEN_OWNER_MISMATCH       ErrorCode = 63
	DELEGATION_TOKEN_REQUEST_NOT_ALLOWED  ErrorCode = 64
	DELEGATION_TOKEN_AUTHORIZATION_FAILED ErrorCode = 65
	DELEGATION_TOKEN_EXPIRED              ErrorCode = 66
	INVALID_PRINCIPAL_TYPE                ErrorCode = 67
	NON_EMPTY_GROUP                       ErrorCode = 68
	GROUP_ID_NOT_FOUND                    ErrorCode = 69
	FETCH_SESSION_ID_NOT_FOUND            ErrorCode = 70
	INVALID_FETCH_SESSION_EPOCH           ErrorCode = 71
	LISTENER_NOT_FOUND                    ErrorCode = 72
	TOPIC_DELETION_DISABLED               ErrorCode = 73
	FENCED_LEADER_EPOCH                   ErrorCode = 74
	UNKNOWN_LEADER_EPOCH                  ErrorCode = 75
	UNSUPPORTED_COMPRESSION_TYPE          ErrorCode = 76
	STALE_BROKER_EPOCH                    ErrorCode = 77
	OFFSET_NOT_AVAILABLE                  ErrorCode = 78
	MEMBER_ID_REQUIRED                    ErrorCode = 79
	PREFERRED_LEADER_NOT_AVAILABLE        ErrorCode = 80
	GROUP_MAX_SIZE_REACHED                ErrorCode = 81
	FENCED_INSTANCE_ID                    ErrorCode = 82
	ELIGIBLE_LEADERS_NOT_AVAILABLE        ErrorCode = 83
	ELECTION_NOT_NEEDED                   ErrorCode = 84
	NO_REASSIGNMENT_IN_PROGRESS           ErrorCode = 85
	GROUP_SUBSCRIBED_TO_TOPIC             ErrorCode = 86
	INVALID_RECORD                        ErrorCode = 87
	UNSTABLE_OFFSET_COMMIT                ErrorCode = 88
	THROTTLING_QUOTA_EXCEEDED             ErrorCode = 89
	PRODUCER_FENCED                       ErrorCode = 90
	RESOURCE_NOT_FOUND                    ErrorCode = 91
	DUPLICATE_RESOURCE                    ErrorCode = 92
	UNACCEPTABLE_CREDENTIAL               ErrorCode = 93
	INCONSISTENT_VOTER_SET                ErrorCode = 94
	INVALID_UPDATE_VERSION                ErrorCode = 95
	FEATURE_UPDATE_FAILED                 ErrorCode = 96
	PRINCIPAL_DESERIALIZATION_FAILURE     ErrorCode = 97
	SNAPSHOT_NOT_FOUND                    ErrorCode = 98
	POSITION_OUT_OF_RANGE                 ErrorCode = 99
	UNKNOWN_TOPIC_ID                      ErrorCode = 100
	DUPLICATE_BROKER_REGISTRATION         ErrorCode = 101
	BROKER_ID_NOT_REGISTERED              ErrorCode = 102
	INCONSISTENT_TOPIC_ID                 ErrorCode = 103
	INCONSISTENT_CLUSTER_ID               ErrorCode = 104
	TRANSACTIONAL_ID_NOT_FOUND            ErrorCode = 105
	FETCH_SESSION_TOPIC_ID_ERROR          ErrorCode = 106
	INELIGIBLE_REPLICA                    ErrorCode = 107
	NEW_LEADER_ELECTED                    ErrorCode = 108
	OFFSET_MOVED_TO_TIERED_STORAGE        ErrorCode = 109
	FENCED_MEMBER_EPOCH                   ErrorCode = 110
	UNRELEASED_INSTANCE_ID                ErrorCode = 111
	UNSUPPORTED_ASSIGNOR                  ErrorCode = 112
	STALE_MEMBER_EPOCH                    ErrorCode = 113
	MISMATCHED_ENDPOINT_TYPE              ErrorCode = 114
	UNSUPPORTED_ENDPOINT_TYPE             ErrorCode = 115
	UNKNOWN_CONTROLLER_ID                 ErrorCode = 116
	UNKNOWN_SUBSCRIPTION_ID               ErrorCode = 117
	TELEMETRY_TOO_LARGE                   ErrorCode = 118
	INVALID_REGISTRATION                  ErrorCode = 119
	TRANSACTION_ABORTABLE                 ErrorCode = 120
	INVALID_RECORD_STATE                  ErrorCode = 121
	SHARE_SESSION_NOT_FOUND               ErrorCode = 122
	INVALID_SHARE_SESSION_EPOCH           ErrorCode = 123
	FENCED_STATE_EPOCH                    ErrorCode = 124
	INVALID_VOTER_KEY                     ErrorCode = 125
	DUPLICATE_VOTER                       ErrorCode = 126
	VOTER_NOT_FOUND                       ErrorCode = 127
	INVALID_REGULAR_EXPRESSION            ErrorCode = 128
)

var errorTable = []errorInfo{
	{UNKNOWN_SERVER_ERROR, "UNKNOWN_SERVER_ERROR", "The server experienced an unexpected error when processing the request.", "org.apache.kafka.common.errors.UnknownServerException", false},
	{NONE, "NONE", "", "", false},
	{OFFSET_OUT_OF_RANGE, "OFFSET_OUT_OF_RANGE", "The requested offset is not within the range of offsets maintained by the server.", "org.apache.kafka.common.errors.OffsetOutOfRangeException", false},
	{CORRUPT_MESSAGE, "CORRUPT_MESSAGE", "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.", "org.apache.kafka.common.errors.CorruptRecordException", true},
	{UNKNOWN_TOPIC_OR_PARTITION, "UNKNOWN_TOPIC_OR_PARTITION", "This server does not host this topic-partition.", "org.apache.kafka.common.errors.UnknownTopicOrPartitionException", true},
	{INVALID_FETCH_SIZE, "INVALID_FETCH_SIZE", "The requested fetch size is invalid.", "org.apache.kafka.common.errors.InvalidFetchSizeException", false},
	{LEADER_NOT_AVAILABLE, "LEADER_NOT_AVAILABLE", "There is no leader for this topic-partition as we are in the middle of a leadership election.", "org.apache.kafka.common.errors.LeaderNotAvailableException", true},
	{NOT_LEADER_OR_FOLLOWER, "NOT_LEADER_OR_FOLLOWER", "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.", "org.apache.kafka.common.errors.NotLeaderOrFollowerException", true},
	{REQUEST_TIMED_OUT, "REQUEST_TIMED_OUT", "The request timed out.", "org.apache.kafka.common.errors.TimeoutException", true},
	{BROKER_NOT_AVAILABLE, "BROKER_NOT_AVAILABLE", "The broker is not available.", "org.apache.kafka.common.errors.BrokerNotAvailableException", false},
	{REPLICA_NOT_AVAILABLE, "REPLICA_NOT_AVAILABLE", "The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition.", "org.apache.kafka.common.errors.ReplicaNotAvailableException", true},
	{MESSAGE_TOO_LARGE, "MESSAGE_TOO_LARGE", "The request included a message larger than the max message size the server will accept.", "org.apache.kafka.common.errors.RecordTooLargeException", false},
	{STALE_CONTROLLER_EPOCH, "STALE_CONTROLLER_EPOCH", "The controller moved to another broker.", "org.apache.kafka.common.errors.ControllerMovedException", false},
	{OFFSET_METADATA_TOO_LARGE, "OFFSET_METADATA_TOO_LARGE", "The metadata field of the offset request was too large.", "org.apache.kafka.common.errors.OffsetMetadataTooLarge", false},
	{NETWORK_EXCEPTION, "NETWORK_EXCEPTION", "The server disconnected before a response was received.", "org.apache.kafka.common.errors.NetworkException", true},
	{COORDINATOR_LOAD_IN_PROGRESS, "COORDINATOR_LOAD_IN_PROGRESS", "The coordinator is loading and hence can't process requests.", "org.apache.kafka.common.errors.CoordinatorLoadInProgressException", true},
	{COORDINATOR_NOT_AVAILABLE, "COORDINATOR_NOT_AVAILABLE", "The coordinator is not available.", "org.apache.kafka.common.errors.CoordinatorNotAvailableException", true},
	{NOT_COORDINATOR, "NOT_COORDINATOR", "This is not the correct coordinator.", "org.apache.kafka.common.errors.NotCoordinatorException", true},
	{INVALID_TOPIC_EXCEPTION, "INVALID_TOPIC_EXCEPTION", "The request attempted to perform an operation on an invalid topic.", "org.apache.kafka.common.errors.InvalidTopicException", false},
	{RECORD_LIST_TOO_LARGE, "RECORD_LIST_TOO_LARGE", "The request included message batch larger than the configured segment size on the server.", "org.apache.kafka.common.errors.RecordBatchTooLargeException", false},
	{NOT_ENOUGH_REPLICAS, "NOT_ENOUGH_REPLICAS", "Messages are rejected since there are fewer in-sync replicas than required.", "org.apache.kafka.common.errors.NotEnoughReplicasException", true},
	{NOT_ENOUGH_REPLICAS_AFTER_APPEND, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", "Messages are written to the log, but to fewer in-sync replicas than required.", "org.apache.kafka.common.errors.NotEnoughReplicasAfterAppendException", true},
	{INVALID_REQUIRED_ACKS, "INVALID_REQUIRED_ACKS", "Produce request specified an invalid value for required acks.", "org.apache.kafka.common.errors.InvalidRequiredAcksException", false},
	{ILLEGAL_GENERATION, "ILLEGAL_GENERATION", "Specified group generation id is not valid.", "org.apache.kafka.common.errors.IllegalGenerationException", false},
	{INCONSISTENT_GROUP_PROTOCOL, "INCONSISTENT_GROUP_PROTOCOL", "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.", "org.apache.kafka.common.errors.InconsistentGroupProtocolException", false},
	{INVALID_GROUP_ID, "INVALID_GROUP_ID", "The configured groupId is invalid.", "org.apache.kafka.common.errors.InvalidGroupIdException", false},
	{UNKNOWN_MEMBER_ID, "UNKNOWN_MEMBER_ID", "The coordinator is not aware of this member.", "org.apache.kafka.common.errors.UnknownMemberIdException", false},
	{INVALID_SESSION_TIMEOUT, "INVALID_SESSION_TIMEOUT", "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms).", "org.apache.kafka.common.errors.InvalidSessionTimeoutException", false},
	{REBALANCE_IN_PROGRESS, "REBALANCE_IN_PROGRESS", "The group is rebalancing, so a rejoin is needed.", "org.apache.kafka.common.errors.RebalanceInProgressException", false},
	{INVALID_COMMIT_OFFSET_SIZE, "INVALID_COMMIT_OFFSET_SIZE", "The committing offset data size is not valid.", "org.apache.kafka.common.errors.InvalidCommitOffsetSizeException", false},
	{TOPIC_AUTHORIZATION_FAILED, "TOPIC_AUTHORIZATION_FAILED", "Topic authorization failed.", "org.apache.kafka.common.errors.TopicAuthorizationException", false},
	{GROUP_AUTHORIZATION_FAILED, "GROUP_AUTHORIZATION_FAILED", "Group authorization failed.", "org.apache.kafka.common.errors.GroupAuthorizationException", false},
	{CLUSTER_AUTHORIZATION_FAILED, "CLUSTER_AUTHORIZATION_FAILED", "Cluster authorization failed.", "org.apache.kafka.common.errors.ClusterAuthorizationException", false},
	{INVALID_TIMESTAMP, "INVALID_TIMESTAMP", "The timestamp of the message is out of acceptable range.", "org.apache.kafka.common.errors.InvalidTimestampException", false},
	{UNSUPPORTED_SASL_MECHANISM, "UNSUPPORTED_SASL_MECHANISM", "The broker does not support the requested SASL mechanism.", "org.apache.kafka.common.errors.UnsupportedSaslMechanismException", false},
	{ILLEGAL_SASL_STATE, "ILLEGAL_SASL_STATE", "Request is not valid given the current SASL state.", "org.apache.kafka.common.errors.IllegalSaslStateException", false},
	{UNSUPPORTED_VERSION, "UNSUPPORTED_VERSION", "The version of API is not supported.", "org.apache.kafka.common.errors.UnsupportedVersionException", false},
	{TOPIC_ALREADY_EXISTS, "TOPIC_ALREADY_EXISTS", "Topic with this name already exists.", "org.apache.kafka.common.errors.TopicExistsException", false},
	{INVALID_PARTITIONS, "INVALID_PARTITIONS", "Number of partitions is below 1.", "org.apache.kafka.common.errors.InvalidPartitionsException", false},
	{INVALID_REPLICATION_FACTOR, "INVALID_REPLICATION_FACTOR", "Replication factor is below 1 or larger than the number of available brokers.", "org.apache.kafka.common.errors.InvalidReplicationFactorException", false},
	{INVALID_REPLICA_ASSIGNMENT, "INVALID_REPLICA_ASSIGNMENT", "Replica assignment is invalid.", "org.apache.kafka.common.errors.InvalidReplicaAssignmentException", false},
	{INVALID_CONFIG, "INVALID_CONFIG", "Configuration is invalid.", "org.apache.kafka.common.errors.InvalidConfigurationException", false},
	{NOT_CONTROLLER, "NOT_CONTROLLER", "This is not the correct controller for this cluster.", "org.apache.kafka.common.errors.NotControllerException", true},
	{INVALID_REQUEST, "INVALID_REQUEST", "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.", "org.apache.kafka.common.errors.InvalidRequestException", false},
	{UNSUPPORTED_FOR_MESSAGE_FORMAT, "UNSUPPORTED_FOR_MESSAGE_FORMAT", "The message format version on the broker does not support the request.", "org.apache.kafka.common.errors.UnsupportedForMessageFormatException", false},
	{POLICY_VIOLATION, "POLICY_VIOLATION", "Request parameters do not satisfy the configured policy.", "org.apache.kafka.common.errors.PolicyViolationException", false},
	{OUT_OF_ORDER_SEQUENCE_NUMBER, "OUT_OF_ORDER_SEQUENCE_NUMBER", "The broker received an out of order sequence number.", "org.apache.kafka.common.errors.OutOfOrderSequenceException", false},
	{DUPLICATE_SEQUENCE_NUMBER, "DUPLICATE_SEQUENCE_NUMBER", "The broker received a duplicate sequence number.", "org.apache.kafka.common.errors.DuplicateSequenceException", false},
	{INVALID_PRODUCER_EPOCH, "INVALID_PRODUCER_EPOCH", "Producer attempted to produce with an old epoch.", "org.apache.kafka.common.errors.InvalidProducerEpochException", false},
	{INVALID_TXN_STATE, "INVALID_TXN_STATE", "The producer attempted a transactional operation in an invalid state.", "org.apache.kafka.common.errors.InvalidTxnStateException", false},
	{INVALID_PRODUCER_ID_MAPPING, "INVALID_PRODUCER_ID_MAPPING", "The producer attempted to use a producer id which is not currently assigned to its transactional id.", "org.apache.kafka.common.errors.InvalidPidMappingException", false},
	{INVALID_TRANSACTION_TIMEOUT, "INVALID_TRANSACTION_TIMEOUT", "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).", "org.apache.kafka.common.errors.InvalidTxnTimeoutException", false},
	{CONCURRENT_TRANSACTIONS, "CONCURRENT_TRANSACTIONS", "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.", "org.apache.kafka.common.errors.ConcurrentTransactionsException", true},
	{TRANSACTION_COORDINATOR_FENCED, "TRANSACTION_COORDINATOR_FENCED", "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.", "org.apache.kafka.common.errors.TransactionCoordinatorFencedException", false},
	{TRANSACTIONAL_ID_AUTHORIZATION_FAILED, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "Transactional Id authorization failed.", "org.apache.kafka.common.errors.TransactionalIdAuthorizationException", false},
	{SECURITY_DISABLED, "SECURITY_DISABLED", "Security features are disabled.", "org.apache.kafka.common.errors.SecurityDisabledException", false},
	{OPERATION_NOT_ATTEMPTED, "OPERATION_NOT_ATTEMPTED", "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.", "org.apache.kafka.common.errors.OperationNotAttemptedException", false},
	{KAFKA_STORAGE_ERROR, "KAFKA_STORAGE_ERROR", "Disk error when trying to access log file on the disk.", "org.apache.kafka.common.errors.KafkaStorageException", true},
	{LOG_DIR_NOT_FOUND, "LOG_DIR_NOT_FOUND", "The user-specified log directory is not found in the broker config.", "org.apache.kafka.common.errors.LogDirNotFoundException", false},
	{SASL_AUTHENTICATION_FAILED, "SASL_AUTHENTICATION_FAILED", "SASL Authentication failed.", "org.apache.kafka.common.errors.SaslAuthenticationException", false},
	{UNKNOWN_PRODUCER_ID, "UNKNOWN_PRODUCER_ID", "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.", "org.apache.kafka.common.errors.UnknownProducerIdException", false},
	{REASSIGNMENT_IN_PROGRESS, "REASSIGNMENT_IN_PROGRESS", "A partition reassignment is in progress.", "org.apache.kafka.common.errors.ReassignmentInProgressException", false},
	{DELEGATION_TOKEN_AUTH_DISABLED, "DELEGATION_TOKEN_AUTH_DISABLED", "Delegation Token feature is not enabled.", "org.apache.kafka.common.errors.DelegationTokenDisabledException", false},
	{DELEGATION_TOKEN_NOT_FOUND, "DELEGATION_TOKEN_NOT_FOUND", "Delegation Token is not found on server.", "org.apache.kafka.common.errors.DelegationTokenNotFoundException", false},
	{DELEGATION_TOKEN_OWNER_MISMATCH, "DELEGATION_TOKEN_OWNER_MISMATCH", "Specified Principal is not valid Owner/Renewer.", "org.apache.kafka.common.errors.DelegationTokenOwnerMismatchException", false},
	{DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.", "org.apache.kafka.common.errors.UnsupportedByAuthenticationException", false},
	{DELEGATION_TOKEN_AUTHORIZATION_FAILED, "DELEGATION_TOKEN_AUTHORIZATION_FAILED", "Delegation Token authorization failed.", "org.apache.kafka.common.errors.DelegationTokenAuthorizationException", false},
	{DELEGATION_TOKEN_EXPIRED, "DELEGATION_TOKEN_EXPIRED", "Delegation Token is expired.", "org.apache.kafka.common.errors.DelegationTokenExpiredException", false},
	{INVALID_PRINCIPAL_TYPE, "INVALID_PRINCIPAL_TYPE", "Supplied principalType is not supported.", "org.apache.kafka.common.errors.InvalidPrincipalTypeException", false},
	{NON_EMPTY_GROUP, "NON_EMPTY_GROUP", "The group is not empty.", "org.apache.kafka.common.errors.GroupNotEmptyException", false},
	{GROUP_ID_NOT_FOUND, "GROUP_ID_NOT_FOUND", "The group id does not exist.", "org.apache.kafka.common.errors.GroupIdNotFoundException", false},
	{FETCH_SESSION_ID_NOT_FOUND, "FETCH_SESSION_ID_NOT_FOUND", "The fetch session ID was not found.", "org.apache.kafka.common.errors.FetchSessionIdNotFoundException", true},
	{INVALID_FETCH_SESSION_EPOCH, "INVALID_FETCH_SESSION_EPOCH", "The fetch session epoch is invalid.", "org.apache.kafka.common.errors.InvalidFetchSessionEpochException", true},
	{LISTENER_NOT_FOUND, "LISTENER_NOT_FOUND", "There is no listener on the leader broker that matches the listener on which metadata request was processed.", "org.apache.kafka.common.errors.ListenerNotFoundException", true},
	{TOPIC_DELETION_DISABLED, "TOPIC_DELETION_DISABLED", "Topic deletion is disabled.", "org.apache.kafka.common.errors.TopicDeletionDisabledException", false},
	{FENCED_LEADER_EPOCH, "FENCED_LEADER_EPOCH", "The leader epoch in the request is older than the epoch on the broker.", "org.apache.kafka.common.errors.FencedLeaderEpochException", true},
	{UNKNOWN_LEADER_EPOCH, "UNKNOWN_LEADER_EPOCH", "The leader epoch in the request is newer than the epoch on the broker.", "org.apache.kafka.common.errors.UnknownLeaderEpochException", true},
	{UNSUPPORTED_COMPRESSION_TYPE, "UNSUPPORTED_COMPRESSION_TYPE", "The requesting client does not support the compression type of given partition.", "org.apache.kafka.common.errors.UnsupportedCompressionTypeException", false},
	{STALE_BROKER_EPOCH, "STALE_BROKER_EPOCH", "Broker epoch has changed.", "org.apache.kafka.common.errors.StaleBrokerEpochException", false},
	{OFFSET_NOT_AVAILABLE, "OFFSET_NOT_AVAILABLE", "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.", "org.apache.kafka.common.errors.OffsetNotAvailableException", true},
	{MEMBER_ID_REQUIRED, "MEMBER_ID_REQUIRED", "The group member needs to have a valid member id before actually entering a consumer group.", "org.apache.kafka.common.errors.MemberIdRequiredException", false},
	{PREFERRED_LEADER_NOT_AVAILABLE, "PREFERRED_LEADER_NOT_AVAILABLE", "The preferred leader was not available.", "org.apache.kafka.common.errors.PreferredLeaderNotAvailableException", true},
	{GROUP_MAX_SIZE_REACHED, "GROUP_MAX_SIZE_REACHED", "The consumer group has reached its max size.", "org.apache.kafka.common.errors.GroupMaxSizeReachedException", false},
	{FENCED_INSTANCE_ID, "FENCED_INSTANCE_ID", "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.", "org.apache.kafka.common.errors.FencedInstanceIdException", false},
	{ELIGIBLE_LEADERS_NOT_AVAILABLE, "ELIGIBLE_LEADERS_NOT_AVAILABLE", "Eligible topic partition leaders are not available.", "org.apache.kafka.common.errors.EligibleLeadersNotAvailableException", true},
	{ELECTION_NOT_NEEDED, "ELECTION_NOT_NEEDED", "Leader election not needed for topic partition.", "org.apache.kafka.common.errors.ElectionNotNeededException", true},
	{NO_REASSIGNMENT_IN_PROGRESS, "NO_REASSIGNMENT_IN_PROGRESS", "No partition reassignment is in progress.", "org.apache.kafka.common.errors.NoReassignmentInProgressException", false},
	{GROUP_SUBSCRIBED_TO_TOPIC, "GROUP_SUBSCRIBED_TO_TOPIC", "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.", "org.apache.kafka.common.errors.GroupSubscribedToTopicException", false},
	{INVALID_RECORD, "INVALID_RECORD", "This record has failed the validation on broker and hence will be rejected.", "org.apache.kafka.common.InvalidRecordException", false},
	{UNSTABLE_OFFSET_COMMIT, "UNSTABLE_OFFSET_COMMIT", "There are unstable offsets that need to be cleared.", "org.apache.kafka.common.errors.UnstableOffsetCommitException", true},
	{THROTTLING_QUOTA_EXCEEDED, "THROTTLING_QUOTA_EXCEEDED", "The throttling quota has been exceeded.", "org.apache.kafka.common.errors.ThrottlingQuotaExceededException", true},
	{PRODUCER_FENCED, "PRODUCER_FENCED", "There is a newer producer with the same transactionalId which fences the current one.", "org.apache.kafka.common.errors.ProducerFencedException", false},
	{RESOURCE_NOT_FOUND, "RESOURCE_NOT_FOUND", "A request illegally referred to a resource that does not exist.", "org.apache.kafka.common.errors.ResourceNotFoundException", false},
	{DUPLICATE_RESOURCE, "DUPLICATE_RESOURCE", "A request illegally referred to the same resource twice.", "org.apache.kafka.common.errors.DuplicateResourceException", false},
	{UNACCEPTABLE_CREDENTIAL, "UNACCEPTABLE_CREDENTIAL", "Requested credential would not meet criteria for acceptability.", "org.apache.kafka.common.errors.UnacceptableCredentialException", false},
	{INCONSISTENT_VOTER_SET, "INCONSISTENT_VOTER_SET", "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters.", "org.apache.kafka.common.errors.InconsistentVoterSetException", false},
	{INVALID_UPDATE_VERSION, "INVALID_UPDATE_VERSION", "The given update version was invalid.", "org.apache.kafka.common.errors.InvalidUpdateVersionException", false},
	{FEATURE_UPDATE_FAILED, "FEATURE_UPDATE_FAILED", "Unable to update finalized features due to an unexpected server error.", "org.apache.kafka.common.errors.FeatureUpdateFailedException", false},
	{PRINCIPAL_DESERIALIZATION_FAILURE, "PRINCIPAL_DESERIALIZATION_FAILURE", "Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup.", "org.apache.kafka.common.errors.PrincipalDeserializationException", false},
	{SNAPSHOT_NOT_FOUND, "SNAPSHOT_NOT_FOUND", "Requested snapshot was not found.", "org.apache.kafka.common.errors.SnapshotNotFoundException", false},
	{POSITION_OUT_OF_RANGE, "POSITION_OUT_OF_RANGE", "Requested position is not greater than or equal to zero, and less than the size of the snapshot.", "org.apache.kafka.common.errors.PositionOutOfRangeException", false},
	{UNKNOWN_TOPIC_ID, "UNKNOWN_TOPIC_ID", "This server does not host this topic ID.", "org.apache.kafka.common.errors.UnknownTopicIdException", true},
	{DUPLICATE_BROKER_REGISTRATION, "DUPLICATE_BROKER_REGISTRATION", "This broker ID is already in use.", "org.apache.kafka.common.errors.DuplicateBrokerRegistrationException", false},
	{BROKER_ID_NOT_REGISTERED, "BROKER_ID_NOT_REGISTERED", "The given broker ID was not registered.", "org.apache.kafka.common.errors.BrokerIdNotRegisteredException", false},
	{INCONSISTENT_TOPIC_ID, "INCONSISTENT_TOPIC_ID", "The log's topic ID did not match the topic ID in the request.", "org.apache.kafka.common.errors.InconsistentTopicIdException", true},
	{INCONSISTENT_CLUSTER_ID, "INCONSISTENT_CLUSTER_ID", "The clusterId in the request does not match that found on the server.", "org.apache.kafka.common.errors.InconsistentClusterIdException", false},
	{TRANSACTIONAL_ID_NOT_FOUND, "TRANSACTIONAL_ID_NOT_FOUND", "The transactionalId could not be found.", "org.apache.kafka.common.errors.TransactionalIdNotFoundException", false},
	{FETCH_SESSION_TOPIC_ID_ERROR, "FETCH_SESSION_TOPIC_ID_ERROR", "The fetch session encountered inconsistent topic ID usage.", "org.apache.kafka.common.errors.FetchSessionTopicIdException", true},
	{INELIGIBLE_REPLICA, "INELIGIBLE_REPLICA", "The new ISR contains at least one ineligible replica.", "org.apache.kafka.common.errors.IneligibleReplicaException", false},
	{NEW_LEADER_ELECTED, "NEW_LEADER_ELECTED", "The AlterPartition request successfully updated the partition state but the leader has changed.", "org.apache.kafka.common.errors.NewLeaderElectedException", false},
	{OFFSET_MOVED_TO_TIERED_STORAGE, "OFFSET_MOVED_TO_TIERED_STORAGE", "The requested offset is moved to tiered storage.", "org.apache.kafka.common.errors.OffsetMovedToTieredStorageException", false},
	{FENCED_MEMBER_EPOCH, "FENCED_MEMBER_EPOCH", "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.", "org.apache.kafka.common.errors.FencedMemberEpochException", false},
	{UNRELEASED_INSTANCE_ID, "UNRELEASED_INSTANCE_ID", "The instance ID is still used by another member in the consumer group. That member must leave first.", "org.apache.kafka.common.errors.UnreleasedInstanceIdException", false},
	{UNSUPPORTED_ASSIGNOR, "UNSUPPORTED_ASSIGNOR", "The assignor or its version range is not supported by the consumer group.", "org.apache.kafka.common.errors.UnsupportedAssignorException", false},
	{STALE_MEMBER_EPOCH, "STALE_MEMBER_EPOCH", "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.", "org.apache.kafka.common.errors.StaleMemberEpochException", false},
	{MISMATCHED_ENDPOINT_TYPE, "MISMATCHED_ENDPOINT_TYPE", "The request was sent to an endpoint of the wrong type.", "org.apache.kafka.common.errors.MismatchedEndpointTypeException", false},
	{UNSUPPORTED_ENDPOINT_TYPE, "UNSUPPORTED_ENDPOINT_TYPE", "This endpoint type is not supported yet.", "org.apache.kafka.common.errors.UnsupportedEndpointTypeException", false},
	{UNKNOWN_CONTROLLER_ID, "UNKNOWN_CONTROLLER_ID", "This controller ID is not known.", "org.apache.kafka.common.errors.UnknownControllerIdException", false},
	{UNKNOWN_SUBSCRIPTION_ID, "UNKNOWN_SUBSCRIPTION_ID", "Client sent a push telemetry request with an invalid or outdated subscription ID.", "org.apache.kafka.common.errors.UnknownSubscriptionIdException", false},
	{TELEMETRY_TOO_LARGE, "TELEMETRY_TOO_LARGE", "Client sent a push telemetry request larger than the maximum size the broker will accept.", "org.apache.kafka.common.errors.TelemetryTooLargeException", false},
	{INVALID_REGISTRATION, "INVALID_REGISTRATION", "The controller has considered the broker registration to be invalid.", "org.apache.kafka.common.errors.InvalidRegistrationException", false},
	{TRANSACTION_ABORTABLE, "TRANSACTION_ABORTABLE", "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.", "org.apache.kafka.common.errors.TransactionAbortableException", false},
	{INVALID_RECORD_STATE, "INVALID_RECORD_STATE", "The record state is invalid. The acknowledgement of delivery could not be completed.", "org.apache.kafka.common.errors.InvalidRecordStateException", false},
	{SHARE_SESSION_NOT_FOUND, "SHARE_SESSION_NOT_FOUND", "The share session was not found.", "org.apache.kafka.common.errors.ShareSessionNotFoundException", true},
	{INVALID_SHARE_SESSION_EPOCH, "INVALID_SHARE_SESSION_EPOCH", "The share session epoch is invalid.", "org.apache.kafka.common.errors.InvalidShareSessionEpochException", true},
	{FENCED_STATE_EPOCH, "FENCED_STATE_EPOCH", "The share coordinator rejected the request because the share-group state epoch did not match.", "org.apache.kafka.common.errors.FencedStateEpochException", false},
	{INVALID_VOTER_KEY, "INVALID_VOTER_KEY", "The voter key doesn't match the receiving replica's key.", "org.apache.kafka.common.errors.InvalidVoterKeyException", false},
	{DUPLICATE_VOTER, "DUPLICATE_VOTER", "The voter is already part of the set of voters.", "org.apache.kafka.common.errors.DuplicateVoterException", false},
	{VOTER_NOT_FOUND, "VOTER_NOT_FOUND", "The voter is not part of the set of voters.", "org.apache.kafka.common.errors.VoterNotFoundException", false},
	{INVALID_REGULAR_EXPRESSION, "INVALID_REGULAR_EXPRESSION", "The regular expression is not valid.", "org.apache.kafka.common.errors.InvalidRegularExpression", false},
}
