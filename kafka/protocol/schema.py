"""Declarative message schemas: one declaration per API covers all versions.

A message is a :class:`Struct` of :class:`Field` objects. Each field names the
versions it exists in (``"0+"``, ``"3-7"``), the versions in which it may be
null, its default, and — for tagged fields — its tag. An :class:`Api` ties a
request and a response struct to an API key, a version range and the first
flexible version.

From a declaration the module builds, once per (struct, version) and cached,
a reader and a writer that are plain closures over the field list, and one
value class per struct (``__slots__`` holding the union of every version's
fields, so a single class serves every version).

Decoding failures of any kind surface as :class:`kafka.errors.ProtocolError`
naming the API, version and direction.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple, Type

from kafka.errors import IllegalArgumentError, ProtocolError, UnsupportedVersionError
from kafka.protocol import types as T

MISSING: Any = object()

VersionRange = Tuple[int, int]  # inclusive; upper bound 0x7FFF means "and later"
_OPEN = 0x7FFF
NEVER: VersionRange = (1, 0)


def parse_versions(spec: Optional[str]) -> VersionRange:
    """Parse ``"3+"``, ``"2-7"``, ``"4"`` or ``"none"`` into an inclusive range."""
    if spec is None or spec == "none":
        return NEVER
    spec = spec.strip()
    try:
        if spec.endswith("+"):
            return int(spec[:-1]), _OPEN
        if "-" in spec:
            lo, hi = spec.split("-", 1)
            return int(lo), int(hi)
        v = int(spec)
        return v, v
    except ValueError:
        raise ValueError("bad version range %r" % (spec,)) from None


def _in(rng: VersionRange, version: int) -> bool:
    return rng[0] <= version <= rng[1]


class Field:
    """One field of a struct.

    :param name: attribute name on the value class (snake_case).
    :param type: a type from :mod:`kafka.protocol.types`, a :class:`Struct`,
        or :class:`kafka.protocol.types.Array` of either.
    :param versions: versions in which the field is present.
    :param nullable: versions in which the field may be null.
    :param default: value used when the field is absent from a version, when
        the caller omits it, and the value a tagged field is omitted at.
    :param tag: tag number for a tagged field (present only in flexible
        versions and only written when it differs from its default).
    :param ignorable: whether a non-default value may be silently dropped when
        encoding a version that lacks the field; otherwise that is an error.
    """

    __slots__ = ("name", "type", "versions", "nullable", "default", "tag", "ignorable")

    def __init__(self, name: str, type: Any, versions: str = "0+", *,
                 nullable: Optional[str] = None, default: Any = MISSING,
                 tag: Optional[int] = None, ignorable: bool = False) -> None:
        self.name = name
        self.type = type
        self.versions = parse_versions(versions)
        self.nullable = parse_versions(nullable)
        self.default = default
        self.tag = tag
        self.ignorable = ignorable

    def zero(self) -> Any:
        """The value of this field when nothing else is known."""
        if self.default is not MISSING:
            return list(self.default) if isinstance(self.default, list) else self.default
        ftype = self.type
        if isinstance(ftype, T.Array):
            return []
        if isinstance(ftype, Struct):
            return ftype.cls()
        return ftype.zero

    def __repr__(self) -> str:
        return "Field(%r, %r)" % (self.name, self.type)


if TYPE_CHECKING:
    class _StructMeta(type):
        # Nested value classes (``Request.TopicData``) are set at runtime.
        def __getattr__(cls, name: str) -> Type[StructValue]: ...
else:
    _StructMeta = type


class StructValue(metaclass=_StructMeta):
    """Base of the generated value classes: keyword construction, equality, repr."""

    __slots__ = ("unknown_tags",)
    _fields: Tuple[Field, ...] = ()
    _names: Tuple[str, ...] = ()

    def __init__(self, **kwargs: Any) -> None:
        for f in self._fields:
            value = kwargs.pop(f.name, MISSING)
            object.__setattr__(self, f.name, f.zero() if value is MISSING else value)
        tags = kwargs.pop("unknown_tags", None)
        object.__setattr__(self, "unknown_tags", tags)
        if kwargs:
            raise TypeError("%s has no field(s) %s" % (type(self).__name__, ", ".join(sorted(kwargs))))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._names) and \
            (self.unknown_tags or None) == (other.unknown_tags or None)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        body = ", ".join("%s=%r" % (n, getattr(self, n)) for n in self._names)
        return "%s(%s)" % (type(self).__name__, body)

    def to_dict(self) -> Dict[str, Any]:
        """A plain-dict copy, nested structs and lists of structs included."""
        return {n: _plain(getattr(self, n)) for n in self._names}

    if TYPE_CHECKING:
        # The fields are slots of the generated subclasses.
        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...


#: Reads one struct value from (buffer, position); returns it and the next position.
StructReader = Callable[[bytes, int], Tuple[StructValue, int]]


def _plain(value: Any) -> Any:
    if isinstance(value, StructValue):
        return value.to_dict()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


class Struct:
    """An ordered group of fields, with a generated value class.

    The value class is reachable as :attr:`cls`; nested struct classes are
    also attached to it as attributes named after their struct.
    """

    def __init__(self, name: str, *fields: Field) -> None:
        self.name = name
        self.fields: Tuple[Field, ...] = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError("duplicate field names in %s" % name)
        attrs: Dict[str, Any] = {
            "__slots__": tuple(names),
            "_fields": self.fields,
            "_names": tuple(names),
            "__doc__": "Value class of the %s struct; fields: %s." % (name, ", ".join(names) or "none"),
        }
        for f in self.fields:
            inner = f.type.item if isinstance(f.type, T.Array) else f.type
            if isinstance(inner, Struct):
                attrs[inner.name] = inner.cls
        self.cls: Type[StructValue] = type(name, (StructValue,), attrs)
        self._readers: Dict[Tuple[int, bool], StructReader] = {}
        self._writers: Dict[Tuple[int, bool], T.Writer] = {}

    def __repr__(self) -> str:
        return "Struct(%s)" % self.name

    # -- building per-version codecs --------------------------------------

    def reader(self, version: int, flexible: bool) -> StructReader:
        """The reader of this struct at ``version`` (built once, cached)."""
        key = (version, flexible)
        fn = self._readers.get(key)
        if fn is None:
            fn = self._readers[key] = self._build_reader(version, flexible)
        return fn

    def writer(self, version: int, flexible: bool) -> T.Writer:
        """The writer of this struct at ``version`` (built once, cached)."""
        key = (version, flexible)
        fn = self._writers.get(key)
        if fn is None:
            fn = self._writers[key] = self._build_writer(version, flexible)
        return fn

    def _split(self, version: int, flexible: bool) -> Tuple[List[Field], Dict[int, Field], List[Field]]:
        regular, tagged, absent = [], {}, []
        for f in self.fields:
            if not _in(f.versions, version):
                absent.append(f)
            elif f.tag is not None:
                if flexible:
                    tagged[f.tag] = f
                else:
                    absent.append(f)
            else:
                regular.append(f)
        return regular, tagged, absent

    def _build_reader(self, version: int, flexible: bool) -> StructReader:
        regular, tagged, absent = self._split(version, flexible)
        plan = [(f.name, _field_reader(f, version, flexible)) for f in regular]
        tag_plan = {tag: (f.name, _field_reader(f, version, flexible)) for tag, f in tagged.items()}
        defaults = [f for f in absent] + list(tagged.values())
        cls = self.cls
        new = object.__new__
        setattr_ = object.__setattr__

        def read(buf: bytes, pos: int) -> Tuple[StructValue, int]:
            obj = new(cls)
            for f in defaults:
                setattr_(obj, f.name, f.zero())
            for name, read_field in plan:
                value, pos = read_field(buf, pos)
                setattr_(obj, name, value)
            unknown = None
            if flexible:
                count, pos = T.read_uvarint(buf, pos)
                if count > len(buf) - pos:
                    raise T.DecodeError("%d tagged fields cannot fit" % count)
                last = -1
                for _ in range(count):
                    tag, pos = T.read_uvarint(buf, pos)
                    if tag <= last:
                        raise T.DecodeError("tagged fields out of order")
                    last = tag
                    size, pos = T.read_uvarint(buf, pos)
                    end = pos + size
                    if end > len(buf):
                        raise T.DecodeError("tagged field runs past the end of the data")
                    known = tag_plan.get(tag)
                    if known is None:
                        if unknown is None:
                            unknown = {}
                        unknown[tag] = bytes(buf[pos:end])
                    else:
                        value, used = known[1](bytes(buf[pos:end]), 0)
                        if used != size:
                            raise T.DecodeError("tagged field %d has %d stray bytes" % (tag, size - used))
                        setattr_(obj, known[0], value)
                    pos = end
            setattr_(obj, "unknown_tags", unknown)
            return obj, pos

        return read

    def _build_writer(self, version: int, flexible: bool) -> T.Writer:
        regular, tagged, absent = self._split(version, flexible)
        plan = [(f.name, _field_writer(f, version, flexible), f) for f in regular]
        tag_plan = sorted((tag, f.name, _field_writer(f, version, flexible), f) for tag, f in tagged.items())
        guarded = [f for f in absent if not f.ignorable]
        cls = self.cls
        struct_name = self.name

        def write(out: bytearray, obj: Any) -> None:
            if type(obj) is not cls:
                obj = _coerce(cls, obj)
            for f in guarded:
                value = getattr(obj, f.name)
                if value is not None and value != f.zero():
                    raise UnsupportedVersionError(
                        "%s.%s is not available in version %d (value %r)" % (struct_name, f.name, version, value))
            for name, write_field, f in plan:
                try:
                    write_field(out, getattr(obj, name))
                except (T.EncodeError, TypeError, AttributeError, struct.error, OverflowError) as exc:
                    raise IllegalArgumentError("%s.%s: %s" % (struct_name, name, exc)) from None
            if flexible:
                present = []
                for tag, name, write_field, f in tag_plan:
                    value = getattr(obj, name)
                    if value != f.zero():
                        chunk = bytearray()
                        write_field(chunk, value)
                        present.append((tag, bytes(chunk)))
                unknown = obj.unknown_tags
                if unknown:
                    present.extend(unknown.items())
                    present.sort()
                T.write_uvarint(out, len(present))
                for tag, data in present:
                    T.write_uvarint(out, tag)
                    T.write_uvarint(out, len(data))
                    out += data

        return write


def _coerce(cls: Type[StructValue], obj: Any) -> StructValue:
    if isinstance(obj, dict):
        return cls(**obj)
    if isinstance(obj, StructValue):
        # A value of another struct class with the same field names is accepted.
        return cls(**{n: getattr(obj, n) for n in cls._names if hasattr(obj, n)})
    raise IllegalArgumentError("expected %s or a dict, got %r" % (cls.__name__, obj))


def _field_reader(f: Field, version: int, flexible: bool) -> T.Reader:
    ftype = f.type
    if isinstance(ftype, Struct):
        inner = ftype.reader(version, flexible)
        if _in(f.nullable, version):
            def read_nullable_struct(buf: bytes, pos: int) -> Tuple[Any, int]:
                marker, pos = T.INT8.read(buf, pos)
                if marker < 0:
                    return None, pos
                return inner(buf, pos)
            return read_nullable_struct
        return inner
    if isinstance(ftype, T.Array):
        item = ftype.item
        if isinstance(item, Struct):
            item_read = item.reader(version, flexible)
        else:
            # Kafka has no nullable array elements.
            item_read = _not_null(item.resolve(flexible).read, "an element of " + f.name, version)
        read: T.Reader = T.array_reader(item_read, flexible)
    else:
        read = ftype.resolve(flexible).read
        if not isinstance(ftype, T.FlexibleType):
            return read  # fixed-size types have no null
    if _in(f.nullable, version):
        return read
    return _not_null(read, f.name, version)


def _not_null(read: T.Reader, what: str, version: int) -> T.Reader:
    """``read``, refusing the null encoding (length -1, or 0 when compact).

    A peer's null in a field the protocol declares non-nullable is corrupt
    data; letting ``None`` through would fail later, far from the cause, in
    code that rightly expects a string, bytes or a list.
    """
    def read_not_null(buf: bytes, pos: int) -> Tuple[Any, int]:
        value, end = read(buf, pos)
        if value is None:
            raise T.DecodeError("%s is null, which version %d does not allow" % (what, version))
        return value, end
    return read_not_null


def _field_writer(f: Field, version: int, flexible: bool) -> T.Writer:
    ftype = f.type
    nullable = _in(f.nullable, version)
    if isinstance(ftype, T.Array):
        item = ftype.item
        if isinstance(item, Struct):
            item_write = item.writer(version, flexible)
        else:
            item_write = item.resolve(flexible).write
        write = T.array_writer(item_write, flexible)
    elif isinstance(ftype, Struct):
        inner = ftype.writer(version, flexible)
        if nullable:
            def write_nullable_struct(out: bytearray, value: Any) -> None:
                if value is None:
                    out.append(0xFF)
                else:
                    out.append(1)
                    inner(out, value)
            return write_nullable_struct
        write = inner
    else:
        write = ftype.resolve(flexible).write
    if nullable or isinstance(ftype, T.WireType) and not isinstance(ftype, T.FlexibleType):
        return write
    name = f.name

    def write_not_null(out: bytearray, value: Any) -> None:
        if value is None:
            raise T.EncodeError("%s may not be null in version %d" % (name, version))
        write(out, value)

    return write_not_null


# --------------------------------------------------------------------------
# APIs
# --------------------------------------------------------------------------

class Route:
    """Where a request must be sent; used by the client's router."""

    ANY = "any"
    LEADER = "leader"
    GROUP_COORDINATOR = "group_coordinator"
    TXN_COORDINATOR = "txn_coordinator"
    CONTROLLER = "controller"
    CONNECTION = "connection"  # handshake traffic on the connection being set up


class Api:
    """One Kafka API: its key, versions, flexible versions and both message schemas.

    :param name: the protocol name, e.g. ``"Metadata"``.
    :param key: the API key.
    :param versions: ``(lowest, highest)`` versions this library declares.
    :param flexible: first flexible version, or ``None`` if none is flexible.
    :param min_send: lowest version the client will ever send (Kafka 4.x
        removed older versions of several APIs; brokers that advertise them
        still never receive them from us).
    :param route: a :class:`Route` constant.
    """

    def __init__(self, name: str, key: int, versions: Tuple[int, int], *,
                 flexible: Optional[int], request: Struct, response: Struct,
                 min_send: Optional[int] = None, route: str = Route.ANY) -> None:
        self.name = name
        self.key = key
        self.min_version, self.max_version = versions
        self.flexible_from = flexible
        self.min_send = self.min_version if min_send is None else min_send
        self.route = route
        self.request = request
        self.response = response
        self.Request = request.cls
        self.Response = response.cls

    def __repr__(self) -> str:
        return "<Api %s key=%d v%d-%d>" % (self.name, self.key, self.min_version, self.max_version)

    def is_flexible(self, version: int) -> bool:
        """Whether ``version`` uses compact types and tagged fields."""
        return self.flexible_from is not None and version >= self.flexible_from

    def request_header_version(self, version: int) -> int:
        """Request header v2 in flexible versions, v1 otherwise."""
        return 2 if self.is_flexible(version) else 1

    def response_header_version(self, version: int) -> int:
        """Response header v1 in flexible versions, v0 otherwise."""
        return 1 if self.is_flexible(version) else 0

    def check_version(self, version: int) -> None:
        """Raise UnsupportedVersionError if ``version`` is not declared."""
        if not self.min_version <= version <= self.max_version:
            raise UnsupportedVersionError("%s v%d is outside the versions this client knows (%d-%d)"
                                          % (self.name, version, self.min_version, self.max_version))

    # -- codec entry points -----------------------------------------------

    def encode_request(self, request: Any, version: int) -> bytes:
        """Encode a request body (no header) at ``version``."""
        return self._encode(self.request, request, version)

    def write_request(self, out: bytearray, request: Any, version: int) -> None:
        """Append the request body at ``version`` to ``out`` (a frame being built)."""
        self.check_version(version)
        self.request.writer(version, self.is_flexible(version))(out, request)

    def encode_response(self, response: Any, version: int) -> bytes:
        """Encode a response body (no header) at ``version`` (for brokers and tests)."""
        return self._encode(self.response, response, version)

    def decode_request(self, data: bytes, version: int, strict: bool = False) -> StructValue:
        """Decode a request body at ``version`` (``strict``: no trailing bytes allowed)."""
        return self._decode(self.request, data, version, "request", strict)

    def decode_response(self, data: bytes, version: int, strict: bool = False) -> StructValue:
        """Decode a response body at ``version``.

        Bytes after the last declared field are ignored, as Kafka's own
        clients do (some brokers pad responses); ``strict`` refuses them.
        """
        return self._decode(self.response, data, version, "response", strict)

    def _encode(self, schema: Struct, value: Any, version: int) -> bytes:
        self.check_version(version)
        out = bytearray()
        schema.writer(version, self.is_flexible(version))(out, value)
        return bytes(out)

    def _decode(self, schema: Struct, data: bytes, version: int, what: str, strict: bool) -> StructValue:
        self.check_version(version)
        read = schema.reader(version, self.is_flexible(version))
        try:
            value, pos = read(data, 0)
        except ProtocolError:
            raise
        except (ValueError, IndexError, TypeError, KeyError, OverflowError,
                struct.error, MemoryError, RecursionError) as exc:
            raise ProtocolError("cannot decode %s v%d %s: %s" % (self.name, version, what, exc)) from None
        if strict and pos != len(data):
            raise ProtocolError("%s v%d %s has %d trailing bytes" % (self.name, version, what, len(data) - pos))
        return value


def iter_structs(root: Struct) -> Iterable[Struct]:
    """Every struct reachable from ``root``, ``root`` first (each once)."""
    seen: Dict[int, Struct] = {}
    stack = [root]
    while stack:
        s = stack.pop()
        if id(s) in seen:
            continue
        seen[id(s)] = s
        yield s
        for f in s.fields:
            inner = f.type.item if isinstance(f.type, T.Array) else f.type
            if isinstance(inner, Struct):
                stack.append(inner)
