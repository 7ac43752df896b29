"""Shape matching: can a set of cards supply a given structure?

Vocabulary used by follow, throw and trick code:

* a *component* ``(width, length)`` — ``length`` adjacent positions of one effective suit, each
  holding ``width`` identical cards: ``(1, 1)`` a single, ``(2, 1)`` a pair, ``(3, 1)`` a triple,
  ``(4, 1)`` a quad, ``(2, 3)`` a three-pair tractor, ``(3, 2)`` a Titanic (R-3).
* *counts* — ``{group: number of cards}`` for the cards of one effective suit (see
  :meth:`TrumpOrder.group_of`).
* a structure is *realizable* in counts when its components can be taken from the cards at once,
  without sharing a card.  A component may be cut from a wider group: a pair from a triple, two pairs
  from a quad, a pair-tractor from a Titanic (R-4.5: pairs may be broken out of longer units).

Everything here works on small integers from the precomputed tables of :class:`TrumpOrder`.
"""
from __future__ import annotations

from itertools import product

__all__ = ["count_groups", "realizable", "best_top", "lowest_beating"]


def count_groups(cards, order) -> dict:
    """``{group: count}`` of ``cards`` (one effective suit expected, not checked)."""
    g = order.face_group
    out: dict = {}
    for c in cards:
        k = g[c.index]
        out[k] = out.get(k, 0) + 1
    return out


def _by_pos(counts: dict, order) -> dict:
    rank = order.face_rank
    bypos: dict = {}
    for g, n in counts.items():
        if n:
            bypos.setdefault(rank[g], []).append(g)
    return bypos


def _groups_ok(counts: dict, widths) -> bool:
    """Best-fit greedy for plain groups (widest first): exact for widths 2..4 and counts ≤ 4."""
    if not widths:
        return True
    vals = [n for n in counts.values() if n >= 2]
    for w in widths:
        best = -1
        for i, n in enumerate(vals):
            if n >= w and (best < 0 or n < vals[best]):
                best = i
                if n == w:
                    break
        if best < 0:
            return False
        vals[best] -= w
    return True


def _placements(bypos: dict, counts: dict, w: int, length: int):
    """Every way to take a ``(w, length)`` run, as (top position, [groups low → high])."""
    for p in sorted(bypos):
        choices = []
        for q in range(p, p + length):
            gs = [g for g in bypos.get(q, ()) if counts[g] >= w]
            if not gs:
                break
            choices.append(gs)
        else:
            if len(choices) == 1 or all(len(c) == 1 for c in choices):
                yield p + length - 1, [c[0] for c in choices]
            else:
                for combo in product(*choices):
                    yield p + length - 1, list(combo)


def _split(components):
    runs = sorted((c for c in components if c[1] >= 2 or c[0] == 1), key=lambda c: (-c[1], -c[0]))
    groups = sorted((c[0] for c in components if c[1] == 1 and c[0] >= 2), reverse=True)
    return [r for r in runs if r[0] >= 2], groups


def _fit_runs(counts, order, runs, groups) -> bool:
    if not runs:
        return _groups_ok(counts, groups)
    w, length = runs[0]
    rest = runs[1:]
    bypos = _by_pos(counts, order)
    for _top, gs in _placements(bypos, counts, w, length):
        for g in gs:
            counts[g] -= w
        ok = _fit_runs(counts, order, rest, groups)
        for g in gs:
            counts[g] += w
        if ok:
            return True
    return False


def _cheap_bounds_fail(counts: dict, components, order) -> bool:
    """Necessary conditions, checked before any search: enough wide groups, pair slots and runs."""
    need4 = need3 = need2 = 0
    for w, n in components:
        if w >= 4:
            need4 += n
        if w >= 3:
            need3 += n
        if w >= 2:
            need2 += n * (w // 2)
    if need2 == 0:
        return False
    have4 = have3 = have2 = 0
    for c in counts.values():
        have2 += c // 2
        if c >= 3:
            have3 += 1
            if c >= 4:
                have4 += 1
    if need2 > have2 or need3 > have3 or need4 > have4:
        return True
    # every run needs that many adjacent positions holding a wide enough group
    rank = order.face_rank
    for w, n in components:
        if n < 2:
            continue
        positions = sorted({rank[g] for g, c in counts.items() if c >= w})
        best = run = 0
        prev = None
        for p in positions:
            run = run + 1 if prev is not None and p == prev + 1 else 1
            best = max(best, run)
            prev = p
        if best < n:
            return True
    return False


def realizable(counts: dict, components, order) -> bool:
    """Whether ``components`` (``(width, length)`` pairs; singles ignored) fit in ``counts`` at once."""
    if len(components) == 1:
        w, length = components[0]
        if length == 1 and w >= 2:          # one pair, triple or quad: any group that wide
            for n in counts.values():
                if n >= w:
                    return True
            return False
    if _cheap_bounds_fail(counts, components, order):
        return False
    runs, groups = _split(components)
    if not runs:
        return _groups_ok(counts, groups)
    return _fit_runs(dict(counts), order, runs, groups)


def best_top(counts: dict, main, rest, order) -> int | None:
    """The highest top position of component ``main`` such that ``rest`` still fits beside it.

    ``None`` when the whole structure does not fit.  For ``main == (1, 1)`` it is the highest card
    that can be spared.  Used to compare plays of a throw's shape (R-5.3).
    """
    w, length = main
    for cw, _n in rest:
        if cw >= 2:
            break
    else:
        return _best_top_beside_singles(counts, w, length, rest, order)
    return _best_top_search(counts, main, rest, order)


def _best_top_search(counts: dict, main, rest, order) -> int | None:
    """:func:`best_top` by trying each placement of ``main``, highest first."""
    w, length = main
    counts = dict(counts)
    bypos = _by_pos(counts, order)
    runs, groups = _split(rest)
    places = sorted(_placements(bypos, counts, w, length), key=lambda t: -t[0])
    for top, gs in places:
        for g in gs:
            counts[g] -= w
        if w == 1 and length == 1:
            ok = _fit_runs(counts, order, runs, groups) and _singles_left(counts, rest)
        else:
            ok = _fit_runs(counts, order, runs, groups)
        for g in gs:
            counts[g] += w
        if ok:
            return top
    return None


def _best_top_beside_singles(counts: dict, w: int, length: int, rest, order) -> int | None:
    """:func:`best_top` when ``rest`` holds only singles (the commonest throws: a unit and singles):
    any cards fill singles, so the highest placement of ``main`` stands — for a lone single, if
    enough cards are left beside it."""
    if length == 1:
        if w == 1 and sum(counts.values()) - 1 < len(rest):
            return None
        rank = order.face_rank
        best = None
        for g, n in counts.items():
            if n >= w:
                p = rank[g]
                if best is None or p > best:
                    best = p
        return best
    tops = [top for top, _gs in _placements(_by_pos(counts, order), counts, w, length)]
    return max(tops) if tops else None


def _singles_left(counts, rest) -> bool:
    need = sum(w * length for w, length in rest)
    return sum(counts.values()) >= need


def lowest_beating(counts: dict, component, above: int, order):
    """The lowest ``component``-shaped run in ``counts`` whose top is above position ``above``.

    Returns ``(top, [groups low → high])`` or ``None`` (R-4.2: could another player beat this unit?).
    """
    w, length = component
    if length == 1:                  # a group: the lowest position above, by counting
        rank = order.face_rank
        best = None
        for g, n in counts.items():
            if n >= w:
                p = rank[g]
                if p > above and (best is None or p < best[0]):
                    best = (p, [g])
        return best
    bypos = _by_pos(counts, order)
    # placements come lowest first, so the first above ``above`` is the lowest
    for top, gs in _placements(bypos, counts, w, length):
        if top > above:
            return top, gs
    return None


def iter_realizations(counts: dict, components, order):
    """Every way to take ``components`` from ``counts`` at once, as ``{group: cards taken}``.

    Identical plain groups are taken in non-decreasing group order, so each way comes once or a
    few times (callers that need unique plays de-duplicate).
    """
    runs, groups = _split(components)
    counts = dict(counts)
    taken: dict = {}

    def take(g, w):
        counts[g] -= w
        taken[g] = taken.get(g, 0) + w

    def give(g, w):
        counts[g] += w
        taken[g] -= w
        if not taken[g]:
            del taken[g]

    def do_groups(i, min_g):
        if i == len(groups):
            yield dict(taken)
            return
        w = groups[i]
        same_as_prev = i > 0 and groups[i - 1] == w
        for g in sorted(counts):
            if counts[g] >= w and (not same_as_prev or g >= min_g):
                take(g, w)
                yield from do_groups(i + 1, g)
                give(g, w)

    def do_runs(i):
        if i == len(runs):
            yield from do_groups(0, -1)
            return
        w, length = runs[i]
        for _top, gs in list(_placements(_by_pos(counts, order), counts, w, length)):
            for g in gs:
                take(g, w)
            yield from do_runs(i + 1)
            for g in gs:
                give(g, w)

    yield from do_runs(0)
