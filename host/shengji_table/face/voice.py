"""The voice: every public sentence spoken, in order, in Mandarin (``zh``) or English (``en``).

:class:`Voice` puts each sentence on a queue; one worker thread speaks them one after the other
with the *speaker*, so a sentence that arrives while another is being spoken waits its turn and
nothing is ever dropped (the game does not wait for the voice).  :meth:`Voice.close` lets the
queue run out (Ctrl-C stops it).

The speaker is ``espeak-ng`` (Debian package ``espeak-ng``; its Mandarin voice ``cmn-latn-pinyin``, see
:data:`ESPEAK_VOICES`), or any
callable ``speaker(text, lang)`` — the tests inject a slow fake one.  Without espeak-ng the voice
says once, on the screen, that it is off and why, and the table carries on silently.

Only the sentences the controller made public are ever given to it (``Outcome.texts``: the
announcements and the refusals after ``game/disclosure.py``), rendered in the voice's language from
their message (``messages.py``), so the voice never says a hand or the kitty.  Each event is
spoken once: the level lines that repeat the settlement just spoken are left to the screen
(:data:`QUIET`), as are a trick's cards, rule ids and, in English, Chinese words such as "(反主)"
(espeak-ng's English voice spells them "Chinese letter").

A voice that cannot play says so once: espeak-ng exits 0 even when no sound device opens, but
writes the audio library's error on stderr — that turns the voice off with a notice.
"""
from __future__ import annotations

import queue
import re
import shutil
import subprocess
import threading
from collections.abc import Callable

from ..game.effects import Line
from .messages import line_text

__all__ = ["Voice", "ESPEAK_VOICES", "espeak_speaker", "spoken_text", "LANGS", "QUIET"]

LANGS = ("zh", "en", "off")
# espeak-ng --voices: Chinese (Mandarin) is ``cmn`` and ``cmn-latn-pinyin``.  Debian's espeak-ng
# dictionary turns many characters (号, 位, 红, 桃 …) into pinyin, which ``cmn`` ("latin as English")
# then spells out in English letters; ``cmn-latn-pinyin`` reads that pinyin as Mandarin.
ESPEAK_VOICES = {"zh": "cmn-latn-pinyin", "en": "en"}
_SPEED = {"zh": "160", "en": "170"}

Speaker = Callable[[str, str], None]

# messages shown but not spoken: the level lines that say again what the settlement just said
QUIET = frozenset({"level.nobody", "level.takeover", "level.declarers-up", "level.attackers-up"})
_RULE_ID = re.compile(r"\s*\((?:R-[^()]*|table\.[^()]*)\)")
_CJK = re.compile(r"\s*[(（]?[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+[)）]?")
_SOUND_ERROR = re.compile(r"^(?:error:|ALSA lib .*(?:Unknown PCM|cannot)|.*[Cc]onnection refused)", re.M)


class SoundError(OSError):
    """The speaker ran but could not play (no sound device)."""


def espeak_speaker(program: str) -> Speaker:
    """A speaker running ``program`` (espeak-ng) once per sentence, waiting until it is said;
    :class:`SoundError` when it could not play (its exit status, or the audio error it printed)."""
    def speak(text: str, lang: str) -> None:
        done = subprocess.run([program, "-v", ESPEAK_VOICES[lang], "-s", _SPEED[lang], text],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, timeout=60)
        err = done.stderr.decode(errors="replace")
        if done.returncode != 0 or _SOUND_ERROR.search(err):
            last = next((line for line in reversed(err.splitlines()) if line.strip()), f"status {done.returncode}")
            raise SoundError(f"espeak-ng could not play — no sound device? ({last.strip()})")
    return speak


def spoken_text(text: str, lang: str, names=()) -> str | None:
    """What is said for a public sentence (None: nothing, the screen shows it): the voice's
    language from the message, without a trick's cards (the screen lists them), rule ids or, in
    English, Chinese words."""
    if getattr(text, "msg", None) in QUIET:
        return None
    said = line_text(text, lang, names)
    if lang == "zh":
        return said
    if said.startswith("Trick "):
        said = said.split(":")[0] + "."
    said = _CJK.sub("", _RULE_ID.sub("", said))
    return said.replace(" ()", "").strip() or None


class Voice:
    """Speaks sentences in order on a worker thread.  ``lang``: ``zh``, ``en`` or ``off``;
    ``speaker``: a callable ``(text, lang)`` (default: espeak-ng, when installed); ``notice(text)``
    is told once why the voice is off when it cannot speak."""

    def __init__(self, lang: str = "en", speaker: Speaker | None = None,
                 notice: Callable[[str], None] | None = None, names=()):
        if lang not in LANGS:
            raise ValueError(f"voice {lang!r}: one of {', '.join(LANGS)}")
        self.lang = lang
        self.notice = notice
        self.names = tuple(names)                 # the players' names, seat by seat (spoken for the seats)
        self.spoken: list = []                    # what was said, in order (tests, the log of a session)
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self.speaker = speaker
        if lang != "off" and speaker is None:
            program = shutil.which("espeak-ng")
            if program is None:
                self._off("voice off: espeak-ng is not installed (Debian: sudo apt-get install espeak-ng)")
            else:
                self.speaker = espeak_speaker(program)

    @property
    def on(self) -> bool:
        return self.lang != "off" and self.speaker is not None

    def _off(self, why: str) -> None:
        """The voice stops; the screen is told once why (a message: shown in the screen's language)."""
        self.speaker = None
        if self.notice is not None:
            self.notice(Line(why, "voice.off", {"why": why.removeprefix("voice off: ")}, "note"))

    def say(self, text: str) -> None:
        """Queue a public sentence (returns at once)."""
        if not self.on:
            return
        said = spoken_text(text, self.lang, self.names)
        if said is None:
            return
        self._queue.put(said)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
            self._thread.start()

    def _work(self) -> None:
        while True:
            text = self._queue.get()
            try:
                if text is None:
                    return
                speaker = self.speaker
                if speaker is None:
                    continue                      # the voice failed: the rest is on the screen only
                try:
                    speaker(text, self.lang)
                    self.spoken.append(text)
                except SoundError as exc:
                    self._off(f"voice off: {exc}")
                except (OSError, subprocess.SubprocessError) as exc:
                    self._off(f"voice off: the speaker failed ({exc})")
            finally:
                self._queue.task_done()

    @property
    def backlog(self) -> int:
        """Sentences queued and not yet said."""
        return self._queue.qsize() if self.on else 0

    def wait(self) -> None:
        """Until every sentence queued so far is said."""
        if self._thread is not None:
            self._queue.join()

    def close(self) -> None:
        """Say what is still queued, then stop the worker (Ctrl-C while waiting stops at once)."""
        if self._thread is None:
            return
        self._queue.put(None)
        try:
            self._thread.join()
        except KeyboardInterrupt:
            self.speaker = None
        self._thread = None
