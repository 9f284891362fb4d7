// Contact Us. The mail issue adds the form; the ways to reach support are here now.
export default function ContactUs() {
  return (
    <main className="page contact-page">
      <h1>Contact Us</h1>
      <p>Questions about your documents, billing or the product? We usually answer within one business day.</p>
      <address className="contact-details">
        <p>
          <strong>Mailing address</strong>
          <br />
          DocChat Inc., 548 Market St, San Francisco, CA 94104, United States
        </p>
        <p>
          <strong>Support e-mail</strong>
          <br />
          <a href="mailto:support@docchat.app">support@docchat.app</a>
        </p>
      </address>
    </main>
  );
}
