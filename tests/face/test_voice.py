"""The voice (face/voice.py): every sentence spoken, in order, even when they arrive faster than
they are said; without espeak-ng it says once that it is off and why; the real espeak-ng has the
Mandarin voice the table uses (skipped, with the reason, where it is not installed)."""
import shutil
import subprocess
import threading
import time

import pytest

from shengji_table.face import voice as voice_mod
from shengji_table.face.voice import ESPEAK_VOICES, Voice, spoken_text

SENTENCES = [f"Seat {i % 4} bids {100 + 5 * i}." for i in range(25)]


class SlowSpeaker:
    """Takes 20 ms a sentence and notes what it heard (and that it never spoke two at once)."""

    def __init__(self):
        self.heard = []
        self.busy = threading.Lock()
        self.overlaps = 0

    def __call__(self, text, lang):
        if not self.busy.acquire(blocking=False):
            self.overlaps += 1
            return
        try:
            time.sleep(0.02)
            self.heard.append((lang, text))
        finally:
            self.busy.release()


def test_a_slow_speaker_hears_every_announcement_in_order():
    speaker = SlowSpeaker()
    v = Voice("en", speaker=speaker)
    t0 = time.monotonic()
    for s in SENTENCES:
        v.say(s)
    assert time.monotonic() - t0 < 0.2            # say() does not wait for the speaker
    v.close()                                      # ... close() waits until everything is said
    assert [t for _, t in speaker.heard] == SENTENCES
    assert speaker.overlaps == 0 and v.spoken == SENTENCES


def test_mandarin_is_spoken_in_order_too():
    speaker = SlowSpeaker()
    v = Voice("zh", speaker=speaker)
    for s in SENTENCES:
        v.say(s)
    v.close()
    assert [t for _, t in speaker.heard] == [spoken_text(s, "zh") for s in SENTENCES]
    assert speaker.heard[0] == ("zh", "0号位叫100分。")


def test_a_trick_is_spoken_without_its_cards_in_english():
    assert spoken_text("Trick 3 to seat 2, 20 points: seat 0 ♠A · seat 1 ♠3.", "en") == "Trick 3 to seat 2, 20 points."
    assert spoken_text("Trick 3 to seat 2, 20 points: seat 0 ♠A · seat 1 ♠3.", "zh") == "第3墩归2号位，20分。"


def test_without_espeak_the_voice_says_once_that_it_is_off(monkeypatch):
    monkeypatch.setattr(voice_mod.shutil, "which", lambda name: None)
    notices = []
    v = Voice("zh", notice=notices.append)
    for s in SENTENCES:
        v.say(s)
    v.close()
    assert not v.on and len(notices) == 1
    assert "voice off" in notices[0] and "espeak-ng is not installed" in notices[0]


def test_a_failing_speaker_turns_the_voice_off_once():
    notices = []

    def broken(text, lang):
        raise OSError("no audio device")
    v = Voice("en", speaker=broken, notice=notices.append)
    for s in SENTENCES:
        v.say(s)
    v.close()
    assert len(notices) == 1 and "no audio device" in notices[0]


def test_off_speaks_nothing():
    speaker = SlowSpeaker()
    v = Voice("off", speaker=speaker)
    v.say("Seat 1 passes.")
    v.close()
    assert speaker.heard == []


@pytest.mark.skipif(shutil.which("espeak-ng") is None,
                    reason="espeak-ng is not installed (Debian: apt-get install espeak-ng; make venv does it as root)")
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_espeak_ng_has_the_voice_and_reads_the_sentence(lang):
    voices = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True, check=True).stdout
    assert lang == "en" or f" {ESPEAK_VOICES[lang]} " in voices, voices     # "en" is an alias of en-gb
    text = spoken_text("Seat 2 shows H2 H2: seat 2 overcalls with hearts (反主).", lang)
    # -q: no sound (a test machine has no speaker), --ipa: the phonemes it would say
    ipa = subprocess.run(["espeak-ng", "-q", "--ipa", "-v", ESPEAK_VOICES[lang], text],
                         capture_output=True, text=True, check=True, timeout=30).stdout
    assert ipa.strip()
    if lang == "zh":
        assert "(en)" not in ipa                    # read as Mandarin, not spelled out in English


def test_the_virtual_tables_bots_wait_while_the_voice_is_behind():
    import io

    from shengji_table.face.terminal import TableView

    class Stub:                                    # the view only needs the ring sizes to be built
        ring_sizes: dict = {}
    speaker = SlowSpeaker()
    view = TableView(Stub(), io.StringIO(), voice=Voice("en", speaker=speaker))
    for s in SENTENCES[:10]:
        view.say(s)
    t0 = time.monotonic()
    view.pace(backlog=2, seconds=0.05)
    assert time.monotonic() - t0 >= 0.04           # behind: the caller waits a moment
    view.close()
    t0 = time.monotonic()
    view.pace()
    assert time.monotonic() - t0 < 0.01            # caught up: no wait
    assert [t for _, t in speaker.heard] == SENTENCES[:10]


def _hand_at_table(preset="classic"):
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from views import play_at_table
    return play_at_table(preset, "open")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_settlement_is_spoken_once_and_the_level_lines_left_to_the_screen(lang):
    """The end of a hand (R-8): the settlement is said once; "Nobody goes up.", "The attackers take
    over the deal." and "Declarers go up …" repeat it and are shown, not spoken."""
    c, texts = _hand_at_table()
    speaker = SlowSpeaker()
    v = Voice(lang, speaker=speaker, names=("Li", "Wang", "Zhao", "Chen"))
    for t in texts:
        v.say(t)
    v.close()
    heard = [text for _, text in speaker.heard]
    settle = [t for t in texts if t.kind == "settle"]
    levels = [t for t in texts if t.kind == "level"]
    assert len(settle) == 1 and levels
    end = heard[-3:]
    assert sum(("points" in h or "分" in h) and ("Attackers" in h or "闲家得" in h) for h in heard) == 1, end
    from shengji_table.face.messages import line_text
    assert not {line_text(t, lang, ("Li", "Wang", "Zhao", "Chen")) for t in levels} & set(heard), end
    assert len(heard) == len(texts) - len(levels)


def test_the_english_voice_says_no_chinese_letters_rule_ids_or_cards():
    line = "Seat 2 shows H2 H2: seat 2 overcalls with hearts (反主)."
    said = spoken_text(line, "en")
    assert said == "Seat 2 shows H2 H2: seat 2 overcalls with hearts."
    assert spoken_text("Seat 1: refused — it is seat 2's turn (table.out-of-turn)", "en") == \
        "Seat 1: refused — it is seat 2's turn"
    assert spoken_text("Nobody declared: no trump (R-6.4).", "en") == "Nobody declared: no trump."


def test_the_chinese_voice_names_the_players():
    c, texts = _hand_at_table()
    names = ("李明", "王芳", "赵强", "陈静")
    said = [spoken_text(t, "zh", names) for t in texts]
    said = [s for s in said if s]
    assert said and not any("请看屏幕" in s or "号位" in s for s in said), said
    assert any(n in s for s in said for n in names)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_ng_without_a_sound_device_turns_the_voice_off_once(tmp_path, monkeypatch):
    """espeak-ng exits 0 when no sound device opens (it prints the audio library's error): the
    voice says once that it is off, and why, then stays silent.  No device: an empty ALSA
    configuration and no PulseAudio server."""
    conf = tmp_path / "alsa.conf"
    conf.write_text("")
    monkeypatch.setenv("ALSA_CONFIG_PATH", str(conf))
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path / 'no-pulse'}")
    notices = []
    v = Voice("en", notice=notices.append)
    assert v.on
    for s in SENTENCES[:3]:
        v.say(s)
    v.close()
    assert len(notices) == 1 and "no sound device" in notices[0], notices
    assert v.spoken == [] and not v.on
