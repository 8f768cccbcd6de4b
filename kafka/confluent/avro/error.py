"""confluent-kafka's ``confluent_kafka.avro.error``: the error of the legacy Schema Registry client."""

from __future__ import annotations

from typing import Optional


class ClientError(Exception):
    """What the legacy client raises when the registry refuses a request, or a schema does not parse.

    ``message`` is the text; ``http_code`` is kept for programs that read it
    (the legacy client leaves it None, and so does kafkawire's).
    """

    def __init__(self, message: str, http_code: Optional[int] = None) -> None:
        self.message = message
        self.http_code = http_code
        super().__init__(message)

    def __repr__(self) -> str:
        return "ClientError(error=%s)" % self.message

    def __str__(self) -> str:
        return self.message


__all__ = ["ClientError"]
