"""``ConnectionConfig``: how to reach and authenticate to a Kafka cluster, as librdkafka properties."""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Mapping, Optional

# Field name -> librdkafka property. Field names are the property names with
# dots turned into underscores, as in quixstreams.
_FIELDS = (
    "bootstrap.servers", "security.protocol", "sasl.mechanism", "sasl.username", "sasl.password",
    "sasl.kerberos.service.name", "sasl.kerberos.keytab", "sasl.kerberos.principal", "sasl.oauthbearer.config",
    "sasl.oauthbearer.method", "sasl.oauthbearer.client.id", "sasl.oauthbearer.client.secret",
    "sasl.oauthbearer.scope", "sasl.oauthbearer.token.endpoint.url", "ssl.ca.location", "ssl.ca.pem",
    "ssl.certificate.location", "ssl.certificate.pem", "ssl.key.location", "ssl.key.pem", "ssl.key.password",
    "ssl.endpoint.identification.algorithm", "enable.ssl.certificate.verification",
)
_SECRETS = frozenset({"sasl.password", "ssl.key.password", "sasl.oauthbearer.client.secret", "ssl.key.pem"})
# librdkafka aliases accepted by from_librdkafka_dict.
_ALIASES = {"sasl.mechanisms": "sasl.mechanism", "sasl.user": "sasl.username", "metadata.broker.list": "bootstrap.servers"}


@dataclasses.dataclass
class ConnectionConfig:
    """Connection settings for an authenticated (or plain) cluster.

    ``ConnectionConfig(bootstrap_servers="host:9092", security_protocol="SASL_SSL",
    sasl_mechanism="SCRAM-SHA-256", sasl_username=..., sasl_password=...,
    ssl_ca_location=...)``. Pass it as ``broker_address`` to the wrappers;
    :meth:`as_librdkafka_dict` gives the librdkafka properties (unset fields
    are left out).
    """

    bootstrap_servers: str
    security_protocol: Optional[str] = None
    sasl_mechanism: Optional[str] = None
    sasl_username: Optional[str] = None
    sasl_password: Optional[str] = dataclasses.field(default=None, repr=False)
    sasl_kerberos_service_name: Optional[str] = None
    sasl_kerberos_keytab: Optional[str] = None
    sasl_kerberos_principal: Optional[str] = None
    sasl_oauthbearer_config: Optional[str] = None
    sasl_oauthbearer_method: Optional[str] = None
    sasl_oauthbearer_client_id: Optional[str] = None
    sasl_oauthbearer_client_secret: Optional[str] = dataclasses.field(default=None, repr=False)
    sasl_oauthbearer_scope: Optional[str] = None
    sasl_oauthbearer_token_endpoint_url: Optional[str] = None
    ssl_ca_location: Optional[str] = None
    ssl_ca_pem: Optional[str] = None
    ssl_certificate_location: Optional[str] = None
    ssl_certificate_pem: Optional[str] = None
    ssl_key_location: Optional[str] = None
    ssl_key_pem: Optional[str] = dataclasses.field(default=None, repr=False)
    ssl_key_password: Optional[str] = dataclasses.field(default=None, repr=False)
    ssl_endpoint_identification_algorithm: Optional[str] = None
    enable_ssl_certificate_verification: Optional[bool] = None

    def __post_init__(self) -> None:
        # librdkafka takes these in any case; keep one spelling so configs compare equal.
        if self.security_protocol is not None:
            self.security_protocol = self.security_protocol.upper()
        if self.sasl_mechanism is not None:
            self.sasl_mechanism = self.sasl_mechanism.upper()

    def as_librdkafka_dict(self, plaintext_secrets: bool = True) -> Dict[str, Any]:
        """The set fields as ``{librdkafka property: value}``; secrets masked unless ``plaintext_secrets``."""
        out: Dict[str, Any] = {}
        for prop in _FIELDS:
            value = getattr(self, prop.replace(".", "_"))
            if value is None:
                continue
            if prop in _SECRETS and not plaintext_secrets:
                value = "**********"
            out[prop] = value
        return out

    @classmethod
    def from_librdkafka_dict(cls, config: Mapping[str, Any], ignore_extras: bool = False) -> "ConnectionConfig":
        """Build one from librdkafka properties; unknown ones raise ``ValueError`` unless ``ignore_extras``."""
        fields: Dict[str, Any] = {}
        for name, value in config.items():
            prop = _ALIASES.get(name, name)
            if prop not in _FIELDS:
                if ignore_extras:
                    continue
                raise ValueError("%r is not a connection setting" % name)
            fields[prop.replace(".", "_")] = value
        if "bootstrap_servers" not in fields:
            raise ValueError("bootstrap.servers is required")
        return cls(**fields)


def connection_properties(broker_address: Any) -> Dict[str, Any]:
    """librdkafka properties for a ``"host:port"`` string or a :class:`ConnectionConfig`."""
    if isinstance(broker_address, str):
        broker_address = ConnectionConfig(bootstrap_servers=broker_address)
    if not isinstance(broker_address, ConnectionConfig):
        raise TypeError("broker_address must be a str or a ConnectionConfig, got %r" % (broker_address,))
    return broker_address.as_librdkafka_dict()
