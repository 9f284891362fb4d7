export default function SettingsComingSoon() {
  return (
    <main className="page">
      <h1>Settings</h1>
      <h2>Coming Soon</h2>
      <p>We're working on more ways to tailor DocChat to your needs, including:</p>
      <ul>
        <li>API key management</li>
        <li>Theme customization</li>
        <li>AI model configuration</li>
        <li>Usage analytics</li>
      </ul>
    </main>
  );
}
