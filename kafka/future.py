"""A small thread-safe future used across the client.

A :class:`Future` is resolved once, with :meth:`~Future.success` or
:meth:`~Future.failure`. Callbacks added before resolution run in the thread
that resolves it; callbacks added afterwards run at once in the caller's
thread. :meth:`~Future.get` blocks, with a timeout, until resolution.
A future is also awaitable (``await future``) as kafka-python 3's is.

``Future[T]`` is the type of a future resolved with a ``T`` (generic for
type checkers only: nothing is checked at runtime). :class:`FutureLike`
describes it and the producer's
:class:`~kafka.producer.future.FutureRecordMetadata` alike.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Dict, Generator, Generic, List, Optional, Protocol, Tuple, Type, TypeVar, Union, cast

from kafka.errors import IllegalStateError, KafkaTimeoutError

log = logging.getLogger(__name__)

_PENDING = object()

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

# A callback with the arguments given before the value (or exception), and keyword arguments.
_Callback = Tuple[Callable[..., Any], Tuple[Any, ...], Dict[str, Any]]


class FutureLike(Protocol[T_co]):
    """What every future of the library offers (a type for annotations only)."""

    @property
    def is_done(self) -> bool: ...

    @property
    def value(self) -> Optional[T_co]: ...

    @property
    def exception(self) -> Optional[BaseException]: ...

    def succeeded(self) -> bool: ...

    def failed(self) -> bool: ...

    def get(self, timeout: Optional[float] = None) -> T_co: ...

    def add_callback(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "FutureLike[T_co]": ...

    def add_errback(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "FutureLike[T_co]": ...

    def add_both(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "FutureLike[T_co]": ...


class Future(Generic[T]):
    """The eventual result of an asynchronous operation."""

    __slots__ = ("value", "exception", "_done", "_callbacks", "_errbacks", "_lock", "_event")

    def __init__(self) -> None:
        self.value: Optional[T] = None  # set by success()
        self.exception: Optional[BaseException] = None
        self._done = False
        self._callbacks: List[_Callback] = []
        self._errbacks: List[_Callback] = []
        self._lock = threading.Lock()
        self._event: Optional[threading.Event] = None

    def __repr__(self) -> str:
        if not self._done:
            state = "pending"
        elif self.exception is not None:
            state = "failed: %r" % (self.exception,)
        else:
            state = "done"
        return "<%s %s>" % (type(self).__name__, state)

    # -- state ------------------------------------------------------------------

    @property
    def is_done(self) -> bool:
        """Whether the future has been resolved (an attribute, as in kafka-python)."""
        return self._done

    def succeeded(self) -> bool:
        """Resolved with a value."""
        return self._done and self.exception is None

    def failed(self) -> bool:
        """Resolved with an exception."""
        return self._done and self.exception is not None

    def retriable(self) -> bool:
        """Whether the failure is marked retriable."""
        return bool(getattr(self.exception, "retriable", False))

    # -- resolution ---------------------------------------------------------------

    def success(self, value: T) -> "Future[T]":
        """Resolve with ``value`` and run the callbacks."""
        with self._lock:
            if self._done:
                raise IllegalStateError("future already resolved")
            self.value = value
            self._done = True
            callbacks, self._callbacks, self._errbacks = self._callbacks, [], []
            event = self._event
        if event is not None:
            event.set()
        for fn, args, kwargs in callbacks:
            self._call(fn, args + (value,), kwargs)
        return self

    def failure(self, exception: Union[BaseException, Type[BaseException]]) -> "Future[T]":
        """Resolve with ``exception`` (a class or an instance) and run the errbacks."""
        if isinstance(exception, type):
            exception = exception()
        with self._lock:
            if self._done:
                raise IllegalStateError("future already resolved")
            self.exception = exception
            self._done = True
            errbacks, self._callbacks, self._errbacks = self._errbacks, [], []
            event = self._event
        if event is not None:
            event.set()
        for fn, args, kwargs in errbacks:
            self._call(fn, args + (exception,), kwargs)
        return self

    # -- chaining -------------------------------------------------------------------

    def add_callback(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future[T]":
        """Call ``fn(*args, value, **kwargs)`` on success."""
        with self._lock:
            if not self._done:
                self._callbacks.append((fn, args, kwargs))
                return self
        if self.exception is None:
            self._call(fn, args + (self.value,), kwargs)
        return self

    def add_errback(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future[T]":
        """Call ``fn(*args, exception, **kwargs)`` on failure."""
        with self._lock:
            if not self._done:
                self._errbacks.append((fn, args, kwargs))
                return self
        if self.exception is not None:
            self._call(fn, args + (self.exception,), kwargs)
        return self

    def add_both(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future[T]":
        """Call ``fn`` on success and on failure."""
        self.add_callback(fn, *args, **kwargs)
        return self.add_errback(fn, *args, **kwargs)

    def chain(self, other: "Future[T]") -> "Future[T]":
        """Resolve ``other`` the way this future is resolved."""
        self.add_callback(other.success)
        return self.add_errback(other.failure)

    # -- waiting ----------------------------------------------------------------------

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Block until resolved or ``timeout`` seconds pass; return whether resolved."""
        with self._lock:
            if self._done:
                return True
            if self._event is None:
                self._event = threading.Event()
            event = self._event
        return event.wait(timeout)

    def get(self, timeout: Optional[float] = None) -> T:
        """The value, raising the failure, or KafkaTimeoutError after ``timeout`` seconds."""
        if not self.wait(timeout):
            raise KafkaTimeoutError("timed out after %s s waiting for a result" % (timeout,))
        if self.exception is not None:
            raise self.exception
        return cast(T, self.value)  # resolved without an exception: success() set it

    def __await__(self) -> Generator["Future[T]", Any, T]:
        """``await future`` gives the value or raises the failure, as in kafka-python 3.

        A pending future yields itself once to whatever drives the coroutine
        (kafka-python's event loop treats a yielded future as "resume me when
        this resolves"); a resolved one finishes at once without yielding.
        """
        if not self.is_done:
            yield self
        if self.exception is not None:
            raise self.exception
        return cast(T, self.value)

    @staticmethod
    def _call(fn: Callable[..., Any], args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
        try:
            fn(*args, **kwargs)
        except Exception:  # a faulty callback must not break the I/O thread
            log.exception("error in future callback %r", fn)
