"""`NamedTuple` for the modules on a hook's and a session start's path, without `typing`.

Importing `typing` costs about 2 ms and each `typing.NamedTuple` class a little more: a
noticeable share of `chord-memory summary` (docs/performance.md). This base builds the
same class from the annotations with `collections.namedtuple`, which the interpreter has
loaded anyway. Type checkers see `typing.NamedTuple`:

    TYPE_CHECKING = False
    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from chord_memory.structs import NamedTuple

Fields, defaults, methods, properties and docstrings behave as with `typing.NamedTuple`.
"""
from __future__ import annotations

import collections


class _Builder(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, object]) -> type:
        if not bases:
            return super().__new__(mcls, name, bases, ns)
        annotations = ns.get("__annotations__", {})
        assert isinstance(annotations, dict)
        fields = list(annotations)
        defaults = [ns[f] for f in fields if f in ns]
        base = collections.namedtuple(name, fields, defaults=defaults or None)  # type: ignore[misc]
        body = {k: v for k, v in ns.items() if k not in fields and k != "__annotations__"}
        body["__slots__"] = ()
        body["__annotations__"] = annotations
        return type(name, (base,), body)


class NamedTuple(metaclass=_Builder):
    """Subclass with annotated fields, as `typing.NamedTuple`."""
