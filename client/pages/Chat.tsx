// The chat screen. With no messages it shows the landing variant; the chat issue
// adds the composer, streaming answers and citations.
export default function Chat() {
  return (
    <main className="page chat-page">
      <h1 className="chat-greeting">Hello, how can I help you?</h1>
      <section className="landing">
        <h2>Your AI assistant for business documents</h2>
        <h3>Overview</h3>
        <p>
          Ask questions about HR, tax, legal, business development and strategy. Give the assistant context by uploading your PDFs, and
          every answer tells you the file and page it came from.
        </p>
        <h3>Key Features</h3>
        <ul className="feature-list">
          <li>
            <strong>Centralized file management</strong>: keep documents from your device, Google Drive and other cloud storage in one
            place.
          </li>
          <li>
            <strong>Contextual AI support</strong>: answers grounded in your own documents, with page citations.
          </li>
          <li>
            <strong>Rapid memo and sharing</strong>: e-mail a summary memo of a chat or share it with colleagues.
          </li>
          <li>
            <strong>Minimalistic UI</strong>: nothing between you and your answers.
          </li>
        </ul>
      </section>
    </main>
  );
}
