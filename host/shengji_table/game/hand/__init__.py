"""One hand as an event-sourced state machine: one file per phase, one front end.

``Hand.apply(event)`` returns the effects of one event; a refused event changes nothing, so a
record replays bit for bit.  Phases, in order (:class:`~..phase.Phase`)::

    deal → drawing → [bidding → trump] → kitty [⇄ exchange] → burying [⇄ steal] → [friend] → playing → over

=================  =====================================================================
file               what it holds
=================  =====================================================================
``core.py``        :class:`Hand`: the state, the event loop, queries, views, the snapshot
``rules_table.py`` which function handles which event in which phase
``knowledge.py``   what the host knows of the hands: :class:`ScannedHands`, :class:`OpenHands`
``draw.py``        deal, draw, declarations, closing the draw (R-6, R-7.1)
``bidding.py``     three players: bids and naming trump (§9)
``counter.py``     three players: the counter-declaration (反牌) and the swap with the kitty
``kitty.py``       taking and burying the kitty (R-7.2); 炒地皮 (R-7.4)
``friend_call.py`` find a friend: the dealer's call
``play.py``        card entry and tricks (R-4, R-5), failed throws (R-4.3)
``evidence.py``    open play: revokes proven (R-10.2), challenges (R-4.3), the kitty revealed
``settle.py``      the settlement (R-7.3, R-8) and ends by ruling (R-10.2, R-10.3)
``referee.py``     the referee's penalty, end of hand and undo (R-10)
``result.py``      :class:`HandResult`;  ``trick.py``: :class:`SeatPlay`, :class:`TrickTaken`
=================  =====================================================================
"""
from __future__ import annotations

from ..phase import Phase
from .core import Hand
from .counter import COUNTER_RULE, Exchange
from .knowledge import COUNTER_SWAP, KNOWLEDGE, MODES, Knowledge, OpenHands, ScannedHands
from .result import HandResult
from .trick import SeatPlay, TrickTaken

__all__ = ["Hand", "HandResult", "Exchange", "Phase", "MODES", "COUNTER_SWAP", "COUNTER_RULE",
           "Knowledge", "ScannedHands", "OpenHands", "KNOWLEDGE", "SeatPlay", "TrickTaken"]
