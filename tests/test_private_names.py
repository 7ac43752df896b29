"""No module reads another module's private names.

A leading underscore means "this module's own": a name imported as ``from m import _x`` or an
attribute read as ``obj._x`` must be defined in the reading module itself (as a function, class,
assignment, parameter, attribute write or ``__slots__`` entry).  What several modules share is
public and documented (``TrumpOrder.face_suit``, ``rules.judge_read.seat``, …): the fast form is the
public form.  An object's own attributes (``self._x``, ``cls._x``) are its own, whichever of its
class's modules defines them.  Allowed besides: dunder names and namedtuple's documented
``_replace``, ``_fields``, ``_asdict``, ``_make`` and ``_field_defaults``.
"""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "host" / "shengji_table"
NAMEDTUPLE_API = {"_replace", "_fields", "_asdict", "_make", "_field_defaults"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) and name != "_"


def _defined(tree: ast.AST) -> set:
    """Every private name the module itself defines."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)            # __slots__ entries, object.__setattr__(self, "_x", …)
    return {n for n in names if _private(n)}


def violations(source: str) -> list:
    """(line, what) for every private name of another module that ``source`` reads."""
    tree = ast.parse(source)
    own = _defined(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [(node.lineno, f"imports {a.name}") for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and _private(node.attr):
            if node.attr in NAMEDTUPLE_API or node.attr in own:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            found.append((node.lineno, f"reads .{node.attr}"))
    return found


def test_the_check_sees_a_private_import_and_a_foreign_private_attribute():
    assert violations("from .order import _helper\n") == [(1, "imports _helper")]
    assert violations("def f(order):\n    return order._suit[0]\n") == [(2, "reads ._suit")]
    assert violations("import random\nrandom.Random()._randbelow(3)\n") == [(2, "reads ._randbelow")]


def test_the_check_lets_a_module_read_its_own_private_names():
    own = ("class A:\n    __slots__ = ('_x',)\n    def f(self, other):\n        return other._x + self._y\n"
           "def g(p):\n    p._seen = 1\n    return p._seen, p._replace(a=1)\n")
    assert violations(own) == []


def test_no_module_reads_another_modules_private_names():
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, what in violations(path.read_text(encoding="utf-8")):
            bad.append(f"{path.relative_to(ROOT)}:{line} {what}")
    assert not bad, "private names read across modules (make them public and documented):\n" + "\n".join(bad)
