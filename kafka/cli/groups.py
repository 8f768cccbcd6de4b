"""``kafkawire groups``: list consumer groups and describe their offsets, lag and members.

Follows ``kafka-consumer-groups.sh``: ``groups list`` prints the group ids,
``groups describe GROUP`` prints one row per partition with the committed
offset, the log end offset, the lag between them and, when the broker can
say, the member consuming it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Optional, Sequence

from kafka import errors
from kafka.cli import ArgumentParser
from kafka.cli.options import add_connection_options
from kafka.cli.topics import connect
from kafka.structs import TopicPartition

HEADINGS = ("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST",
            "CLIENT-ID")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``groups`` command and its actions."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "groups", help="list consumer groups, show their offsets and lag",
        description="Inspect consumer groups, like kafka-consumer-groups.sh.")
    actions = parser.add_subparsers(title="actions", dest="action", metavar="ACTION", parser_class=ArgumentParser)
    actions.required = True
    listing = actions.add_parser("list", help="print the group ids, one per line")
    listing.add_argument("--state", action="store_true", help="also print each group's state and protocol type")
    add_connection_options(listing)
    describe = actions.add_parser("describe", help="committed offsets, log end offsets, lag and members of a group")
    describe.add_argument("group", metavar="GROUP", help="group id")
    add_connection_options(describe)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run the chosen action."""
    with connect(args) as admin:
        if args.action == "list":
            for group in admin.list_consumer_groups():
                if args.state:
                    sys.stdout.write("{0}\t{1}\t{2}\n".format(group.group_id, group.state or "-",
                                                              group.protocol_type or "-"))
                else:
                    sys.stdout.write(group.group_id + "\n")
            return 0
        return describe_group(admin, args.group)


def describe_group(admin: Any, group_id: str) -> int:
    """Print the offsets table of ``group_id``; raise when the group is unknown."""
    description = _description(admin, group_id)
    committed = admin.list_consumer_group_offsets(group_id)
    owners: Dict[TopicPartition, Any] = {}
    members = description.members if description is not None else ()
    for member in members:
        for tp in member.assignment:
            owners[tp] = member
    partitions = sorted(set(committed) | set(owners))
    if not partitions and not members:
        raise errors.GroupIdNotFoundError("consumer group {0!r} does not exist or has no committed offsets"
                                          .format(group_id))
    ends = admin.end_offsets(partitions) if partitions else {}
    rows: List[Sequence[str]] = []
    for tp in partitions:
        offset = committed[tp].offset if tp in committed and committed[tp].offset >= 0 else None
        end = ends.get(tp)
        lag = "-" if offset is None or end is None else str(max(end - offset, 0))
        member = owners.get(tp)
        rows.append((group_id, tp.topic, str(tp.partition), "-" if offset is None else str(offset),
                     "-" if end is None else str(end), lag,
                     member.member_id if member else "-", (member.client_host or "-") if member else "-",
                     (member.client_id or "-") if member else "-"))
    _table(HEADINGS, rows)
    assigned = {m.member_id for m in owners.values()}
    idle = [m for m in members if m.member_id not in assigned]
    for member in idle:
        sys.stdout.write("member {0} ({1}) has no partitions the broker reported\n".format(
            member.member_id, member.client_id or "-"))
    if description is not None:
        sys.stdout.write("state: {0}, members: {1}\n".format(description.state or "-", len(members)))
    return 0


def _description(admin: Any, group_id: str) -> Optional[Any]:
    """The group's description, or None where the broker cannot describe groups."""
    try:
        return admin.describe_consumer_groups([group_id])[group_id]
    except errors.UnsupportedVersionError:
        return None
    except Exception as exc:  # AdminResultError wrapping an unsupported API
        inner = getattr(exc, "errors", {}).get(group_id)
        if isinstance(inner, errors.UnsupportedVersionError):
            return None
        raise


def _table(headings: Sequence[str], rows: List[Sequence[str]]) -> None:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headings)]
    for row in [headings] + rows:
        sys.stdout.write(" ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() + "\n")
