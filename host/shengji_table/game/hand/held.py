"""A seat's cards as the engine knows them: an ordered set of copies (``{copy: None}``) that keeps
its sorted faces — the view's ``hand`` — and its count of each face (what the follow checks read)
up to date as copies come and go.  Views are built for
every decision and a seat's hand changes by one play between two of its decisions, so inserting or
removing in place (a bisect on the sort keys) beats sorting the whole hand for every view."""
from __future__ import annotations

from bisect import bisect_left
from operator import attrgetter

from ...rules.cards import COPY_KEY

__all__ = ["Held"]

_FACE = attrgetter("card")
_ABSENT = object()
_pop = dict.pop


class Held(dict):
    """``{copy: None}`` in the order the copies arrived; :meth:`faces` is the faces sorted by face
    index then deck.  ``__setitem__`` and ``pop`` keep the sorted faces; other changes drop them."""

    _sorted_ok = False               # whether _keys / _sorted describe the copies held
    _keys: list                      # sorted COPY_KEYs of the copies held
    _sorted: list                    # the faces in that order
    sorted_faces: tuple | None = None
    """``faces()`` when it is current, else None: a reader may take it without the call."""
    face_counts: list | None = None
    """``counts()`` once it was asked for (kept current from then on), else None: a reader may take
    it without the call."""

    def faces(self) -> tuple:
        """The faces held, sorted by face index then deck (the view's stable order)."""
        faces = self.sorted_faces
        if faces is None:
            if not self._sorted_ok:
                copies = sorted(self, key=COPY_KEY)
                self._keys, self._sorted = [c.key for c in copies], list(map(_FACE, copies))
                self._sorted_ok = True
            faces = self.sorted_faces = tuple(self._sorted)
        return faces

    def counts(self) -> list:
        """How many copies of each face are held, indexed by face index (kept up to date; the
        caller must not change it)."""
        counts = self.face_counts
        if counts is None:
            counts = self.face_counts = [0] * 54
            for c in self:
                counts[c.card.index] += 1
        return counts

    def __setitem__(self, copy, value) -> None:
        if copy not in self:
            self.add_new(copy, value)
            return
        self.sorted_faces = None
        dict.__setitem__(self, copy, value)

    def add_new(self, copy, value=None) -> None:
        """``self[copy] = value`` for a copy known not to be held yet (a known stack's next card):
        without the look-up ``__setitem__`` makes (a hand draws every card this way).  The sorted
        faces and the counts gain the copy."""
        if self._sorted_ok:
            key = copy.key
            i = bisect_left(self._keys, key)
            self._keys.insert(i, key)
            self._sorted.insert(i, copy.card)
        counts = self.face_counts
        if counts is not None:
            counts[copy.card.index] += 1
        self.sorted_faces = None
        dict.__setitem__(self, copy, value)

    def add_drawn(self, copies) -> None:
        """``add_new`` of each of ``copies`` in turn (a seat's draws of a run: ``draw.draw_run``)."""
        if self._sorted_ok:
            keys, faces = self._keys, self._sorted
            for copy in copies:
                i = bisect_left(keys, copy.key)
                keys.insert(i, copy.key)
                faces.insert(i, copy.card)
        counts = self.face_counts
        if counts is not None:
            for copy in copies:
                counts[copy.card.index] += 1
        self.sorted_faces = None
        dict.update(self, dict.fromkeys(copies))

    def pop(self, copy, default=_ABSENT):
        value = _pop(self, copy, _ABSENT)
        if value is _ABSENT:
            if default is _ABSENT:
                raise KeyError(copy)
            return default
        if self._sorted_ok:
            keys = self._keys
            i = bisect_left(keys, copy.key)
            del keys[i], self._sorted[i]
        counts = self.face_counts
        if counts is not None:
            counts[copy.card.index] -= 1
        self.sorted_faces = None
        return value

    def _forget(self) -> None:
        self._sorted_ok, self.sorted_faces, self.face_counts = False, None, None

    def __delitem__(self, copy) -> None:
        self._forget()
        dict.__delitem__(self, copy)

    def popitem(self):
        self._forget()
        return dict.popitem(self)

    def setdefault(self, *args):
        self._forget()
        return dict.setdefault(self, *args)

    def update(self, *args, **kw) -> None:
        self._forget()
        dict.update(self, *args, **kw)

    def clear(self) -> None:
        self._forget()
        dict.clear(self)

    def __ior__(self, other):  # type: ignore[misc]
        self._forget()
        return dict.__ior__(self, other)
