"""The terminal view's words in English and Mandarin (``--lang en|zh``): labels, the phases, the
ring colour legend and the teams line.  Everything here is public (who is on which side is public
from the deal on; a find-a-friend friend only once the called card is played)."""
from __future__ import annotations

from ..game.phase import Phase
from ..game.views import PublicView
from ..rules.cards import level_text, suit_symbol
from ..table.controller.rings import (ACCEPTED_COLOUR, LEVEL_COLOUR, PENDING_COLOUR, POINTS_COLOUR,
                                      REFUSED_COLOUR, SUIT_COLOURS, TURN_COLOUR, WON_COLOUR)

__all__ = ["LABELS", "PHASES", "legend", "teams_line", "level_word", "PATTERNS", "LANGS"]

LANGS = ("en", "zh")

LABELS = {
    "en": {"hand": "Hand", "phase": "", "level": "level", "trump": "trump", "dealer": "dealer", "seat": "seat",
           "centre": "centre", "trick": "Trick", "last": "Last trick", "entering": "entering",
           "points": "attackers' points", "tricks": "tricks", "news": "Announcements", "drawing": "(not yet)",
           "won": "won", "dealer_tag": "dealer", "decl": "declares", "att": "attacks", "unknown": "?",
           "waiting": "waiting for the first hand", "clock": "clock", "burial": "burial", "out": "time is up"},
    "zh": {"hand": "第", "phase": "", "level": "打", "trump": "主", "dealer": "庄家", "seat": "座位",
           "centre": "中间", "trick": "本墩", "last": "上一墩", "entering": "正在出",
           "points": "闲家得分", "tricks": "墩数", "news": "播报", "drawing": "（未定）",
           "won": "通关", "dealer_tag": "庄家", "decl": "庄家方", "att": "闲家", "unknown": "？",
           "waiting": "等待第一副牌", "clock": "限时", "burial": "埋底", "out": "超时"},
}

PHASES = {
    "en": {p: p.value for p in Phase},
    "zh": {Phase.DEAL: "发牌", Phase.DRAWING: "摸牌", Phase.BIDDING: "叫分", Phase.TRUMP: "定主",
           Phase.KITTY: "底牌", Phase.EXCHANGE: "换底", Phase.BURYING: "扣底", Phase.STEAL: "炒地皮",
           Phase.FRIEND: "找朋友",
           Phase.PLAYING: "出牌", Phase.OVER: "结束"},
}

# the firmware's ring patterns (firmware/rings.py NAMES) as the screen names them
PATTERNS = {
    "en": {},
    "zh": {"OFF": "灭", "TURN": "轮到", "PENDING": "刷牌", "REFUSED": "不接受", "TRICK_WON": "赢墩", "POINTS": "分数",
           "TRUMP": "主牌", "LEVEL": "升级", "SOLID": "常亮"},
}

# (colour, English, Mandarin): what each ring colour means (table/controller/rings.py, docs/table.md §7)
_LEGEND = (
    (TURN_COLOUR, "circling: your turn", "转圈：轮到你"),
    (PENDING_COLOUR, "blue: tapped", "蓝：已刷的牌"),
    (ACCEPTED_COLOUR, "green: accepted", "绿：接受"),
    (REFUSED_COLOUR, "red blink: refused", "红闪：不接受"),
    (WON_COLOUR, "amber: won the trick", "琥珀：赢这一墩"),
    (POINTS_COLOUR, "orange: points (centre)", "橙：闲家得分（中间）"),
    (LEVEL_COLOUR, "purple: new level", "紫：升级"),
)
_TRUMP_LEGEND = {"en": "breathing suit colour: trump", "zh": "花色慢闪：主牌"}
_SUITS = {"en": "no trump", "zh": "无主"}


def _dot(rgb, colour: bool) -> str:
    return f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m●\x1b[0m" if colour else "●"


def legend(lang: str, colour: bool = True) -> list:
    """Three lines: each ring colour in words, then the suit colours of trump."""
    zh = lang == "zh"
    items = [f"{_dot(rgb, colour)} {z if zh else e}" for rgb, e, z in _LEGEND]
    suits = " ".join(f"{_dot(SUIT_COLOURS[s], colour)}{suit_symbol(s)}" for s in "SHCD")
    trump = f"{_TRUMP_LEGEND[lang]} {suits} {_dot(SUIT_COLOURS[None], colour)}{_SUITS[lang]}"
    return ["  ".join(items[:4]), "  ".join(items[4:]), trump]


def level_word(level: int, lang: str) -> str:
    return level_text(level) if level <= 14 else LABELS[lang]["won"]


def _seats(seats, lang: str) -> str:
    return ("+" if lang == "en" else "、").join(str(s) for s in seats)


def teams_line(view: PublicView | None, ruleset, lang: str) -> str:
    """Who is on which side, as far as the table knows it now."""
    zh = lang == "zh"
    n = ruleset.players
    if ruleset.teams == "fixed":
        if view is None or view.dealer is None:
            a, b = range(0, n, 2), range(1, n, 2)
            return (f"队伍：{_seats(a, lang)} 对 {_seats(b, lang)}（谁坐庄由摸牌叫主决定）" if zh else
                    f"Teams: seats {_seats(a, lang)} and {_seats(b, lang)}; the draw decides who declares")
        dec, att = view.declarers, view.attackers or ()
        return (f"队伍：{_seats(dec, lang)} 坐庄，{_seats(att, lang)} 攻" if zh else
                f"Teams: seats {_seats(dec, lang)} declare, {_seats(att, lang)} attack")
    if ruleset.teams == "find-friend":
        return _friend_line(view, lang)
    if view is None or view.dealer is None:
        return ("三人：叫分最高者一人坐庄，另外两家联手" if zh else
                "Three players: the bid winner declares alone against the others")
    others = _seats(view.attackers or (), lang)
    return (f"{view.dealer}号位一人坐庄，{others} 联手" if zh else
            f"Seat {view.dealer} declares alone; seats {others} attack")


def _friend_line(view: PublicView | None, lang: str) -> str:
    zh = lang == "zh"
    if view is None or view.dealer is None:
        return ("找朋友：朋友出牌之前，谁是朋友没人知道" if zh else
                "Find a friend: nobody knows the friend until the called card is played")
    calls = "; ".join(f"{'#' + str(nth)} {face.unicode()}" for face, nth in view.friend_calls)
    found = view.friends
    if view.attackers is not None:
        if zh:
            return f"庄家{view.dealer}号位 + {_seats(found, lang) or '无朋友'}，{_seats(view.attackers, lang)} 攻"
        return (f"Seats {_seats(view.declarers, lang)} declare, {_seats(view.attackers, lang)} attack"
                + (f"; called: {calls}" if calls else ""))
    if zh:
        who = f"朋友：{_seats(found, lang)}" if found else "朋友未知，等朋友出牌"
        return f"庄家{view.dealer}号位，{who}" + (f"；叫的牌：{calls}" if calls else "")
    who = f"friend(s): seat {_seats(found, lang)}" if found else "friend unknown until the friend shows"
    return f"Dealer seat {view.dealer}, {who}" + (f"; called: {calls}" if calls else "")
