"""Test helper (not a test): the repository's tracked files, as text."""
from __future__ import annotations

import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", "build", "dist"}


def tracked_files(root: Path = REPO_ROOT) -> list[Path]:
    """``git ls-files``; without git, every file of the tree but ``.git``, ``.venv`` and caches."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
        return [root / p for p in out.decode("utf-8").split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in root.rglob("*") if p.is_file() and not SKIP_DIRS & set(p.relative_to(root).parts)]


def read_text(path: Path) -> str | None:
    """The file as text, or ``None`` for a binary, unreadable or missing file."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def repository_texts() -> dict[str, str]:
    """``{path relative to the root: text}`` of every tracked text file."""
    texts = {}
    for path in tracked_files():
        text = read_text(path)
        if text is not None:
            texts[path.relative_to(REPO_ROOT).as_posix()] = text
    return texts
