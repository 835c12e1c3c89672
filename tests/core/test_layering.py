"""The core and the readers never import Qt (architecture.md); the CLI's --help stays light."""

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", "import sys\n" + code + "\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_core_and_io_import_without_qt_or_pandas():
    mods = _modules_after(
        "import pkgutil, importlib, evaleditor.core, evaleditor.io\n"
        "for pkg in (evaleditor.core, evaleditor.io):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "assert 'evaleditor.io.sdk.write' in sys.modules and 'evaleditor.io.excel.xls' in sys.modules")
    assert not {m for m in mods if m.startswith(("PySide6", "shiboken6"))}
    assert "pandas" not in mods


def test_cli_help_does_not_load_qt():
    mods = _modules_after("from evaleditor import cli\ntry:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass")
    assert not {m for m in mods if m.startswith("PySide6")}


def test_validate_of_a_csv_without_a_history_column_leaves_the_sdk_reader_unloaded(tmp_path):
    """fold_history (and the SDK reader it imports, 20 ms) is for a file with a conversation_history column."""
    plain, flat = tmp_path / "plain.csv", tmp_path / "flat.csv"
    plain.write_text("question,answer\nq,a\n", encoding="utf-8")
    flat.write_text("prompt,reference,session_id,turn_id,conversation_history\nq,a,s1,1,\n", encoding="utf-8")
    code = "from evaleditor.cli import main\nmain(['validate', {!r}])"
    assert "evaleditor.io.platforms.sdk_flat" not in _modules_after(code.format(str(plain)))
    assert "evaleditor.io.platforms.sdk_flat" in _modules_after(code.format(str(flat)))


def test_the_core_has_no_import_circle():
    """No module of the core imports one that imports it back, however indirectly, even for type hints
    only (bulk -> checks -> validation -> bulk was one)."""
    import ast
    from pathlib import Path

    import evaleditor.core

    folder = Path(evaleditor.core.__file__).parent
    names = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    graph: dict[str, set[str]] = {}
    for name in names:
        deps = set()
        for node in ast.walk(ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "evaleditor.core":
                deps |= {a.name for a in node.names if a.name in names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("evaleditor.core."):
                deps.add(node.module.split(".")[2])
        graph[name] = deps - {name}
    done: set[str] = set()

    def circle_from(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name):], name]
        if name in done:
            return None
        for dep in sorted(graph.get(name, ())):
            if found := circle_from(dep, [*path, name]):
                return found
        done.add(name)
        return None

    assert [c for name in sorted(graph) if (c := circle_from(name, []))] == []
