"""A seat's cards as the engine knows them: an ordered set of copies (``{copy: None}``) that keeps
its sorted faces — the view's ``hand`` — until it changes.  Views are built for every decision and
a hand changes far less often, so sorting once per change instead of once per view pays."""
from __future__ import annotations

from operator import attrgetter

from ...rules.cards import COPY_KEY

__all__ = ["Held"]

_FACE = attrgetter("card")


class Held(dict):
    """``{copy: None}`` in the order the copies arrived; :meth:`faces` is the sorted faces.  Every
    mutating method forgets the sorted faces."""

    _faces: tuple | None = None

    def faces(self) -> tuple:
        """The faces held, sorted by face index then deck (the view's stable order)."""
        faces = self._faces
        if faces is None:
            faces = self._faces = tuple(map(_FACE, sorted(self, key=COPY_KEY)))
        return faces

    def __setitem__(self, key, value) -> None:
        self._faces = None
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        self._faces = None
        dict.__delitem__(self, key)

    def pop(self, *args):
        self._faces = None
        return dict.pop(self, *args)

    def popitem(self):
        self._faces = None
        return dict.popitem(self)

    def setdefault(self, *args):
        self._faces = None
        return dict.setdefault(self, *args)

    def update(self, *args, **kw) -> None:
        self._faces = None
        dict.update(self, *args, **kw)

    def clear(self) -> None:
        self._faces = None
        dict.clear(self)

    def __ior__(self, other):
        self._faces = None
        return dict.__ior__(self, other)
