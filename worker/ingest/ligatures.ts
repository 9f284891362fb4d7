// Ligatures PDFium cannot name. A font may draw "fi" as one glyph whose only
// name is in the font's encoding; PDFium then gives its code (a control
// character) instead of letters: "e-\u001fle", "\u001fling", "bene\u001ft". pdf.js
// reads the name and writes "fi". Left out, the words are lost to search and
// read broken in quotes ("e-le", "ling"). Which ligature a code stands for is
// told by the document itself: the words written out elsewhere in it ("filing"
// on another page) show which letters make the broken ones whole.

/** The ligatures a font draws as one glyph, most common first. */
const LIGATURES = ["fi", "fl", "ff", "ffi", "ffl"] as const;

/** The code of a glyph PDFium could not name: a control character other than a line end or a tab. */
const UNNAMED = /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/;
const UNNAMED_ALL = new RegExp(UNNAMED.source, "g");
/** An unnamed glyph within a word: the only place a ligature is. */
const UNNAMED_IN_WORD = new RegExp(`(?<=\\p{L})${UNNAMED.source}|${UNNAMED.source}(?=\\p{L})`, "gu");
const LETTER_WORDS = /\p{L}+/gu;
const WORDS = new RegExp(`[\\p{L}${UNNAMED.source.slice(1, -1)}]+`, "gu");

/**
 * A reader for one document's pages, in order: each page's unnamed glyphs within words become the
 * ligature that makes the most of their words ones the document writes out (on this page or an
 * earlier one); a code with no such word yet, and one outside a word, is left out, as before.
 */
export function ligatureReader(): (page: string) => string {
  /** words the document has written out so far, lower case */
  const written = new Set<string>();
  /** each code's ligature, once a written word has shown it */
  const ligatureOf = new Map<string, string>();
  return (page) => {
    // every ligature starts with "f": only words with an "f" can show one
    for (const word of page.match(LETTER_WORDS) ?? []) if (word.includes("f") || word.includes("F")) written.add(word.toLowerCase());
    if (!UNNAMED.test(page)) return page;
    const broken = (page.toLowerCase().match(WORDS) ?? []).filter((word) => UNNAMED.test(word));
    for (const code of new Set(broken.join("").match(UNNAMED_ALL))) {
      if (ligatureOf.has(code)) continue;
      let best = { ligature: "", words: 0 };
      for (const ligature of LIGATURES) {
        const made = broken.filter(
          (word) => word.includes(code) && written.has(word.replaceAll(code, ligature).replace(UNNAMED_ALL, "")),
        ).length;
        if (made > best.words) best = { ligature, words: made };
      }
      if (best.words > 0) ligatureOf.set(code, best.ligature);
    }
    return page.replace(UNNAMED_IN_WORD, (code) => ligatureOf.get(code) ?? "").replace(UNNAMED_ALL, "");
  };
}
