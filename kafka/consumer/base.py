"""kafka-python 0.9's module path of the classic consumer base class."""

from kafka.legacy.simple_consumer import AUTO_COMMIT_INTERVAL, AUTO_COMMIT_MSG_COUNT, Consumer

__all__ = ["Consumer", "AUTO_COMMIT_INTERVAL", "AUTO_COMMIT_MSG_COUNT"]
