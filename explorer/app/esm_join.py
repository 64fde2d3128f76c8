"""ES modules joined into one module string, at runtime: the page's JavaScript with no build step.

The page figure's JavaScript (``explorer/app/static/*.js``) is written as ES modules that import
each other (``import { KINDS } from "./kinds.js";``), so Node's tests import them as they are
(``tests/js/``). anywidget loads one module string (``_esm``), and nothing may load from the
network, so :func:`join` puts the modules an entry module needs into one: every module once,
after the modules it imports (dependency order), with its ``import`` statements removed and the
``export`` keyword taken off its declarations (the entry's too: Node's tests may import its named
exports, the page needs none); only the entry keeps its ``export default``.
Every module's top-level names then share one scope, so a name declared at the top level of two
modules is refused, as are an import it cannot resolve (a module outside the folder, a bare or
network specifier, a name the module does not export), a cycle, and a form it does not join
(``import * as``, renamed imports, ``export ... from``, a default export outside the entry).

The forms it reads, each at the start of a line (the modules' top level is not indented)::

    import { a, b } from "./m.js";          import "./m.js";
    export function f() {}   export class C {}   export const X = 1;   export { a, b };
    export default { render };               (the entry only)
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["EsmJoinError", "join", "modules"]

#: ``import { a, b } from "./m.js";`` or ``import "./m.js";`` (possibly over several lines)
_IMPORT = re.compile(r"^import\b(?P<body>[^;]*?)(?P<q>[\"'])(?P<spec>[^\"']*)(?P=q)\s*;?[ \t]*\n?",
                     re.M)
_IMPORT_NAMES = re.compile(r"^\s*\{(?P<names>[^}]*)\}\s*from\s*$")
_EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\}\s*;?[ \t]*\n?", re.M)
_EXPORT_DECL = re.compile(r"^export\s+(?=(?:async\s+)?function\b|class\b|const\b|let\b|var\b)",
                          re.M)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\b", re.M)
_EXPORT_ANY = re.compile(r"^export\b", re.M)
#: a top-level declaration's name (the modules' top level is not indented)
_DECLARED = re.compile(r"^(?:export\s+)?(?:(?:async\s+)?function\s*\*?\s*|class\s+|"
                       r"(?:const|let|var)\s+)(?P<name>[A-Za-z_$][\w$]*)", re.M)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")


class EsmJoinError(ValueError):
    """The modules cannot be joined (the message names the module and what is wrong)."""


def _names(text: str, where: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    for n in names:
        if not _NAME.match(n):
            raise EsmJoinError(f"{where}: {n!r} is not a plain name (renaming with 'as' is not "
                               f"joined: use the exported name)")
    return names


class _Module:
    def __init__(self, folder: Path, name: str, *, entry: bool):
        path = folder / name
        if not path.is_file():
            raise EsmJoinError(f"module {name!r} not found in {folder}")
        self.name = name
        self.text = path.read_text(encoding="utf-8")
        self.imports: list[tuple[str, list[str]]] = []  # (module, names)
        for m in _IMPORT.finditer(self.text):
            spec, body = m["spec"], m["body"]
            where = f"{name}: import from {spec!r}"
            if not (spec.startswith("./") and spec.endswith(".js") and "/" not in spec[2:]):
                raise EsmJoinError(f"{where} cannot be resolved: only a sibling module "
                                   f"('./name.js') is joined (nothing loads from the network)")
            if body.strip():
                names = _IMPORT_NAMES.match(body)
                if names is None:
                    raise EsmJoinError(f"{where}: only 'import {{ a, b }} from' and a bare import "
                                       f"are joined; got {('import' + body).strip()!r}")
                self.imports.append((spec[2:], _names(names["names"], where)))
            else:
                self.imports.append((spec[2:], []))
        if re.search(r"^\s*import\s*\(", self.text, re.M) or re.search(r"\bimport\s*\(", self.text):
            raise EsmJoinError(f"{name}: a dynamic import() is not joined")
        body = _IMPORT.sub("", self.text)
        self.exports: list[str] = []
        for m in _EXPORT_LIST.finditer(body):
            self.exports += _names(m["names"], f"{name}: export list")
        body = _EXPORT_LIST.sub("", body)
        self.declared = [m["name"] for m in _DECLARED.finditer(body)]
        self.exports += [m["name"] for m in _DECLARED.finditer(body)
                         if body.startswith("export", m.start())]
        body = _EXPORT_DECL.sub("", body)
        if _EXPORT_DEFAULT.search(body) and not entry:
            raise EsmJoinError(f"{name}: a default export is joined only in the entry module")
        rest = _EXPORT_DEFAULT.sub("", body)
        if _EXPORT_ANY.search(rest):
            line = rest[_EXPORT_ANY.search(rest).start():].splitlines()[0]
            raise EsmJoinError(f"{name}: an export the joiner does not read: {line!r}")
        self.body = body
        seen = set()
        for n in self.exports:
            if n in seen:
                raise EsmJoinError(f"{name} exports {n!r} twice")
            seen.add(n)


def modules(folder: Path | str, entry: str) -> list[str]:
    """The modules ``entry`` needs, itself last, each after the modules it imports."""
    return [m.name for m in _order(Path(folder), entry)]


def _order(folder: Path, entry: str) -> list[_Module]:
    loaded: dict[str, _Module] = {}
    order: list[_Module] = []
    path: list[str] = []  # the imports being followed, to name a cycle

    def visit(name: str) -> None:
        if name in path:
            cycle = " -> ".join(path[path.index(name):] + [name])
            raise EsmJoinError(f"import cycle: {cycle} (a module's imports must not lead back "
                               f"to it)")
        if name in loaded:
            return
        module = _Module(folder, name, entry=name == entry)
        path.append(name)
        for dep, _ in module.imports:
            visit(dep)
        path.pop()
        loaded[name] = module
        order.append(module)

    visit(entry)
    return order


def join(folder: Path | str, entry: str) -> str:
    """One ES module string of ``entry`` and every module it imports (see the module docstring).

    Raises
    ------
    EsmJoinError
        An import that cannot be resolved (no such module, not a sibling, a name the module does
        not export), a cycle, a name exported twice or declared at the top level of two modules,
        or an ``import``/``export`` form the joiner does not read.
    """
    order = _order(Path(folder), entry)
    by_name = {m.name: m for m in order}
    owner: dict[str, str] = {}  # a top-level name -> the module that declares it
    for m in order:
        for dep, names in m.imports:
            missing = [n for n in names if n not in by_name[dep].exports]
            if missing:
                raise EsmJoinError(f"{m.name} imports {', '.join(missing)} from ./{dep}, which "
                                   f"does not export {'it' if len(missing) == 1 else 'them'}")
        for n in m.declared:
            if n in owner and owner[n] != m.name:
                what = "exported" if n in m.exports and n in by_name[owner[n]].exports else "declared"
                raise EsmJoinError(f"{n!r} is {what} by both {owner[n]} and {m.name} (joined, "
                                   f"the modules share one scope)")
            owner[n] = m.name
    return "\n".join(f"// ---- {m.name}\n{m.body.rstrip()}\n" for m in order)
