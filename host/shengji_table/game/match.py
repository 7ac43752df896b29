"""A match: hands in sequence, levels per seat, dealer rotation and match end (R-8.4, R-8.5, §9).

``Match.apply(event)`` routes every event to the current hand; a :class:`~.events.Deal` starts the
next hand once the previous one is over.  When a hand is settled the match moves the levels
(``rules.settle.advance_level``; find-a-friend shares by ``share_levels``), picks the next dealer
and announces the change ("Declarers go up two levels: 5 → 7").  The match is a pure function of its
events: ``Match(ruleset, mode).apply_all(events)`` always gives the same state.

Next dealer: fixed partnerships follow R-8.5 (``rules.settle.next_dealer``).  Without fixed
partners the rules name no seat (``next_dealer`` gives None); this table then keeps the deal with
the dealer when the declarers won and passes it to the next seat in playing order when the attackers
took over.  Three-player bidding: the first bidder moves one seat on each hand.

级数不浪费 (seed 000 變異打法, levels per player: find a friend, three players): levels that a
must-play level stopped (``Match.leftovers``) may be passed on between the settlement and the next
deal — :class:`~.events.PassLevels` to team-mates (up, never past a must-play level) or to opponents
(down, not below 2); a recipient on the winning side may :class:`~.events.RefuseLevels`.  The levels
a dug kitty (J / A) leaves once the declarers are at 2 are named the same way (陪降, not refusable).
"""
from __future__ import annotations

from dataclasses import replace
from itertools import groupby, pairwise
from collections.abc import Iterable, Sequence

from ..rules.cards import level_text
from ..rules.levels import apply_settlement, pass_deal
from ..rules.ruleset import LEVELS, Ruleset
from ..rules.settle import dig_drop, lower_level
from ..rules.transfer import (TRANSFER_RULE, DugKitty, LevelGift, TransferWindow, check_refusal, check_transfer,
                              levels_in_words)
from . import events as ev
from .effects import Announce, Refusal
from .hand import MODES, Hand
from .hand.draw import draw_run
from .hand.rules_table import SEATED_RULES
from .phase import Phase
from .views import PublicView, RefereeView, public_view, referee_view

# the events the match rules on itself (their type names); every other is the hand's in play
_MATCH_EVENTS = frozenset(cls.type for cls in (ev.Deal, ev.PassLevels, ev.RefuseLevels))
_Draw, _DRAWING, _Reverse = ev.Draw, Phase.DRAWING, ev.RefereeReverse

__all__ = ["Match", "HandSummary", "TRANSFER_RULE"]


class HandSummary(dict):
    """One settled hand as plain JSON: number, dealer, trump, level, result, level changes."""


class Match:
    """The state of a match.  ``levels[seat]`` is each seat's level (partners share theirs)."""

    def __init__(self, ruleset: Ruleset, mode: str = "scanned", *, levels: Sequence[int] | None = None,
                 dealer: int | None = None):
        """``levels`` and ``dealer`` start the match elsewhere than R-6.6's first hand: a duplicate
        board names the dealer and the level played (``club/boards.py``)."""
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {mode!r}")
        if dealer is not None and dealer not in range(ruleset.players):
            raise ValueError(f"the dealer is a seat 0..{ruleset.players - 1}, not {dealer!r}")
        if levels is not None and (len(levels) != ruleset.players or not all(lv in LEVELS for lv in levels)):
            raise ValueError(f"levels are {ruleset.players} levels 2..14, not {levels!r}")
        self.ruleset = ruleset
        self.mode = mode
        self.players = ruleset.players
        self.levels = list(levels) if levels is not None else [ruleset.start_level] * self.players
        self.dealer: int | None = dealer          # next hand's dealer (None: first hand, R-6.6)
        # how a match that does not start at R-6.6's first hand began (the record keeps it)
        self.start: dict | None = None if levels is None and dealer is None else {
            "levels": list(self.levels), "dealer": dealer}
        self.first_seat = 0
        self.hand: Hand | None = None
        self._live: Hand | None = None               # the hand while the match is not over (apply's test)
        self.summaries: list = []
        self._dealt_at = 0                           # where the hand in play's deal is in ``events``
        self.over = False
        self.winners: tuple = ()
        self.events: list = []                       # every event accepted, in order
        self.leftovers: dict = {}                    # seat -> levels a must-play level stopped (级数不浪费)
        self._transfer: TransferWindow | None = None   # the open window for passing them on (until the next deal)
        self._dig: DugKitty | None = None         # find a friend: who names the attackers that 陪降 (dig drop)
        self._unsettled: tuple | None = None      # the match as it was before the last hand was settled

    # ------------------------------------------------------------------
    def apply(self, event) -> list:
        """Apply one event; return its effects (a single :class:`Refusal` when refused)."""
        hand = self._live
        if hand is None:
            return self._apply_own(event)
        # The commonest case first: a seated event of the hand in play's phase, run by the phase's
        # rule here — ``Hand.apply``'s own first case (the same table, the same seat test), without
        # its frame.  Any other event goes through ``Hand.apply``.
        rule = SEATED_RULES[hand.phase].get(type(event))
        if rule is not None and type(event.seat) is int and event.seat in hand.seats:
            out = rule(hand, event)
            if out and type(out[0]) is Refusal:
                return out
            hand.log.append(event)
        else:
            if type(event) is _Reverse:
                return self._reverse(event)
            # the hand refuses the match's own events (a deal, passing levels on) without changing
            # anything; the match then rules on them
            out = hand.apply(event)
            if out and type(out[0]) is Refusal:
                return self._apply_own(event) if event.type in _MATCH_EVENTS else out
        self.events.append(event)
        if hand.result is not None and len(self.summaries) < hand.number:
            out = out + self._settle_hand(hand)
        return out

    def _apply_own(self, event) -> list:
        """The match's own events (a deal, passing levels on) and what is refused before a hand."""
        if type(event) is _Reverse and self.hand is not None:
            return self._reverse(event)          # the last hand's ruling, after the match ended
        if self.over:
            return [Refusal(getattr(event, "seat", None), event.type, "R-8.4", "the match is over")]
        if isinstance(event, (ev.PassLevels, ev.RefuseLevels)):
            out = self._on_pass_levels(event) if isinstance(event, ev.PassLevels) else self._on_refuse_levels(event)
            if not (out and type(out[0]) is Refusal):
                self.events.append(event)
            return out
        if isinstance(event, ev.Deal):
            if self.hand is not None and self.hand.phase != Phase.OVER:
                return [Refusal(None, "deal", "table.phase", "the current hand is not over")]
            if self.hand is not None and self.hand.result is None:
                return [Refusal(None, "deal", "table.phase", "the current hand is not settled yet (reveal the kitty)")]
            hand = Hand(self.ruleset, mode=self.mode, dealer=self.dealer, levels=tuple(self.levels),
                        first_seat=self.first_seat, number=len(self.summaries) + 1)
            out = hand.apply(event)
            if out and type(out[0]) is Refusal:
                return out
            self.hand = self._live = hand               # the one before is let go (played_hands)
            self._dealt_at = len(self.events)
            self.events.append(event)
            self.leftovers, self._transfer, self._dig = {}, None, None   # the deal closes the window
            return out
        # apply() gives every other event to the hand in play: there is none yet
        return [Refusal(getattr(event, "seat", None), event.type, "table.phase", "no hand has been dealt yet")]

    @property
    def played_hands(self) -> list:
        """Every hand of the match, in order (exports): the hands before the one in play rebuilt
        from the match's events.  The match keeps only the hand in play: finished hands kept
        whole (≈ 400 objects each) were traversed by the cyclic collector again and again, which
        cost a played hand ≈ 0.16 M instructions."""
        if self.hand is None:
            return []
        events = self.events[:self._dealt_at]             # the hands before the one in play
        again = Match(self.ruleset, self.mode, **(self.start or {}))
        hands = []
        for start, end in pairwise([i for i, e in enumerate(events) if type(e) is ev.Deal] + [len(events)]):
            again.apply_all(events[start:end])           # a deal and what followed it
            hands.append(again.hand)
        return [*hands, self.hand]

    def apply_draws(self, draws: Sequence) -> tuple | None:
        """Apply a run of draws in turn, their effects dropped (a table's deal between two
        declaration offers, a replay): those ``draw_run`` takes — every draw of a deal from a known
        stack — in one pass, the rest by ``apply``.  The first refused ends the run: returned as
        ``(its index, its refusal)``; None when every draw was accepted."""
        hand, k = self._live, 0
        if hand is not None and hand.phase is _DRAWING:
            k = draw_run(hand, draws)
            if k:
                taken = draws[:k]
                hand.log += taken
                self.events += taken
        for i in range(k, len(draws)):
            out = self.apply(draws[i])
            if out and type(out[0]) is Refusal:
                return i, out[0]
        return None

    def apply_all(self, events: Iterable) -> Match:
        """Apply every event in turn (a record's replay), their effects dropped; runs of draws
        by ``apply_draws`` (the same state as ``apply`` each, tested)."""
        apply = self.apply
        for cls, run in groupby(events, type):
            if cls is _Draw:
                self._replay_draws(list(run))
                continue
            for e in run:
                apply(e)
        return self

    def _replay_draws(self, draws: list) -> None:
        """``apply_draws`` for a replay: a refused draw is dropped and the run goes on."""
        bad = self.apply_draws(draws)
        while bad is not None:
            draws = draws[bad[0] + 1:]
            bad = self.apply_draws(draws)

    def _reverse(self, event: ev.RefereeReverse) -> list:
        """A reversal of one of the hand's rulings (``hand/referee.py``).  When the hand had been
        settled, the settlement is taken back first and made again from the hand as it now stands
        (the match as if the reversed act had never been made); not once levels were passed on."""
        hand = self.hand
        assert hand is not None, "apply() routes a reversal here only once a hand is dealt"
        settled = len(self.summaries) >= hand.number
        if settled:
            assert self._unsettled is not None, "a settled hand kept the match as it was before"
            since = self.events[self._unsettled[-1]:]
            if any(type(e) in (ev.PassLevels, ev.RefuseLevels) for e in since):
                return [Refusal(None, event.type, "R-10", "levels were passed on since the hand was settled: "
                                                          "its rulings can no longer be reversed")]
        out = hand.apply(event)
        if out and type(out[0]) is Refusal:
            return out
        self.events.append(event)
        if settled:
            (levels, self.dealer, self.first_seat, self.over, self.winners, leftovers, self._transfer,
             self._dig, count, _) = self._unsettled  # type: ignore[misc]
            self.levels, self.leftovers = list(levels), dict(leftovers)
            del self.summaries[count:]
            self._live = hand
            back = ", ".join(level_text(lv) for lv in self.levels)
            out.append(Announce("level", f"Hand {hand.number}'s settlement is withdrawn: levels back to {back}.",
                                "R-10", msg="level.withdrawn", args={"hand": hand.number, "levels": back}))
        if hand.result is not None and len(self.summaries) < hand.number:
            out += self._settle_hand(hand)
        return out

    # ------------------------------------------------------------------
    def _settle_hand(self, hand: Hand) -> list:
        self._unsettled = (list(self.levels), self.dealer, self.first_seat, self.over, self.winners,
                           dict(self.leftovers), self._transfer, self._dig, len(self.summaries), len(self.events))
        res = hand.result
        # Called once the hand has ended, and only the end of a hand (Hand._settle /
        # Hand._end_by_ruling) sets the result, and with it a dealer.
        assert res is not None and hand.dealer is not None, "only an ended hand is settled"
        s = res.settlement
        rs = self.ruleset
        dec, att = list(res.declarers), list(res.attackers)
        before = list(self.levels)
        step = apply_settlement(rs, before, s, dec, att, last_trick_seat=res.last_winner)
        shares, winners = step.shares, step.winners
        self.levels = list(step.levels)
        changes = {seat: list(ch) for seat, ch in step.changes.items()}
        self.leftovers.update(step.leftovers)
        out = []
        out += self._announce_levels(dec, att, before, shares)
        if rs.teams == "find-friend":
            out += self._dig_drop(hand, dec, changes)
        if s.takeover:
            out.append(Announce("level", "The attackers take over the deal.", s.rule, msg="level.takeover", args={}))
        self._pass_deal(hand.dealer, s.takeover)
        summary = HandSummary(number=hand.number, dealer=hand.dealer, trump=hand.trump, level=hand.level,
                              result=res.to_json(), levels_before=before, levels_after=list(self.levels),
                              changes={str(k): v for k, v in changes.items()},
                              next_dealer=self.dealer)
        self.summaries.append(summary)
        if any(self.leftovers.values()):
            out += self._open_transfer(TransferWindow(tuple(dec), tuple(att),
                                                      tuple(dec) if s.declarers_levels else tuple(att),
                                                      tuple(self.levels)))
        if winners:
            self.over, self._live = True, None
            self.winners = tuple(sorted(set(winners)))
            out.append(Announce("match", f"Match over: seat(s) {', '.join(map(str, self.winners))} win.", "R-8.4",
                                msg="match.over", args={"seats": list(self.winners)}))
        elif not rs.bidding:
            out.append(Announce("deal", f"Next dealer: seat {self.dealer}.", "R-8.5", msg="deal.next",
                                args={"seat": self.dealer}))
        return out

    def _pass_deal(self, dealer: int, takeover: bool) -> None:
        """The next hand's dealer (R-8.5; see the module doc without fixed partners), or with bidding
        the next hand's first bidder."""
        self.dealer, self.first_seat = pass_deal(self.ruleset, dealer, takeover, self.first_seat)

    def _open_transfer(self, window: TransferWindow) -> list:
        """Open the window for the levels a must-play level stopped (级数不浪费) and say who has some."""
        self._transfer = window
        out = []
        for seat, n in sorted(self.leftovers.items()):
            if self._dig is not None and seat == self._dig.giver:
                continue                              # announced with the dig drop
            out.append(Announce("level", f"Seat {seat} has {levels_in_words(n)} left over at a must-play level: "
                                         f"it may pass them to team-mates or make opponents go down.",
                                TRANSFER_RULE, msg="level.leftover",
                                args={"seat": seat, "levels": levels_in_words(n), "count": n}))
        return out

    # ------------------------------------------------------------------ 级数不浪费
    def _on_pass_levels(self, e: ev.PassLevels) -> list:
        """Apply a stopped player's choice: team-mates go up, opponents go down (seed 000 變異打法);
        the rules say whether it may (``rules.transfer.check_transfer``)."""
        verdict = check_transfer(self.ruleset, self._transfer, e.seat, e.to, leftovers=self.leftovers, dig=self._dig)
        if not verdict:
            return [Refusal(e.seat, e.type, verdict.rule, verdict.reason)]
        w = self._transfer
        assert w is not None                           # check_transfer refuses when no window is open
        up = e.to[0][0] in w.team_of(e.seat)
        dug = self._dig is not None and self._dig.giver == e.seat
        self.leftovers[e.seat] -= sum(k for _, k in e.to)
        out = [self._give(e.seat, t, k, up, refusable=t in w.winners and not dug) for t, k in e.to]
        out += self._dig_fallback(self.summaries[-1]["changes"], key=str)
        self._note_transfers()
        return out

    def _give(self, giver: int, to: int, levels: int, up: bool, *, refusable: bool) -> Announce:
        """One gift of a :class:`~.events.PassLevels`: recorded, ``to``'s level recomputed, announced."""
        w = self._transfer
        assert w is not None
        gift = LevelGift(giver, to, levels, up, self.levels[to], self.levels[to])
        self._replay_gifts(replace(w, gifts=w.gifts + (gift,)), to)
        assert self._transfer is not None
        g = self._transfer.gifts[-1]
        moved = abs(g.after - g.before)
        if up:
            text = (f"Seat {giver} passes {levels_in_words(levels)} to seat {to}: "
                    f"{level_text(g.before)} → {level_text(g.after)}")
            text += "" if moved == levels else " (stopped at a must-play level)"
        else:
            text = (f"Seat {giver} makes seat {to} go down {levels_in_words(levels)}: "
                    f"{level_text(g.before)} → {level_text(g.after)}")
            text += "" if moved == levels else " (not below 2)"
        text += f"; seat {to} may refuse." if refusable else "."
        return Announce("level", text, TRANSFER_RULE, msg="level.pass" if up else "level.push-down",
                        args={"detail": text, "giver_seat": giver, "seat": to, "count": moved,
                              "from": level_text(g.before), "to": level_text(g.after)})

    def _on_refuse_levels(self, e: ev.RefuseLevels) -> list:
        verdict = check_refusal(self._transfer, e.seat, e.giver, dig=self._dig)
        if not verdict:
            return [Refusal(e.seat, e.type, verdict.rule, verdict.reason)]
        w = self._transfer
        gift = None if w is None else w.standing_gift(e.giver, e.seat)
        assert w is not None and gift is not None      # check_refusal refuses otherwise
        # not wasted: the giver may name another
        self.leftovers[e.giver] = self.leftovers.get(e.giver, 0) + gift.levels
        self._replay_gifts(w.refusing(gift), e.seat)
        self._note_transfers()
        return [Announce("level", f"Seat {e.seat} refuses the {levels_in_words(gift.levels)} from seat {e.giver}: "
                                  f"it stays at {level_text(self.levels[e.seat])}; seat {e.giver} may pass them on "
                                  f"to somebody else.", TRANSFER_RULE, msg="level.refused",
                         args={"seat": e.seat, "levels": levels_in_words(gift.levels), "giver_seat": e.giver,
                               "level": level_text(self.levels[e.seat]), "count": gift.levels})]

    def _replay_gifts(self, window: TransferWindow, target: int) -> None:
        """Make ``window`` the open one, ``target``'s level: its level at the settlement, then every
        gift to it not refused, in order (``TransferWindow.replayed``)."""
        self._transfer = window.replayed(self.ruleset, target)
        self.levels[target] = self._transfer.level_of(target)

    def _note_transfers(self) -> None:
        summary = self.summaries[-1]
        assert self._transfer is not None
        summary["transfers"] = [g.to_json() for g in self._transfer.gifts]
        summary["levels_after"] = list(self.levels)

    def _dig_drop(self, hand: Hand, dec, changes) -> list:
        """Find a friend, seed 000 變異打法 5–6: declarers at J or A whose kitty was dug with a J / an A
        unit (attackers won the last trick with at least T points) drop levels.

        Levels that cannot be dropped below 2 are passed on: the dealer's to the (first) friend
        (剩下的級數由朋友陪降); what is still left is for a player to name attackers who drop with
        them (陪降, a :class:`~.events.PassLevels` that may not be refused) — at J the dealer names
        anyone but the digger, and when nobody but the digger can still drop, the digger drops the
        rest (直至降到2為止); at A the friend names any attacker.
        """
        res = hand.result
        assert res is not None, "only an ended hand is settled"   # called from _settle_hand
        if res.ruling or res.last_winner is None or res.last_winner in dec:
            return []
        from ..rules.units import decompose
        units = decompose(list(res.last_cards), hand.order)
        drop = dig_drop(self.ruleset, hand.level, res.settlement.attackers_points, units,
                        has_friend=len(dec) > 1)
        if drop is None:
            return []
        out = [Announce("level", drop.reason, drop.rule, msg="level.dig-drop", args={"reason": drop.reason})]
        dealer, friends = dec[0], list(dec[1:])
        rest = 0
        carry = 0
        for i, (seat, steps) in enumerate(((dealer, drop.dealer), *((f, drop.friend) for f in friends))):
            steps += carry if i == 1 else 0          # the dealer's leftover: 由朋友陪降
            if not steps:
                continue
            old = self.levels[seat]
            new, left = lower_level(old, steps)
            self.levels[seat] = new
            changes[seat] = [old, new, -steps, drop.reason]
            out.append(Announce("level", f"Seat {seat} goes down {levels_in_words(old - new)}: "
                                         f"{level_text(old)} → {level_text(new)}", drop.rule, msg="level.seat-down",
                                args={"seat": seat, "levels": levels_in_words(old - new), "count": old - new,
                                      "from": level_text(old), "to": level_text(new)}))
            if i == 0 and friends:
                carry = left
            else:
                rest += left
        if not rest:
            return out
        at_j = hand.level == 11
        giver = dealer if at_j or not friends else friends[0]
        digger = res.last_winner
        self._dig = DugKitty(giver, digger, at_j, tuple(dec))
        self.leftovers[giver] = self.leftovers.get(giver, 0) + rest
        out += self._dig_fallback(changes)
        if self.leftovers.get(giver):
            who = "an attacker other than the digger" if at_j else "any attacker"
            out.append(Announce("level", f"Seat {giver} names {who} to drop the {levels_in_words(rest)} "
                                         f"left (陪降).", drop.rule, msg="level.name-" + ("other" if at_j else "any"),
                                args={"seat": giver, "levels": levels_in_words(rest), "count": rest}))
        return out

    def _dig_fallback(self, changes: dict, key=int) -> list:
        """At J, when every attacker but the digger is at 2, the digger drops what is left
        (recorded in the hand's ``changes`` under the digger's seat)."""
        dig = self._dig
        if dig is None or not dig.at_j or not self.leftovers.get(dig.giver):
            return []
        others = [a for a in range(self.players) if a not in dig.declarers and a != dig.digger]
        if any(self.levels[a] > 2 for a in others):
            return []
        rest = self.leftovers[dig.giver]
        self.leftovers[dig.giver] = 0
        d = dig.digger
        old = self.levels[d]
        new, _ = lower_level(old, rest)
        self.levels[d] = new
        prev = changes.get(key(d))                   # the digger may have gone up in this hand
        changes[key(d)] = [prev[0] if prev else old, new, (prev[2] if prev else 0) - rest,
                           "the digger drops the levels nobody else can (seed 000 變異打法 5)"]
        return [Announce("level", f"Every other attacker is at 2: seat {d}, who dug the kitty, drops the "
                                  f"rest, {level_text(old)} → {level_text(new)}.", "§9 find-a-friend",
                         msg="level.digger-drops", args={"seat": d, "from": level_text(old), "to": level_text(new)})]

    def _announce_levels(self, dec, att, before, shares) -> list:
        out = []
        rs = self.ruleset
        if rs.teams == "fixed":
            for side, seats in (("Declarers", dec), ("Attackers", att)):
                k = shares.get(seats[0], 0)
                if k:
                    a, b = before[seats[0]], self.levels[seats[0]]
                    out.append(Announce("level", f"{side} go up {levels_in_words(k)}: "
                                                 f"{level_text(a)} → {level_text(b)}", "R-8",
                                        msg=f"level.{side.lower()}-up",
                                        args={"levels": levels_in_words(k), "count": k, "from": level_text(a),
                                              "to": level_text(b)}))
            if not out:
                out.append(Announce("level", "Nobody goes up.", "R-8", msg="level.nobody", args={}))
            return out
        for seat in range(self.players):
            k = shares.get(seat, 0)
            if k:
                role = "dealer" if seat == dec[0] else "declarer" if seat in dec else "attacker"
                out.append(Announce("level", f"Seat {seat} ({role}) goes up {levels_in_words(k)}: "
                                             f"{level_text(before[seat])} → {level_text(self.levels[seat])}", "R-8",
                                    msg=f"level.seat-up.{role}",
                                    args={"seat": seat, "levels": levels_in_words(k), "count": k,
                                          "from": level_text(before[seat]), "to": level_text(self.levels[seat])}))
        if not out:
            out.append(Announce("level", "Nobody goes up.", "R-8", msg="level.nobody", args={}))
        return out

    # ------------------------------------------------------------------
    def public_view(self) -> PublicView | None:
        """The hand in play as everybody sees it (``views.py``); None before the first deal."""
        return public_view(self)

    def referee_view(self) -> RefereeView | None:
        """The hand in play with nothing hidden (``views.py``); None before the first deal."""
        return referee_view(self)

    def snapshot(self) -> dict:
        """The whole match state as plain JSON values."""
        return {
            "preset": self.ruleset.preset, "mode": self.mode, "levels": list(self.levels),
            "dealer": self.dealer, "first_seat": self.first_seat, "over": self.over,
            "winners": list(self.winners), "hands": [dict(s) for s in self.summaries],
            "hand": None if self.hand is None else self.hand.snapshot(),
        }
