// The words the page's JavaScript writes itself (button titles, tooltips, the question's card,
// the status line's wait, the lecture's badge and the follower's page), in the page's
// language. The kernel sends one dictionary, key -> words, in its language (the page figure's
// `words` trait, declared once in Python: explorer/shared/page_words.py, whose catalogs hold the
// translations) and sends it again at a change of language; a follower's page gets its own
// words from the hall (its body's data-words) and its figure's from the presenter's frames.
// The page looks a word up by key, with the English written beside the lookup as the
// fallback (a key missing, or no dictionary yet). Placeholders are "{name}", filled after the
// lookup, as in Python's str.format (the translation keeps them). No DOM, no imports.

// the dictionaries by layer, looked in in this order: "follow" (a follower's page: the hall
// sent its words in the language the visitor's browser asks for), then "page" (the kernel's)
const pageWords = { follow: {}, page: {} };

// the dictionary of `layer` to look words up in from now on (anything not an object: none)
export function setPageWords(words, layer = "page") {
  if (!(layer in pageWords)) throw new Error(`no layer of words ${layer}`);
  const ok = words && typeof words === "object" && !Array.isArray(words);
  pageWords[layer] = ok ? words : {};
  return pageWords[layer];
}

// `text` with each "{name}" of `vars` filled in (a placeholder not in `vars` stays as it is)
export function fillWords(text, vars) {
  if (!vars) return text;
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

// the words of `key` in the page's language, else `english`; then `vars` filled in
export function pageWord(key, english, vars) {
  for (const words of Object.values(pageWords)) {
    const t = words[key];
    if (typeof t === "string" && t) return fillWords(t, vars);
  }
  return fillWords(english, vars);
}
