"""Building the TLS context a broker connection uses."""

from __future__ import annotations

import ssl
from typing import Any, Callable, Mapping, Optional, TypeVar

from kafka.errors import KafkaConfigurationError

TLS_PROTOCOLS = ("SSL", "SASL_SSL")
SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


def uses_tls(security_protocol: str) -> bool:
    """Whether ``security_protocol`` wraps the socket in TLS."""
    return security_protocol in TLS_PROTOCOLS


def uses_sasl(security_protocol: str) -> bool:
    """Whether ``security_protocol`` authenticates with SASL."""
    return security_protocol.startswith("SASL_")


def check_security_protocol(security_protocol: str) -> str:
    """Validate and return ``security_protocol``."""
    if security_protocol not in SECURITY_PROTOCOLS:
        raise KafkaConfigurationError("security_protocol must be one of %s, not %r"
                                      % (", ".join(SECURITY_PROTOCOLS), security_protocol))
    return security_protocol


def build_ssl_context(config: Mapping[str, Any]) -> Optional[ssl.SSLContext]:
    """The SSL context for ``config``, or None when TLS is not used.

    ``ssl_context`` given by the user wins. Otherwise a client context with
    certificate verification is built from ``ssl_cafile`` (system roots when
    absent), ``ssl_certfile``/``ssl_keyfile``/``ssl_password`` for client
    authentication, ``ssl_crlfile`` for revocation checks and
    ``ssl_check_hostname``.
    """
    if not uses_tls(config.get("security_protocol", "PLAINTEXT")):
        return None
    given = config.get("ssl_context")
    if given is not None:
        if not isinstance(given, ssl.SSLContext):
            raise KafkaConfigurationError("ssl_context must be an ssl.SSLContext")
        return given
    context = _step("ssl_cafile", config.get("ssl_cafile"),
                    lambda: ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=config.get("ssl_cafile")))
    context.check_hostname = bool(config.get("ssl_check_hostname", True))
    if config.get("ssl_certfile"):
        password = config.get("ssl_password")
        # Without a password OpenSSL would prompt on the terminal for an
        # encrypted key; a callback answering nothing makes it fail instead.
        _step("ssl_certfile/ssl_keyfile", config["ssl_certfile"],
              lambda: context.load_cert_chain(certfile=config["ssl_certfile"], keyfile=config.get("ssl_keyfile"),
                                              password=password if password is not None else _no_password))
    if config.get("ssl_crlfile"):
        _step("ssl_crlfile", config["ssl_crlfile"], lambda: context.load_verify_locations(config["ssl_crlfile"]))
        context.verify_flags |= ssl.VERIFY_CRL_CHECK_LEAF
    ciphers = config.get("ssl_ciphers")
    if ciphers:
        _step("ssl_ciphers", ciphers, lambda: context.set_ciphers(ciphers))
    return context


def _no_password() -> str:
    return ""


_T = TypeVar("_T")


def _step(option: str, value: Any, action: Callable[[], _T]) -> _T:
    """Run one TLS setup step; turn its failure into a message naming the option and file."""
    try:
        return action()
    except FileNotFoundError:
        raise KafkaConfigurationError("cannot set up TLS: %s file %r does not exist" % (option, value)) from None
    except ssl.SSLError as exc:
        # Never the password itself: only what OpenSSL says about the file.
        reason = exc.reason or exc.__class__.__name__
        if option.startswith("ssl_certfile"):
            reason = "the certificate or key cannot be loaded (%s); check ssl_keyfile and ssl_password" % reason
        raise KafkaConfigurationError("cannot set up TLS from %s %r: %s" % (option, value, reason)) from None
    except (OSError, ValueError) as exc:
        raise KafkaConfigurationError("cannot set up TLS from %s %r: %s"
                                      % (option, value, getattr(exc, "strerror", None) or exc)) from None
