"""``shengji-table judge [FILE] [--lines | --text]`` — rule on JSON situations (the referee's tool).

Reads one JSON situation from FILE (or stdin when FILE is absent or ``-``) and prints one JSON
ruling on one line.  With ``--lines`` every non-blank input line is a situation and gets exactly one
output line.  Malformed input prints ``{"error": "…"}`` and the exit status is 2; with ``--lines``
the run goes on after a bad line and exits 2 at the end.  An internal fault (a bug) is reported the
same way as ``{"error": "internal error: …"}`` with exit status 3, so a batch never loses its
other lines.  The contract is documented in docs/judge.md.  ``--text`` prints the ruling
for a person instead of JSON: one fact a line, each play with its verdict, rule and reason.
"""
from __future__ import annotations

import gc
import json
import sys

import msgspec

from ..rules.judge import SituationError, judge

EXIT_OK, EXIT_MALFORMED, EXIT_INTERNAL = 0, 2, 3
# What one situation may be: a line (or file) of at most 1 MiB, nested at most 32 deep (a real
# situation is 4 deep).  Larger input is refused before it is parsed, so no line can exhaust the
# process and cost the rest of a batch.
MAX_SITUATION_BYTES = 1 << 20
MAX_DEPTH = 32


def add_arguments(parser) -> None:
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="a JSON situation (default: standard input)")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--lines", action="store_true",
                      help="one situation per line in, one ruling per line out")
    form.add_argument("--text", action="store_true",
                      help="print the ruling as readable text (one situation), not JSON")


def _reject_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")


# msgspec reads and writes a line in C, several times faster than the standard library (JSON was a
# fifth of a line's time).  It refuses what the standard reader refuses or reads differently (NaN,
# a BOM, out-of-range numbers, lone surrogates); the standard reader then reads the line, so what
# is accepted and every error message stay those of ``json``.  Built once: a codec per call costs.
_FAST_DECODER = msgspec.json.Decoder()
_FAST_ENCODER = msgspec.json.Encoder()
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def _decode(text: str):
    try:
        return _FAST_DECODER.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError):
        pass
    return json.loads(text) if text.startswith("\ufeff") else \
        _DECODER.decode(text)


def _encode(obj) -> bytes:
    """One ruling as compact UTF-8 JSON (the standard writer for what msgspec cannot write)."""
    try:
        return _FAST_ENCODER.encode(obj)
    except (TypeError, UnicodeEncodeError, OverflowError):
        return _ENCODER.encode(obj).encode("utf-8")


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings nest deeper than :data:`MAX_DEPTH` (checked before parsing:
    the parser itself recurses)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False                 # cannot nest deeper than it has brackets: skip the scan
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def rule_text(text: str) -> tuple:
    """Rule on one situation given as JSON text: ``(ruling or error object, exit status)``."""
    # A character is at most 4 bytes of UTF-8: only a long line needs encoding to be measured.
    size = len(text.encode("utf-8", "surrogatepass")) if len(text) > MAX_SITUATION_BYTES // 4 else 0
    if size > MAX_SITUATION_BYTES:
        return {"error": f"a situation is at most {MAX_SITUATION_BYTES} bytes (1 MiB); this one has {size}"}, \
            EXIT_MALFORMED
    if _too_deep(text):
        return {"error": f"bad JSON: nested more than {MAX_DEPTH} deep (a situation is a few levels deep)"}, \
            EXIT_MALFORMED
    try:
        situation = _decode(text)
    except (ValueError, RecursionError) as exc:
        return {"error": f"bad JSON: {exc}"}, EXIT_MALFORMED
    try:
        return judge(situation), EXIT_OK
    except SituationError as exc:
        return {"error": str(exc)}, EXIT_MALFORMED
    except Exception as exc:  # a bug must not cost the other lines of a batch
        return {"error": f"internal error: {type(exc).__name__}: {exc}"}, EXIT_INTERNAL


def _emit(obj, flush: bool = True) -> None:
    line = _encode(obj) + b"\n"
    out = getattr(sys.stdout, "buffer", None)
    if out is None:                   # a text stream without bytes under it (a test's capture)
        sys.stdout.write(line.decode("utf-8"))
    else:
        out.write(line)
    if flush:
        sys.stdout.flush()


def run(args) -> int:
    try:
        return _run(args)
    except BrokenPipeError:
        # The reader went away (e.g. `| head -1`): stop quietly, as Unix tools do.
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _read(args) -> bytes:
    if args.file == "-":
        return sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    with open(args.file, "rb") as fh:
        return fh.read()


def _run(args) -> int:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")   # reasons quote the Chinese terms (反主, 自保)
    try:
        data = _read(args)
        text = "" if args.lines else data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _emit({"error": f"cannot read {args.file}: {exc}"})
        return EXIT_MALFORMED
    if not args.lines:
        if not text.strip():
            _emit({"error": "no situation given: pass a JSON object on standard input or as FILE"})
            return EXIT_MALFORMED
        ruling, status = rule_text(text)
        if getattr(args, "text", False):
            sys.stdout.write(ruling_text(ruling))
            sys.stdout.flush()
        else:
            _emit(ruling)
        return status
    # A batch makes many short-lived objects, all freed by reference counting as each ruling is
    # written; a cycle is left only where a lead's shape is first worked out, and those results
    # are cached, so the garbage is bounded.  The cyclic collector would only cost time (a tenth
    # of a line, scanning the memo of lead analyses again and again): it is off for the batch, and
    # what the batch kept is frozen before it is turned back on, so it is not scanned then either.
    gc.freeze()
    gc.disable()
    try:
        # Lines end at "\n" only: str.splitlines would also split at U+2028, U+0085 … inside a
        # JSON string.  Each line is decoded on its own, so a bad byte costs that line's ruling only.
        worst = _rule_lines(data.split(b"\n"))
    finally:
        gc.freeze()
        gc.enable()
    sys.stdout.flush()
    return worst


def _rule_lines(lines) -> int:
    """Rule on each non-blank line (bytes, UTF-8), one ruling a line on standard output; the
    worst status."""
    worst = EXIT_OK
    out = getattr(sys.stdout, "buffer", None)
    batch: list = []
    for number, raw in enumerate(lines, 1):
        if not raw or raw.isspace():
            continue
        try:
            ruling, status = rule_text(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            ruling, status = {"error": f"line {number} is not UTF-8: {exc}"}, EXIT_MALFORMED
        if out is None:
            _emit(ruling, flush=False)
        else:                            # the input is read whole, so nothing waits for a line
            batch.append(ruling)
            if len(batch) == _BATCH:
                _write_lines(out, batch)
                batch = []
        if status > worst:
            worst = status
    if batch:
        _write_lines(out, batch)
    return worst


_BATCH = 64                              # rulings written by one call (few: freed while still in cache)


def _write_lines(out, rulings: list) -> None:
    """The rulings as JSON lines, written by one msgspec call; if one of them is what msgspec
    cannot write, each on its own (the standard writer for that one)."""
    try:
        out.write(_FAST_ENCODER.encode_lines(rulings))
    except (TypeError, UnicodeEncodeError, OverflowError):
        for ruling in rulings:
            out.write(_encode(ruling) + b"\n")


# ---- --text: the ruling for a person --------------------------------------------------------------

def ruling_text(ruling: dict) -> str:
    """A ruling (or an error) as lines a referee reads: ``legal: no``, each play as ``seat 1: not
    legal — R-4.5: you hold a pair …``, lists of cards on one line, nested facts indented."""
    if set(ruling) == {"error"}:
        return f"error: {ruling['error']}\n"
    lines: list = []
    for key, value in ruling.items():
        _put(lines, key, value, 0)
    return "\n".join(lines) + "\n"


def _word(key: str) -> str:
    return str(key).replace("_", " ")


def _scalar(value) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "–"
    return str(value)


def _verdict(item: dict) -> str | None:
    """``seat 1: not legal — R-4.5: reason`` for a play's ruling (None: not one)."""
    if "seat" not in item or not ({"legal", "rule", "reason"} & set(item)):
        return None
    legal = item.get("legal")
    head = f"seat {item['seat']}" + ("" if legal is None else ": legal" if legal else ": NOT legal")
    why = ": ".join(str(item[k]) for k in ("rule", "reason") if item.get(k))
    rest = {k: v for k, v in item.items() if k not in ("seat", "legal", "rule", "reason")}
    extra = "".join(f"; {_word(k)} {_flat(v)}" for k, v in rest.items())
    return head + (f" — {why}" if why else "") + extra


def _flat(value) -> str:
    if isinstance(value, list):
        return " ".join(_flat(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{_word(k)} {_flat(v)}" for k, v in value.items())
    return _scalar(value)


def _put(lines: list, key, value, depth: int) -> None:
    pad = "  " * depth
    if isinstance(value, dict):
        lines.append(f"{pad}{_word(key)}:")
        for k, v in value.items():
            _put(lines, k, v, depth + 1)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        lines.append(f"{pad}{_word(key)}:")
        for item in value:
            lines.append(f"{pad}  " + (_verdict(item) or _flat(item)))
    elif isinstance(value, list):
        lines.append(f"{pad}{_word(key)}: {_flat(value) if value else '(none)'}")
    else:
        lines.append(f"{pad}{_word(key)}: {_scalar(value)}")
