// Text a user gave us that others see (a chat's title, a file's name) is kept
// as typed but for the characters that show nothing or show other text:
// control characters, the bidirectional marks, overrides and isolates that
// could make "rtl\u202Eexe.pdf" display as "rtlfdp.exe", and the characters
// that take no room (a zero-width space, a soft hyphen, a Hangul filler), so a
// name of them alone is empty and "Tax\u200B" is "Tax". Half of a surrogate pair
// alone is no character at all: stored as UTF-8 it would show as "���".

const HIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0]/g;
/** A zero-width joiner or non-joiner joins only what stands on both sides of it ("👨\u200D👩", Persian words). */
const LOOSE_JOINER = /(?<!\S)[\u200c\u200d]+|[\u200c\u200d]+(?!\S)/g;
const LINE_BREAKS = /[\t\n\r]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text without hidden characters; a one-line field (`lineBreaks: false`) also loses tabs and line ends. */
export function withoutHiddenCharacters(text: string, { lineBreaks = false } = {}): string {
  const visible = text.replace(HIDDEN, "").replace(LONE_SURROGATE, "").replace(LOOSE_JOINER, "");
  return lineBreaks ? visible : visible.replace(LINE_BREAKS, "");
}
