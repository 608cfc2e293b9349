"""The server's parts talk through what each makes public: no module reaches into another
object's private members (`x._name`, where `x` is not `self` or `cls`), and no part declares
another's calls for the type checker alone (functions inside `if TYPE_CHECKING:`), which is
how parts of one class in many files would share their state."""

from __future__ import annotations

import ast
from pathlib import Path

import chuko.server

SERVER = Path(chuko.server.__file__).parent
# Names with a leading underscore that their library makes public: SQLAlchemy's `Row`
# keeps its own API apart from a row's columns so (`row._mapping`, as a named tuple's
# `_asdict`).
PUBLIC = {"_mapping", "_asdict", "_fields", "_replace", "_make"}


def private_reaches(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, expression) of each access to another object's private member."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        if node.attr.startswith("__") and node.attr.endswith("__"):
            continue  # a dunder: Python's own protocol
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if node.attr not in PUBLIC:
            found.append((node.lineno, ast.unparse(node)))
    return found


def type_checking_calls(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) of each function declared inside an `if TYPE_CHECKING:` block."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found += [(inner.lineno, inner.name) for part in node.body
                      for inner in ast.walk(part)
                      if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef)]
    return found


def offences(check) -> list[str]:
    return [f"{path.relative_to(SERVER)}:{line}: {what}"
            for path in sorted(SERVER.rglob("*.py"))
            for line, what in check(ast.parse(path.read_text(), str(path)))]


def test_no_module_of_the_server_reaches_into_another_objects_private_members():
    assert offences(private_reaches) == []


def test_no_part_of_the_server_declares_another_parts_calls_for_the_type_checker():
    assert offences(type_checking_calls) == []


def test_the_checks_find_what_they_look_for():
    code = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from x import Y\n"
        "    def room(self) -> Y: ...\n"
        "self._fine, cls._fine, hub.__dict__, row._mapping\n"
        "hub._open(1)\n")
    assert private_reaches(code) == [(6, "hub._open")]
    assert type_checking_calls(code) == [(4, "room")]
