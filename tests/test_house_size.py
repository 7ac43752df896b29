"""The house stays easy to read: no host file over 500 lines, and no function over 60 lines unless a
comment on the line above its ``def`` says why (``# long: …``)."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
HOST = ROOT / "host" / "shengji_table"
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 60


def _host_files():
    return sorted(p for p in HOST.rglob("*.py") if not p.is_symlink())


def long_functions(path: pathlib.Path) -> list[str]:
    """``file:line name (n lines)`` of each function over the limit without a ``# long:`` reason."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    out = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        length = node.end_lineno - node.lineno + 1
        reason = lines[first - 2].strip().startswith("# long:") if first >= 2 else False
        if length > MAX_FUNCTION_LINES and not reason:
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_no_host_file_is_over_500_lines():
    big = [f"{p.relative_to(ROOT)} ({n} lines)" for p in _host_files()
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES]
    assert not big, "split these files: " + ", ".join(big)


def test_no_function_is_over_60_lines_without_a_reason():
    found = [f for p in _host_files() for f in long_functions(p)]
    assert not found, "shorten these functions or say why above them (# long: …): " + "; ".join(found)


def test_the_function_check_sees_a_long_function_and_its_reason(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    plain = tmp_path / "plain.py"
    plain.write_text(f"def f():\n{body}\n", encoding="utf-8")
    excused = tmp_path / "excused.py"
    excused.write_text(f"# long: one table, read top to bottom\ndef f():\n{body}\n", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert long_functions(plain) == [f"plain.py:1 f ({MAX_FUNCTION_LINES + 1} lines)"]
        assert long_functions(excused) == []
    finally:
        ROOT = saved
