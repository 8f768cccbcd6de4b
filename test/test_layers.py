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

Two more keep the layers honest: the adapters (:data:`ADAPTERS`) read no
private name of an object another layer made, and no modules import each
other in a circle.
"""

import ast
import inspect
import pathlib
from typing import Dict, Iterator, List, Set, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "kafka"

#: Layer -> rank. A module may import its own layer and any layer of a
#: strictly lower rank (so layers of equal rank never import each other).
RANKS: Dict[str, int] = {
    "base": 0,  # errors and plain data (see BASE)
    "protocol": 1, "record": 1,  # sans-IO wire code
    "conn": 2, "testing": 2, "codec": 2,  # sockets; kafka.codec (kafka-python's codec functions over kafka.record); the test broker (speaks the protocol over its own sockets)
    "group": 2,  # the classic group protocol's pure parts (assignors, member payloads): on protocol and structs
    "cluster": 3,
    "client": 4,
    "producer": 5, "consumer": 5, "admin": 5, "direct": 5, "net": 5,  # what applications build
    "aio": 5,  # the asyncio clients (kafka.aio): on protocol, record, conn.sasl/tls, cluster, client.parse_bootstrap
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
        "murmur2", "gc_pause"}

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
    return _imports_of(module, ast.parse(MODULES[module].read_text(encoding="utf-8")))


def _imports_of(module: str, tree: ast.AST) -> Iterator[Tuple[str, int]]:
    """(imported module, line) for every kafka import in ``tree``, a part of ``module``."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
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


# -- public seams -----------------------------------------------------------------------------
#
# The adapter layers sit on the engine's public, documented methods only. In
# their modules, ``x._name`` (and ``getattr(x, "_name")``, and ``from m import
# _name``) is flagged when ``x`` comes from another layer. Where ``x`` comes
# from is read from the module: ``self``/``cls``, the module's classes and the
# names it imports are known; a function's parameters are known through their
# annotations and ``isinstance`` checks, its variables through the class they
# are built from. For any other ``x``, the name must be one the adapter's own
# layer defines and no other layer does.

#: Layers that must use only the public methods of the layers below them.
ADAPTERS = {"confluent", "quix", "spark", "simple", "cli", "pytest_plugin"}

#: Private-looking names that are public API of the objects they are read on.
PUBLIC_PRIVATE_NAMES: Dict[str, str] = {
    "_make": "namedtuple API (kafka.structs types are namedtuples)",
    "_replace": "namedtuple API",
    "_fields": "namedtuple API",
    "_asdict": "namedtuple API",
}

#: (module, attribute) pairs allowed anyway, each with its reason.
PRIVATE_ALLOWED: Dict[Tuple[str, str], str] = {
    ("kafka.spark.quiet_session", "_gateway"): "pyspark's SparkContext, not a kafka layer",
    ("kafka.cli", "_run"): "the argparse namespace's command, which this module sets with set_defaults",
    ("kafka.confluent.schema_registry._serde", "_cache"):
        "the serdes and the registry client of one package share the client's schema cache",
    ("kafka.confluent.share_consumer", "_delivery_count"):
        "kafka.confluent.Message keeps confluent-kafka's read-only surface; its maker sets the count",
}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _defined_names(tree: ast.AST) -> Set[str]:
    """Private names a module defines: attributes set on self/cls, class members, module globals."""
    names: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
        elif isinstance(node, (ast.ClassDef, ast.Module)):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(item.name)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name))
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
    return {n for n in names if _is_private(n)}


def _names_by_layer() -> Dict[str, Set[str]]:
    found: Dict[str, Set[str]] = {}
    for module, path in MODULES.items():
        found.setdefault(_layer(module), set()).update(_defined_names(ast.parse(path.read_text(encoding="utf-8"))))
    return found


NAMES_BY_LAYER = _names_by_layer()

_OWN, _OTHER, _OUTSIDE = "own", "other", "outside"


def _module_bindings(module: str, tree: ast.Module) -> Dict[str, str]:
    """Module-level name -> where it comes from (own layer, another kafka layer, outside kafka)."""
    own = _layer(module)
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    bound: Dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bound[node.name] = _OWN
        elif isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                if alias.name.split(".")[0] != "kafka":
                    bound[name] = _OUTSIDE
                elif alias.asname:
                    bound[name] = _OWN if _layer(_known(alias.name)) == own else _OTHER
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                kept = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(kept + ([node.module] if node.module else []))
            for alias in node.names:
                name = alias.asname or alias.name
                if base.split(".")[0] != "kafka":
                    if base not in ("typing", "typing_extensions"):  # Any, Optional: say nothing
                        bound[name] = _OUTSIDE
                    continue
                full = base + "." + alias.name
                target = _known(full) if (full in MODULES or full in MOVED) else _known(base)
                bound[name] = _OWN if _layer(target) == own else _OTHER
    return bound


def _class_origin(node: ast.AST, bound: Dict[str, str]) -> str:
    """Where the class named by an annotation or an isinstance() argument comes from ('' unknown)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return ""
    if isinstance(node, ast.Name):
        return bound.get(node.id, "")
    if isinstance(node, ast.Attribute):
        return _class_origin(node.value, bound)
    if isinstance(node, ast.Subscript):  # Optional[X]
        return _class_origin(node.slice, bound)
    if isinstance(node, ast.Tuple):
        origins = {_class_origin(e, bound) for e in node.elts}
        return origins.pop() if len(origins) == 1 else ""
    return ""


def _local_bindings(function: ast.AST, bound: Dict[str, str]) -> Dict[str, str]:
    local: Dict[str, str] = {}
    args = function.args  # type: ignore[attr-defined]
    for arg in args.posonlyargs + args.args + args.kwonlyargs:
        if arg.annotation is not None:
            local[arg.arg] = _class_origin(arg.annotation, bound)
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
                and len(node.args) == 2 and isinstance(node.args[0], ast.Name)):
            local[node.args[0].id] = local.get(node.args[0].id) or _class_origin(node.args[1], bound)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
            built = _class_origin(call.func, bound)
            if not built and call.args and isinstance(call.args[0], ast.Name):
                # tuple.__new__(cls, ...), a maker handed the class: an object of that class
                built = _OWN if call.args[0].id == "cls" else bound.get(call.args[0].id, "")
            for target in node.targets:
                if isinstance(target, ast.Name):
                    local[target.id] = built
    return {name: origin for name, origin in local.items() if origin}


def _private_uses(module: str) -> Iterator[Tuple[int, str]]:
    """(line, text) of every private name ``module`` reads from an object of another layer."""
    own = _layer(module)
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    bound = _module_bindings(module, tree)
    here = _defined_names(tree)
    others = set().union(*(names for layer, names in NAMES_BY_LAYER.items() if layer != own))
    parents: Dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node

    def origin(expr: ast.AST, at: ast.AST) -> str:
        if not isinstance(expr, ast.Name):
            return ""
        if expr.id in ("self", "cls"):
            return _OWN
        scope = parents.get(id(at))
        while scope is not None:
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                found = _local_bindings(scope, bound).get(expr.id)
                if found:
                    return found
            scope = parents.get(id(scope))
        return bound.get(expr.id, "")

    def flagged(expr: ast.AST, name: str, at: ast.AST) -> bool:
        if not _is_private(name) or name in PUBLIC_PRIVATE_NAMES or (module, name) in PRIVATE_ALLOWED:
            return False
        where = origin(expr, at)
        if where in (_OWN, _OUTSIDE):
            return False
        return where == _OTHER or name not in here or name in others

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and flagged(node.value, node.attr, node):
            yield node.lineno, ast.unparse(node)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and flagged(node.args[0], node.args[1].value, node)):
            yield node.lineno, ast.unparse(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for target, line in _imports_of(module, node):
                if _layer(target) != own and any(_is_private(part) for part in target.split(".")):
                    yield line, "import of %s" % target
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _is_private(alias.name) and _module_bindings(module, ast.Module(body=[node], type_ignores=[])
                                                                 ).get(alias.asname or alias.name) == _OTHER:
                    yield node.lineno, "from %s import %s" % (node.module, alias.name)


def test_adapters_use_only_public_engine_names() -> None:
    bad = ["%s:%d %s" % (module, line, text)
           for module in MODULES if _layer(module) in ADAPTERS
           for line, text in _private_uses(module)]
    assert not bad, "private names of other layers:\n" + "\n".join(sorted(bad))


# -- no import circles ------------------------------------------------------------------------


def _import_graph() -> Dict[str, Set[str]]:
    return {module: {target for target, _ in _imports(module) if target != module} for module in MODULES}


def _cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycles_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    cycles = _cycles(_import_graph())
    assert not cycles, "modules that import each other, directly or not:\n" + "\n".join(
        " <-> ".join(c) for c in cycles)
