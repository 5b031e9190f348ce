"""Fast construction of frozen, slotted dataclass values.

A frozen dataclass's generated ``__init__`` stores every field through
``object.__setattr__``, which is several times slower than a plain slot store. The
engines build a view on every decision (bots, RL encoders), so :func:`frozen_builder`
gives a function that builds the same value without that cost: the fields are stored
into an instance of a plain class with the same slots, which then becomes an instance of
the dataclass (same slot layout, so CPython allows the ``__class__`` assignment). The
result is equal to, hashes like and is as frozen as ``cls(*fields)``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class P:
...     x: int
...     y: int
>>> build = frozen_builder(P)
>>> build(1, 2) == P(1, 2) and type(build(1, 2)) is P
True
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable
from dataclasses import fields
from typing import Any


def frozen_builder(cls: type) -> Callable[..., Any]:
    """``cls(*values)`` (positional, in field order) for a frozen slotted dataclass ``cls``
    whose fields all have slots, without the frozen ``__init__``'s per-field cost.

    Raises ``TypeError`` for a class whose slots are not exactly its fields in order (a
    ``__post_init__`` or default would be skipped too, so such a class is not accepted).

    A class compiled by mypyc (``scripts/compile``) is returned as it is: its constructor
    stores the fields straight into the instance, with no per-field cost to save, and its
    instances have no ``__class__`` to reassign."""
    if "__mypyc_attrs__" in vars(cls):
        return cls
    names = tuple(getattr(cls, "__slots__", ()))
    if not names or tuple(f.name for f in fields(cls)) != names:
        raise TypeError(f"{cls.__name__}: not a slotted dataclass whose slots are its fields")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: has a __post_init__, which the builder would skip")
    plain = type(f"_Unfrozen{cls.__name__}", (), {"__slots__": names})
    body = "".join(f"    v.{name} = {name}\n" for name in names)
    src = f"def build({', '.join(names)}):\n    v = new(Plain)\n{body}    v.__class__ = Cls\n    return v\n"
    namespace: dict[str, Any] = {"new": object.__new__, "Plain": plain, "Cls": cls}
    exec(src, namespace)  # generated from the field names checked above, nothing else
    build: Callable[..., Any] = namespace["build"]
    return build


def pickled_by_fields(*classes: type) -> None:
    """Lets ``pickle`` rebuild each frozen dataclass of ``classes`` from its fields once it is
    compiled by mypyc (``scripts/compile``): a compiled class's own unpickling sets the
    attributes one by one, which a frozen class refuses. Pure-Python dataclasses pickle by
    themselves and are left alone."""
    for cls in classes:
        if "__mypyc_attrs__" in vars(cls):
            copyreg.pickle(cls, _by_fields)


def _by_fields(obj: Any) -> tuple[type, tuple[Any, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj) if f.init)


def attributes(obj: object) -> dict[str, Any]:
    """The instance attributes of ``obj`` by name, as ``vars(obj)`` gives them, also for an
    instance of a class compiled by mypyc (``scripts/compile``), which keeps them in slots of
    its own, named by ``__mypyc_attrs__``, and has no ``__dict__`` (or one for the attributes
    an interpreted subclass adds).

    >>> class A:
    ...     def __init__(self) -> None:
    ...         self.x = 1
    >>> attributes(A())
    {'x': 1}
    """
    names = getattr(type(obj), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(obj))
    out = {n: getattr(obj, n) for n in names if n != "__dict__" and hasattr(obj, n)}
    out.update(getattr(obj, "__dict__", {}))
    return out


class IdentityCache:
    """``fn(obj)`` for immutable objects, remembered by the object's identity.

    The engines share every unchanged part of a state (hands, piles, tableaus, cars,
    events) between successive states, and bots and encoders ask about the same parts
    again and again, so an identity lookup hits where hashing by value would cost more
    than it saves. An entry keeps its key object alive, so an id cannot be reused by
    another object while it is cached; the cache is emptied when it holds ``size``
    entries.

    >>> calls = []
    >>> length = IdentityCache(lambda t: calls.append(t) or len(t))
    >>> t = (1, 2, 3)
    >>> length(t), length(t), len(calls)
    (3, 3, 1)
    """

    __slots__ = ("data", "fn", "size")

    def __init__(self, fn: Callable[[Any], Any], size: int = 512) -> None:
        self.fn = fn
        self.size = size
        self.data: dict[int, tuple[Any, Any]] = {}

    def __call__(self, obj: Any) -> Any:
        hit = self.data.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = self.fn(obj)
        if len(self.data) >= self.size:
            self.data.clear()
        self.data[id(obj)] = (obj, value)
        return value
