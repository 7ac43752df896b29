"""Mandarin for the table's public sentences: a card renderer and a phrase catalogue keyed by the
announcement kinds of the game (``game/effects.py``: deal, declare, trump, kitty, throw, trick,
friend, revoke, settle, level, match, referee, bid, undo), the table's own (``table``) and refusals.

The input is always the *public* English sentence the controller put in ``Outcome.texts`` (the
announcements, and the refusals after ``game/disclosure.py``); each catalogue entry is a pattern of
one of the game's sentences and the Chinese built from the facts it carries (seats, cards, suits,
levels, points).  Translating the public text, and nothing else, means the Chinese can never say
more than the screen: no hand, no kitty.  A sentence no entry knows gets the kind's general phrase
(``FALLBACK``), never the English words or a card code.

    >>> to_zh("Seat 2 shows H2 H2: seat 2 overcalls with hearts (反主).")
    '2号位亮一对红桃2，反主，红桃为主。'
    >>> cards_zh("BJ BJ S10#2")
    '一对大王、黑桃10'
"""
from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["to_zh", "cards_zh", "card_zh", "why_zh", "kind_of", "CATALOGUE", "FALLBACK", "KINDS"]

KINDS = ("deal", "declare", "trump", "kitty", "throw", "trick", "friend", "revoke", "settle", "level",
         "match", "referee", "bid", "undo", "table", "refusal")

SUIT_ZH = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块",
           "♠": "黑桃", "♥": "红桃", "♣": "梅花", "♦": "方块"}
SUIT_WORD_ZH = {"spades": "黑桃", "hearts": "红桃", "clubs": "梅花", "diamonds": "方块", "no trump": "无主",
                 "black": "黑色", "red": "红色", "jokers": "王"}
_NUM_ZH = {1: "一", 2: "两", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九", 10: "十"}
_WORD_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
NTH_ZH = {"first": "第一张", "second": "第二张", "third": "第三张", "fourth": "第四张"}
_ROLE_ZH = {"dealer": "庄家", "declarer": "庄家一方", "attacker": "闲家", "friend": "朋友"}

# a card in the game's notation (S10, HA, LJ, BJ, ♠10, 大王; optional copy #2)
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:(?P<suit>[SHCD♠♥♣♦])(?P<rank>10|[2-9JQKAT])|(?P<joker>LJ|BJ|小王|大王))"
                   r"(?:#\d+)?(?![A-Za-z0-9])")
_ONE = r"(?:[SHCD♠♥♣♦](?:10|[2-9JQKAT])|LJ|BJ|小王|大王)(?:#\d+)?"
_CARDS = rf"(?P<cards>{_ONE}(?: {_ONE})*)"


def card_zh(match: re.Match) -> str:
    """One card of :data:`_CARD` in Chinese: 黑桃A, 红桃10, 小王, 大王."""
    joker = match.group("joker")
    if joker:
        return "小王" if joker in ("LJ", "小王") else "大王"
    rank = match.group("rank")
    return SUIT_ZH[match.group("suit")] + ("10" if rank == "T" else rank)


def cards_zh(text: str) -> str:
    """Every card in ``text`` in Chinese; the same face in a row is a pair (一对) or three (三张)."""
    names = [card_zh(m) for m in _CARD.finditer(text)]
    groups: list = []
    for name in names:
        if groups and groups[-1][0] == name:
            groups[-1][1] += 1
        else:
            groups.append([name, 1])
    return "、".join(name if n == 1 else ("一对" if n == 2 else f"{_NUM_ZH.get(n, n)}张") + name
                    for name, n in groups)


def _n(word: str) -> str:
    """``two`` / ``2`` → 两 (levels, counts)."""
    n = _WORD_NUM.get(word) if not word.isdigit() else int(word)
    return _NUM_ZH.get(n, str(n)) if n is not None else word


def _seat(n: str) -> str:
    return f"{n}号位"


def _suit(word: str) -> str:
    return SUIT_WORD_ZH.get(word.strip().lower(), "")


def _trump(word: str) -> str:
    zh = _suit(word)
    return "无主" if zh == "无主" else f"{zh}为主" if zh else ""


def _outcome_zh(reason: str) -> str:
    """A settlement's reason (rules/settle.py) as who goes up."""
    checks: tuple = (
        (r"declarers go up (\w+) levels?", "庄家升{0}级"),
        (r"the dealer goes up (\w+) levels?", "庄家升{0}级"),
        (r"take over the deal and go up (\w+) levels?", "闲家上台，升{0}级"),
        (r"take over the deal and nobody goes up", "闲家上台，不升级"),
        (r"nobody goes up and the deal passes", "不升级，闲家上台"),
        (r"each goes up (\w+) levels?", "闲家各升{0}级"),
        (r"they go up (\w+) levels?", "闲家上台，升{0}级"),
    )
    for pattern, zh in checks:
        m = re.search(pattern, reason)
        if m:
            return zh.format(*(_n(g) for g in m.groups()))
    return "请看屏幕"


def _declare(m: re.Match) -> str:
    reason = m.group("reason")
    suit = re.search(r"(?:declares|overcalls with(?: jokers:)?) (no trump|spades|hearts|clubs|diamonds|black|red)",
                     reason)
    over = "，反主" if "overcall" in reason else ""
    return f"{_seat(m['s'])}亮{cards_zh(m['cards'])}{over}" + (f"，{_trump(suit.group(1))}" if suit else "") + "。"


def _refusal(m: re.Match) -> str:
    who = "中间读卡器" if m["who"] == "Centre" else "桌子" if m["who"] == "Table" else _seat(m["n"])
    reason = m["reason"]
    rule = re.search(r"\(([^()]*)\)$", reason)
    return f"{who}：不行，{why_zh(reason, rule.group(1) if rule else '')}。"


def why_zh(reason: str, rule: str) -> str:
    """A refusal's public reason (``game/disclosure.py``) in Chinese, by its words, else its rule."""
    follow = re.match(r"must follow (trumps|[♠♥♣♦])", reason)
    if follow:
        return "必须跟主牌" if follow.group(1) == "trumps" else f"必须跟{SUIT_ZH[follow.group(1)]}"
    return next((zh for en, zh in _REASONS_ZH if en in reason), None) or _RULES_ZH.get(rule, "这样不行")


# the refusal's public reason (game/disclosure.py and the controller's own), then its rule id
_REASONS_ZH = (
    ("must follow the lead's pairs", "必须跟对子"), ("must follow the lead's tractors", "必须跟拖拉机"),
    ("must follow the lead's shape", "必须跟首家的牌型"), ("must follow the lead's suit", "必须跟首家的花色"),
    ("cannot be played from this seat", "这张牌不能从这里出"), ("not the next card", "不是下一张牌"),
    ("unknown card", "不认识的牌"), ("foreign card", "别的牌组的牌"), ("no hand is being played", "现在没有在打牌"),
    ("turn to bid", "还没轮到你叫分"), ("no lower bid", "没有更低的分了，刷一张牌表示不叫"),
    ("calls the friend", "由庄家找朋友"), ("names trump", "由庄家定主"), ("called twice", "同一张牌叫了两次"),
    ("not in the kitty", "这张不是底牌"), ("centre reader takes", "中间读卡器现在不收牌"),
    ("tap a card of the face you call", "先刷要叫的牌，再按按钮"),
    ("press the button to choose a bid", "按按钮选分，长按叫分"), ("tap the cards to lead first", "先刷要出的牌"),
    ("is empty", "这个座位没人"), ("not on this board", "本桌没有这个读卡器"),
)
_RULES_ZH = {
    "table.out-of-turn": "还没轮到你", "table.already-played": "这张牌已经出过", "table.twice": "同一张牌刷了两次",
    "table.unknown-tag": "不认识的牌", "table.foreign-deck": "别的牌组的牌", "table.reader": "这个读卡器现在不用",
    "table.phase": "现在不能这样做", "table.seat": "这个座位没人", "table.draw-order": "还没轮到你摸牌",
    "table.take-back": "这张牌不能收回", "table.mode": "这种打法不用这一步", "R-4.1": "出牌不合规则",
    "R-4.2": "出牌不合规则", "R-4.3": "甩牌有误", "R-6.5": "叫主有误", "R-7.1": "底牌有误", "R-7.2": "扣底有误",
    "R-9 bidding": "叫分有误", "R-9 find-a-friend": "由庄家找朋友", "R-10.1": "裁判规则", "R-10.4": "裁判规则",
}

Rule = tuple[re.Pattern, Callable[[re.Match], str]]


def _rules(*pairs) -> list:
    return [(re.compile(p), f) for p, f in pairs]


# kind -> [(pattern of the game's English sentence, the Chinese from its match)]
CATALOGUE: dict[str, list[Rule]] = {
    "deal": _rules(
        (r"^Hand (?P<h>\d+): dealing, (?P<c>\d+) cards each; level (?P<l>\w+)",
         lambda m: f"第{m['h']}副牌，每人{m['c']}张，打{m['l']}。"),
        (r"^Next dealer: seat (?P<s>\d+)", lambda m: f"下一副{_seat(m['s'])}坐庄。")),
    "declare": _rules(
        (r"^Seat (?P<s>\d+) makes a hidden declaration", lambda m: f"{_seat(m['s'])}暗叫。"),
        (r"^Seat (?P<s>\d+) shows " + _CARDS + r": (?P<reason>.*)", _declare),
        (r"^Hidden declarations revealed: seat (?P<s>\d+) with " + _CARDS + " stands",
         lambda m: f"暗叫亮出：{_seat(m['s'])}的{cards_zh(m['cards'])}有效。"),
        (r"^Seat (?P<s>\d+)'s call stands: seat \d+ deals", lambda m: f"{_seat(m['s'])}叫主有效，坐庄。"),
        (r"^Nobody declared: seat (?P<s>\d+), who drew first, deals",
         lambda m: f"无人叫主，先摸牌的{_seat(m['s'])}坐庄。"),
        (r"^Seat (?P<s>\d+) counter-declares with " + _CARDS + r": trump is (?P<t>[a-z ]+)\..* swaps (?P<k>\d+)",
         lambda m: f"{_seat(m['s'])}用{cards_zh(m['cards'])}反主，{_trump(m['t'])}，从底牌换{m['k']}张。"),
        (r"^The dealer, seat (?P<s>\d+), answers with " + _CARDS + r": trump is (?P<t>[a-z ]+)\.",
         lambda m: f"庄家{_seat(m['s'])}用{cards_zh(m['cards'])}应对，{_trump(m['t'])}。"),
        (r"^Seat (?P<s>\d+) counters with " + _CARDS + r" \(炒地皮\): trump is (?P<t>[a-z ]+);",
         lambda m: f"{_seat(m['s'])}用{cards_zh(m['cards'])}炒地皮，{_trump(m['t'])}，拿底牌重扣。")),
    "trump": _rules(
        (r"^Trump: (?P<t>[a-z ]+), level (?P<l>\w+); seat (?P<s>\d+) deals",
         lambda m: f"{_trump(m['t'])}，打{m['l']}，{_seat(m['s'])}坐庄。"),
        (r"^Nobody declared: (?P<t>[a-z ]+) \(", lambda m: f"无人叫主，{_trump(m['t'])}。"),
        (r"^Seat (?P<s>\d+): trump (?P<t>[a-z ]+)\? Hold the button",
         lambda m: f"{_seat(m['s'])}定{_trump(m['t'])}吗？长按按钮确认。")),
    "kitty": _rules(
        (r"^Seat (?P<s>\d+) takes the kitty and buries (?P<k>\d+) cards",
         lambda m: f"{_seat(m['s'])}拿底牌，扣{m['k']}张。"),
        (r"^Seat (?P<s>\d+) has buried the kitty", lambda m: f"{_seat(m['s'])}扣底完毕。"),
        (r"^Seat (?P<s>\d+) draws (?P<k>\d+) cards from the kitty",
         lambda m: f"{_seat(m['s'])}从底牌随机摸{m['k']}张，再扣回{m['k']}张。"),
        (r"^Seat (?P<s>\d+) has laid (?P<k>\d+) cards back", lambda m: f"{_seat(m['s'])}已扣回{m['k']}张底牌。"),
        (r"^Last trick played: reveal the kitty", lambda m: "最后一墩已出完，请亮底牌。"),
        (r"^炒地皮: a stronger call takes the kitty", lambda m: "炒地皮：更大的叫牌拿走底牌；无人再叫请按按钮。"),
        (r"^Nobody counters: seat (?P<s>\d+)'s kitty stands; trump is (?P<t>[a-z ]+)\.",
         lambda m: f"无人炒地皮，{_seat(m['s'])}的底牌有效，{_trump(m['t'])}。")),
    "throw": _rules(
        (r"^Seat (?P<s>\d+) throws " + _CARDS + ": opponents may challenge",
         lambda m: f"{_seat(m['s'])}甩牌：{cards_zh(m['cards'])}，对手可以挑战。"),
        (r"^Seat (?P<s>\d+)'s throw fails:.*Played: " + _CARDS,
         lambda m: f"{_seat(m['s'])}甩牌失败，改出{cards_zh(m['cards'])}。"),
        (r"^Penalty against seat (?P<s>\d+)'s side", lambda m: f"{_seat(m['s'])}一方甩牌失败，罚分。"),
        (r"^Seat (?P<s>\d+) challenged with " + _CARDS,
         lambda m: f"{_seat(m['s'])}用{cards_zh(m['cards'])}挑战甩牌。")),
    "trick": _rules(
        (r"^Trick (?P<k>\d+) to seat (?P<s>\d+)(?:, (?P<p>\d+) points)?",
         lambda m: f"第{m['k']}墩归{_seat(m['s'])}" + (f"，{m['p']}分。" if m["p"] else "。"))),
    "friend": _rules(
        (r"^Seat (?P<s>\d+) calls (?P<c>\S+): press once for the first copy",
         lambda m: f"{_seat(m['s'])}叫{cards_zh(m['c'])}：按一下是第一张，按两下是第二张，长按确认。"),
        (r"^Seat (?P<s>\d+) calls the (?P<nth>\w+) (?P<c>\S+)\? Hold the button",
         lambda m: f"{_seat(m['s'])}叫{NTH_ZH.get(m['nth'], '')}{cards_zh(m['c'])}吗？长按按钮确认。"),
        (r"^Seat (?P<s>\d+): call (?P<k>\d+) of (?P<n>\d+) noted",
         lambda m: f"{_seat(m['s'])}：第{m['k']}个朋友已记下（共{m['n']}个），请刷下一张要叫的牌。"),
        (r"^Seat (?P<s>\d+) calls for a friend: (?P<calls>.*)\.$",
         lambda m: f"{_seat(m['s'])}找朋友：" + "；".join(
             NTH_ZH.get(c.split()[1], "") + cards_zh(c) for c in m["calls"].split("; ") if len(c.split()) > 2) + "。"),
        (r"^Seat (?P<s>\d+) plays the (?P<nth>\w+) (?P<c>\S+) and is the dealer's friend",
         lambda m: f"{_seat(m['s'])}出了{NTH_ZH.get(m['nth'], '')}{cards_zh(m['c'])}，是庄家的朋友！"),
        (r"^Seat (?P<s>\d+) plays the (?P<nth>\w+) (?P<c>\S+), already on the dealer's side",
         lambda m: f"{_seat(m['s'])}出了{NTH_ZH.get(m['nth'], '')}{cards_zh(m['c'])}，"
                   "已是庄家一方，这张没找到朋友。")),
    "settle": _rules(
        (r"^Attackers captured \d+.*?: (?P<p>-?\d+) points\. (?P<reason>.*)",
         lambda m: f"闲家得{m['p']}分，{_outcome_zh(m['reason'])}。")),
    "level": _rules(
        (r"^(?P<side>Declarers|Attackers) go up (?P<k>\w+) levels?: (?P<a>\w+) → (?P<b>\w+)",
         lambda m: f"{'庄家' if m['side'] == 'Declarers' else '闲家'}升{_n(m['k'])}级，从{m['a']}到{m['b']}。"),
        (r"^Seat (?P<s>\d+) \((?P<role>\w+)\) goes up (?P<k>\w+) levels?: (?P<a>\w+) → (?P<b>\w+)",
         lambda m: f"{_seat(m['s'])}（{_ROLE_ZH.get(m['role'], '')}）升{_n(m['k'])}级，从{m['a']}到{m['b']}。"),
        (r"^Seat (?P<s>\d+) goes down (?P<k>\w+) levels?: (?P<a>\w+) → (?P<b>\w+)",
         lambda m: f"{_seat(m['s'])}降{_n(m['k'])}级，从{m['a']}到{m['b']}。"),
        (r"^Nobody goes up", lambda m: "无人升级。"),
        (r"^The attackers take over the deal", lambda m: "闲家上台。")),
    "match": _rules(
        (r"^Match over: seat\(s\) (?P<w>[\d, ]+) win",
         lambda m: "比赛结束，" + "、".join(_seat(s.strip()) for s in m["w"].split(",")) + "获胜！")),
    "bid": _rules(
        (r"^Kitty cards shown: " + _CARDS + r"\. Seat (?P<s>\d+) bids first",
         lambda m: f"亮出底牌：{cards_zh(m['cards'])}。{_seat(m['s'])}先叫分。"),
        (r"^Seat (?P<s>\d+) passes", lambda m: f"{_seat(m['s'])}不叫。"),
        (r"^Seat (?P<s>\d+) bids (?P<p>\d+)", lambda m: f"{_seat(m['s'])}叫{m['p']}分。"),
        (r"^Seat (?P<s>\d+) wins the bidding at (?P<p>\d+)", lambda m: f"{_seat(m['s'])}以{m['p']}分叫得，坐庄。"),
        (r"^Seat (?P<s>\d+): bid (?P<p>\d+)\? Hold the button",
         lambda m: f"{_seat(m['s'])}叫{m['p']}分吗？长按按钮确认，刷一张牌表示不叫。")),
    "referee": _rules(
        (r"^Referee: (?P<p>\d+) points against seat (?P<s>\d+)'s side",
         lambda m: f"裁判：{_seat(m['s'])}一方罚{m['p']}分。")),
    "undo": _rules(
        (r"^Referee undid seat (?P<s>\d+)'s play of " + _CARDS,
         lambda m: f"裁判撤回{_seat(m['s'])}出的{cards_zh(m['cards'])}。")),
    "table": _rules(
        (r"^Reader (?P<r>\w+) stopped answering", lambda m: f"读卡器{_seat(m['r']) if m['r'].isdigit() else '中间'}"
                                                              "没有响应，请检查连线。")),
    "refusal": _rules(
        (r"^(?P<who>Seat (?P<n>\d+)(?: \([^)]*\))?|Centre|Table): refused — (?P<reason>.*)", _refusal)),
    "revoke": _rules(
        (r"^a declarer revoked", lambda m: "庄家一方该跟没跟：本副结束，闲家上台，不升级。"),
        (r"^an attacker revoked", lambda m: "闲家一方该跟没跟：本副结束，庄家升一级。"),
        (r"^the declarers' .* is wrong", lambda m: "庄家一方牌数不对：闲家上台，不升级。"),
        (r"^an attacker's .* is wrong", lambda m: "闲家一方牌数不对：庄家升一级。")),
}

# a sentence of the kind that no pattern knows: what is said instead (the screen has the details)
FALLBACK = {
    "deal": "发牌。", "declare": "有人叫主。", "trump": "主牌已定。", "kitty": "底牌。", "throw": "甩牌。",
    "trick": "一墩结束。", "friend": "找朋友。", "revoke": "该跟没跟，本副按规则结算。",
    "settle": "本副结算，请看屏幕。",
    "level": "级别有变动，请看屏幕。", "match": "比赛结束。", "referee": "裁判裁决，请看屏幕。", "bid": "叫分。",
    "undo": "裁判撤回一手牌。", "table": "桌子有提示，请看屏幕。", "refusal": "不行，请看屏幕。",
}
_GENERAL = "请看屏幕。"


def kind_of(text: str) -> str | None:
    """The kind of the first catalogue pattern matching ``text`` (None: unknown)."""
    for kind, rules in CATALOGUE.items():
        if any(p.search(text) for p, _ in rules):
            return kind
    return None


def to_zh(text: str, kind: str | None = None) -> str:
    """``text`` (a public sentence) in Mandarin; ``kind`` tries that kind's patterns first."""
    kinds = ([kind] if kind in CATALOGUE else []) + [k for k in CATALOGUE if k != kind]
    for k in kinds:
        for pattern, build in CATALOGUE[k]:
            m = pattern.search(text)
            if m:
                return build(m)
    seat = re.match(r"^Seat (\d+)", text)
    general = FALLBACK.get(kind or "", _GENERAL)
    return (f"{_seat(seat.group(1))}：" if seat else "") + general
