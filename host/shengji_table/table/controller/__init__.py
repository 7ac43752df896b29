"""The controller: reader and button events in, game events out; game effects in, ring states out.

Pure: no I/O, no clock.  The service (``service.py``) persists everything an :class:`Outcome`
lists before it shows a ring or acknowledges the Pico.

What a tap at a seat or at the centre reader, a short press and a long press mean in each phase is
one table, :data:`shengji_table.table.gestures.TABLE` (``docs/table.md`` lists every row; the
players' version is there too).  The package:

==============  ====================================================================================
``core.py``     :class:`Outcome`, the controller's state and persistence, the automatic steps, game
                events in and refusals out
``dispatch.py`` the physical events: each gesture is looked up in the table and dispatched to the
                method of its step (``STEPS``)
``entry.py``    decisions entered at the seat: bids, trump, friend calls
``rings.py``    the firmware's ring vocabulary, the colours, the game's effects on the rings
==============  ====================================================================================

Every wrong entry is refused on that seat's ring with its reason and changes nothing: a press or a
tap by a seat whose decision it is not (``table.out-of-turn`` for bids, ``R-9 bidding`` for trump,
``R-9 find-a-friend`` for calls), a press with no card tapped, a long press with no bid / suit /
copy chosen, no lower bid left, the same card and copy called twice, a centre tap of a card not in
the kitty (``§9 反牌``).  The decision being entered (``entry``), the kitty cards tapped and the
buttons held long are the controller's own state, saved with the rest (``state_json``), so a
restarted host continues them.

Automatic game events: the next hand's ``deal`` when the previous hand is settled (``deal_for``
gives it: a seed on the virtual table, an unknown stack at a real one) and ``take_kitty`` when the
draw closes (the dealer picks the kitty up) — except with three-player bidding, where the kitty
waits for counter-declarations until the dealer's button.  Every refusal — the game's and the controller's own
(``table.unknown-tag``, ``table.foreign-deck``, ``table.reader``, ``table.mode``) — turns that
seat's ring to REFUSED and is returned with its reason; the game state does not change.
"""
from __future__ import annotations

from .core import Outcome, board_layout
from .dispatch import Gestures
from .rings import R, RingCommand, SUIT_COLOURS

__all__ = ["Controller", "Outcome", "RingCommand", "SUIT_COLOURS", "board_layout", "R"]


class Controller(Gestures):
    """Turns one table's physical events into game events (see the module docstring).

    ``deal_for(number)`` gives the ``deal`` event of hand ``number`` (1-based), or None to stop
    dealing (the demo's last hand was played).
    """
