// One rule for an e-mail address everywhere (sign-up, sign-in, share, contact,
// memo, and the mailer itself): a bare address the mailer can put in a header,
// so an address we accept is one we can send to.

// local part and domain: no spaces, no second @, none of <>,;:"()\[] (display
// names, quoting, routes, groups), and a dotted domain
const ADDRESS = /^[^\s@<>,;:"()\\[\]]+@[^\s@<>,;:"()\\[\]]+\.[^\s@<>,;:"()\\[\]]+$/;
const MAX_LENGTH = 254;
const MAX_LOCAL_PART = 64;

export function isEmailAddress(value: string): boolean {
  if (value.length > MAX_LENGTH || !ADDRESS.test(value)) return false;
  const local = value.slice(0, value.lastIndexOf("@"));
  return local.length <= MAX_LOCAL_PART && !/[\u0000-\u001f\u007f]/.test(value);
}

/** A typed address checked: the address as it is used (trimmed, lowercased), or the message to show. */
export function checkEmailAddress(raw: string, required: string, invalid: string): { email: string } | { error: string } {
  const email = raw.trim();
  if (!email) return { error: required };
  return isEmailAddress(email) ? { email: email.toLowerCase() } : { error: invalid };
}
