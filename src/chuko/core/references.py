"""References from a game's descriptor to what serves it, in one format, "module:attr": an
attribute of a module for code ("chuko.bots.chuko:make_bot"), a file inside a package for
data ("chuko.games:rules/chuko.md").

`problems` checks a descriptor's references when the registry loads, without running the
modules they name: a module an optional extra brings (numpy, numba, gymnasium) is found on
disk and its source read for the attribute, so loading the registry stays quick and never
needs an extra. `load` and `read_text` follow a reference when a front end uses it.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import import_module
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from .descriptor import SCRIPTS, SCRIPTS_PACKAGE, Descriptor, Integrations

MODULE = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
CODE = re.compile(rf"({MODULE}):([A-Za-z_]\w*)")
FILE = re.compile(rf"({MODULE}):((?:[\w-][\w.-]*/)*[\w-][\w.-]*)")  # no "..", no "/x"


def split(reference: str) -> tuple[str, str]:
    """The module (or package) and the attribute (or file) of a well-formed reference."""
    module, _, name = reference.partition(":")
    return module, name


def load(reference: str) -> Any:
    """The attribute a code reference names, its module imported."""
    module, name = split(reference)
    return getattr(import_module(module), name)


def read_text(reference: str) -> str:
    """The text of the file a data reference names."""
    package, path = split(reference)
    return files(package).joinpath(path).read_text(encoding="utf-8")


def problems(described: Descriptor) -> list[str]:
    """What is wrong with the descriptor's references, one sentence each naming the game
    and the field; empty when each names something that is there."""
    found = []
    for field, reference in described.integrations.references().items():
        wrong = _problem(field, reference)
        if wrong:
            found.append(f"The game {described.id!r} has a {field} reference "
                         f"{reference!r} that {wrong}.")
    return found


def _problem(field: str, reference: object) -> str | None:
    data = field in Integrations.FILES
    form = FILE if data else CODE
    if not isinstance(reference, str) or not form.fullmatch(reference):
        shape = "package:path/of/file" if data else "module:attribute"
        return f"is not of the form \"{shape}\""
    module, name = split(reference)
    if field == "screen" and (module != SCRIPTS_PACKAGE or not name.startswith(SCRIPTS)):
        return f"is not a file of {SCRIPTS_PACKAGE}:{SCRIPTS}, where the browser loads screens"
    where = _source(module)
    if where is None:
        return f"names the {'package' if data else 'module'} {module!r}, which is not installed"
    if data:
        folder = where if where.is_dir() else where.parent
        if where.suffix == ".py" and where.name != "__init__.py" or not (folder / name).is_file():
            return f"names the file {name!r}, which the package {module!r} does not hold"
        return None
    if not _defines(module, where, name):
        return f"names {name!r}, which the module {module!r} does not define"
    return None


def _source(module: str) -> Path | None:
    """The file (or, for a folder without `__init__.py`, the folder) of a module, found
    without running it or the packages above it."""
    loaded = sys.modules.get(module)
    if loaded is not None:
        where = getattr(loaded, "__file__", None) or next(iter(loaded.__path__))
        return Path(where)
    top, *parts = module.split(".")
    spec = find_spec(top)
    if spec is None:
        return None
    if not parts:
        origin = spec.origin if spec.has_location else None
        return Path(origin) if origin else Path(next(iter(spec.submodule_search_locations or ())))
    for folder in map(Path, spec.submodule_search_locations or ()):
        *packages, last = parts
        base = folder.joinpath(*packages)
        for candidate in (base / last / "__init__.py", base / f"{last}.py", base / last):
            if candidate.exists():
                return candidate
    return None


def _defines(module: str, where: Path, name: str) -> bool:
    """Whether the module binds `name` at its top level: by its attributes once imported,
    else by its source (a compiled module, or one that computes its names, is given the
    benefit of the doubt)."""
    loaded = sys.modules.get(module)
    if loaded is not None:
        return hasattr(loaded, name)
    if where.is_dir():
        return False  # a folder without `__init__.py` defines nothing
    if where.suffix != ".py":
        return True
    source = where.read_text(encoding="utf-8")
    if re.search(rf"^(?:(?:async\s+)?def|class)\s+{name}\b|^{name}\s*[:=]", source, re.M):
        return True  # the usual case, found without parsing the module
    names = _top_level_names(ast.parse(source).body)
    return bool(names & {name, "*", "__getattr__"})


def _top_level_names(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).partition(".")[0] for a in node.names}
        elif isinstance(node, (ast.If, ast.Try)):
            for block in (node.body, node.orelse, getattr(node, "finalbody", []),
                          *(handler.body for handler in getattr(node, "handlers", []))):
                names |= _top_level_names(block)
    return names
