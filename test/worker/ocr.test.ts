// Scanned PDFs: pages that are pictures of text are found at indexing and listed
// (needs_ocr), their text comes back from the owner's browser through
// POST /api/documents/:id/ocr-pages, only for listed pages of their own document,
// and is then searched like extracted text, cited as recognised.
import { describe, expect, it } from "vitest";
import { DOCUMENT_MESSAGES as M, OCR_PAGE_MAX_CHARS, ocrPageNotListed } from "../../worker/contract/documents";
import { awaitingRecognitionNote } from "../../worker/contract/protocol";
import { call, newUser } from "../helpers/api";
import { listFiles, uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { scannedPdf, textPdf } from "../helpers/pdfs";
import { openSocket } from "../helpers/sockets";

const PAGE_ONE = "Lease agreement between Northwind Traders and the landlord, signed in March.";
const PAGE_TWO = "The tenant may sublet the warehouse only with the landlord's written consent given in advance.";

async function scannedDocument(prefix: string, pages = 2) {
  const user = await newUser(prefix);
  const { fileId } = await uploadAndIndex(user.token, "Signed lease.pdf", await scannedPdf(pages));
  const done = await waitUntilDone(user.token, fileId);
  return { ...user, fileId, done };
}

const sendPages = (token: string, fileId: string, pages: unknown) =>
  call("POST", `/api/documents/${encodeURIComponent(fileId)}/ocr-pages`, { token, body: { pages } });

describe("finding scanned pages", () => {
  it("lists every page of an image-only PDF for recognition instead of failing it", async () => {
    const { token, fileId, done } = await scannedDocument("scan-detect", 3);
    expect(done).toMatchObject({ status: "needs_ocr", error: null, pagesTotal: 3, ocrPages: [1, 2, 3] });
    const [file] = (await listFiles(token)).files;
    expect(file).toMatchObject({ fileId, status: "needs_ocr", ocrPages: [1, 2, 3] });
  });

  it("indexes a mixed document's text pages at once and lists its scanned page", async () => {
    const { token } = await newUser("scan-mixed");
    const bytes = await scannedPdf(1, ["Holiday policy: staff get twenty-five days of paid leave.", "Sick leave is paid from day one."]);
    const { fileId } = await uploadAndIndex(token, "Handbook.pdf", bytes);
    expect(await waitUntilDone(token, fileId)).toMatchObject({ status: "indexed", ocrPages: [1], pagesTotal: 3 });
  });
});

describe("POST /api/documents/:id/ocr-pages", () => {
  it("refuses another user's document, an unknown one, a page not listed and oversized text; nothing changes", async () => {
    const owner = await scannedDocument("scan-owner");
    const stranger = await newUser("scan-stranger");
    const strangerText = await textPdf(["A document with a text layer."]);
    const { fileId: textFileId } = await uploadAndIndex(stranger.token, "text.pdf", strangerText);
    await waitUntilDone(stranger.token, textFileId);

    const other = await sendPages(stranger.token, owner.fileId, [{ page: 1, text: PAGE_ONE }]);
    expect(other.status).toBe(404);
    expect(other.json.message).toBe(M.fileNotFound);
    expect((await sendPages(owner.token, "no-such-file", [{ page: 1, text: PAGE_ONE }])).status).toBe(404);
    expect((await call("POST", `/api/documents/${owner.fileId}/ocr-pages`, { body: { pages: [{ page: 1, text: "x" }] } })).status).toBe(
      401,
    );

    const notListed = await sendPages(owner.token, owner.fileId, [{ page: 5, text: PAGE_ONE }]);
    expect(notListed.status).toBe(400);
    expect(notListed.json.message).toBe(ocrPageNotListed(5));
    const notWaiting = await sendPages(stranger.token, textFileId, [{ page: 1, text: "anything" }]);
    expect(notWaiting.status).toBe(400);
    expect(notWaiting.json.message).toBe(M.ocrNotNeeded);

    const tooLong = await sendPages(owner.token, owner.fileId, [{ page: 1, text: "a".repeat(OCR_PAGE_MAX_CHARS + 1) }]);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.message).toBe(M.ocrTooLong);
    for (const bad of [
      [],
      [{ page: 0, text: "" }],
      [{ page: 1 }],
      "pages",
      [
        { page: 1, text: "a" },
        { page: 1, text: "b" },
      ],
    ])
      expect((await sendPages(owner.token, owner.fileId, bad)).status).toBe(400);

    const huge = await call("POST", `/api/documents/${owner.fileId}/ocr-pages`, {
      token: owner.token,
      body: { pages: [{ page: 1, text: "é".repeat(700_000) }] },
    });
    expect(huge.status).toBe(413);

    const status = await call("GET", `/api/documents/indexingStatus?file_id=${owner.fileId}`, { token: owner.token });
    expect(status.json).toMatchObject({ status: "needs_ocr", ocrPages: [1, 2] });
  });

  it("indexes recognised pages as they come; the chat finds a phrase only the recognised text has and cites it as recognised", async () => {
    const owner = await scannedDocument("scan-chat");
    const first = await sendPages(owner.token, owner.fileId, [{ page: 1, text: PAGE_ONE }]);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      fileId: owner.fileId,
      status: "needs_ocr",
      pagesDone: expect.any(Number),
      pagesTotal: 2,
      error: null,
      ocrPages: [2],
    });
    // a page sent again (a second tab) is no longer listed
    expect((await sendPages(owner.token, owner.fileId, [{ page: 1, text: PAGE_ONE }])).json.message).toBe(ocrPageNotListed(1));

    // asked while page 2 still waits: answered from page 1, saying so
    const sessionId = `${owner.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, owner.token);
    socket.send({
      action: "chat",
      query: "Who is the lease between?",
      session_id: sessionId,
      token: owner.token,
      file_ids: [owner.fileId],
    });
    const early = await socket.next("end");
    expect(early.message.content).toContain(awaitingRecognitionNote({ fileName: "Signed lease.pdf" }));
    expect(early.message.sources?.[0]).toMatchObject({ page: 1, recognised: true });

    const last = await sendPages(owner.token, owner.fileId, [{ page: 2, text: PAGE_TWO }]);
    expect(last.json).toMatchObject({ status: "indexed", ocrPages: [], error: null });
    expect((await listFiles(owner.token)).files[0]).toMatchObject({ status: "indexed", ocrPages: [] });

    const ends = socket.all("end").length;
    socket.send({ action: "chat", query: "Can the warehouse be sublet?", session_id: sessionId, token: owner.token });
    const end = await socket.next("end", ends);
    expect(end.message.content).not.toContain("waiting for text recognition");
    expect(end.message.sources?.[0]).toMatchObject({ page: 2, recognised: true });
    socket.ws.close();
  });

  it("a link for recognition reads the PDF without noting it as last opened", async () => {
    const owner = await scannedDocument("scan-link");
    const link = await call("GET", `/api/documents/viewDocument?file_id=${owner.fileId}&for=recognition`, { token: owner.token });
    expect(link.status).toBe(200);
    expect((await listFiles(owner.token)).files[0]!.uploadedAt).toBeNull();
    await call("GET", `/api/documents/viewDocument?file_id=${owner.fileId}`, { token: owner.token });
    expect((await listFiles(owner.token)).files[0]!.uploadedAt).not.toBeNull();
  });

  it("replaces a scanned page's stray text-layer mark with its recognised text", async () => {
    const { token } = await newUser("scan-stamp");
    const { fileId } = await uploadAndIndex(token, "Fax.pdf", await scannedPdf(1, [], "p. 1"));
    expect(await waitUntilDone(token, fileId)).toMatchObject({ status: "needs_ocr", ocrPages: [1] });
    const done = await sendPages(token, fileId, [{ page: 1, text: PAGE_TWO }]);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ status: "indexed", ocrPages: [] });
  });

  it("fails the document when no page had any text to recognise", async () => {
    const owner = await scannedDocument("scan-blank", 1);
    const result = await sendPages(owner.token, owner.fileId, [{ page: 1, text: "" }]);
    expect(result.json).toMatchObject({ status: "failed", error: M.nothingRecognised, ocrPages: [] });
  });
});
