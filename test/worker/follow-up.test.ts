// Proves a follow-up that leans on the question before it ("And in 2017?", "And
// for married filing jointly?") is answered as that question with its words put
// in, over a company's annual report and a tax guide (generated PDFs); a
// question of its own is searched as typed, and the chat stores what was typed.
import { describe, expect, it } from "vitest";
import { withEarlierQuestion } from "../../worker/answer/question/follow-up";
import { newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { openSocket } from "../helpers/sockets";

const earlier = (content: string) => () => [
  { role: "user" as const, content },
  { role: "assistant" as const, content: "An answer. [1]" },
];

describe("a follow-up question", () => {
  it("is read with the question before it, its year, company or phrase in place of the earlier one's", () => {
    expect(withEarlierQuestion("And in 2017?", earlier("What were 3M's net sales in 2018?"))).toBe(
      "What were 3M's net sales  ? And in 2017?",
    );
    expect(withEarlierQuestion("What about Pfizer?", earlier("What were 3M's net sales in 2018?"))).toBe(
      "What were   net sales in 2018? What about Pfizer?",
    );
    expect(withEarlierQuestion("And for married filing jointly?", earlier("What is the standard deduction for a single filer?"))).toBe(
      "What is the standard deduction  ? And for married filing jointly?",
    );
    // a question of its own, or a first question, is searched as typed
    const own = "For which years can I keep using the widower filing status with joint rates?";
    expect(withEarlierQuestion(own, earlier("What is the standard deduction?"))).toBe(own);
    expect(withEarlierQuestion("Who is the CEO?", earlier("What were net sales?"))).toBe("Who is the CEO?");
    expect(withEarlierQuestion("In what box do I put tips?", earlier("What were net sales?"))).toBe("In what box do I put tips?");
    expect(withEarlierQuestion("For 2017?", earlier("What were net sales in 2018?"))).toBe("What were net sales in  ? For 2017?");
    expect(withEarlierQuestion("And in 2017?", () => [])).toBe("And in 2017?");
  });

  async function chatAbout(fileName: string, pages: string[], questions: string[]) {
    const u = await newUser("follow-up");
    const doc = await uploadAndIndex(u.token, fileName, await textPdf(pages));
    await waitUntilDone(u.token, doc.fileId);
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, u.token);
    const answers: string[] = [];
    for (const query of questions) {
      socket.send({ action: "chat", query, session_id: sessionId, token: u.token });
      answers.push((await socket.next("end", answers.length)).message.content as string);
    }
    socket.send({ action: "get_full_chat", session_id: sessionId, token: u.token });
    const stored = (await socket.next("full_chat")).messages
      .filter((m: { role: string }) => m.role === "user")
      .map((m: { content: string }) => m.content);
    return { answers, stored };
  }

  it("is answered over an annual report as the earlier question for its year", async () => {
    const { answers, stored } = await chatAbout(
      "Annual Report 2018.pdf",
      [
        "Results of operations. Net sales were $32,765 million in 2018, up 3.5 percent.",
        "Prior year. Net sales were $31,657 million in 2017.",
        "Facilities. The Texas plant opened in 2017.",
      ],
      ["What were net sales in 2018?", "And in 2017?"],
    );
    expect(answers[0]).toMatch(/^Net sales were \$32,765 million in 2018/);
    expect(answers[1]).toMatch(/^Net sales were \$31,657 million in 2017/);
    expect(stored).toEqual(["What were net sales in 2018?", "And in 2017?"]);
  });

  it("is answered over a tax guide as the earlier question for its filing status", async () => {
    const { answers } = await chatAbout(
      "Tax Guide.pdf",
      [
        "Standard deduction. The standard deduction for a single filer is $14,600.",
        "Joint returns. The standard deduction for married filing jointly is $29,200.",
        "E-file. Married couples filing jointly can e-file their return for free.",
      ],
      ["What is the standard deduction for a single filer?", "And for married filing jointly?"],
    );
    expect(answers[0]).toMatch(/^The standard deduction for a single filer is \$14,600/);
    expect(answers[1]).toMatch(/^The standard deduction for married filing jointly is \$29,200/);
  });
});
