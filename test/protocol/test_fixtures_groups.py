"""Byte-exact fixtures for the consumer-group family, written by hand from the
Kafka message definitions (field order, versions, nullability, compact vs.
classic encodings), plus the classic consumer protocol's embedded payloads.

Encoding reminders: classic string = int16 length + UTF-8 (null = ffff);
classic bytes = int32 length; classic array = int32 count (null = ffffffff).
Flexible versions: compact string/bytes/array = uvarint(length + 1), null = 00;
every struct ends with a tagged-field section (uvarint count, then per field
uvarint tag, uvarint size, data). Nullable struct = int8 marker (ff null, 01 present).
"""

import uuid

import pytest

from kafka.errors import ProtocolError, UnsupportedVersionError
from kafka.protocol.apis import groups as G
from kafka.protocol.apis.groups import (
    CONSUMER_GROUP_DESCRIBE,
    CONSUMER_GROUP_HEARTBEAT,
    CONSUMER_PROTOCOL_ASSIGNMENT,
    CONSUMER_PROTOCOL_SUBSCRIPTION,
    DELETE_GROUPS,
    DESCRIBE_GROUPS,
    FIND_COORDINATOR,
    HEARTBEAT,
    JOIN_GROUP,
    LEAVE_GROUP,
    LIST_GROUPS,
    SYNC_GROUP,
)

TOPIC_ID = uuid.UUID("00010203-0405-0607-0809-0a0b0c0d0e0f")
TOPIC_ID_HEX = "000102030405060708090a0b0c0d0e0f"

# ASCII of the strings used below:
#   "g1" 6731   "g2" 6732   "m1" 6d31   "m2" 6d32   "i1" 6931   "t1" 7431
#   "t2" 7432   "r1" 7231   "h" 68   "c" 63   "no" 6e6f   "r" 72   "bye" 627965
#   "range" 72616e6765   "consumer" 636f6e73756d6572   "Stable" 537461626c65
#   "Dead" 44656164   "Empty" 456d707479   "classic" 636c6173736963
#   "uniform" 756e69666f726d   "gone" 676f6e65   "fenced" 66656e636564   "t.*" 742e2a


def h(*parts):
    return bytes.fromhex("".join(parts).replace(" ", ""))


# --------------------------------------------------------------------------
# FindCoordinator (10)
# --------------------------------------------------------------------------

FC_REQ_V1 = FIND_COORDINATOR.Request(key="g1", key_type=1)
FC_REQ_V1_HEX = (
    "0002 6731"  # key: int16 length 2, "g1"
    "01"         # key_type int8 1 (transaction)
)

FC_REQ_V4 = FIND_COORDINATOR.Request(key_type=1, coordinator_keys=["g1", "g2"])
FC_REQ_V4_HEX = (
    "01"         # key_type int8 1
    "03"         # coordinator_keys: compact array, 2 items
    "03 6731"    #   "g1" (compact length 2+1)
    "03 6732"    #   "g2"
    "00"         # tagged fields: none
)

FC_RESP_V1 = FIND_COORDINATOR.Response(
    throttle_time_ms=100, error_code=15, error_message=None, node_id=3, host="h", port=9092)
FC_RESP_V1_HEX = (
    "00000064"   # throttle_time_ms 100
    "000f"       # error_code 15 (COORDINATOR_NOT_AVAILABLE)
    "ffff"       # error_message: null
    "00000003"   # node_id 3
    "0001 68"    # host "h"
    "00002384"   # port 9092
)

FC_RESP_V0 = FIND_COORDINATOR.Response(error_code=0, node_id=7, host="h", port=9092)
FC_RESP_V0_HEX = (
    "0000"       # error_code 0 (v0 has no throttle time nor error message)
    "00000007"   # node_id 7
    "0001 68"    # host "h"
    "00002384"   # port 9092
)

FC_RESP_V4 = FIND_COORDINATOR.Response(throttle_time_ms=5, coordinators=[
    FIND_COORDINATOR.Response.Coordinator(
        key="g1", node_id=1, host="h", port=9092, error_code=0, error_message=None),
    FIND_COORDINATOR.Response.Coordinator(
        key="g2", node_id=-1, host="", port=-1, error_code=15, error_message="no"),
])
FC_RESP_V4_HEX = (
    "00000005"   # throttle_time_ms 5
    "03"         # coordinators: compact array, 2 items
    "03 6731"    #   [0] key "g1"
    "00000001"   #   [0] node_id 1
    "02 68"      #   [0] host "h"
    "00002384"   #   [0] port 9092
    "0000"       #   [0] error_code 0
    "00"         #   [0] error_message null
    "00"         #   [0] tagged fields: none
    "03 6732"    #   [1] key "g2"
    "ffffffff"   #   [1] node_id -1
    "01"         #   [1] host "" (compact length 0+1)
    "ffffffff"   #   [1] port -1
    "000f"       #   [1] error_code 15
    "03 6e6f"    #   [1] error_message "no"
    "00"         #   [1] tagged fields: none
    "00"         # tagged fields: none
)

# --------------------------------------------------------------------------
# JoinGroup (11)
# --------------------------------------------------------------------------

JG_REQ_V5 = JOIN_GROUP.Request(
    group_id="g1", session_timeout_ms=30000, rebalance_timeout_ms=60000, member_id="",
    group_instance_id=None, protocol_type="consumer",
    protocols=[JOIN_GROUP.Request.JoinGroupRequestProtocol(name="range", metadata=b"\x01\x02\x03")])
JG_REQ_V5_HEX = (
    "0002 6731"                # group_id "g1"
    "00007530"                 # session_timeout_ms 30000
    "0000ea60"                 # rebalance_timeout_ms 60000
    "0000"                     # member_id "" (first join)
    "ffff"                     # group_instance_id: null
    "0008 636f6e73756d6572"    # protocol_type "consumer"
    "00000001"                 # protocols: 1 item
    "0005 72616e6765"          #   name "range"
    "00000003 010203"          #   metadata: int32 length 3, 01 02 03
)

JG_REQ_V8 = JOIN_GROUP.Request(
    group_id="g1", session_timeout_ms=30000, rebalance_timeout_ms=60000, member_id="m1",
    group_instance_id="i1", protocol_type="consumer",
    protocols=[JOIN_GROUP.Request.JoinGroupRequestProtocol(name="range", metadata=b"\xab\xcd")],
    reason="r")
JG_REQ_V8_HEX = (
    "03 6731"                  # group_id "g1"
    "00007530"                 # session_timeout_ms 30000
    "0000ea60"                 # rebalance_timeout_ms 60000
    "03 6d31"                  # member_id "m1"
    "03 6931"                  # group_instance_id "i1"
    "09 636f6e73756d6572"      # protocol_type "consumer" (compact length 8+1)
    "02"                       # protocols: compact array, 1 item
    "06 72616e6765"            #   name "range"
    "03 abcd"                  #   metadata: compact bytes, 2 bytes
    "00"                       #   tagged fields: none
    "02 72"                    # reason "r"
    "00"                       # tagged fields: none
)

JG_RESP_V2 = JOIN_GROUP.Response(
    throttle_time_ms=7, error_code=0, generation_id=5, protocol_name="range", leader="m1",
    member_id="m1",
    members=[JOIN_GROUP.Response.JoinGroupResponseMember(member_id="m1", metadata=b"\xab\xcd")])
JG_RESP_V2_HEX = (
    "00000007"                 # throttle_time_ms 7
    "0000"                     # error_code 0
    "00000005"                 # generation_id 5
    "0005 72616e6765"          # protocol_name "range"
    "0002 6d31"                # leader "m1"
    "0002 6d31"                # member_id "m1"
    "00000001"                 # members: 1 item
    "0002 6d31"                #   member_id "m1"
    "00000002 abcd"            #   metadata: 2 bytes
)

JG_RESP_V9 = JOIN_GROUP.Response(
    throttle_time_ms=0, error_code=79, generation_id=-1, protocol_type=None, protocol_name=None,
    leader="", skip_assignment=True, member_id="m1",
    members=[JOIN_GROUP.Response.JoinGroupResponseMember(
        member_id="m2", group_instance_id=None, metadata=b"")])
JG_RESP_V9_HEX = (
    "00000000"                 # throttle_time_ms 0
    "004f"                     # error_code 79 (MEMBER_ID_REQUIRED)
    "ffffffff"                 # generation_id -1
    "00"                       # protocol_type: null
    "00"                       # protocol_name: null (nullable from v7)
    "01"                       # leader ""
    "01"                       # skip_assignment true
    "03 6d31"                  # member_id "m1"
    "02"                       # members: compact array, 1 item
    "03 6d32"                  #   member_id "m2"
    "00"                       #   group_instance_id: null
    "01"                       #   metadata: empty compact bytes
    "00"                       #   tagged fields: none
    "00"                       # tagged fields: none
)

# --------------------------------------------------------------------------
# Heartbeat (12)
# --------------------------------------------------------------------------

HB_REQ_V3 = HEARTBEAT.Request(group_id="g1", generation_id=5, member_id="m1", group_instance_id="i1")
HB_REQ_V3_HEX = (
    "0002 6731"  # group_id "g1"
    "00000005"   # generation_id 5
    "0002 6d31"  # member_id "m1"
    "0002 6931"  # group_instance_id "i1"
)

HB_REQ_V4 = HEARTBEAT.Request(group_id="g1", generation_id=5, member_id="m1", group_instance_id=None)
HB_REQ_V4_HEX = (
    "03 6731"    # group_id "g1"
    "00000005"   # generation_id 5
    "03 6d31"    # member_id "m1"
    "00"         # group_instance_id: null
    "00"         # tagged fields: none
)

HB_RESP_V1 = HEARTBEAT.Response(throttle_time_ms=10, error_code=27)
HB_RESP_V1_HEX = (
    "0000000a"   # throttle_time_ms 10
    "001b"       # error_code 27 (REBALANCE_IN_PROGRESS)
)

# A tagged field this client does not know (tag 5) is kept and written back.
HB_RESP_V4 = HEARTBEAT.Response(throttle_time_ms=0, error_code=0, unknown_tags={5: b"\x01"})
HB_RESP_V4_HEX = (
    "00000000"   # throttle_time_ms 0
    "0000"       # error_code 0
    "01"         # tagged fields: 1
    "05 01 01"   #   tag 5, size 1, data 01
)

# --------------------------------------------------------------------------
# LeaveGroup (13)
# --------------------------------------------------------------------------

LG_REQ_V0 = LEAVE_GROUP.Request(group_id="g1", member_id="m1")
LG_REQ_V0_HEX = (
    "0002 6731"  # group_id "g1"
    "0002 6d31"  # member_id "m1"
)

LG_REQ_V3 = LEAVE_GROUP.Request(group_id="g1", members=[
    LEAVE_GROUP.Request.MemberIdentity(member_id="m1", group_instance_id="i1"),
    LEAVE_GROUP.Request.MemberIdentity(member_id="m2", group_instance_id=None),
])
LG_REQ_V3_HEX = (
    "0002 6731"  # group_id "g1" (no member_id from v3)
    "00000002"   # members: 2 items
    "0002 6d31"  #   [0] member_id "m1"
    "0002 6931"  #   [0] group_instance_id "i1"
    "0002 6d32"  #   [1] member_id "m2"
    "ffff"       #   [1] group_instance_id: null
)

LG_REQ_V5 = LEAVE_GROUP.Request(group_id="g1", members=[
    LEAVE_GROUP.Request.MemberIdentity(member_id="m1", group_instance_id=None, reason="bye"),
])
LG_REQ_V5_HEX = (
    "03 6731"    # group_id "g1"
    "02"         # members: compact array, 1 item
    "03 6d31"    #   member_id "m1"
    "00"         #   group_instance_id: null
    "04 627965"  #   reason "bye"
    "00"         #   tagged fields: none
    "00"         # tagged fields: none
)

LG_RESP_V2 = LEAVE_GROUP.Response(throttle_time_ms=1, error_code=0)
LG_RESP_V2_HEX = (
    "00000001"   # throttle_time_ms 1
    "0000"       # error_code 0
)

LG_RESP_V4 = LEAVE_GROUP.Response(throttle_time_ms=0, error_code=0, members=[
    LEAVE_GROUP.Response.MemberResponse(member_id="m1", group_instance_id="i1", error_code=25),
])
LG_RESP_V4_HEX = (
    "00000000"   # throttle_time_ms 0
    "0000"       # error_code 0
    "02"         # members: compact array, 1 item
    "03 6d31"    #   member_id "m1"
    "03 6931"    #   group_instance_id "i1"
    "0019"       #   error_code 25 (UNKNOWN_MEMBER_ID)
    "00"         #   tagged fields: none
    "00"         # tagged fields: none
)

# --------------------------------------------------------------------------
# SyncGroup (14)
# --------------------------------------------------------------------------

SG_REQ_V3 = SYNC_GROUP.Request(
    group_id="g1", generation_id=5, member_id="m1", group_instance_id="i1",
    assignments=[SYNC_GROUP.Request.SyncGroupRequestAssignment(member_id="m1", assignment=b"\x00\x01")])
SG_REQ_V3_HEX = (
    "0002 6731"      # group_id "g1"
    "00000005"       # generation_id 5
    "0002 6d31"      # member_id "m1"
    "0002 6931"      # group_instance_id "i1"
    "00000001"       # assignments: 1 item
    "0002 6d31"      #   member_id "m1"
    "00000002 0001"  #   assignment: 2 bytes
)

SG_REQ_V5 = SYNC_GROUP.Request(
    group_id="g1", generation_id=5, member_id="m1", group_instance_id=None,
    protocol_type="consumer", protocol_name="range",
    assignments=[SYNC_GROUP.Request.SyncGroupRequestAssignment(member_id="m1", assignment=b"\x00\x01")])
SG_REQ_V5_HEX = (
    "03 6731"                # group_id "g1"
    "00000005"               # generation_id 5
    "03 6d31"                # member_id "m1"
    "00"                     # group_instance_id: null
    "09 636f6e73756d6572"    # protocol_type "consumer"
    "06 72616e6765"          # protocol_name "range"
    "02"                     # assignments: compact array, 1 item
    "03 6d31"                #   member_id "m1"
    "03 0001"                #   assignment: compact bytes, 2 bytes
    "00"                     #   tagged fields: none
    "00"                     # tagged fields: none
)

SG_RESP_V1 = SYNC_GROUP.Response(throttle_time_ms=2, error_code=0, assignment=b"\x01\x02\x03")
SG_RESP_V1_HEX = (
    "00000002"          # throttle_time_ms 2
    "0000"              # error_code 0
    "00000003 010203"   # assignment: 3 bytes
)

SG_RESP_V5 = SYNC_GROUP.Response(
    throttle_time_ms=0, error_code=0, protocol_type="consumer", protocol_name=None, assignment=b"")
SG_RESP_V5_HEX = (
    "00000000"               # throttle_time_ms 0
    "0000"                   # error_code 0
    "09 636f6e73756d6572"    # protocol_type "consumer"
    "00"                     # protocol_name: null
    "01"                     # assignment: empty compact bytes
    "00"                     # tagged fields: none
)

# --------------------------------------------------------------------------
# DescribeGroups (15)
# --------------------------------------------------------------------------

DG_REQ_V3 = DESCRIBE_GROUPS.Request(groups=["g1", "g2"], include_authorized_operations=True)
DG_REQ_V3_HEX = (
    "00000002"   # groups: 2 items
    "0002 6731"  #   "g1"
    "0002 6732"  #   "g2"
    "01"         # include_authorized_operations true
)

DG_REQ_V5 = DESCRIBE_GROUPS.Request(groups=["g1"], include_authorized_operations=False)
DG_REQ_V5_HEX = (
    "02 03 6731"  # groups: compact array, 1 item, "g1"
    "00"          # include_authorized_operations false
    "00"          # tagged fields: none
)

_DG = DESCRIBE_GROUPS.Response.DescribedGroup
DG_RESP_V4 = DESCRIBE_GROUPS.Response(throttle_time_ms=0, groups=[_DG(
    error_code=0, group_id="g1", group_state="Stable", protocol_type="consumer",
    protocol_data="range",
    members=[_DG.DescribedGroupMember(
        member_id="m1", group_instance_id="i1", client_id="c", client_host="h",
        member_metadata=b"\xaa", member_assignment=b"")],
    authorized_operations=-2147483648)])
DG_RESP_V4_HEX = (
    "00000000"                 # throttle_time_ms 0
    "00000001"                 # groups: 1 item
    "0000"                     #   error_code 0
    "0002 6731"                #   group_id "g1"
    "0006 537461626c65"        #   group_state "Stable"
    "0008 636f6e73756d6572"    #   protocol_type "consumer"
    "0005 72616e6765"          #   protocol_data "range"
    "00000001"                 #   members: 1 item
    "0002 6d31"                #     member_id "m1"
    "0002 6931"                #     group_instance_id "i1"
    "0001 63"                  #     client_id "c"
    "0001 68"                  #     client_host "h"
    "00000001 aa"              #     member_metadata: 1 byte
    "00000000"                 #     member_assignment: 0 bytes
    "80000000"                 #   authorized_operations INT32_MIN (not requested)
)

DG_RESP_V6 = DESCRIBE_GROUPS.Response(throttle_time_ms=0, groups=[_DG(
    error_code=69, error_message="gone", group_id="g1", group_state="Dead", protocol_type="",
    protocol_data="", members=[], authorized_operations=8)])
DG_RESP_V6_HEX = (
    "00000000"     # throttle_time_ms 0
    "02"           # groups: compact array, 1 item
    "0045"         #   error_code 69 (GROUP_ID_NOT_FOUND)
    "05 676f6e65"  #   error_message "gone"
    "03 6731"      #   group_id "g1"
    "05 44656164"  #   group_state "Dead"
    "01"           #   protocol_type ""
    "01"           #   protocol_data ""
    "01"           #   members: empty compact array
    "00000008"     #   authorized_operations 8
    "00"           #   tagged fields: none
    "00"           # tagged fields: none
)

# --------------------------------------------------------------------------
# ListGroups (16)
# --------------------------------------------------------------------------

LIST_REQ_V0 = LIST_GROUPS.Request()
LIST_REQ_V0_HEX = ""  # v0-2 requests have no fields at all

LIST_REQ_V5 = LIST_GROUPS.Request(states_filter=[], types_filter=["consumer"])
LIST_REQ_V5_HEX = (
    "01"                       # states_filter: empty compact array
    "02 09 636f6e73756d6572"   # types_filter: 1 item, "consumer"
    "00"                       # tagged fields: none
)

LIST_RESP_V1 = LIST_GROUPS.Response(throttle_time_ms=3, error_code=0, groups=[
    LIST_GROUPS.Response.ListedGroup(group_id="g1", protocol_type="consumer")])
LIST_RESP_V1_HEX = (
    "00000003"                 # throttle_time_ms 3
    "0000"                     # error_code 0
    "00000001"                 # groups: 1 item
    "0002 6731"                #   group_id "g1"
    "0008 636f6e73756d6572"    #   protocol_type "consumer"
)

LIST_RESP_V5 = LIST_GROUPS.Response(throttle_time_ms=0, error_code=0, groups=[
    LIST_GROUPS.Response.ListedGroup(
        group_id="g1", protocol_type="", group_state="Empty", group_type="classic")])
LIST_RESP_V5_HEX = (
    "00000000"           # throttle_time_ms 0
    "0000"               # error_code 0
    "02"                 # groups: compact array, 1 item
    "03 6731"            #   group_id "g1"
    "01"                 #   protocol_type ""
    "06 456d707479"      #   group_state "Empty"
    "08 636c6173736963"  #   group_type "classic"
    "00"                 #   tagged fields: none
    "00"                 # tagged fields: none
)

# --------------------------------------------------------------------------
# DeleteGroups (42)
# --------------------------------------------------------------------------

DEL_REQ_V1 = DELETE_GROUPS.Request(groups_names=["g1"])
DEL_REQ_V1_HEX = (
    "00000001"   # groups_names: 1 item
    "0002 6731"  #   "g1"
)

DEL_REQ_V2 = DELETE_GROUPS.Request(groups_names=["g1"])
DEL_REQ_V2_HEX = (
    "02 03 6731"  # groups_names: compact array, 1 item, "g1"
    "00"          # tagged fields: none
)

DEL_RESP_V1 = DELETE_GROUPS.Response(throttle_time_ms=0, results=[
    DELETE_GROUPS.Response.DeletableGroupResult(group_id="g1", error_code=69)])
DEL_RESP_V1_HEX = (
    "00000000"   # throttle_time_ms 0
    "00000001"   # results: 1 item
    "0002 6731"  #   group_id "g1"
    "0045"       #   error_code 69 (GROUP_ID_NOT_FOUND)
)

DEL_RESP_V2 = DELETE_GROUPS.Response(throttle_time_ms=4, results=[
    DELETE_GROUPS.Response.DeletableGroupResult(group_id="g1", error_code=0)])
DEL_RESP_V2_HEX = (
    "00000004"   # throttle_time_ms 4
    "02"         # results: compact array, 1 item
    "03 6731"    #   group_id "g1"
    "0000"       #   error_code 0
    "00"         #   tagged fields: none
    "00"         # tagged fields: none
)

# --------------------------------------------------------------------------
# ConsumerGroupHeartbeat (68) -- flexible in every version
# --------------------------------------------------------------------------

CGH_REQ_V0 = CONSUMER_GROUP_HEARTBEAT.Request(
    group_id="g1", member_id="m1", member_epoch=0, instance_id=None, rack_id="r1",
    rebalance_timeout_ms=300000, subscribed_topic_names=["t1"], server_assignor=None,
    topic_partitions=[CONSUMER_GROUP_HEARTBEAT.Request.TopicPartitions(
        topic_id=TOPIC_ID, partitions=[0, 1])])
CGH_REQ_V0_HEX = (
    "03 6731"             # group_id "g1"
    "03 6d31"             # member_id "m1"
    "00000000"            # member_epoch 0 (join)
    "00"                  # instance_id: null
    "03 7231"             # rack_id "r1"
    "000493e0"            # rebalance_timeout_ms 300000
    "02 03 7431"          # subscribed_topic_names: 1 item, "t1"
    "00"                  # server_assignor: null
    "02"                  # topic_partitions: compact array, 1 item
    + TOPIC_ID_HEX +      #   topic_id (16 bytes)
    "03 00000000 00000001"  # partitions: 2 items, 0 and 1
    "00"                  #   tagged fields: none
    "00"                  # tagged fields: none
)

CGH_REQ_V1 = CONSUMER_GROUP_HEARTBEAT.Request(
    group_id="g1", member_id="m1", member_epoch=-1, instance_id=None, rack_id=None,
    rebalance_timeout_ms=-1, subscribed_topic_names=None, subscribed_topic_regex="t.*",
    server_assignor="uniform", topic_partitions=None)
CGH_REQ_V1_HEX = (
    "03 6731"             # group_id "g1"
    "03 6d31"             # member_id "m1"
    "ffffffff"            # member_epoch -1 (leave)
    "00"                  # instance_id: null
    "00"                  # rack_id: null
    "ffffffff"            # rebalance_timeout_ms -1 (unchanged)
    "00"                  # subscribed_topic_names: null (unchanged)
    "04 742e2a"           # subscribed_topic_regex "t.*" (v1+)
    "08 756e69666f726d"   # server_assignor "uniform"
    "00"                  # topic_partitions: null (unchanged)
    "00"                  # tagged fields: none
)

_CGH_ASSIGNMENT = CONSUMER_GROUP_HEARTBEAT.Response.Assignment
CGH_RESP_V0 = CONSUMER_GROUP_HEARTBEAT.Response(
    throttle_time_ms=0, error_code=0, error_message=None, member_id="m1", member_epoch=1,
    heartbeat_interval_ms=5000,
    assignment=_CGH_ASSIGNMENT(topic_partitions=[
        _CGH_ASSIGNMENT.TopicPartitions(topic_id=TOPIC_ID, partitions=[2])]))
CGH_RESP_V0_HEX = (
    "00000000"            # throttle_time_ms 0
    "0000"                # error_code 0
    "00"                  # error_message: null
    "03 6d31"             # member_id "m1"
    "00000001"            # member_epoch 1
    "00001388"            # heartbeat_interval_ms 5000
    "01"                  # assignment: present
    "02"                  #   topic_partitions: compact array, 1 item
    + TOPIC_ID_HEX +      #     topic_id
    "02 00000002"         #     partitions: 1 item, 2
    "00"                  #     tagged fields: none
    "00"                  #   tagged fields: none
    "00"                  # tagged fields: none
)

CGH_RESP_V1 = CONSUMER_GROUP_HEARTBEAT.Response(
    throttle_time_ms=0, error_code=110, error_message="fenced", member_id=None, member_epoch=0,
    heartbeat_interval_ms=0, assignment=None)
CGH_RESP_V1_HEX = (
    "00000000"            # throttle_time_ms 0
    "006e"                # error_code 110 (FENCED_MEMBER_EPOCH)
    "07 66656e636564"     # error_message "fenced"
    "00"                  # member_id: null
    "00000000"            # member_epoch 0
    "00000000"            # heartbeat_interval_ms 0
    "ff"                  # assignment: null
    "00"                  # tagged fields: none
)

# --------------------------------------------------------------------------
# ConsumerGroupDescribe (69) -- flexible in every version
# --------------------------------------------------------------------------

CGD_REQ_V0 = CONSUMER_GROUP_DESCRIBE.Request(group_ids=["g1"], include_authorized_operations=True)
CGD_REQ_V0_HEX = (
    "02 03 6731"  # group_ids: compact array, 1 item, "g1"
    "01"          # include_authorized_operations true
    "00"          # tagged fields: none
)

CGD_REQ_V1 = CONSUMER_GROUP_DESCRIBE.Request(group_ids=[], include_authorized_operations=False)
CGD_REQ_V1_HEX = (
    "01"          # group_ids: empty compact array
    "00"          # include_authorized_operations false
    "00"          # tagged fields: none
)

_CGD_GROUP = CONSUMER_GROUP_DESCRIBE.Response.DescribedGroup
_CGD_MEMBER = _CGD_GROUP.Member
_CGD_ASSIGNMENT = _CGD_MEMBER.Assignment


def _cgd_response(member_type):
    return CONSUMER_GROUP_DESCRIBE.Response(throttle_time_ms=0, groups=[_CGD_GROUP(
        error_code=0, error_message=None, group_id="g1", group_state="Stable", group_epoch=3,
        assignment_epoch=3, assignor_name="uniform",
        members=[_CGD_MEMBER(
            member_id="m1", instance_id=None, rack_id=None, member_epoch=3, client_id="c",
            client_host="h", subscribed_topic_names=["t1"], subscribed_topic_regex=None,
            assignment=_CGD_ASSIGNMENT(topic_partitions=[_CGD_ASSIGNMENT.TopicPartitions(
                topic_id=TOPIC_ID, topic_name="t1", partitions=[0])]),
            target_assignment=_CGD_ASSIGNMENT(topic_partitions=[]),
            member_type=member_type)],
        authorized_operations=-2147483648)])


def _cgd_response_hex(member_type_hex):
    return (
        "00000000"            # throttle_time_ms 0
        "02"                  # groups: compact array, 1 item
        "0000"                #   error_code 0
        "00"                  #   error_message: null
        "03 6731"             #   group_id "g1"
        "07 537461626c65"     #   group_state "Stable"
        "00000003"            #   group_epoch 3
        "00000003"            #   assignment_epoch 3
        "08 756e69666f726d"   #   assignor_name "uniform"
        "02"                  #   members: compact array, 1 item
        "03 6d31"             #     member_id "m1"
        "00"                  #     instance_id: null
        "00"                  #     rack_id: null
        "00000003"            #     member_epoch 3
        "02 63"               #     client_id "c"
        "02 68"               #     client_host "h"
        "02 03 7431"          #     subscribed_topic_names: 1 item, "t1"
        "00"                  #     subscribed_topic_regex: null
        "02"                  #     assignment.topic_partitions: 1 item
        + TOPIC_ID_HEX +      #       topic_id
        "03 7431"             #       topic_name "t1"
        "02 00000000"         #       partitions: 1 item, 0
        "00"                  #       tagged fields: none
        "00"                  #     assignment tagged fields: none
        "01"                  #     target_assignment.topic_partitions: empty
        "00"                  #     target_assignment tagged fields: none
        + member_type_hex +   #     member_type (v1+ only)
        "00"                  #     member tagged fields: none
        "80000000"            #   authorized_operations INT32_MIN
        "00"                  #   group tagged fields: none
        "00"                  # tagged fields: none
    )


CGD_RESP_V0 = _cgd_response(-1)
CGD_RESP_V0_HEX = _cgd_response_hex("")        # v0 has no member_type
CGD_RESP_V1 = _cgd_response(1)
CGD_RESP_V1_HEX = _cgd_response_hex("01")      # member_type int8 1 (consumer member)


FIXTURES = [
    # (api, "request"/"response", version, value, hex)
    (FIND_COORDINATOR, "request", 1, FC_REQ_V1, FC_REQ_V1_HEX),
    (FIND_COORDINATOR, "request", 4, FC_REQ_V4, FC_REQ_V4_HEX),
    (FIND_COORDINATOR, "response", 0, FC_RESP_V0, FC_RESP_V0_HEX),
    (FIND_COORDINATOR, "response", 1, FC_RESP_V1, FC_RESP_V1_HEX),
    (FIND_COORDINATOR, "response", 4, FC_RESP_V4, FC_RESP_V4_HEX),
    (JOIN_GROUP, "request", 5, JG_REQ_V5, JG_REQ_V5_HEX),
    (JOIN_GROUP, "request", 8, JG_REQ_V8, JG_REQ_V8_HEX),
    (JOIN_GROUP, "response", 2, JG_RESP_V2, JG_RESP_V2_HEX),
    (JOIN_GROUP, "response", 9, JG_RESP_V9, JG_RESP_V9_HEX),
    (HEARTBEAT, "request", 3, HB_REQ_V3, HB_REQ_V3_HEX),
    (HEARTBEAT, "request", 4, HB_REQ_V4, HB_REQ_V4_HEX),
    (HEARTBEAT, "response", 1, HB_RESP_V1, HB_RESP_V1_HEX),
    (HEARTBEAT, "response", 4, HB_RESP_V4, HB_RESP_V4_HEX),
    (LEAVE_GROUP, "request", 0, LG_REQ_V0, LG_REQ_V0_HEX),
    (LEAVE_GROUP, "request", 3, LG_REQ_V3, LG_REQ_V3_HEX),
    (LEAVE_GROUP, "request", 5, LG_REQ_V5, LG_REQ_V5_HEX),
    (LEAVE_GROUP, "response", 2, LG_RESP_V2, LG_RESP_V2_HEX),
    (LEAVE_GROUP, "response", 4, LG_RESP_V4, LG_RESP_V4_HEX),
    (SYNC_GROUP, "request", 3, SG_REQ_V3, SG_REQ_V3_HEX),
    (SYNC_GROUP, "request", 5, SG_REQ_V5, SG_REQ_V5_HEX),
    (SYNC_GROUP, "response", 1, SG_RESP_V1, SG_RESP_V1_HEX),
    (SYNC_GROUP, "response", 5, SG_RESP_V5, SG_RESP_V5_HEX),
    (DESCRIBE_GROUPS, "request", 3, DG_REQ_V3, DG_REQ_V3_HEX),
    (DESCRIBE_GROUPS, "request", 5, DG_REQ_V5, DG_REQ_V5_HEX),
    (DESCRIBE_GROUPS, "response", 4, DG_RESP_V4, DG_RESP_V4_HEX),
    (DESCRIBE_GROUPS, "response", 6, DG_RESP_V6, DG_RESP_V6_HEX),
    (LIST_GROUPS, "request", 0, LIST_REQ_V0, LIST_REQ_V0_HEX),
    (LIST_GROUPS, "request", 5, LIST_REQ_V5, LIST_REQ_V5_HEX),
    (LIST_GROUPS, "response", 1, LIST_RESP_V1, LIST_RESP_V1_HEX),
    (LIST_GROUPS, "response", 5, LIST_RESP_V5, LIST_RESP_V5_HEX),
    (DELETE_GROUPS, "request", 1, DEL_REQ_V1, DEL_REQ_V1_HEX),
    (DELETE_GROUPS, "request", 2, DEL_REQ_V2, DEL_REQ_V2_HEX),
    (DELETE_GROUPS, "response", 1, DEL_RESP_V1, DEL_RESP_V1_HEX),
    (DELETE_GROUPS, "response", 2, DEL_RESP_V2, DEL_RESP_V2_HEX),
    (CONSUMER_GROUP_HEARTBEAT, "request", 0, CGH_REQ_V0, CGH_REQ_V0_HEX),
    (CONSUMER_GROUP_HEARTBEAT, "request", 1, CGH_REQ_V1, CGH_REQ_V1_HEX),
    (CONSUMER_GROUP_HEARTBEAT, "response", 0, CGH_RESP_V0, CGH_RESP_V0_HEX),
    (CONSUMER_GROUP_HEARTBEAT, "response", 1, CGH_RESP_V1, CGH_RESP_V1_HEX),
    (CONSUMER_GROUP_DESCRIBE, "request", 0, CGD_REQ_V0, CGD_REQ_V0_HEX),
    (CONSUMER_GROUP_DESCRIBE, "request", 1, CGD_REQ_V1, CGD_REQ_V1_HEX),
    (CONSUMER_GROUP_DESCRIBE, "response", 0, CGD_RESP_V0, CGD_RESP_V0_HEX),
    (CONSUMER_GROUP_DESCRIBE, "response", 1, CGD_RESP_V1, CGD_RESP_V1_HEX),
]


def _fixture_id(fixture):
    api, direction, version, _, _ = fixture
    return "%s-%s-v%d" % (api.name, direction, version)


@pytest.mark.parametrize("fixture", FIXTURES, ids=[_fixture_id(f) for f in FIXTURES])
def test_encode(fixture):
    api, direction, version, value, hex_ = fixture
    encode = api.encode_request if direction == "request" else api.encode_response
    assert encode(value, version) == h(hex_)


@pytest.mark.parametrize("fixture", FIXTURES, ids=[_fixture_id(f) for f in FIXTURES])
def test_decode(fixture):
    api, direction, version, value, hex_ = fixture
    decode = api.decode_request if direction == "request" else api.decode_response
    assert decode(h(hex_), version) == value


def test_declared_ranges():
    expected = {
        # api: (lowest declared, highest, first flexible, lowest sent, route)
        FIND_COORDINATOR: (0, 6, 3, 0, "any"),
        JOIN_GROUP: (0, 9, 6, 0, "group_coordinator"),
        HEARTBEAT: (0, 4, 4, 0, "group_coordinator"),
        LEAVE_GROUP: (0, 5, 4, 0, "group_coordinator"),
        SYNC_GROUP: (0, 5, 4, 0, "group_coordinator"),
        DESCRIBE_GROUPS: (0, 6, 5, 0, "group_coordinator"),
        LIST_GROUPS: (0, 5, 3, 0, "any"),
        DELETE_GROUPS: (0, 2, 2, 0, "group_coordinator"),
        CONSUMER_GROUP_HEARTBEAT: (0, 1, 0, 0, "group_coordinator"),
        CONSUMER_GROUP_DESCRIBE: (0, 1, 0, 0, "group_coordinator"),
    }
    for api, (lo, hi, flex, send, route) in expected.items():
        assert (api.min_version, api.max_version, api.flexible_from, api.min_send, api.route) == \
            (lo, hi, flex, send, route), api.name


def test_removed_version_still_decodes():
    # DeleteGroups v0 has the same layout as v1.
    assert DELETE_GROUPS.decode_response(h(DEL_RESP_V1_HEX), 0) == DEL_RESP_V1


def test_defaults_of_absent_fields():
    # v0 of JoinGroup has no rebalance timeout: the declared default -1 appears.
    value = JOIN_GROUP.decode_request(h(
        "0002 6731"              # group_id "g1"
        "00007530"               # session_timeout_ms 30000
        "0000"                   # member_id ""
        "0008 636f6e73756d6572"  # protocol_type "consumer"
        "00000000"               # protocols: none
    ), 0)
    assert value.rebalance_timeout_ms == -1
    assert value.group_instance_id is None
    assert value.reason is None
    # v0 DescribeGroups responses carry no authorized operations.
    resp = DESCRIBE_GROUPS.decode_response(h(
        "00000001"    # groups: 1 item
        "0000"        #   error_code 0
        "0002 6731"   #   group_id "g1"
        "0000"        #   group_state ""
        "0000"        #   protocol_type ""
        "0000"        #   protocol_data ""
        "00000000"    #   members: none
    ), 0)
    assert resp.groups[0].authorized_operations == -2147483648
    assert resp.throttle_time_ms == 0


def test_non_ignorable_fields_refuse_old_versions():
    # FindCoordinator v4 replaced the single key by a list.
    with pytest.raises(UnsupportedVersionError):
        FIND_COORDINATOR.encode_request(FIND_COORDINATOR.Request(key="g1"), 4)
    # A regex subscription needs ConsumerGroupHeartbeat v1.
    with pytest.raises(UnsupportedVersionError):
        CONSUMER_GROUP_HEARTBEAT.encode_request(CGH_REQ_V1, 0)
    # Static membership needs JoinGroup v5.
    with pytest.raises(UnsupportedVersionError):
        JOIN_GROUP.encode_request(JG_REQ_V8, 4)


def test_ignorable_fields_are_dropped():
    # The join reason is ignorable: v7 simply omits it.
    req = JOIN_GROUP.Request(
        group_id="g1", session_timeout_ms=1, member_id="", protocol_type="consumer",
        protocols=[], reason="why")
    assert JOIN_GROUP.encode_request(req, 7) == h(
        "03 6731"                # group_id "g1"
        "00000001"               # session_timeout_ms 1
        "ffffffff"               # rebalance_timeout_ms -1 (default)
        "01"                     # member_id ""
        "00"                     # group_instance_id: null
        "09 636f6e73756d6572"    # protocol_type "consumer"
        "01"                     # protocols: empty compact array
        "00"                     # tagged fields: none
    )
    # The member type is ignorable: v0 omits it.
    assert CONSUMER_GROUP_DESCRIBE.encode_response(CGD_RESP_V1, 0) == h(CGD_RESP_V0_HEX)


# --------------------------------------------------------------------------
# Consumer protocol payloads (JoinGroup metadata / SyncGroup assignment)
# --------------------------------------------------------------------------

Subscription = CONSUMER_PROTOCOL_SUBSCRIPTION.cls
Assignment = CONSUMER_PROTOCOL_ASSIGNMENT.cls

SUB_V0 = Subscription(topics=["t1"], user_data=None)
SUB_V0_HEX = (
    "0000"        # version 0
    "00000001"    # topics: 1 item
    "0002 7431"   #   "t1"
    "ffffffff"    # user_data: null
)

SUB_V3 = Subscription(
    topics=["t1", "t2"], user_data=b"\xab\xcd",
    owned_partitions=[Subscription.TopicPartition(topic="t1", partitions=[0, 1])],
    generation_id=7, rack_id="r1")
SUB_V3_BODY_HEX = (
    "00000002"            # topics: 2 items
    "0002 7431"           #   "t1"
    "0002 7432"           #   "t2"
    "00000002 abcd"       # user_data: 2 bytes
    "00000001"            # owned_partitions: 1 item
    "0002 7431"           #   topic "t1"
    "00000002 00000000 00000001"  # partitions: 2 items, 0 and 1
    "00000007"            # generation_id 7
    "0002 7231"           # rack_id "r1"
)
SUB_V3_HEX = "0003" + SUB_V3_BODY_HEX  # version 3, then the body

SUB_V1 = Subscription(
    topics=["t1"], user_data=b"",
    owned_partitions=[Subscription.TopicPartition(topic="t1", partitions=[4])])
SUB_V1_HEX = (
    "0001"                # version 1
    "00000001 0002 7431"  # topics: 1 item, "t1"
    "00000000"            # user_data: empty (not null)
    "00000001"            # owned_partitions: 1 item
    "0002 7431"           #   topic "t1"
    "00000001 00000004"   #   partitions: 1 item, 4
)

ASG_V0 = Assignment(
    assigned_partitions=[Assignment.TopicPartition(topic="t1", partitions=[0])], user_data=None)
ASG_V0_HEX = (
    "0000"                # version 0
    "00000001"            # assigned_partitions: 1 item
    "0002 7431"           #   topic "t1"
    "00000001 00000000"   #   partitions: 1 item, 0
    "ffffffff"            # user_data: null
)

ASG_V3 = Assignment(
    assigned_partitions=[
        Assignment.TopicPartition(topic="t1", partitions=[0, 2]),
        Assignment.TopicPartition(topic="t2", partitions=[]),
    ],
    user_data=b"\x01")
ASG_V3_HEX = (
    "0003"                # version 3
    "00000002"            # assigned_partitions: 2 items
    "0002 7431"           #   topic "t1"
    "00000002 00000000 00000002"  # partitions 0 and 2
    "0002 7432"           #   topic "t2"
    "00000000"            #   partitions: none
    "00000001 01"         # user_data: 1 byte
)


@pytest.mark.parametrize("value, version, hex_", [
    (SUB_V0, 0, SUB_V0_HEX),
    (SUB_V1, 1, SUB_V1_HEX),
    (SUB_V3, 3, SUB_V3_HEX),
], ids=["v0", "v1", "v3"])
def test_subscription_fixtures(value, version, hex_):
    assert G.encode_subscription(value, version) == h(hex_)
    assert G.decode_subscription(h(hex_)) == value


@pytest.mark.parametrize("value, version, hex_", [
    (ASG_V0, 0, ASG_V0_HEX),
    (ASG_V3, 3, ASG_V3_HEX),
], ids=["v0", "v3"])
def test_assignment_fixtures(value, version, hex_):
    assert G.encode_assignment(value, version) == h(hex_)
    assert G.decode_assignment(h(hex_)) == value


def test_subscription_newer_version_read_as_newest_known():
    # A v9 subscription from a future client: read with the v3 layout, the
    # fields it appended (here 4 bytes) ignored.
    data = h("0009", SUB_V3_BODY_HEX, "deadbeef")
    assert G.decode_subscription(data) == SUB_V3


def test_assignment_newer_version_read_as_newest_known():
    data = h("0004", ASG_V3_HEX[4:], "00")
    assert G.decode_assignment(data) == ASG_V3


def test_subscription_older_version_defaults():
    value = G.decode_subscription(h(SUB_V0_HEX))
    assert value.owned_partitions == []
    assert value.generation_id == -1
    assert value.rack_id is None


def test_subscription_ignorable_fields_dropped_for_old_versions():
    assert G.encode_subscription(SUB_V3, 0) == h(
        "0000"                          # version 0
        "00000002 0002 7431 0002 7432"  # topics "t1", "t2"
        "00000002 abcd"                 # user_data
    )


def test_payload_versions_out_of_range_refused():
    with pytest.raises(UnsupportedVersionError):
        G.encode_subscription(SUB_V0, 4)
    with pytest.raises(UnsupportedVersionError):
        G.encode_assignment(ASG_V0, -1)


@pytest.mark.parametrize("data", [
    b"",                                   # no version
    b"\x00",                               # half a version
    h("ffff", "00000000", "ffffffff"),     # negative version
    h("0000", "00000002", "0002 7431"),    # 2 topics announced, 1 present
    h("0000", "00000001", "0005 7431"),    # string runs past the end
])
def test_malformed_payloads_raise_protocol_error(data):
    with pytest.raises(ProtocolError):
        G.decode_subscription(data)
    with pytest.raises(ProtocolError):
        G.decode_assignment(data)
