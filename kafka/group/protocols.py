"""The rebalance protocols an assignor can follow (KIP-429)."""

#: Members give up every partition before rejoining.
EAGER = "eager"
#: Members keep the partitions they are not asked to give up.
COOPERATIVE = "cooperative"

__all__ = ["COOPERATIVE", "EAGER"]
