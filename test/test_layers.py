"""The package's layers, checked on the import graph.

Every module under ``kafka/`` is parsed with :mod:`ast`; every ``import`` and
``from ... import`` in it counts, at module level or inside a function. Two
rules (see ``docs/architecture.rst``):

* the engine never imports the simple layer (:mod:`kafka.simple`, the
  kafka-python 0.9 API), except the few compatibility facades listed in
  :data:`FACADES`;
* a module imports only its own layer and the layers below it
  (:data:`RANKS`): the sans-IO protocol and record code sit on errors and
  structs alone, connections on those, and so on up to the CLI.
"""

import ast
import inspect
import pathlib
from typing import Dict, Iterator, Set, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "kafka"

#: Layer -> rank. A module may import its own layer and any layer of a
#: strictly lower rank (so layers of equal rank never import each other).
RANKS: Dict[str, int] = {
    "base": 0,  # errors and plain data (see BASE)
    "protocol": 1, "record": 1,  # sans-IO wire code
    "conn": 2, "testing": 2, "codec": 2,  # sockets; kafka.codec (kafka-python's codec functions over kafka.record); the test broker (speaks the protocol over its own sockets)
    "cluster": 3,
    "client": 4,
    "producer": 5, "consumer": 5, "admin": 5, "direct": 5, "net": 5,  # what applications build
    "coordinator": 6,  # kafka-python's module paths of the assignors
    "simple": 6,  # kafka-python 0.9 API over the engine
    "confluent": 6,  # confluent-kafka-style API over the engine (when present)
    "quix": 7,  # quixstreams-style wrappers over kafka.confluent (when present)
    "spark": 7,
    "pytest_plugin": 7,  # pytest fixtures over the test broker and the public clients
    "cli": 8,
}

#: Top-level modules of the base layer. The package root belongs here: it
#: only loads the path aliases, engine modules import it for ``__version__``,
#: and the names it serves lazily are resolved through its ``_EXPORTS``.
BASE = {"kafka", "errors", "structs", "future", "peer_text", "topic_names", "_moved", "config_checks",
        "compat_config", "serializer", "enums", "version", "sampling", "metric_registry", "fast_paths",
        "murmur2"}

#: Engine modules allowed to import the simple layer: each keeps a public
#: import path working by loading one simple-layer name on first use.
FACADES: Dict[str, str] = {
    "kafka.client": "kafka.client.KafkaClient is the 0.9-compatible client",
    "kafka.conn": "KafkaConnection, collect_hosts and the 0.9 constants",
    "kafka.protocol": "KafkaProtocol, create_message and the 0.9 codec constants",
    "kafka.consumer": "KafkaConsumer, SimpleConsumer and MultiProcessConsumer",
    "kafka.consumer.kafka": "kafka.consumer.kafka.KafkaConsumer (the 0.9.5 API reference's path)",
    "kafka.producer": "SimpleProducer and KeyedProducer (kafka-python's kafka.producer exports them)",
}

#: The names each facade serves from the simple layer: importing one of them
#: from the facade counts as importing the simple layer.
FACADE_NAMES: Dict[str, Set[str]] = {
    "kafka.client": {"KafkaClient"},
    "kafka.conn": {"KafkaConnection", "collect_hosts", "DEFAULT_KAFKA_PORT", "DEFAULT_SOCKET_TIMEOUT_SECONDS"},
    "kafka.protocol": {"KafkaProtocol", "create_message", "create_gzip_message", "create_snappy_message",
                       "create_lz4_message", "create_zstd_message", "create_message_set",
                       "ATTRIBUTE_CODEC_MASK", "CODEC_NONE", "CODEC_GZIP", "CODEC_SNAPPY", "CODEC_LZ4",
                       "CODEC_ZSTD", "ALL_CODECS"},
    "kafka.consumer": {"KafkaConsumer", "SimpleConsumer", "MultiProcessConsumer"},
    "kafka.consumer.kafka": {"KafkaConsumer"},
    "kafka.producer": {"SimpleProducer", "KeyedProducer"},
}
assert set(FACADE_NAMES) == set(FACADES)


def _modules() -> Dict[str, pathlib.Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _root_exports() -> Dict[str, str]:
    tree = ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "_EXPORTS":
            return dict(ast.literal_eval(node.value))  # type: ignore[arg-type]
    raise AssertionError("kafka/__init__.py has no _EXPORTS")


ROOT_EXPORTS = _root_exports()


def _moved_paths() -> Dict[str, str]:
    tree = ast.parse((ROOT / "_moved.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "MOVED":
            return dict(ast.literal_eval(node.value))  # type: ignore[arg-type]
    raise AssertionError("kafka/_moved.py has no MOVED")


#: Old module paths (aliases) -> the module behind them.
MOVED = _moved_paths()


def _known(name: str) -> str:
    """The module ``name`` loads: an alias's target, else its longest prefix that is a module."""
    if name in MOVED:
        return MOVED[name]
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imports(module: str) -> Iterator[Tuple[str, int]]:
    """(imported module, line) for every kafka import in ``module``."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # The package root names its lazy exports for type checkers under
    # TYPE_CHECKING; at run time they load through _EXPORTS (ROOT_EXPORTS here).
    typing_only = set()
    if module == "kafka":
        for block in ast.walk(tree):
            if isinstance(block, ast.If) and getattr(block.test, "id", None) == "TYPE_CHECKING":
                typing_only.update(id(node) for node in ast.walk(block))
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "kafka":
                    yield _known(alias.name), node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                kept = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(kept + ([node.module] if node.module else []))
            if base.split(".")[0] != "kafka":
                continue
            for alias in node.names:
                full = base + "." + alias.name
                if full in MODULES or full in MOVED:
                    yield _known(full), node.lineno
                elif alias.name in FACADE_NAMES.get(base, ()):
                    yield "kafka.simple", node.lineno
                elif base == "kafka" and alias.name in ROOT_EXPORTS:
                    yield _known(ROOT_EXPORTS[alias.name]), node.lineno
                else:
                    yield _known(base), node.lineno


def _layer(module: str) -> str:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "kafka"
    if top in BASE:
        return "base"
    return "cli" if top == "__main__" else top


def test_every_module_has_a_layer() -> None:
    assert {_layer(m) for m in MODULES} <= set(RANKS), {_layer(m) for m in MODULES} - set(RANKS)


def test_engine_does_not_import_the_simple_layer() -> None:
    bad = ["%s:%d imports %s" % (module, line, target)
           for module in MODULES if _layer(module) != "simple" and module not in FACADES
           for target, line in _imports(module) if _layer(target) == "simple"]
    assert not bad, "\n".join(bad)


def test_facades_are_still_needed() -> None:
    # A facade that no longer imports the simple layer should leave the list.
    for module in FACADES:
        assert any(_layer(t) == "simple" for t, _ in _imports(module)), module


def test_layers_import_only_downwards() -> None:
    bad = []
    for module in MODULES:
        own = _layer(module)
        for target, line in _imports(module):
            other = _layer(target)
            if other == own or (other == "simple" and module in FACADES):
                continue
            if RANKS[other] >= RANKS[own]:
                bad.append("%s:%d (%s) imports %s (%s)" % (module, line, own, target, other))
    assert not bad, "\n".join(bad)


def _classes_from_simple(cls: type) -> Set[str]:
    return {"%s.%s" % (c.__module__, c.__qualname__) for c in inspect.getmro(cls)
            if c.__module__.startswith("kafka.simple")}


@pytest.mark.parametrize("path", [
    "kafka.client.routing.RoutingClient",
    "kafka.consumer.kafka.ModernKafkaConsumer",
    "kafka.producer.KafkaProducer",
    "kafka.admin.KafkaAdminClient",
])
def test_engine_classes_inherit_nothing_from_the_simple_layer(path: str) -> None:
    import importlib

    module, _, name = path.rpartition(".")
    assert not _classes_from_simple(getattr(importlib.import_module(module), name))


def test_public_classes_extend_the_engine() -> None:
    import kafka
    from kafka.client.routing import RoutingClient
    from kafka.consumer.kafka import ModernKafkaConsumer

    assert issubclass(kafka.KafkaClient, RoutingClient)
    assert issubclass(kafka.KafkaConsumer, ModernKafkaConsumer)
