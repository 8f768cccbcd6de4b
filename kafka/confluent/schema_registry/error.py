"""confluent-kafka's ``confluent_kafka.schema_registry.error``: the error a Schema Registry answers with."""

from __future__ import annotations


class SchemaRegistryError(Exception):
    """A request the Schema Registry refused, or whose answer could not be read.

    ``http_status_code`` is the HTTP status, ``error_code`` the registry's
    own code (40401 for an unknown subject, 409 for an incompatible schema,
    ...; :attr:`UNKNOWN`, -1, when the answer carried none) and
    ``error_message`` its text.
    """

    UNKNOWN = -1

    def __init__(self, http_status_code: int, error_code: int, error_message: str) -> None:
        super().__init__(http_status_code, error_code, error_message)
        self.http_status_code = http_status_code
        self.error_code = error_code
        self.error_message = error_message

    def __repr__(self) -> str:
        return str(self)

    def __str__(self) -> str:
        return "%s (HTTP status code %s, SR code %s)" % (self.error_message, self.http_status_code, self.error_code)


__all__ = ["SchemaRegistryError"]
