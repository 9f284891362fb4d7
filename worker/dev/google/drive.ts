// The emulated Drive: the same seeded files in every account, and the parts of
// Drive v3 the product calls (worker/services/drive.ts): files.list with its one
// query (PDFs not in the trash), `fields`, `orderBy=modifiedTime desc`, `pageSize`
// and `pageToken`, and files.get for metadata or, with alt=media, the bytes.
// Wire formats follow Drive v3: `size` is a string.
import { paddedPdfStream, writePdf } from "./pdf";

/** "Scanned Archive.pdf": reported and streamed at 26 MiB, over the 25 MB import limit. */
export const SCANNED_ARCHIVE_BYTES = 26 * 1024 * 1024;

type SeedContent = { kind: "pdf"; pages: string[][] } | { kind: "text"; text: string } | { kind: "large"; size: number };

export interface SeededFile {
  id: string;
  name: string;
  mimeType: string;
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

/** The files every emulated Drive holds. */
export const SEEDED_FILES: readonly SeededFile[] = [
  {
    id: "1emu-employee-handbook-2025",
    name: "Employee Handbook 2025.pdf",
    mimeType: "application/pdf",
    modifiedTime: "2025-03-03T14:02:11.000Z",
    trashed: false,
    phrase: "home office stipend of 500 dollars",
    content: { kind: "pdf", pages: EMPLOYEE_HANDBOOK },
  },
  {
    id: "1emu-travel-expense-policy",
    name: "Travel Expense Policy.pdf",
    mimeType: "application/pdf",
    modifiedTime: "2025-02-12T08:30:45.000Z",
    trashed: false,
    phrase: "per diem of 75 dollars",
    content: { kind: "pdf", pages: TRAVEL_POLICY },
  },
  {
    id: "1emu-quarterly-tax-calendar",
    name: "Quarterly Tax Calendar.pdf",
    mimeType: "application/pdf",
    modifiedTime: "2025-01-02T11:11:11.000Z",
    trashed: false,
    phrase: "estimated tax payment is due on September 15",
    content: { kind: "pdf", pages: TAX_CALENDAR },
  },
  {
    id: "1emu-vendor-contract-template",
    name: "Vendor Contract Template.pdf",
    mimeType: "application/pdf",
    modifiedTime: "2024-10-01T09:00:00.000Z",
    trashed: false,
    phrase: "payable within net 45 days",
    content: { kind: "pdf", pages: VENDOR_CONTRACT },
  },
  {
    id: "1emu-scanned-archive",
    name: "Scanned Archive.pdf",
    mimeType: "application/pdf",
    modifiedTime: "2023-05-15T07:00:00.000Z",
    trashed: false,
    phrase: "",
    content: { kind: "large", size: SCANNED_ARCHIVE_BYTES },
  },
  {
    id: "1emu-meeting-notes",
    name: "Meeting notes.txt",
    mimeType: "text/plain",
    modifiedTime: "2025-03-03T15:05:00.000Z",
    trashed: false,
    phrase: "migrate the wiki by Friday",
    content: { kind: "text", text: MEETING_NOTES },
  },
  {
    id: "1emu-old-draft-policy",
    name: "Old Draft Policy.pdf",
    mimeType: "application/pdf",
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
    if (file.content.kind === "pdf") bytes = writePdf(file.content.pages, { title: file.name.replace(/\.pdf$/i, "") });
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

export function findFile(id: string): SeededFile | undefined {
  return SEEDED_FILES.find((f) => f.id === id);
}

// ---- resources -----------------------------------------------------------------

/** A Drive v3 file resource, with the fields the product asks for. */
export function fileResource(file: SeededFile): Record<string, unknown> {
  return {
    kind: "drive#file",
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    webViewLink: `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`,
    size: String(fileSize(file)),
  };
}

/** A Drive 400 "Invalid Value" for a parameter, rendered by the route in Google's error shape. */
export class DriveParamError extends Error {
  constructor(readonly parameter: string) {
    super("Invalid Value");
    this.name = "DriveParamError";
  }
}

// ---- fields --------------------------------------------------------------------

/** A `fields` selection: key -> true (the whole value) or the keys selected inside it, as in `files(id,name)`. */
type Selection = Map<string, Selection | true>;

function parseFields(text: string): Selection {
  const sel: Selection = new Map();
  const pattern = /\s*(\w+)\s*(?:\(([\w\s,]*)\))?\s*(,|$)/y;
  while (pattern.lastIndex < text.length) {
    const match = pattern.exec(text);
    if (!match) throw new DriveParamError("fields");
    const [, key, inner] = match;
    sel.set(key!, inner === undefined ? true : parseFields(inner));
  }
  return sel;
}

/** Keeps the selected keys (arrays element-wise); without `fields`, everything. */
export function project(value: unknown, sel: Selection | true): unknown {
  if (sel === true || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => project(v, sel));
  const out: Record<string, unknown> = {};
  for (const [key, sub] of sel) if (key in value) out[key] = project((value as Record<string, unknown>)[key], sub);
  return out;
}

export const selection = (fields: string | undefined): Selection | true => (fields ? parseFields(fields) : true);

// ---- files.list ----------------------------------------------------------------

/**
 * Compiles a `q` of `mimeType = '...'` and `trashed = true|false` clauses joined
 * by `and` (what the product asks); anything else is Drive's 400 "Invalid Value".
 */
function compileQuery(q: string | undefined): (file: SeededFile) => boolean {
  const clauses = (q ?? "").trim() ? q!.split(/\s+and\s+/i) : [];
  const tests = clauses.map((clause) => {
    const match = /^\s*(mimeType|trashed)\s*=\s*(?:'([^'\\]*)'|(true|false))\s*$/.exec(clause);
    if (match?.[1] === "mimeType" && match[2] !== undefined) return (f: SeededFile) => f.mimeType === match[2];
    if (match?.[1] === "trashed" && match[3] !== undefined) return (f: SeededFile) => f.trashed === (match[3] === "true");
    throw new DriveParamError("q");
  });
  return (file) => tests.every((test) => test(file));
}

/** `modifiedTime` or `modifiedTime desc` (what the product asks); none keeps the seeded order. */
function compileOrder(orderBy: string | undefined): (a: SeededFile, b: SeededFile) => number {
  const match = /^\s*(?:modifiedTime(?:\s+(asc|desc))?)?\s*$/.exec(orderBy ?? "");
  if (!match) throw new DriveParamError("orderBy");
  if (!orderBy?.trim()) return () => 0;
  const sign = match[1] === "desc" ? -1 : 1;
  return (a, b) => sign * (Date.parse(a.modifiedTime) - Date.parse(b.modifiedTime));
}

export interface ListParams {
  q?: string;
  pageSize?: string;
  pageToken?: string;
  orderBy?: string;
  fields?: string;
}

/** files.list: filter, sort, page (a page token is the offset of the next page), then project to `fields`. */
export function listFiles(params: ListParams): Record<string, unknown> {
  const fields = selection(params.fields);
  const pageSize = params.pageSize ? Number(params.pageSize) : 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new DriveParamError("pageSize");
  const offset = params.pageToken ? Number(params.pageToken) : 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new DriveParamError("pageToken");

  const matches = SEEDED_FILES.filter(compileQuery(params.q)).sort(compileOrder(params.orderBy));
  const next = offset + pageSize < matches.length ? String(offset + pageSize) : undefined;
  const body = {
    kind: "drive#fileList",
    ...(next ? { nextPageToken: next } : {}),
    files: matches.slice(offset, offset + pageSize).map(fileResource),
  };
  return project(body, fields) as Record<string, unknown>;
}
