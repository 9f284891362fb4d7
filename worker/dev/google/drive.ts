// The emulated Drive: the same seeded files in every account, Drive v3 file
// resources, and the parts of the files.list language the product uses (`q`,
// `orderBy`, `fields`, `pageSize`, `pageToken`). Wire formats follow Drive v3:
// `size` is a string, times are RFC 3339 with milliseconds, and without `fields`
// a file carries only kind, id, name and mimeType, exactly like Google.
import { paddedPdfStream, writePdf } from "./pdf";

export const ROOT_FOLDER_ID = "0AEmuRootFolderUk9PVA";
/** "Scanned Archive.pdf": reported and streamed at 26 MiB, over the 25 MB import limit. */
export const SCANNED_ARCHIVE_BYTES = 26 * 1024 * 1024;

type SeedContent = { kind: "pdf"; pages: string[][] } | { kind: "text"; text: string } | { kind: "large"; size: number };

export interface SeededFile {
  id: string;
  name: string;
  mimeType: string;
  createdTime: string;
  modifiedTime: string;
  trashed: boolean;
  /** one phrase of the file's text, for tests and docs ("" when the file has no text) */
  phrase: string;
  content: SeedContent;
}

const EMPLOYEE_HANDBOOK: string[][] = [
  [
    "Employee Handbook 2025",
    "Section 1: Onboarding",
    "Welcome to Northwind Traders. This handbook explains how we work together.",
    "During your first week you attend an orientation session on Monday morning,",
    "collect your laptop and badge from the IT service desk, and meet your onboarding buddy.",
    "Your manager agrees your 30-60-90 day goals with you by the end of week two.",
    "Complete the security awareness training within your first five working days.",
  ],
  [
    "Section 2: Remote Work Policy",
    "Employees may work remotely up to three days per week with their manager's approval.",
    "Core collaboration hours are 10:00 to 15:00 in your local time zone.",
    "Each remote employee receives a one-time home office stipend of 500 dollars",
    "to buy a desk, a chair or a monitor. Keep the receipts for the finance team.",
    "Company laptops must use the VPN when connecting from public networks.",
  ],
  [
    "Section 3: Leave Policy",
    "Full-time employees accrue 25 days of paid annual leave per calendar year.",
    "Request leave in the HR portal at least two weeks before the first day off.",
    "Sick leave needs no doctor's note for absences of up to three days.",
    "Parental leave is 16 weeks at full pay for every new parent.",
    "Up to five days of unused annual leave carry over to the next year.",
  ],
];

const TRAVEL_POLICY: string[][] = [
  [
    "Travel Expense Policy",
    "Section 1: Booking travel",
    "Book flights in economy class at least 14 days before departure.",
    "Trains are preferred over flights for journeys shorter than four hours.",
    "Hotels must be booked through the corporate travel portal.",
    "Rental cars need prior approval from your department head.",
  ],
  [
    "Section 2: Meals and reimbursement",
    "Meals are covered by a per diem of 75 dollars for each full travel day.",
    "Alcohol is not reimbursed.",
    "Submit your expense report with receipts within 30 days of returning.",
    "Reimbursements are paid with the next monthly salary.",
  ],
];

const TAX_CALENDAR: string[][] = [
  [
    "Quarterly Tax Calendar",
    "Estimated income tax payments",
    "The first quarter estimated tax payment is due on April 15.",
    "The second quarter estimated tax payment is due on June 15.",
    "The third quarter estimated tax payment is due on September 15.",
    "The fourth quarter estimated tax payment is due on January 15 of the following year.",
  ],
  [
    "Payroll and sales tax",
    "Form 941 payroll tax returns are filed by the last day of the month after each quarter.",
    "Sales tax returns are due on the 20th day after each quarter ends.",
    "Keep copies of every filing for at least seven years.",
  ],
];

const VENDOR_CONTRACT: string[][] = [
  [
    "Vendor Contract Template",
    "Vendor Services Agreement",
    "This agreement is made between Northwind Traders (the Client) and the Vendor (the Supplier).",
    "The Vendor provides the services described in Schedule A.",
    "Either party may terminate this agreement with 30 days written notice.",
    "Confidential information must not be disclosed to third parties.",
  ],
  [
    "Payment and liability",
    "Invoices are payable within net 45 days of the invoice date.",
    "The Vendor maintains general liability insurance of at least 2 million dollars.",
    "This agreement is governed by the laws of the State of Delaware.",
    "Store signed copies in \\\\fileserver\\contracts\\vendors (one folder per vendor).",
  ],
];

const OLD_DRAFT: string[][] = [["Old Draft Policy", "This draft was replaced by the Employee Handbook 2025 and sits in the trash."]];

const MEETING_NOTES = [
  "Meeting notes - Product sync, 3 March 2025",
  "",
  "Attendees: Priya, Marcus, Elena",
  "- Decision: ship the Google Drive import in the spring release.",
  "- Action item: Marcus will migrate the wiki by Friday.",
  "",
].join("\n");

/** The files every emulated Drive holds, in a fixed order (the default list order). */
export const SEEDED_FILES: readonly SeededFile[] = [
  {
    id: "1emu-employee-handbook-2025",
    name: "Employee Handbook 2025.pdf",
    mimeType: "application/pdf",
    createdTime: "2025-01-06T09:15:00.000Z",
    modifiedTime: "2025-03-03T14:02:11.000Z",
    trashed: false,
    phrase: "home office stipend of 500 dollars",
    content: { kind: "pdf", pages: EMPLOYEE_HANDBOOK },
  },
  {
    id: "1emu-travel-expense-policy",
    name: "Travel Expense Policy.pdf",
    mimeType: "application/pdf",
    createdTime: "2024-11-18T10:00:00.000Z",
    modifiedTime: "2025-02-12T08:30:45.000Z",
    trashed: false,
    phrase: "per diem of 75 dollars",
    content: { kind: "pdf", pages: TRAVEL_POLICY },
  },
  {
    id: "1emu-quarterly-tax-calendar",
    name: "Quarterly Tax Calendar.pdf",
    mimeType: "application/pdf",
    createdTime: "2024-12-30T16:20:00.000Z",
    modifiedTime: "2025-01-02T11:11:11.000Z",
    trashed: false,
    phrase: "estimated tax payment is due on September 15",
    content: { kind: "pdf", pages: TAX_CALENDAR },
  },
  {
    id: "1emu-vendor-contract-template",
    name: "Vendor Contract Template.pdf",
    mimeType: "application/pdf",
    createdTime: "2024-09-09T13:45:00.000Z",
    modifiedTime: "2024-10-01T09:00:00.000Z",
    trashed: false,
    phrase: "payable within net 45 days",
    content: { kind: "pdf", pages: VENDOR_CONTRACT },
  },
  {
    id: "1emu-scanned-archive",
    name: "Scanned Archive.pdf",
    mimeType: "application/pdf",
    createdTime: "2023-05-15T07:00:00.000Z",
    modifiedTime: "2023-05-15T07:00:00.000Z",
    trashed: false,
    phrase: "",
    content: { kind: "large", size: SCANNED_ARCHIVE_BYTES },
  },
  {
    id: "1emu-meeting-notes",
    name: "Meeting notes.txt",
    mimeType: "text/plain",
    createdTime: "2025-03-03T15:00:00.000Z",
    modifiedTime: "2025-03-03T15:05:00.000Z",
    trashed: false,
    phrase: "migrate the wiki by Friday",
    content: { kind: "text", text: MEETING_NOTES },
  },
  {
    id: "1emu-old-draft-policy",
    name: "Old Draft Policy.pdf",
    mimeType: "application/pdf",
    createdTime: "2024-06-01T12:00:00.000Z",
    modifiedTime: "2024-06-02T12:00:00.000Z",
    trashed: true,
    phrase: "This draft was replaced",
    content: { kind: "pdf", pages: OLD_DRAFT },
  },
];

// ---- content -------------------------------------------------------------------

const bytesCache = new Map<string, Uint8Array>();

/** The bytes of a small seeded file (generated once per isolate; deterministic). */
function smallBytes(file: SeededFile): Uint8Array {
  let bytes = bytesCache.get(file.id);
  if (!bytes) {
    if (file.content.kind === "pdf")
      bytes = writePdf(file.content.pages, { title: file.name.replace(/\.pdf$/i, ""), createdAt: file.createdTime });
    else if (file.content.kind === "text") bytes = new TextEncoder().encode(file.content.text);
    else throw new Error("large files are streamed");
    bytesCache.set(file.id, bytes);
  }
  return bytes;
}

export function fileSize(file: SeededFile): number {
  return file.content.kind === "large" ? file.content.size : smallBytes(file).length;
}

/** The file's bytes: a fixed buffer for small files, a generated stream for the large one. */
export function fileBody(file: SeededFile): ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> {
  return file.content.kind === "large" ? paddedPdfStream(file.content.size) : smallBytes(file).slice();
}

function fileText(file: SeededFile): string {
  if (file.content.kind === "pdf") return file.content.pages.flat().join("\n");
  if (file.content.kind === "text") return file.content.text;
  return "";
}

export function findFile(id: string): SeededFile | undefined {
  return SEEDED_FILES.find((f) => f.id === id);
}

// ---- resources -----------------------------------------------------------------

export interface DriveOwner {
  sub: string;
  email: string;
  name: string;
  picture: string;
}

/** A complete Drive v3 file resource (what `fields=*` returns). */
export function fileResource(file: SeededFile, owner: DriveOwner): Record<string, unknown> {
  const size = String(fileSize(file));
  const dot = file.name.lastIndexOf(".");
  return {
    kind: "drive#file",
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    starred: false,
    trashed: file.trashed,
    explicitlyTrashed: file.trashed,
    parents: [ROOT_FOLDER_ID],
    spaces: ["drive"],
    version: "3",
    webContentLink: `https://drive.google.com/uc?id=${file.id}&export=download`,
    webViewLink: `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`,
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${file.mimeType}`,
    hasThumbnail: false,
    viewedByMe: true,
    createdTime: file.createdTime,
    modifiedTime: file.modifiedTime,
    modifiedByMe: true,
    owners: [
      {
        kind: "drive#user",
        displayName: owner.name,
        photoLink: owner.picture,
        me: true,
        permissionId: owner.sub,
        emailAddress: owner.email,
      },
    ],
    shared: false,
    ownedByMe: true,
    capabilities: { canDownload: true, canEdit: false, canCopy: true, canShare: false, canTrash: false, canRename: false },
    originalFilename: file.name,
    fullFileExtension: dot > 0 ? file.name.slice(dot + 1) : "",
    fileExtension: dot > 0 ? file.name.slice(dot + 1) : "",
    size,
    quotaBytesUsed: size,
  };
}

const FILE_KEYS = new Set(Object.keys(fileResource(SEEDED_FILES[0]!, { sub: "1", email: "", name: "", picture: "" })));
const LIST_KEYS = new Set(["kind", "nextPageToken", "incompleteSearch", "files"]);

// ---- errors --------------------------------------------------------------------

/** A Drive 400 "bad parameter" error, rendered by the route in Google's error shape. */
export class DriveParamError extends Error {
  constructor(
    message: string,
    readonly location: string,
    readonly reason: "invalid" | "invalidParameter" = "invalid",
  ) {
    super(message);
    this.name = "DriveParamError";
  }
}

// ---- fields --------------------------------------------------------------------

/** A parsed `fields` selection: key -> true (whole value) or a sub-selection. */
type Selection = Map<string, Selection | true>;

export function parseFields(text: string): Selection {
  let pos = 0;
  const fail = (): never => {
    throw new DriveParamError(`Invalid field selection ${text}`, "fields", "invalidParameter");
  };
  const list = (): Selection => {
    const sel: Selection = new Map();
    for (;;) {
      while (text[pos] === " ") pos++;
      const start = pos;
      while (pos < text.length && /[A-Za-z0-9_*/]/.test(text[pos]!)) pos++;
      const path = text.slice(start, pos).trim();
      if (!path) fail();
      const parts = path.split("/");
      if (parts.some((p) => !p)) fail();
      let sub: Selection | true = true;
      while (text[pos] === " ") pos++;
      if (text[pos] === "(") {
        pos++;
        sub = list();
        if (text[pos] !== ")") fail();
        pos++;
      }
      // a/b/c(d) == a(b(c(d)))
      for (let i = parts.length - 1; i >= 1; i--) sub = new Map([[parts[i]!, sub]]);
      const key = parts[0]!;
      const existing = sel.get(key);
      sel.set(key, existing instanceof Map && sub instanceof Map ? new Map([...existing, ...sub]) : existing === true ? true : sub);
      while (text[pos] === " ") pos++;
      if (text[pos] === ",") {
        pos++;
        while (text[pos] === " ") pos++;
        continue;
      }
      return sel;
    }
  };
  const sel = list();
  if (pos !== text.length) fail();
  return sel;
}

function checkKeys(sel: Selection, allowed: Set<string>, prefix = "") {
  for (const key of sel.keys()) {
    if (key !== "*" && !allowed.has(key))
      throw new DriveParamError(`Invalid field selection ${prefix}${key}`, "fields", "invalidParameter");
  }
}

/** Validates a files.list `fields` value (top-level keys and the keys inside files(...)). */
export function listSelection(fields: string | undefined): Selection {
  const sel = parseFields(fields ?? "kind,nextPageToken,incompleteSearch,files(kind,id,name,mimeType)");
  checkKeys(sel, LIST_KEYS);
  const files = sel.get("files");
  if (files instanceof Map) checkKeys(files, FILE_KEYS, "files.");
  return sel;
}

/** Validates a files.get `fields` value. */
export function fileSelection(fields: string | undefined): Selection {
  const sel = parseFields(fields ?? "kind,id,name,mimeType");
  checkKeys(sel, FILE_KEYS);
  return sel;
}

/** Applies a selection: only the selected keys (recursively; arrays element-wise). */
export function project(value: unknown, sel: Selection | true): unknown {
  if (sel === true || sel.has("*") || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => project(v, sel));
  const out: Record<string, unknown> = {};
  for (const [key, sub] of sel) {
    if (key in value) out[key] = project((value as Record<string, unknown>)[key], sub);
  }
  return out;
}

// ---- q -------------------------------------------------------------------------

type Token = { t: "str"; v: string } | { t: "word"; v: string } | { t: "op"; v: string } | { t: "(" } | { t: ")" };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const bad = (): never => {
    throw new DriveParamError("Invalid Value", "q");
  };
  while (i < q.length) {
    const ch = q[i]!;
    if (/\s/.test(ch)) i++;
    else if (ch === "(" || ch === ")") {
      tokens.push({ t: ch });
      i++;
    } else if (ch === "'" || ch === '"') {
      let v = "";
      i++;
      for (;;) {
        if (i >= q.length) bad();
        const c = q[i]!;
        if (c === "\\") {
          if (i + 1 >= q.length) bad();
          v += q[i + 1];
          i += 2;
        } else if (c === ch) {
          i++;
          break;
        } else {
          v += c;
          i++;
        }
      }
      tokens.push({ t: "str", v });
    } else if (/[=!<>]/.test(ch)) {
      const two = q.slice(i, i + 2);
      const op = ["!=", "<=", ">="].includes(two) ? two : ch;
      if (op === "!") bad();
      tokens.push({ t: "op", v: op });
      i += op.length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const start = i;
      while (i < q.length && /[A-Za-z0-9_.]/.test(q[i]!)) i++;
      tokens.push({ t: "word", v: q.slice(start, i) });
    } else bad();
  }
  return tokens;
}

/** What a query clause can see of a file. */
interface Row {
  file: SeededFile;
  ownerEmail: string;
}
type Predicate = (row: Row) => boolean;

const wordChar = /[\p{L}\p{N}]/u;

/** Drive's `name contains`: case-insensitive prefix match at the start of a word. */
function namePrefixMatch(name: string, term: string): boolean {
  const hay = name.toLowerCase();
  const needle = term.toLowerCase();
  if (!needle) return true;
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1)) {
    if (at === 0 || !wordChar.test(hay[at - 1]!)) return true;
  }
  return false;
}

/** Drive's `fullText contains`: whole words or a whole phrase, case-insensitive. */
function fullTextMatch(text: string, term: string): boolean {
  const norm = (s: string) =>
    ` ${s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join(" ")} `;
  const needle = norm(term);
  return needle.trim() === "" || norm(text).includes(needle);
}

function timeOf(value: string): number {
  const t = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(t)) throw new DriveParamError("Invalid Value", "q");
  return t;
}

function compare<T extends number | string | boolean>(op: string, a: T, b: T): boolean {
  switch (op) {
    case "=":
      return a === b;
    case "!=":
      return a !== b;
    case "<":
      return (a as number) < (b as number);
    case "<=":
      return (a as number) <= (b as number);
    case ">":
      return (a as number) > (b as number);
    case ">=":
      return (a as number) >= (b as number);
    default:
      throw new DriveParamError("Invalid Value", "q");
  }
}

/**
 * Compiles a Drive query. Supported: `name` (=, !=, contains), `fullText contains`,
 * `mimeType` (=, !=, contains), `trashed` / `starred` (=, != true|false),
 * `modifiedTime` / `createdTime` (=, !=, <, <=, >, >= 'RFC 3339'), `'root'|'<id>' in parents`,
 * `'me'|'<email>' in owners`, combined with and / or / not and parentheses.
 * Anything else is a 400 "Invalid Value", as Drive answers.
 */
export function compileQuery(q: string | undefined): Predicate {
  if (!q || !q.trim()) return () => true;
  const tokens = tokenize(q);
  let pos = 0;
  const bad = (): never => {
    throw new DriveParamError("Invalid Value", "q");
  };
  const peekWord = (w: string) => {
    const tok = tokens[pos];
    return tok?.t === "word" && tok.v.toLowerCase() === w;
  };

  const value = (): string | boolean => {
    const tok = tokens[pos++];
    if (tok?.t === "str") return tok.v;
    if (tok?.t === "word" && (tok.v === "true" || tok.v === "false")) return tok.v === "true";
    return bad();
  };

  const clause = (): Predicate => {
    const first = tokens[pos];
    if (first?.t === "str") {
      // 'x' in parents | 'x' in owners
      pos++;
      if (!peekWord("in")) bad();
      pos++;
      const field = tokens[pos++];
      if (field?.t !== "word") return bad();
      const needle = first.v;
      if (field.v === "parents") return () => needle === "root" || needle === ROOT_FOLDER_ID;
      if (field.v === "owners") return (row) => needle === "me" || needle.toLowerCase() === row.ownerEmail;
      return bad();
    }
    if (first?.t !== "word") return bad();
    pos++;
    const field = first.v;
    const opTok = tokens[pos++];
    const op = opTok?.t === "op" ? opTok.v : opTok?.t === "word" && opTok.v.toLowerCase() === "contains" ? "contains" : bad();
    const v = value();
    switch (field) {
      case "name":
        if (typeof v !== "string") return bad();
        if (op === "contains") return (row) => namePrefixMatch(row.file.name, v);
        if (op === "=" || op === "!=") return (row) => compare(op, row.file.name, v);
        return bad();
      case "fullText":
        if (typeof v !== "string" || op !== "contains") return bad();
        return (row) => fullTextMatch(`${row.file.name}\n${fileText(row.file)}`, v);
      case "mimeType":
        if (typeof v !== "string") return bad();
        if (op === "contains") return (row) => row.file.mimeType.includes(v);
        if (op === "=" || op === "!=") return (row) => compare(op, row.file.mimeType, v);
        return bad();
      case "trashed":
      case "starred":
        if (typeof v !== "boolean" || (op !== "=" && op !== "!=")) return bad();
        return (row) => compare(op, field === "trashed" ? row.file.trashed : false, v);
      case "modifiedTime":
      case "createdTime": {
        if (typeof v !== "string" || op === "contains") return bad();
        const t = timeOf(v);
        return (row) => compare(op, Date.parse(field === "modifiedTime" ? row.file.modifiedTime : row.file.createdTime), t);
      }
      default:
        return bad();
    }
  };

  const unary = (): Predicate => {
    if (peekWord("not")) {
      pos++;
      const inner = unary();
      return (row) => !inner(row);
    }
    if (tokens[pos]?.t === "(") {
      pos++;
      const inner = orExpr();
      if (tokens[pos]?.t !== ")") bad();
      pos++;
      return inner;
    }
    return clause();
  };
  const andExpr = (): Predicate => {
    const parts = [unary()];
    while (peekWord("and")) {
      pos++;
      parts.push(unary());
    }
    return (row) => parts.every((p) => p(row));
  };
  const orExpr = (): Predicate => {
    const parts = [andExpr()];
    while (peekWord("or")) {
      pos++;
      parts.push(andExpr());
    }
    return (row) => parts.some((p) => p(row));
  };

  const predicate = orExpr();
  if (pos !== tokens.length) bad();
  return predicate;
}

// ---- orderBy -------------------------------------------------------------------

type Comparator = (a: SeededFile, b: SeededFile) => number;

const SORT_KEYS: Record<string, Comparator> = {
  name: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  name_natural: (a, b) => a.name.localeCompare(b.name, "en", { numeric: true, sensitivity: "base" }),
  modifiedTime: (a, b) => Date.parse(a.modifiedTime) - Date.parse(b.modifiedTime),
  recency: (a, b) => Date.parse(a.modifiedTime) - Date.parse(b.modifiedTime),
  modifiedByMeTime: (a, b) => Date.parse(a.modifiedTime) - Date.parse(b.modifiedTime),
  viewedByMeTime: (a, b) => Date.parse(a.modifiedTime) - Date.parse(b.modifiedTime),
  createdTime: (a, b) => Date.parse(a.createdTime) - Date.parse(b.createdTime),
  quotaBytesUsed: (a, b) => fileSize(a) - fileSize(b),
  folder: () => 0, // no folders in the emulated Drive
  starred: () => 0, // nothing is starred
};

export function compileOrder(orderBy: string | undefined): Comparator {
  if (!orderBy || !orderBy.trim()) return () => 0;
  const parts = orderBy.split(",").map((part) => {
    const [key, dir, extra] = part.trim().split(/\s+/);
    const cmp = key ? SORT_KEYS[key] : undefined;
    if (!cmp || extra !== undefined || (dir !== undefined && dir !== "desc" && dir !== "asc"))
      throw new DriveParamError("Invalid Value", "orderBy");
    return dir === "desc" ? (a: SeededFile, b: SeededFile) => -cmp(a, b) : cmp;
  });
  return (a, b) => {
    for (const cmp of parts) {
      const r = cmp(a, b);
      if (r !== 0) return r;
    }
    return 0;
  };
}

// ---- listing -------------------------------------------------------------------

/** A short fingerprint of the query a page token belongs to (FNV-1a). */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

function encodePageToken(offset: number, fp: string): string {
  return btoa(JSON.stringify({ o: offset, f: fp }))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function decodePageToken(token: string, fp: string): number {
  try {
    const padded = token.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (token.length % 4)) % 4);
    const parsed = JSON.parse(atob(padded)) as { o?: unknown; f?: unknown };
    if (typeof parsed.o === "number" && Number.isSafeInteger(parsed.o) && parsed.o >= 0 && parsed.f === fp) return parsed.o;
  } catch {
    // fall through
  }
  throw new DriveParamError("Invalid Value", "pageToken");
}

export interface ListParams {
  q?: string;
  pageSize?: string;
  pageToken?: string;
  orderBy?: string;
  fields?: string;
}

export type DriveAccess = "full" | "metadata" | "appOnly";

/** files.list: filter, sort, page, then project to `fields`. */
export function listFiles(params: ListParams, owner: DriveOwner, access: DriveAccess): Record<string, unknown> {
  const selection = listSelection(params.fields);
  let pageSize = 100;
  if (params.pageSize !== undefined && params.pageSize !== "") {
    const n = Number(params.pageSize);
    if (!Number.isInteger(n) || n < 1) throw new DriveParamError("Invalid Value", "pageSize");
    pageSize = Math.min(n, 1000);
  }
  const predicate = compileQuery(params.q);
  const order = compileOrder(params.orderBy);
  const fp = fingerprint(`${params.q ?? ""}\n${params.orderBy ?? ""}`);
  const offset = params.pageToken ? decodePageToken(params.pageToken, fp) : 0;

  // drive.file / drive.appdata only see files the app created or opened: none of the seeded ones.
  const visible = access === "appOnly" ? [] : SEEDED_FILES;
  const matches = visible.filter((file) => predicate({ file, ownerEmail: owner.email.toLowerCase() })).sort(order);
  const page = matches.slice(offset, offset + pageSize);
  const next = offset + pageSize < matches.length ? encodePageToken(offset + pageSize, fp) : undefined;
  const body = {
    kind: "drive#fileList",
    ...(next ? { nextPageToken: next } : {}),
    incompleteSearch: false,
    files: page.map((file) => fileResource(file, owner)),
  };
  return project(body, selection) as Record<string, unknown>;
}
