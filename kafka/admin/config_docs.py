"""One-line descriptions of the admin client's own settings, :data:`kafka.admin.base.ADMIN_CONFIG`.

The admin client also takes every connection setting of
:data:`kafka.client.network.DEFAULT_CONFIG` (described in
:mod:`kafka.client.config_docs`). The configuration reference of the
documentation is generated from the table and this mapping
(``docs/_ext/configtable.py``); the build fails when a key has no
description here, so add one whenever a setting is added.
"""

from typing import Dict

CONFIG_DOCS: Dict[str, str] = {
    "bootstrap_timeout_ms": "How long the constructor waits for the first cluster metadata before "
                            "failing.",
    "api_version": "Accepted for compatibility with kafka-python and ignored: versions are always "
                   "negotiated with each broker.",
    "api_version_auto_timeout_ms": "Accepted for compatibility with kafka-python and ignored.",
    "kafka_client": "The engine class, a :class:`~kafka.client.KafkaClient` subclass, for callers "
                    "that need their own.",
}
