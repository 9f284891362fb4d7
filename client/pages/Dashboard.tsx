import { Link } from "react-router-dom";

export default function Dashboard() {
  return (
    <main className="page">
      <h1>Welcome</h1>
      <p>Chat with your documents and get answers that cite their pages.</p>

      <div className="hub-grid">
        <article className="hub-card">
          <h2>Document Indexer</h2>
          <p>Upload PDFs or import them read-only from Google Drive.</p>
          <Link to="/app/files">Open My Files</Link>
        </article>

        <article className="hub-card">
          <h2>smart chat</h2>
          <p>Ask questions about your documents and get answers with page citations.</p>
          <Link to="/app/chat">Start chatting</Link>
        </article>

        <article className="hub-card">
          <h2>Preferences</h2>
          <p>Manage your profile, password and subscription.</p>
          <Link to="/app/settings">Open preferences</Link>
        </article>
      </div>
    </main>
  );
}
