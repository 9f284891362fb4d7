// Proves the accounts API end to end through the Worker: sign-up/sign-in rules and
// messages (spec section 5), tokens (missing, malformed, expired, tampered,
// revoked), profile, password change, referrals, rate limits, security headers
// and that one user cannot see or change another's data. It does not cover the
// Google sign-in (its own issue).
import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../worker/contract/messages";
import { PBKDF2_ITERATIONS, hashPassword, verifyPassword } from "../../worker/lib/passwords";
import { GOOD_PASSWORD, call, freshRateWindow, newUser, uniqueEmail } from "../helpers/api";

describe("health and headers", () => {
  it("answers health with status ok and security headers", async () => {
    const res = await call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("answers unknown API paths with a JSON 404 and headers", async () => {
    const res = await call("GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ status: "error", message: MESSAGES.notFound });
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("answers malformed JSON with a clear 400, not a 500", async () => {
    const res = await call("POST", "/api/auth/signin", { rawBody: "{not json" });
    expect(res.status).toBe(400);
    expect(res.json.status).toBe("error");
    expect(res.json.message).toBe(MESSAGES.invalidJson);
  });

  it("answers a JSON body that is no object (an array, null, a string) with a clear 400", async () => {
    for (const rawBody of ["[]", "null", '"hello"', "42"]) {
      const res = await call("POST", "/api/auth/signin", { rawBody });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ status: "error", message: MESSAGES.jsonObjectRequired });
    }
  });
});

describe("sign-up", () => {
  it("creates the account and returns status, user and token", async () => {
    const email = uniqueEmail("signup");
    const res = await call("POST", "/api/auth/signup", { body: { email, password: GOOD_PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.json.status).toBe("success");
    expect(res.json.user).toMatchObject({ email, name: "", phone: "" });
    expect(res.json.user).not.toHaveProperty("passwordHash");
    expect(res.json.token.split(".")).toHaveLength(3);

    const row = await env.DB.prepare("SELECT email, password_hash FROM users WHERE email = ?")
      .bind(email)
      .first<{ password_hash: string }>();
    expect(row?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(row?.password_hash).not.toContain(GOOD_PASSWORD);
  });

  it.each([
    [{ password: GOOD_PASSWORD }, MESSAGES.emailRequired],
    [{ email: "", password: GOOD_PASSWORD }, MESSAGES.emailRequired],
    [{ email: "not-an-email", password: GOOD_PASSWORD }, MESSAGES.emailInvalid],
    [{ email: "a@b", password: GOOD_PASSWORD }, MESSAGES.emailInvalid],
    [{ email: "ok@example.com" }, MESSAGES.passwordRequired],
    [{ email: "ok@example.com", password: "" }, MESSAGES.passwordRequired],
    [{ email: "ok@example.com", password: "Ab1" }, MESSAGES.passwordMin],
    [{ email: "ok@example.com", password: "lowercase1" }, MESSAGES.passwordUppercase],
    [{ email: "ok@example.com", password: "NoDigitsHere" }, MESSAGES.passwordNumber],
  ])("rejects %j with %s", async (body, message) => {
    const res = await call("POST", "/api/auth/signup", { body });
    expect(res.status).toBe(400);
    expect(res.json.status).toBe("error");
    expect(res.json.message).toBe(message);
  });

  it("rejects a duplicate e-mail, compared case-insensitively", async () => {
    const email = uniqueEmail("dup");
    expect((await call("POST", "/api/auth/signup", { body: { email, password: GOOD_PASSWORD } })).status).toBe(201);
    const again = await call("POST", "/api/auth/signup", { body: { email: email.toUpperCase(), password: GOOD_PASSWORD } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ status: "error", message: MESSAGES.emailTaken });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});

describe("sign-in", () => {
  it("signs in with the right password, whatever the e-mail's case", async () => {
    const { email } = await newUser("signin");
    const res = await call("POST", "/api/auth/signin", { body: { email: `  ${email.toUpperCase()} `, password: GOOD_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("success");
    expect(res.json.user.email).toBe(email);
    const me = await call("GET", "/api/getUserInfo", { token: res.json.token });
    expect(me.json.data.email).toBe(email);
  });

  it("gives the same message for a wrong password and an unknown e-mail", async () => {
    const { email } = await newUser("wrongpw");
    const wrong = await call("POST", "/api/auth/signin", { body: { email, password: "Wrong1234" } });
    const unknown = await call("POST", "/api/auth/signin", { body: { email: uniqueEmail("ghost"), password: "Wrong1234" } });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.json).toEqual({ status: "error", message: MESSAGES.invalidCredentials });
    expect(unknown.json).toEqual(wrong.json);
  });

  it.each([
    [{ email: "x@example.com" }, MESSAGES.passwordRequired],
    [{ email: "x@example.com", password: "short" }, MESSAGES.passwordMin],
    [{ password: "whatever1" }, MESSAGES.emailRequired],
  ])("validates %j with %s", async (body, message) => {
    const res = await call("POST", "/api/auth/signin", { body });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
  });

  it("keeps a rememberMe session for 30 days and a normal one for a day", async () => {
    const { email } = await newUser("remember");
    const before = Date.now();
    const long = await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD, rememberMe: true } });
    const short = await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD } });
    const exp = (token: string) => JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).exp * 1000;
    expect(exp(long.json.token) - before).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(exp(short.json.token) - before).toBeLessThan(25 * 3600 * 1000);
  });

  it("rate-limits repeated sign-in attempts for one e-mail with a 429 and a message", async () => {
    const email = uniqueEmail("limited");
    await freshRateWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await call("POST", "/api/auth/signin", { body: { email, password: "Wrong1234" } });
      statuses.push(res.status);
      if (res.status === 429) expect(res.json).toEqual({ status: "error", message: MESSAGES.tooManyAttempts });
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("rate-limits sign-ups from one IP", async () => {
    const ip = "203.0.113.77";
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (await call("POST", "/api/auth/signup", { ip, body: { email: uniqueEmail("burst"), password: "weak" } })).status;
      if (last === 429) break;
    }
    // Invalid bodies never reach the limiter; valid ones do.
    expect(last).toBe(400);
    // 21 sign-ups: even if the limiter's 60 s window turns over once during the burst,
    // one window sees more than 10 of them and refuses
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push(
        (await call("POST", "/api/auth/signup", { ip, body: { email: uniqueEmail("burst"), password: GOOD_PASSWORD } })).status,
      );
    expect(statuses).toContain(429);
    expect(new Set(statuses)).toEqual(new Set([201, 429]));
  });
});

describe("tokens", () => {
  async function expect401(token: string | undefined, header?: string) {
    const res = await call("GET", "/api/getUserInfo", { token, headers: header ? { Authorization: header } : {} });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ status: "error", message: MESSAGES.unauthorized });
  }

  it("rejects missing and malformed tokens", async () => {
    await expect401(undefined);
    await expect401(undefined, "Bearer");
    await expect401(undefined, "Basic abc");
    await expect401("not.a.jwt");
    await expect401("garbage");
  });

  it("rejects a tampered token", async () => {
    const { token } = await newUser("tamper");
    const [h, p, s] = token.split(".");
    const payload = JSON.parse(atob(p!.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = btoa(JSON.stringify({ ...payload, email: "boss@example.com" }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    await expect401(`${h}.${forged}.${s}`);
    await expect401(`${h}.${p}.${s!.slice(0, -2)}${s!.endsWith("AA") ? "BB" : "AA"}`);
  });

  it("rejects a token signed with another secret", async () => {
    const { user } = await newUser("othersecret");
    const token = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setJti(crypto.randomUUID())
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("a-completely-different-secret-of-enough-length"));
    await expect401(token);
  });

  it("rejects an expired token and an expired session", async () => {
    const { user, token } = await newUser("expired");
    const jti = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti;
    const expiredJwt = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setJti(jti)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(env.JWT_SECRET!));
    await expect401(expiredJwt);

    await env.DB.prepare("UPDATE auth_sessions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, jti)
      .run();
    await expect401(token);
  });

  it("rejects a correctly signed token without an expiry, even for a live session", async () => {
    const { user, token } = await newUser("noexp");
    const jti = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti;
    const forever = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setJti(jti)
      .sign(new TextEncoder().encode(env.JWT_SECRET!));
    await expect401(forever);
    expect((await call("GET", "/api/getUserInfo", { token })).status).toBe(200);
  });

  it("sign-out revokes the token; other sessions stay signed in", async () => {
    const { email, token } = await newUser("signout");
    const second = await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD } });
    const out = await call("POST", "/api/auth/signout", { token });
    expect(out.status).toBe(200);
    expect(out.json.status).toBe("success");
    await expect401(token);
    expect((await call("GET", "/api/getUserInfo", { token: second.json.token })).status).toBe(200);
  });
});

describe("profile", () => {
  it("returns email, name and phone, and saves the name", async () => {
    const { email, token } = await newUser("profile");
    const before = await call("GET", "/api/getUserInfo", { token });
    expect(before.json).toEqual({ data: { email, name: "", phone: "" } });

    const saved = await call("POST", "/api/saveUserInfo", { token, body: { name: "Ada Lovelace", phone: "+1 555 123 4567" } });
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({ status: "success", message: "User info updated successfully." });
    const after = await call("GET", "/api/getUserInfo", { token });
    expect(after.json.data).toEqual({ email, name: "Ada Lovelace", phone: "+1 555 123 4567" });

    // Saving only the name keeps the phone; hidden characters are not kept ("\u202e" would show it reversed).
    await call("POST", "/api/saveUserInfo", { token, body: { name: "A\u202eda\u0007" } });
    expect((await call("GET", "/api/getUserInfo", { token })).json.data).toEqual({ email, name: "Ada", phone: "+1 555 123 4567" });
  });

  it.each([
    [{ name: "" }, "Name is required."],
    [{ name: "   " }, "Name is required."],
    [{ name: "\u202e\u0000 " }, "Name is required."],
    [{}, "Name is required."],
    [{ name: "Bob", phone: "" }, "Phone number is required."],
    [{ name: "Bob", phone: "call me" }, MESSAGES.phoneInvalid],
  ])("rejects %j with %s", async (body, message) => {
    const { token } = await newUser("profilebad");
    const res = await call("POST", "/api/saveUserInfo", { token, body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "error", message });
  });

  it("cannot change the e-mail through saveUserInfo", async () => {
    const { email, token } = await newUser("immutable");
    await call("POST", "/api/saveUserInfo", { token, body: { name: "Eve", email: "eve@evil.example" } });
    expect((await call("GET", "/api/getUserInfo", { token })).json.data.email).toBe(email);
  });

  it("one user can neither read nor change another's profile", async () => {
    const alice = await newUser("alice");
    const bob = await newUser("bob");
    await call("POST", "/api/saveUserInfo", { token: alice.token, body: { name: "Alice" } });
    await call("POST", "/api/saveUserInfo", { token: bob.token, body: { name: "Bob", userId: alice.user.id } });
    const aliceInfo = await call("GET", "/api/getUserInfo", { token: alice.token });
    const bobInfo = await call("GET", "/api/getUserInfo", { token: bob.token });
    expect(aliceInfo.json.data).toMatchObject({ email: alice.email, name: "Alice" });
    expect(bobInfo.json.data).toMatchObject({ email: bob.email, name: "Bob" });
    expect(JSON.stringify(bobInfo.json)).not.toContain(alice.email);
  });
});

describe("password change", () => {
  it.each([
    [{ new_password: "NewSecret1" }, "Old password is required."],
    [{ current_password: "short", new_password: "NewSecret1" }, "Password must be at least 8 characters."],
    [{ current_password: GOOD_PASSWORD }, "New password is required."],
    [{ current_password: GOOD_PASSWORD, new_password: "Sh0rt" }, "Password must be at least 8 characters."],
    [{ current_password: GOOD_PASSWORD, new_password: "nouppercase1" }, MESSAGES.passwordUppercase],
    [{ current_password: GOOD_PASSWORD, new_password: "NoNumberHere" }, MESSAGES.passwordNumber],
  ])("rejects %j with %s", async (body, message) => {
    const { token } = await newUser("pwbad");
    const res = await call("POST", "/api/auth/password", { token, body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "error", message });
  });

  it("rejects a wrong old password and keeps the old one working", async () => {
    const { email, token } = await newUser("pwwrong");
    const res = await call("POST", "/api/auth/password", { token, body: { current_password: "Wrong1234", new_password: "NewSecret1" } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(MESSAGES.oldPasswordWrong);
    expect((await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD } })).status).toBe(200);
  });

  it("changes the password, keeps this session and signs out the others", async () => {
    const { email, token } = await newUser("pwchange");
    const other = await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD } });
    const res = await call("POST", "/api/auth/password", { token, body: { current_password: GOOD_PASSWORD, new_password: "NewSecret1" } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success", message: "Password changed successfully." });

    expect((await call("GET", "/api/getUserInfo", { token })).status).toBe(200);
    expect((await call("GET", "/api/getUserInfo", { token: other.json.token })).status).toBe(401);
    expect((await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD } })).status).toBe(400);
    expect((await call("POST", "/api/auth/signin", { body: { email, password: "NewSecret1" } })).status).toBe(200);
  });

  it("lets one of two changes at once win; the other is told the current password is no longer right", async () => {
    const { email, token } = await newUser("pwrace");
    const other = (await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD } })).json.token as string;
    const [a, b] = await Promise.all([
      call("POST", "/api/auth/password", { token, body: { current_password: GOOD_PASSWORD, new_password: "Aaaaaaa111" } }),
      call("POST", "/api/auth/password", { token: other, body: { current_password: GOOD_PASSWORD, new_password: "Bbbbbbb222" } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const [won, lost, wonToken, password] = a.status === 200 ? [a, b, token, "Aaaaaaa111"] : [b, a, other, "Bbbbbbb222"];
    expect(won.json.message).toBe("Password changed successfully.");
    expect(lost.json.message).toBe(MESSAGES.oldPasswordWrong);
    // the winner's password is the one in effect, and the winner stays signed in
    expect((await call("POST", "/api/auth/signin", { body: { email, password } })).status).toBe(200);
    expect((await call("GET", "/api/getUserInfo", { token: wonToken })).status).toBe(200);
  });

  it("requires a signed-in caller", async () => {
    const res = await call("POST", "/api/auth/password", { body: { current_password: GOOD_PASSWORD, new_password: "NewSecret1" } });
    expect(res.status).toBe(401);
  });
});

describe("referrals", () => {
  it("gives an absolute register link and records the referrer of a sign-up through it", async () => {
    const referrer = await newUser("referrer");
    const res = await call("GET", "/api/getReferralLink", { token: referrer.token });
    expect(res.status).toBe(200);
    const link = new URL(res.json.referral_link);
    expect(link.origin).toBe("http://localhost");
    expect(link.pathname).toBe("/app/auth/register");
    const code = link.searchParams.get("ref");
    expect(code).toMatch(/^[A-Z0-9]{10}$/);

    const email = uniqueEmail("referred");
    await call("POST", "/api/auth/signup", { body: { email, password: GOOD_PASSWORD, referralCode: code } });
    const row = await env.DB.prepare("SELECT referred_by FROM users WHERE email = ?").bind(email).first<{ referred_by: string }>();
    expect(row?.referred_by).toBe(referrer.user.id);
  });

  it("signs up normally with an unknown referral code", async () => {
    const email = uniqueEmail("badref");
    const res = await call("POST", "/api/auth/signup", { body: { email, password: GOOD_PASSWORD, referralCode: "NOSUCHCODE" } });
    expect(res.status).toBe(201);
    const row = await env.DB.prepare("SELECT referred_by FROM users WHERE email = ?").bind(email).first<{ referred_by: string | null }>();
    expect(row?.referred_by).toBeNull();
  });

  it("each user gets their own code", async () => {
    const a = await call("GET", "/api/getReferralLink", { token: (await newUser("ra")).token });
    const b = await call("GET", "/api/getReferralLink", { token: (await newUser("rb")).token });
    expect(a.json.referral_link).not.toBe(b.json.referral_link);
  });
});

describe("password hashing", () => {
  it("pins PBKDF2 at the production Workers cap of 100,000 iterations", async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const stored = await hashPassword("Secret123");
    expect(stored.split("$")[1]).toBe("100000");
    expect(await verifyPassword("Secret123", stored)).toBe(true);
    expect(await verifyPassword("Secret124", stored)).toBe(false);
  });

  it("refuses stored hashes above the cap or malformed, instead of throwing", async () => {
    const stored = await hashPassword("Secret123");
    expect(await verifyPassword("Secret123", stored.replace("$100000$", "$100001$"))).toBe(false);
    expect(await verifyPassword("Secret123", "plain-text")).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("Secret123")).not.toBe(await hashPassword("Secret123"));
  });
});
