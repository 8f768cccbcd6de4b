"""The classic group protocol's pure parts, shared by the synchronous and asyncio consumers.

No I/O here: the partition assignors (:mod:`kafka.group.assignors`), the
leader's reading of its members' subscriptions (:mod:`kafka.group.members`),
the consumer-protocol payloads a member sends and receives
(:mod:`kafka.group.payloads`) and the rebalance protocol names
(:mod:`kafka.group.protocols`). The group machinery of
:mod:`kafka.consumer.group` (threads) and :mod:`kafka.aio` (asyncio tasks)
both sit on them; old paths (``kafka.consumer.group.assignors``...) keep
working through :mod:`kafka._moved`.
"""
