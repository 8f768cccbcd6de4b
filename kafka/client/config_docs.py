"""One-line descriptions of the client settings in :data:`kafka.client.network.DEFAULT_CONFIG`.

The configuration reference of the documentation is generated from the
config table and this mapping together (``docs/_ext/configtable.py``); the
build fails when a setting has no description here, so add one whenever a
key is added to the table. The producer, consumer and admin client accept
every one of these settings too.
"""

from typing import Dict

CONFIG_DOCS: Dict[str, str] = {
    "bootstrap_servers": "``host:port`` of one or more brokers to learn the cluster from: "
                         "a comma-separated string or a list; the port defaults to 9092.",
    "client_id": "Name sent with every request, visible in broker logs and quotas; "
                 "``None`` picks ``kafkawire-N``.",
    "request_timeout_ms": "How long to wait for the answer to one request before failing it "
                          "with a timeout and closing the connection.",
    "socket_connection_setup_timeout_ms": "Time allowed to open a TCP connection (and finish the TLS "
                                          "and SASL handshakes) to one broker address.",
    "connections_max_idle_ms": "Accepted for compatibility with kafka-python; idle connections "
                               "are currently kept open.",
    "reconnect_backoff_ms": "First wait before reconnecting to a broker after a failed connection.",
    "reconnect_backoff_max_ms": "Upper bound of the reconnect wait, which doubles (with jitter) "
                                "after each consecutive failure.",
    "max_in_flight_requests_per_connection": "Requests sent to one broker without waiting for their "
                                             "responses.",
    "receive_buffer_bytes": "``SO_RCVBUF`` of broker sockets; ``None`` keeps the system default.",
    "send_buffer_bytes": "``SO_SNDBUF`` of broker sockets; ``None`` keeps the system default.",
    "socket_options": "``(level, option, value)`` tuples passed to ``setsockopt`` on every broker "
                      "socket; the default turns on ``TCP_NODELAY``.",
    "retry_backoff_ms": "Wait before retrying a failed request or metadata refresh.",
    "metadata_max_age_ms": "Refresh cluster metadata at least this often, even when nothing "
                           "failed.",
    "allow_auto_create_topics": "Let metadata requests for a topic the cluster does not have create "
                                "it, when the broker allows that (``auto.create.topics.enable``). "
                                "Brokers before metadata v4 always do.",
    "security_protocol": "``PLAINTEXT``, ``SSL``, ``SASL_PLAINTEXT`` or ``SASL_SSL``.",
    "ssl_context": "A ready :class:`ssl.SSLContext`; when given, the other ``ssl_*`` settings "
                   "are ignored.",
    "ssl_check_hostname": "Check that the broker's certificate names the host connected to.",
    "ssl_cafile": "PEM file of the certificate authorities that sign broker certificates; "
                  "``None`` uses the system's trust store.",
    "ssl_certfile": "PEM file with the client certificate, for brokers that require TLS "
                    "client authentication.",
    "ssl_keyfile": "PEM file with the private key of ``ssl_certfile`` (if not in the same file).",
    "ssl_password": "Password of ``ssl_keyfile``; never logged.",
    "ssl_crlfile": "PEM file of certificate revocation lists to check broker certificates "
                   "against.",
    "ssl_ciphers": "OpenSSL cipher string restricting the TLS ciphers offered.",
    "sasl_mechanism": "``PLAIN``, ``SCRAM-SHA-256``, ``SCRAM-SHA-512`` or ``OAUTHBEARER``; "
                      "required with the ``SASL_*`` security protocols.",
    "sasl_plain_username": "User name for ``PLAIN`` and ``SCRAM-*``.",
    "sasl_plain_password": "Password for ``PLAIN`` and ``SCRAM-*``; never logged.",
    "sasl_oauth_token_provider": "For ``OAUTHBEARER``: an object with a ``token()`` method (and "
                                 "optionally ``extensions()``), or a callable returning the token.",
    "max_frame_size": "Largest response frame accepted from a broker; a bigger length prefix "
                      "fails the connection with :class:`~kafka.errors.FrameTooLargeError` "
                      "before anything is allocated.",
    "client_events": "A callable given each connection event (:mod:`kafka.client.events`: a failed "
                     "connection, all brokers down, a throttled response), on the client's I/O thread; "
                     "it should only queue the event.",
}
