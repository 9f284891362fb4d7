// Optional secrets that switch a capability from its local default to the real
// service. They are set with `wrangler secret put`, so `wrangler types` cannot
// see them; this is their one typed entry point.
export interface OptionalSecrets {
  R2_ACCOUNT_ID?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
  R2_BUCKET_NAME?: string;
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** overridable Google endpoint bases (defaults: Google's own) */
  GOOGLE_AUTH_URL?: string;
  GOOGLE_TOKEN_URL?: string;
  GOOGLE_USERINFO_URL?: string;
  GOOGLE_REVOKE_URL?: string;
  GOOGLE_DRIVE_API?: string;
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** overridable Stripe API base, e.g. a mock in tests (default: Stripe's own) */
  STRIPE_API_BASE?: string;
}

export function optionalSecrets(env: Env): OptionalSecrets {
  return env as unknown as OptionalSecrets;
}
