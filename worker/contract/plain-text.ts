// Text a user gave us that others see (a chat's title, a file's name) is kept
// as typed but for the characters that show nothing or show other text:
// control characters, and the bidirectional marks, overrides and isolates that
// could make "rtl\u202Eexe.pdf" display as "rtlfdp.exe".

const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\n\r]/g;

/** The text without hidden characters; a one-line field (`lineBreaks: false`) also loses tabs and line ends. */
export function withoutHiddenCharacters(text: string, { lineBreaks = false } = {}): string {
  const visible = text.replace(HIDDEN, "");
  return lineBreaks ? visible : visible.replace(LINE_BREAKS, "");
}
