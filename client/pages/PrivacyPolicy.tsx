import { Link } from "react-router-dom";

export default function PrivacyPolicy() {
  return (
    <main className="page legal">
      <h1>Privacy Policy</h1>
      <p>Last updated: April 15, 2025</p>

      <section>
        <h2>1. Definitions</h2>
        <ul>
          <li>
            <strong>"DocChat", "we", "us"</strong> means DocChat Inc., the provider and data controller of the Service.
          </li>
          <li>
            <strong>"Service"</strong> means the DocChat website, web application and related services.
          </li>
          <li>
            <strong>"You"</strong> means the individual using the Service.
          </li>
          <li>
            <strong>"Personal data"</strong> means any information that identifies you or can reasonably be linked to you.
          </li>
          <li>
            <strong>"Documents"</strong> means the PDF files you upload or import from Google Drive, and the content derived from them.
          </li>
        </ul>
      </section>

      <section>
        <h2>2. Data We Collect</h2>
        <ul>
          <li>
            <strong>Account data:</strong> your name, e-mail address and, if you sign in with Google, your Google profile identifier and
            picture.
          </li>
          <li>
            <strong>Documents and chats:</strong> the PDFs you upload or import, the text we extract from them, your questions, the AI's
            answers and any chats you share or e-mail.
          </li>
          <li>
            <strong>Google Drive data:</strong> only the files you choose to import, accessed with read-only permission. We only read and
            download files from your connected Google Drive to provide AI insights; we never edit or delete them.
          </li>
          <li>
            <strong>Billing data:</strong> your subscription plan, status and payment history. Card details are handled by Stripe and are
            never stored by us.
          </li>
          <li>
            <strong>Technical data:</strong> IP address, browser type, device information and basic usage logs needed to run and secure the
            Service.
          </li>
        </ul>
      </section>

      <section>
        <h2>3. How We Use Your Data</h2>
        <ul>
          <li>to provide the Service, including indexing your documents and answering your questions with page citations;</li>
          <li>to manage your account, subscription and payments;</li>
          <li>to send chat memos you request and important service notices;</li>
          <li>to keep the Service secure, prevent abuse and fix problems;</li>
          <li>to comply with legal obligations.</li>
        </ul>
        <p>We do not sell your personal data, and we do not use your documents or chats to train AI models.</p>
      </section>

      <section>
        <h2>4. Legal Basis for Processing (GDPR)</h2>
        <p>
          If you are in the European Economic Area, the United Kingdom or Switzerland, we process your personal data on these legal bases:
        </p>
        <ul>
          <li>
            <strong>Contract:</strong> to provide the Service you signed up for, including processing your documents and managing your
            subscription.
          </li>
          <li>
            <strong>Legitimate interests:</strong> to secure, maintain and improve the Service, where those interests are not overridden by
            your rights.
          </li>
          <li>
            <strong>Consent:</strong> for connecting Google Drive and for optional communications; you can withdraw consent at any time.
          </li>
          <li>
            <strong>Legal obligation:</strong> to keep records required by tax and accounting laws.
          </li>
        </ul>
      </section>

      <section>
        <h2>5. Your Rights (GDPR and CCPA)</h2>
        <p>Depending on where you live, you may have the right to:</p>
        <ul>
          <li>access the personal data we hold about you and receive a copy;</li>
          <li>correct inaccurate data;</li>
          <li>delete your data;</li>
          <li>restrict or object to certain processing;</li>
          <li>receive your data in a portable format;</li>
          <li>withdraw consent where processing is based on consent;</li>
          <li>lodge a complaint with your local data protection authority.</li>
        </ul>
        <p>
          California residents have the right to know what personal information we collect, to request its deletion or correction, and to
          opt out of its sale or sharing. We do not sell or share personal information as those terms are defined by the CCPA, and we will
          not discriminate against you for exercising your rights.
        </p>
        <p>
          To exercise any of these rights, contact us using the details in section 14. We may need to verify your identity before
          responding.
        </p>
      </section>

      <section>
        <h2>6. Data Retention and Deletion</h2>
        <p>
          We keep your account data, documents and chats for as long as your account is active. You can delete individual documents and
          chats at any time, and they are removed from our active systems promptly.
        </p>
        <p>
          When you delete your account, we delete your personal data, documents and chats within 30 days, except for billing records we must
          keep to meet legal obligations. Backups are overwritten on a rolling basis.
        </p>
      </section>

      <section>
        <h2>7. Security</h2>
        <p>
          We protect your data with encryption in transit and at rest, access controls that limit who can reach your data, and monitoring of
          our systems. Documents are only accessible to your account and to people you explicitly share chats with.
        </p>
        <p>
          No system is perfectly secure. If we become aware of a breach affecting your personal data, we will notify you and the relevant
          authorities as required by law.
        </p>
      </section>

      <section>
        <h2>8. Cookies</h2>
        <p>
          We use only cookies and similar storage that are necessary to run the Service, such as keeping you signed in and protecting
          against cross-site request forgery. We do not use advertising or third-party tracking cookies.
        </p>
      </section>

      <section>
        <h2>9. Third-Party Services</h2>
        <p>We rely on a small number of trusted providers to run the Service:</p>
        <ul>
          <li>
            <strong>Cloudflare:</strong> hosting, storage and AI processing of your documents and questions.
          </li>
          <li>
            <strong>Google:</strong> sign-in with your Google account and read-only access to the Google Drive files you choose to import.
          </li>
          <li>
            <strong>Stripe:</strong> subscription payments. Stripe processes your card details directly; we never receive or store them.
          </li>
        </ul>
        <p>
          These providers process data on our behalf under contracts that require them to protect it, or under their own privacy policies
          where they act independently.
        </p>
      </section>

      <section>
        <h2>10. Children's Privacy</h2>
        <p>
          Our service is not intended for children under 13, and we do not knowingly collect their data. If you believe a child under 13 has
          given us personal data, contact us and we will delete it.
        </p>
        <p>Users between 13 and 18 years old may use the service only with the consent of a parent or legal guardian.</p>
      </section>

      <section>
        <h2>11. Do Not Track</h2>
        <p>
          Because we do not track you across third-party websites or serve targeted advertising, we do not change our practices in response
          to browser "Do Not Track" signals.
        </p>
      </section>

      <section>
        <h2>12. International Data Transfers</h2>
        <p>
          Your data is processed in the United States. If you access the Service from outside the United States, your data will be
          transferred there.
        </p>
        <p>
          For transfers from the European Economic Area, the United Kingdom or Switzerland, we rely on appropriate safeguards such as the
          European Commission's Standard Contractual Clauses.
        </p>
      </section>

      <section>
        <h2>13. Changes to This Policy</h2>
        <p>
          We may update this Privacy Policy from time to time. We will revise the "Last updated" date above and, for material changes,
          notify you by e-mail or within the Service before they take effect.
        </p>
      </section>

      <section>
        <h2>14. Contact Us</h2>
        <p>
          For privacy questions or to exercise your rights, e-mail <a href="mailto:support@docchat.app">support@docchat.app</a>, use our{" "}
          <Link to="/app/contact-us">contact form</Link>, or write to us at:
        </p>
        <address>DocChat Inc., 548 Market St, San Francisco, CA 94104, United States</address>
      </section>
    </main>
  );
}
