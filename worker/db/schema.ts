// D1 schema (DESIGN.md section 3): what is global. Each user's chunks and their
// full-text index live in that user's Library Durable Object (worker/library/).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(unixepoch() * 1000)`;

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(), // always stored lower-cased
    name: text("name").notNull().default(""),
    phone: text("phone").notNull().default(""),
    picture: text("picture"),
    passwordHash: text("password_hash"), // null for Google-only accounts
    googleSub: text("google_sub"),
    referralCode: text("referral_code").notNull(),
    referredBy: text("referred_by"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_referral_code_unique").on(t.referralCode),
    uniqueIndex("users_google_sub_unique").on(t.googleSub),
  ],
);

export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(), // the JWT's jti
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

/** A user's folder of documents in My Files (names unique per user, case-insensitive). */
export const folders = sqliteTable(
  "folders",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("folders_user_name_unique").on(t.userId, sql`${t.name} COLLATE NOCASE`)],
);

export const documents = sqliteTable(
  "documents",
  {
    id: text("id").primaryKey(), // the spec's fileId
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    fileHash: text("file_hash"), // SHA-256 of the content, known once uploaded
    r2Key: text("r2_key").notNull(),
    sizeBytes: integer("size_bytes"),
    pageCount: integer("page_count"),
    indexedPages: integer("indexed_pages").notNull().default(0),
    status: text("status", { enum: ["uploading", "pending", "processing", "needs_ocr", "indexed", "failed"] })
      .notNull()
      .default("uploading"),
    error: text("error"),
    /** pages (1-based) waiting for text recognition in the owner's browser (status needs_ocr) */
    ocrPages: text("ocr_pages", { mode: "json" }).$type<number[]>().notNull().default([]),
    source: text("source", { enum: ["upload", "drive"] })
      .notNull()
      .default("upload"),
    driveFileId: text("drive_file_id"),
    /** the folder in My Files; null = top level (a deleted folder's files go back there) */
    folderId: text("folder_id").references(() => folders.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull().default(now),
    lastOpenedAt: integer("last_opened_at"),
  },
  (t) => [
    index("documents_folder_idx").on(t.folderId),
    uniqueIndex("documents_user_hash_unique").on(t.userId, t.fileHash),
    uniqueIndex("documents_r2_key_unique").on(t.r2Key),
    index("documents_user_created_idx").on(t.userId, t.createdAt),
    // the every-minute recovery's owners of documents still being indexed (ingest/recovery.ts): only those rows
    index("documents_indexing_user_idx")
      .on(t.userId, t.status)
      .where(sql`status IN ('pending', 'processing')`),
  ],
);

/**
 * An upload's file_hash from the moment it is claimed for indexing until the Queue consumer has
 * hashed its bytes (ingest/upload-content.ts): unique per upload, so My Files shows the row (spec:
 * rows without a hash are hidden unless uploading or processing) and can delete it by this key.
 */
export const CLAIMED_HASH_PREFIX = "upload:";

/** Whether a document's bytes were hashed yet (a claimed upload's key is no hash). */
export const hashed = (fileHash: string | null) => Boolean(fileHash) && !fileHash!.startsWith(CLAIMED_HASH_PREFIX);

/** A row of the documents catalogue. */
export type DocumentRow = typeof documents.$inferSelect;

export const chats = sqliteTable(
  "chats",
  {
    sessionId: text("session_id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    summary: text("summary").notNull().default(""),
    /** the chat's questions and answers, for the owner's history search (capped; see services/chat-search.ts) */
    searchText: text("search_text").notNull().default(""),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("chats_user_updated_idx").on(t.userId, t.updatedAt)],
);

/** A chat scoped to a folder (its ChatSession keeps the same): whom a move in or out of the folder tells. */
export const chatFolders = sqliteTable(
  "chat_folders",
  {
    sessionId: text("session_id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    folderId: text("folder_id")
      .notNull()
      .references(() => folders.id, { onDelete: "cascade" }),
  },
  (t) => [index("chat_folders_folder_idx").on(t.folderId)],
);

export const chatShares = sqliteTable(
  "chat_shares",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => chats.sessionId, { onDelete: "cascade" }),
    email: text("email").notNull(),
    invitedBy: text("invited_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
    revokedAt: integer("revoked_at"),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.email] }), index("chat_shares_email_idx").on(t.email)],
);

export const driveConnections = sqliteTable("drive_connections", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  accessToken: text("access_token").notNull(), // AES-GCM ciphertext
  refreshToken: text("refresh_token"), // AES-GCM ciphertext
  expiresAt: integer("expires_at").notNull(),
  scope: text("scope").notNull(),
  connectedAt: integer("connected_at").notNull().default(now),
});

export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  price: real("price").notNull(), // dollars
  period: text("period", { enum: ["month", "year"] }).notNull(),
  buttonText: text("button_text").notNull(),
  features: text("features", { mode: "json" }).$type<string[]>().notNull(),
  note: text("note"),
  popular: integer("popular", { mode: "boolean" }).notNull().default(false),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: text("plan_id").references(() => plans.id),
    status: text("status", { enum: ["active", "cancelling", "canceled", "past_due", "none"] })
      .notNull()
      .default("none"),
    currentPeriodEnd: integer("current_period_end"),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    // Stripe event time of the state we hold, so an older out-of-order event cannot overwrite it.
    stateAt: integer("state_at").notNull().default(0),
    // The one checkout this user may still pay; opening another expires it, so two tabs cannot both be paid.
    openCheckoutId: text("open_checkout_id"),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [uniqueIndex("subscriptions_stripe_sub_unique").on(t.stripeSubscriptionId)],
);

export const webhookEvents = sqliteTable("webhook_events", {
  id: text("id").primaryKey(), // Stripe event id
  type: text("type").notNull(),
  receivedAt: integer("received_at").notNull().default(now),
});

export const contactMessages = sqliteTable("contact_messages", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull(),
  mobile: text("mobile"),
  category: text("category", { enum: ["general", "technical", "billing", "feature"] }).notNull(),
  message: text("message").notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    kind: text("kind", { enum: ["memo", "share", "contact"] }).notNull(),
    // who had it sent (memo, share); the daily caps count by sender and by recipient
    senderId: text("sender_id"),
    status: text("status", { enum: ["queued", "sent", "failed"] })
      .notNull()
      .default("queued"),
    error: text("error"),
    textBody: text("text_body").notNull().default(""),
    htmlBody: text("html_body").notNull().default(""),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("email_outbox_created_idx").on(t.createdAt),
    index("email_outbox_sender_idx").on(t.senderId, t.createdAt),
    index("email_outbox_to_idx").on(t.to, t.createdAt),
  ],
);

/** One row per OAuth authorization started: the state nonce, its PKCE verifier, single use. */
export const oauthStates = sqliteTable("oauth_states", {
  nonce: text("nonce").primaryKey(),
  action: text("action", { enum: ["signin", "connect"] }).notNull(),
  userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
  redirectPath: text("redirect_path"),
  codeVerifier: text("code_verifier").notNull(),
  createdAt: integer("created_at").notNull().default(now),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

/**
 * An upload dropped because its content was already in My Files: its key still
 * names the existing document, so a chat that attaches it by `s3_key` finds it,
 * and so does the upload's own document id (the fileId its index call answered
 * before the indexer found the duplicate), so a chat or a status question that
 * holds that id gets the existing document.
 */
export const uploadAliases = sqliteTable(
  "upload_aliases",
  {
    r2Key: text("r2_key").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    /** the dropped upload's own document id (null for aliases made before the indexer found duplicates) */
    uploadId: text("upload_id"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("upload_aliases_document_idx").on(t.documentId), index("upload_aliases_upload_idx").on(t.uploadId)],
);

/**
 * A document's overview (contract/overview.ts), computed once by the indexer: its own table, so
 * My Files' list reads of `documents` do not carry it. Its page count is the document row's.
 */
export const documentOverviews = sqliteTable("document_overviews", {
  documentId: text("document_id")
    .primaryKey()
    .references(() => documents.id, { onDelete: "cascade" }),
  outline: text("outline", { mode: "json" }).$type<{ title: string; page: number; level: number }[]>().notNull(),
  summary: text("summary").notNull(),
  questions: text("questions", { mode: "json" }).$type<string[]>().notNull(),
  createdAt: integer("created_at").notNull().default(now),
});
