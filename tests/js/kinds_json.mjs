// Prints the page's kinds of moving part as JSON: {"kinds": {kind: [style keys]}, "style_keys":
// [...]}, read from the modules themselves (explorer/app/static/kinds.js). Run by
// tests/test_kinds_agree.py (`node tests/js/kinds_json.mjs`), which compares it with Python's table.

import { KINDS, STYLE_KEYS } from "../../explorer/app/static/kinds.js";

const kinds = Object.fromEntries(Object.entries(KINDS).map(([name, kind]) => [name, kind.style]));
process.stdout.write(JSON.stringify({ kinds, style_keys: STYLE_KEYS }));
