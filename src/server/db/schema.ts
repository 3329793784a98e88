import { sql } from "drizzle-orm";
import { customType, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Money is never a float: VVX in integer micro-units (10^-6), XRP in drops.

/** NFT tiers on sale; seeded with the spec's Genesis and Oasis defaults. */
export const nftTiers = sqliteTable("nft_tiers", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  tier: text("tier").notNull(), // GENESIS | OASIS
  description: text("description").notNull(),
  priceMicroVvx: integer("price_micro_vvx").notNull(),
  /** Monthly ROI in basis points (1000 = 10%). */
  roiMonthlyBp: integer("roi_monthly_bp").notNull(),
  durationMonths: integer("duration_months").notNull(),
  maxSupply: integer("max_supply").notNull(),
  taxonBase: integer("taxon_base").notNull(),
  fullClaimTargetMicroVvx: integer("full_claim_target_micro_vvx").notNull(),
  isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  isPopular: integer("is_popular", { mode: "boolean" }).notNull().default(false),
});

/** NFTs the platform minted, with their current on-ledger owner. */
export const nfts = sqliteTable(
  "nfts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: text("token_id").notNull(),
    tierId: integer("tier_id").notNull().references(() => nftTiers.id),
    number: integer("number").notNull(),
    taxon: integer("taxon").notNull(),
    owner: text("owner").notNull(),
    mintedAt: integer("minted_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("nfts_token_id").on(t.tokenId), uniqueIndex("nfts_tier_number").on(t.tierId, t.number), index("nfts_owner").on(t.owner)],
);

/** Reward payouts made to NFT owners (paid as real VVX payments). */
export const rewardPayouts = sqliteTable(
  "reward_payouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: text("token_id").notNull(),
    wallet: text("wallet").notNull(),
    claimType: text("claim_type").notNull(), // early | full
    amountMicroVvx: integer("amount_micro_vvx").notNull(),
    status: text("status").notNull(), // pending | paid | failed
    txid: text("txid"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index("reward_payouts_wallet").on(t.wallet), index("reward_payouts_token").on(t.tokenId)],
);

// --- Wallet sessions and signing (auth, signing) ---

/** Wallet sessions: the cookie carries a random token; only its SHA-256 is stored. */
export const walletSessions = sqliteTable(
  "wallet_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    wallet: text("wallet").notNull(),
    /** How the wallet proved itself: wallet_connect (SignIn payload) or oauth. */
    source: text("source").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("wallet_sessions_wallet").on(t.wallet), index("wallet_sessions_expires").on(t.expiresAt)],
);

/** Every Xaman sign request the product created, keyed by payload uuid. */
export const signRequests = sqliteTable(
  "sign_requests",
  {
    uuid: text("uuid").primaryKey(),
    /** wallet_connect | push_auth | payment | transaction (features name theirs). */
    kind: text("kind").notNull(),
    /** SHA-256 of the creating browser's binding cookie; only that browser may turn a sign-in into a session. */
    clientHash: text("client_hash"),
    /** The wallet the request acts for, when known (payments). */
    wallet: text("wallet"),
    /** The creating feature's own id (bet id, purchase request id, ...). */
    reference: text("reference"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    /** Set once, when a signed wallet_connect became a session: a sign-in yields one session at most. */
    sessionIssuedAt: integer("session_issued_at", { mode: "timestamp_ms" }),
    signedAccount: text("signed_account"),
  },
  (t) => [index("sign_requests_wallet").on(t.wallet), index("sign_requests_reference").on(t.reference)],
);

/** OAuth2 sign-in attempts: state and PKCE verifier, bound to the creating browser, used once. */
export const oauthSignIns = sqliteTable("oauth_sign_ins", {
  uuid: text("uuid").primaryKey(),
  stateHash: text("state_hash").notNull().unique(),
  clientHash: text("client_hash").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
  wallet: text("wallet"),
});

/** Per-wallet signing settings: push-to-sign and the Xaman user token that makes push possible. */
export const walletSettings = sqliteTable("wallet_settings", {
  wallet: text("wallet").primaryKey(),
  pushToSignEnabled: integer("push_to_sign_enabled", { mode: "boolean" }).notNull().default(false),
  xummUserToken: text("xumm_user_token"),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

// --- Sandbox Xaman (NETWORK=sandbox only) ---

/** Payloads (sign requests) held by the sandbox Xaman, in Xaman's own terms. */
export const sandboxXummPayloads = sqliteTable(
  "sandbox_xumm_payloads",
  {
    uuid: text("uuid").primaryKey(),
    txType: text("tx_type").notNull(),
    requestJson: text("request_json").notNull(),
    /** JSON: submit, expire, return_url, force account ... as posted. */
    options: text("options").notNull(),
    customMeta: text("custom_meta").notNull(),
    /** pending | signed | rejected | cancelled | expired */
    state: text("state").notNull(),
    /** Account a user_token pushed this payload to. */
    pushedTo: text("pushed_to"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    openedAt: integer("opened_at", { mode: "timestamp_ms" }),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    account: text("account"),
    signerPubkey: text("signer_pubkey"),
    hex: text("hex"),
    txid: text("txid"),
    dispatchedTo: text("dispatched_to"),
    dispatchedResult: text("dispatched_result"),
    issuedUserToken: text("issued_user_token"),
  },
  (t) => [index("sandbox_xumm_payloads_state").on(t.state, t.expiresAt)],
);

/** User tokens the sandbox Xaman issued: a token lets the app push payloads to that account. */
export const sandboxXummUserTokens = sqliteTable(
  "sandbox_xumm_user_tokens",
  {
    token: text("token").primaryKey(),
    account: text("account").notNull(),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("sandbox_xumm_user_tokens_account").on(t.account)],
);

/** Sandbox OAuth2 authorizations: one SignIn payload each, then a one-time code. */
export const sandboxXummOauthCodes = sqliteTable("sandbox_xumm_oauth_codes", {
  payloadUuid: text("payload_uuid").primaryKey(),
  clientId: text("client_id").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  state: text("state"),
  codeChallenge: text("code_challenge"),
  codeHash: text("code_hash").unique(),
  account: text("account"),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  codeExpiresAt: integer("code_expires_at", { mode: "timestamp_ms" }),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
});

// --- Ledger outbox and payment watcher (ledger, payments) ---

/** A bigint amount (drops or micro-VVX) in an INTEGER column; exact up to 2^53, which service code enforces. */
const bigintAmount = customType<{ data: bigint; driverData: number | bigint }>({
  dataType: () => "integer",
  toDriver: (value) => value,
  fromDriver: (value) => BigInt(value),
});

/** The platform's own outgoing transactions, recorded before submission under an idempotency key. */
export const ledgerOutbox = sqliteTable(
  "ledger_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    purpose: text("purpose").notNull(),
    /** The transaction as asked for (JSON, before autofill). */
    txJson: text("tx_json").notNull(),
    /** queued | pending | validated | failed */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Hash of the live (or final) attempt. */
    hash: text("hash"),
    /** Final TransactionResult once validated (tesSUCCESS or tec...), or the tem code that ruled it out. */
    result: text("result"),
    ledgerIndex: integer("ledger_index"),
    /** Final metadata (JSON) of the validated attempt: nftoken_id, offer_id, delivered_amount ... */
    metaJson: text("meta_json"),
    error: text("error"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("ledger_outbox_key").on(t.key), index("ledger_outbox_status").on(t.status)],
);

/** Every signed version of an outbox entry; at most one is live, and a new one only once the last is provably dead. */
export const ledgerOutboxAttempts = sqliteTable(
  "ledger_outbox_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    outboxId: integer("outbox_id").notNull().references(() => ledgerOutbox.id),
    hash: text("hash").notNull(),
    txBlob: text("tx_blob").notNull(),
    sequence: integer("sequence").notNull(),
    /** The validated ledger when it was signed: it can only appear in ledgers after this one ... */
    firstLedger: integer("first_ledger").notNull(),
    /** ... and up to this one. */
    lastLedgerSequence: integer("last_ledger_sequence").notNull(),
    /** signed | submitted | validated | expired | rejected */
    status: text("status").notNull(),
    /** Preliminary engine_result of the latest submission. */
    engineResult: text("engine_result"),
    result: text("result"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    submittedAt: integer("submitted_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("ledger_outbox_attempts_hash").on(t.hash), index("ledger_outbox_attempts_outbox").on(t.outboxId)],
);

/** What a wallet is asked to pay the platform; the DestinationTag identifies the payment. */
export const paymentRequests = sqliteTable(
  "payment_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    purpose: text("purpose").notNull(),
    /** The creating feature's own id (purchase id, bet id, ...). */
    refId: text("ref_id"),
    /** The wallet that must pay; null accepts any payer. */
    wallet: text("wallet"),
    /** XRP | VVX */
    currency: text("currency").notNull(),
    /** Price in drops (XRP) or micro-VVX. */
    amount: bigintAmount("amount").notNull(),
    destinationTag: integer("destination_tag").notNull(),
    /** open | credited | expired | refunded | cancelled */
    status: text("status").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    creditedAt: integer("credited_at", { mode: "timestamp_ms" }),
    creditTxHash: text("credit_tx_hash"),
    payer: text("payer"),
  },
  (t) => [
    uniqueIndex("payment_requests_tag").on(t.destinationTag),
    index("payment_requests_status").on(t.status, t.expiresAt),
    index("payment_requests_ref").on(t.purpose, t.refId),
  ],
);

/** Every incoming payment the watcher processed: the tx hash is the exactly-once key. */
export const incomingPayments = sqliteTable(
  "incoming_payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    txHash: text("tx_hash").notNull(),
    ledgerIndex: integer("ledger_index").notNull(),
    sender: text("sender").notNull(),
    destinationTag: integer("destination_tag"),
    /** XRP, the VVX code, or another currency code. */
    currency: text("currency").notNull(),
    issuer: text("issuer"),
    /** delivered_amount as on the ledger: drops, or the issued-currency value string. */
    deliveredValue: text("delivered_value").notNull(),
    /** delivered_amount in drops or micro-VVX when it is XRP or VVX (floored to micro-units). */
    deliveredAmount: bigintAmount("delivered_amount"),
    requestId: integer("request_id").references(() => paymentRequests.id),
    /** credited | refunded | deposit | held */
    outcome: text("outcome").notNull(),
    /** Why it was not (fully) credited: unknown_tag, expired, short, already_credited, wrong_currency ... */
    reason: text("reason"),
    /** Outbox key of the refund, when one was made. */
    refundKey: text("refund_key"),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("incoming_payments_tx_hash").on(t.txHash), index("incoming_payments_request").on(t.requestId)],
);

/** How far the watcher has processed each watched account: every ledger up to ledgerIndex is done. */
export const ledgerCursors = sqliteTable("ledger_cursors", {
  account: text("account").primaryKey(),
  ledgerIndex: integer("ledger_index").notNull(),
  closedAt: integer("closed_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

// --- NFT purchases (nfts) ---

/**
 * One NFT purchase request: a reserved unit of a tier, its payment request (DestinationTag),
 * then the mint, the sell offer to the buyer and the buyer's acceptance. The `nfts` table
 * stays the record of minted NFTs and their owners; this one is the purchase's progress.
 */
export const nftPurchases = sqliteTable(
  "nft_purchases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The public id (the spec's requestId): random, so purchases cannot be enumerated. */
    requestId: text("request_id").notNull(),
    wallet: text("wallet").notNull(),
    tierId: integer("tier_id").notNull().references(() => nftTiers.id),
    priceMicroVvx: integer("price_micro_vvx").notNull(),
    /** vvx_payment_qr | direct_offer | simulate: which endpoint started it (all are paid). */
    source: text("source").notNull(),
    /** pending | processing | creating_offer | offer_created | completed | expired | refunded | failed */
    status: text("status").notNull(),
    paymentRequestId: integer("payment_request_id").notNull().references(() => paymentRequests.id),
    destinationTag: integer("destination_tag").notNull(),
    /** The Xaman payment sign request shown as the QR code. */
    paymentUuid: text("payment_uuid"),
    /** JSON of the payment sign request's links (qrUrl, xummUrl, refs, next), shown again while it is open. */
    paymentSignJson: text("payment_sign_json"),
    paymentTxHash: text("payment_tx_hash"),
    /** NFT number within its tier, given in payment order when the payment is credited. */
    number: integer("number"),
    taxon: integer("taxon"),
    tokenId: text("token_id"),
    offerId: text("offer_id"),
    /** The latest Xaman NFTokenAcceptOffer sign request for the buyer. */
    acceptUuid: text("accept_uuid"),
    acceptQrUrl: text("accept_qr_url"),
    acceptXummUrl: text("accept_xumm_url"),
    acceptExpiresAt: integer("accept_expires_at", { mode: "timestamp_ms" }),
    acceptTxHash: text("accept_tx_hash"),
    /** Why it ended without an NFT (refund reason, mint failure ...). */
    reason: text("reason"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    mintedAt: integer("minted_at", { mode: "timestamp_ms" }),
    offeredAt: integer("offered_at", { mode: "timestamp_ms" }),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("nft_purchases_request_id").on(t.requestId),
    uniqueIndex("nft_purchases_payment_request").on(t.paymentRequestId),
    uniqueIndex("nft_purchases_tier_number").on(t.tierId, t.number),
    index("nft_purchases_status").on(t.status),
    index("nft_purchases_wallet").on(t.wallet),
    index("nft_purchases_offer").on(t.offerId),
  ],
);
