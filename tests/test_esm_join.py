"""explorer.app.esm_join: ES modules joined into the page's one module, and what it refuses."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from explorer.app.esm_join import EsmJoinError, join, modules
from explorer.app.pagefigure import ENTRY, STATIC


def _write(folder, **files):
    for name, text in files.items():
        (folder / f"{name}.js").write_text(text)
    return folder


def test_modules_are_joined_once_each_after_what_they_import(tmp_path):
    _write(tmp_path,
           a='import { b } from "./b.js";\nimport { c, C } from "./c.js";\n'
             'export function a() { return b() + c() + C; }\nexport default { a };\n',
           b='import {\n  c,\n} from "./c.js";\nexport const b = () => c() * 2;\n',
           c='export function c() { return 1; }\nconst C = 10;\nexport { C };\n',
           unused='export const u = 1;\n')
    assert modules(tmp_path, "a.js") == ["c.js", "b.js", "a.js"]
    js = join(tmp_path, "a.js")
    assert "import" not in js and js.count("export") == 1 and "export default { a };" in js
    assert js.index("function c()") < js.index("const b =") < js.index("function a()")
    assert "const u" not in js  # not imported: not joined
    node = shutil.which("node")
    if node:  # the joined module runs, and computes what the modules do
        (tmp_path / "joined.mjs").write_text(js)
        out = subprocess.run([node, "--input-type=module", "-e",
                              'import m from "./joined.mjs"; console.log(m.a());'],
                             cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert out.stdout.strip() == "13", out.stderr


@pytest.mark.parametrize("files, error", [
    ({"a": 'import { x } from "./nowhere.js";\n'}, "module 'nowhere.js' not found"),
    ({"a": 'import { x } from "https://cdn.example/x.js";\n'}, "cannot be resolved"),
    ({"a": 'import { x } from "lodash";\n'}, "cannot be resolved"),
    ({"a": 'import { x } from "../x.js";\n'}, "cannot be resolved"),
    ({"a": 'import { y } from "./b.js";\n', "b": "export const x = 1;\n"},
     r"a.js imports y from ./b.js, which does not export it"),
    ({"a": 'import { b } from "./b.js";\n', "b": 'import { c } from "./c.js";\nexport const b = 1;\n',
      "c": 'import { a } from "./a.js";\nexport const c = 1;\n'},
     r"import cycle: a.js -> b.js -> c.js -> a.js"),
    ({"a": 'import { a } from "./a.js";\n'}, r"import cycle: a.js -> a.js"),
    ({"a": "export const x = 1;\nexport { x };\n"}, "a.js exports 'x' twice"),
    ({"a": 'import { x } from "./b.js";\nimport { y } from "./c.js";\n',
      "b": "export const x = 1;\n", "c": "export const x = 2;\nexport const y = 3;\n"},
     r"'x' is exported by both b.js and c.js"),
    ({"a": 'import { x } from "./b.js";\nconst helper = 1;\n',
      "b": "const helper = 2;\nexport const x = helper;\n"},
     r"'helper' is declared by both b.js and a.js"),
    ({"a": 'import { x as y } from "./b.js";\n', "b": "export const x = 1;\n"}, "renaming"),
    ({"a": 'import * as b from "./b.js";\n', "b": "export const x = 1;\n"}, "only 'import {"),
    ({"a": 'import { x } from "./b.js";\n', "b": "export const x = 1;\nexport default x;\n"},
     "default export is joined only in the entry"),
    ({"a": 'export * from "./b.js";\n', "b": "export const x = 1;\n"}, "does not read"),
    ({"a": 'const m = import("./b.js");\n'}, "dynamic import"),
])
def test_the_joiner_refuses_what_it_cannot_join_clearly(tmp_path, files, error):
    _write(tmp_path, **files)
    with pytest.raises(EsmJoinError, match=error):
        join(tmp_path, "a.js")


def test_the_page_figures_modules_join_in_dependency_order():
    order = modules(STATIC, ENTRY)
    assert order[-1] == ENTRY and len(order) == len(set(order))
    assert order.index("kinds_plane.js") < order.index("kinds_xor.js") < order.index("kinds.js")
    assert order.index("kinds.js") < order.index("drawing.js") < order.index("input.js")
    assert order.index("input.js") < order.index("runs.js") < order.index(ENTRY)
    assert join(STATIC, ENTRY).count("\nexport ") == 1  # export default { render }
