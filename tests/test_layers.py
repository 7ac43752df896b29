"""Imports point down the layers (``shengji_table/__init__.py``, README "Layout"):

    rules → game → store → table / hardware → face → club → sim → cli

A module may import its own layer and the layers before it; ``table`` and ``hardware`` stand side by
side and do not import each other.  Below them all, the package root's modules (``board``,
``firmware_src``, ``micropython``) import only each other and the standard library.  Every import
counts, the ones inside functions too.

The firmware (``firmware/*.py``) imports only its own modules and MicroPython's: never host code.
"""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
HOST = ROOT / "host"
PACKAGE = HOST / "shengji_table"
FIRMWARE = ROOT / "firmware"

ORDER = "rules → game → store → table / hardware → face → club → sim → cli"
# layer -> rank; the package root's modules are "root" (rank 0), the entry point __main__ is cli's
RANK = {"root": 0, "rules": 1, "game": 2, "store": 3, "table": 4, "hardware": 4, "face": 5, "club": 6, "sim": 7,
        "cli": 8}

# What MicroPython on the Pico (and the unix port) provides; anything else the firmware imports must
# be a firmware module.
MICROPYTHON = {"array", "asyncio", "binascii", "collections", "errno", "gc", "hashlib", "io", "json", "machine",
               "math", "micropython", "neopixel", "os", "random", "re", "rp2", "select", "struct", "sys", "time",
               "uasyncio", "uctypes"}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(HOST).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: pathlib.Path, package: str):
    """(line, absolute module name) of every import in the file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
                names = [f"{module}.{a.name}" for a in node.names] if node.module is None else [module]
            else:
                names = [node.module or ""]
            for name in names:
                yield node.lineno, name


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "root"
    if parts[1] == "__main__":
        return "cli"
    return parts[1] if parts[1] in RANK else "root"


def test_layers_every_host_import_points_down():
    wrong = []
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50
    for path in modules:
        me = _module_name(path)
        package = me if path.name == "__init__.py" else me.rpartition(".")[0]
        mine = _layer(me)
        for line, target in _imports(path, package):
            if target != "shengji_table" and not target.startswith("shengji_table."):
                continue
            theirs = _layer(target)
            if target == "shengji_table":
                continue                                     # the package itself: only __version__
            if mine == "root":
                ok = theirs == "root"
            else:
                ok = theirs == mine or RANK[theirs] < RANK[mine]
            if not ok:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {me} ({mine}) imports {target} ({theirs})")
    assert not wrong, f"imports that do not point down {ORDER}:\n" + "\n".join(wrong)


def test_layers_the_firmware_imports_no_host_code():
    own = {p.stem for p in FIRMWARE.glob("*.py")}
    wrong = []
    for path in sorted(FIRMWARE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level:
                wrong.append(f"firmware/{path.name}:{node.lineno}: "
                             f"a relative import (the Pico's modules are top-level)")
                continue
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in own and top not in MICROPYTHON:
                    wrong.append(f"firmware/{path.name}:{node.lineno}: imports {name}, neither a firmware "
                                 f"module nor MicroPython's")
    assert not wrong, "\n".join(wrong)


def test_layers_order_is_the_one_documented():
    """The order this test enforces is the one the package docstring and the README state."""
    assert ORDER in (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    assert ORDER in (ROOT / "README.md").read_text(encoding="utf-8")


def test_layers_check_catches_an_import_pointing_up(tmp_path):
    """The check is live: an import from game into table, or from the firmware into the host, is named."""
    fake = tmp_path / "host" / "shengji_table" / "game"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("from ..table import controller\nimport shengji_table.sim.demo\n")
    targets = [t for _, t in _imports(fake / "bad.py", "shengji_table.game")]
    assert targets == ["shengji_table.table", "shengji_table.sim.demo"]
    assert all(RANK[_layer(t)] > RANK["game"] for t in targets)
    assert _layer("shengji_table.hardware.flash") == "hardware" and _layer("shengji_table.board") == "root"
