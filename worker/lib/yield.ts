// The isolate runs one thing at a time: long work (reading a PDF, storing a step of
// its pages, answering many chats) pauses on a timer so a waiting request runs first.

/** Lets the event loop run whatever is waiting (a request, a timer) before going on. */
export const yieldToOtherWork = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
