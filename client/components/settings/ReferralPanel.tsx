// Referral: the read-only link and Copy ("Copied" for 5 s; disabled with no link).
import { useEffect, useRef, useState } from "react";
import { COPIED_INDICATOR_MS } from "../../lib/constants";
import { loadReferralLink } from "../../state/account";
import { Field } from "../Field";

export function ReferralPanel() {
  const [link, setLink] = useState("");
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    loadReferralLink()
      .then(setLink)
      .catch((err) => console.error("getReferralLink failed", err));
    return () => clearTimeout(timer.current);
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // clipboard blocked (insecure origin): the link stays selectable in the field
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  return (
    <div className="settings-form">
      <h3>Referral</h3>
      <Field label="Your referral link" value={link} readOnly onFocus={(e) => e.target.select()} />
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={copy} disabled={!link}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
