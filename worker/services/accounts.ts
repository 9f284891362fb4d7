// Accounts: sign-up, sign-in, auth sessions, profile, password change, referrals.
import { and, eq, gt, inArray, isNull, ne } from "drizzle-orm";
import { MESSAGES } from "../contract/messages";
import { authSessions, users } from "../db/schema";
import { ApiError } from "../errors";
import { hashPassword, verifyPassword } from "../lib/passwords";
import { REMEMBER_ME_TTL_MS, SESSION_TTL_MS, readToken, signToken } from "../lib/tokens";
import type { User } from "../contract/validation";
import { library, type LibraryBinding } from "../library/stub";
import type { DbDeps } from "./deps";
import { isUniqueViolation } from "../db/unique";

export type UserRow = typeof users.$inferSelect;

/** The user as the API shows them. */
function toPublicUser(row: UserRow): User {
  return { id: row.id, email: row.email, name: row.name, phone: row.phone, picture: row.picture };
}

// Hash of a random password: verifying against it when the e-mail is unknown keeps
// sign-in timing the same whether or not the account exists.
let decoyHash: Promise<string> | undefined;

const REFERRAL_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export function newReferralCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (b) => REFERRAL_ALPHABET[b % REFERRAL_ALPHABET.length]).join("");
}

/** What the account services need: the database, and the secret tokens are signed with. */
export interface AccountDeps extends DbDeps {
  jwtSecret: string | undefined;
}

export interface SignedIn {
  user: User;
  token: string;
}

export async function startSession(
  { db, jwtSecret }: AccountDeps,
  { user, rememberMe = false }: { user: UserRow; rememberMe?: boolean },
): Promise<SignedIn> {
  const jti = crypto.randomUUID();
  const expiresAt = Date.now() + (rememberMe ? REMEMBER_ME_TTL_MS : SESSION_TTL_MS);
  await db.insert(authSessions).values({ id: jti, userId: user.id, expiresAt });
  const token = await signToken(jwtSecret, { sub: user.id, email: user.email, jti }, expiresAt);
  return { user: toPublicUser(user), token };
}

export async function signUp(deps: AccountDeps, input: { email: string; password: string; referralCode?: string }): Promise<SignedIn> {
  const { db } = deps;
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).get();
  if (existing) throw new ApiError(409, MESSAGES.emailTaken, { email: MESSAGES.emailTaken });

  // An unknown referral code never blocks a sign-up; it is simply not recorded.
  const referrer = input.referralCode
    ? await db.select({ id: users.id }).from(users).where(eq(users.referralCode, input.referralCode.toUpperCase())).get()
    : undefined;

  const row = {
    id: crypto.randomUUID(),
    email: input.email,
    passwordHash: await hashPassword(input.password),
    referralCode: newReferralCode(),
    referredBy: referrer?.id ?? null,
  };
  let created: UserRow | undefined;
  try {
    created = await db.insert(users).values(row).returning().get();
  } catch (err) {
    // Two sign-ups racing for one e-mail: the unique index decides.
    if (isUniqueViolation(err)) throw new ApiError(409, MESSAGES.emailTaken, { email: MESSAGES.emailTaken });
    throw err;
  }
  return startSession(deps, { user: created });
}

export async function signIn(deps: AccountDeps, input: { email: string; password: string; rememberMe?: boolean }): Promise<SignedIn> {
  const user = await deps.db.select().from(users).where(eq(users.email, input.email)).get();
  if (!user?.passwordHash) {
    decoyHash ??= hashPassword(crypto.randomUUID());
    await verifyPassword(input.password, await decoyHash);
    throw new ApiError(400, MESSAGES.invalidCredentials);
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) throw new ApiError(400, MESSAGES.invalidCredentials);
  return startSession(deps, { user, rememberMe: input.rememberMe });
}

/** The caller behind a bearer token: valid signature, unexpired, session not revoked, user present. */
export async function authenticate({ db, jwtSecret }: AccountDeps, { token }: { token: string }) {
  const claims = await readToken(jwtSecret, token);
  if (!claims) return null;
  const row = await sessionUser({ db }, { userId: claims.sub, authSessionId: claims.jti });
  return row ? { id: row.id, email: row.email, sessionId: claims.jti, expiresAt: claims.expiresAt } : null;
}

/** The user of a signed-in session that is still live (not revoked, unexpired, user present), and when the session expires. */
export async function sessionUser({ db }: DbDeps, { userId, authSessionId }: { userId: string; authSessionId: string }) {
  return db
    .select({ id: users.id, email: users.email, expiresAt: authSessions.expiresAt })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(
      and(
        eq(authSessions.id, authSessionId),
        eq(authSessions.userId, userId),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, Date.now()),
      ),
    )
    .get();
}

/** The query behind liveSessions, for a caller that sends it in one D1 batch with others. */
export const liveSessionsQuery = ({ db }: DbDeps, { sessionIds }: { sessionIds: readonly string[] }) =>
  db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(and(inArray(authSessions.id, [...sessionIds]), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, Date.now())));

/** Which of these signed-in sessions are still valid (not revoked, not expired, user present). */
export async function liveSessions(deps: DbDeps, { sessionIds }: { sessionIds: readonly string[] }): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  return new Set((await liveSessionsQuery(deps, { sessionIds }).all()).map((r) => r.id));
}

/**
 * Sign-out and password change tell the user's Library first (a chat admits a
 * question by asking the Library alone), then D1: should D1 fail, the session is
 * still live there and signing out again works.
 */
export interface SignOutDeps extends DbDeps, LibraryBinding {}

export async function signOut(
  { db, LIBRARY }: SignOutDeps,
  session: { userId: string; sessionId: string; expiresAt: number },
): Promise<void> {
  await library({ LIBRARY }, session.userId).signOut([{ id: session.sessionId, expiresAt: session.expiresAt }]);
  await db.update(authSessions).set({ revokedAt: Date.now() }).where(eq(authSessions.id, session.sessionId));
}

export async function getUserInfo({ db }: DbDeps, { userId }: { userId: string }) {
  const row = await db
    .select({ email: users.email, name: users.name, phone: users.phone, picture: users.picture })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!row) throw new ApiError(404, MESSAGES.notFound);
  return row;
}

export async function saveUserInfo({ db }: DbDeps, { userId, ...input }: { userId: string; name: string; phone?: string }): Promise<void> {
  await db
    .update(users)
    .set(input.phone === undefined ? { name: input.name } : { name: input.name, phone: input.phone })
    .where(eq(users.id, userId));
}

/** Changes the password and signs out every other session of this user. */
export async function changePassword(
  { db, LIBRARY }: SignOutDeps,
  input: { userId: string; sessionId: string; current_password: string; new_password: string },
): Promise<void> {
  const caller = { id: input.userId, sessionId: input.sessionId };
  const user = await db.select().from(users).where(eq(users.id, caller.id)).get();
  if (!user?.passwordHash || !(await verifyPassword(input.current_password, user.passwordHash))) {
    throw new ApiError(400, MESSAGES.oldPasswordWrong, { current_password: MESSAGES.oldPasswordWrong });
  }
  if (input.current_password === input.new_password) {
    throw new ApiError(400, MESSAGES.newPasswordSameAsOld, { new_password: MESSAGES.newPasswordSameAsOld });
  }
  const passwordHash = await hashPassword(input.new_password);
  // only over the password just checked: two changes at once (two sessions, two tabs) cannot both
  // succeed, the second finds the current password no longer current
  const changed = await db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, caller.id), eq(users.passwordHash, user.passwordHash)))
    .run();
  if (changed.meta.changes === 0) throw new ApiError(400, MESSAGES.oldPasswordWrong, { current_password: MESSAGES.oldPasswordWrong });
  const others = await db
    .select({ id: authSessions.id, expiresAt: authSessions.expiresAt })
    .from(authSessions)
    .where(and(eq(authSessions.userId, caller.id), ne(authSessions.id, caller.sessionId), isNull(authSessions.revokedAt)))
    .all();
  await library({ LIBRARY }, caller.id).signOut(others);
  await db
    .update(authSessions)
    .set({ revokedAt: Date.now() })
    .where(and(eq(authSessions.userId, caller.id), ne(authSessions.id, caller.sessionId), isNull(authSessions.revokedAt)));
}

export async function referralLink({ db }: DbDeps, { userId, appOrigin }: { userId: string; appOrigin: string }): Promise<string> {
  const row = await db.select({ code: users.referralCode }).from(users).where(eq(users.id, userId)).get();
  if (!row) throw new ApiError(404, MESSAGES.notFound);
  const url = new URL("/app/auth/register", appOrigin);
  url.searchParams.set("ref", row.code);
  return url.toString();
}
