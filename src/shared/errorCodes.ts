/**
 * Every machine code an API error (`{success:false, error, message, code}`) or a WebSocket `error`
 * message may carry, with what it means. AppError takes only these, so a client can switch on
 * `code` knowing the list is complete. Features add their codes here.
 */
export const ERROR_CODES = {
  // Input and access
  VALIDATION_ERROR: "Input failed validation; `field` names the field",
  UNAUTHORIZED: "No wallet session: connect a wallet first",
  INVALID_SESSION: "The session cookie is not one this server issued",
  FORBIDDEN: "The session may not act for this wallet or resource",
  ADMIN_ONLY: "The session's wallet is not in ADMIN_WALLETS",
  NOT_FOUND: "No such route or thing",
  RATE_LIMITED: "Too many requests; Retry-After says when to try again",
  INTERNAL_ERROR: "Unexpected failure on the server (details are only in its log)",
  PAYLOAD_TOO_LARGE: "The request body is larger than the route accepts (or nested too deep)",
  UNSUPPORTED_MEDIA_TYPE: "A state-changing request must send JSON",
  CROSS_SITE_REQUEST: "A state-changing request came from another site's page",
  DATABASE_BUSY: "The database is locked by other work; try again shortly",
  DRAINING: "The server is about to restart (an upgrade): new bets and purchases open again in a moment",
  NO_LEADER: "No instance of the cluster answers for the running games right now (a failover takes a few seconds): try again shortly",

  // Dependencies
  UPSTREAM_UNAVAILABLE: "A dependency is unreachable",
  LEDGER_UNAVAILABLE: "The XRP Ledger cannot be reached right now",
  LEDGER_ERROR: "The XRP Ledger answered with an error",
  LEDGER_TIMEOUT: "A platform transaction was not settled in time",
  LEDGER_SUBMIT_FAILED: "The (sandbox) ledger did not take a signed transaction",
  TX_NOT_FOUND: "No such transaction on the ledger",
  TX_PREPARE_FAILED: "The ledger could not prepare (autofill) a transaction",
  OUTBOX_NOT_FOUND: "No outbox entry under this key",
  PAYOUT_NOT_GIVEN_UP: "The payment is not one the outbox gave up on (sent, on its way, settled, or sent again already)",
  PAYOUT_NO_OWNER: "No record follows the failed payment, so sending it again is refused (mark it settled instead)",
  OUTBOX_KEY_CONFLICT: "An outbox key was reused for a different transaction",
  XUMM_ERROR: "Xaman refused a request",
  XUMM_UNAVAILABLE: "Xaman cannot be reached right now",

  // Sign requests and sign-in
  SIGN_REQUEST_NOT_FOUND: "No sign request with this uuid from this product",
  PAYLOAD_NOT_FOUND: "The (sandbox) Xaman has no such payload",
  PAYLOAD_RESOLVED: "The payload was signed, rejected, cancelled or expired already",
  PAYLOAD_EXPIRED: "The sign request expired (its 5 minutes passed on the product clock): it can no longer be signed",
  PAYLOAD_BUSY: "The payload is being signed right now",
  OAUTH_NOT_FOUND: "No such OAuth2 sign-in",
  OAUTH_STATE_INVALID: "The OAuth2 state is not one this server issued",
  OAUTH_STATE_USED: "The OAuth2 sign-in was completed already",
  OAUTH_STATE_EXPIRED: "The OAuth2 sign-in expired",
  OAUTH_WRONG_BROWSER: "The OAuth2 sign-in was started in another browser",
  OAUTH_CODE_REJECTED: "The OAuth2 provider refused the code",
  OAUTH_USERINFO_FAILED: "The OAuth2 provider did not name the account",
  XAPP_TOKEN_REFUSED: "Xaman does not know this xApp launch token (unknown, used or expired)",

  // NFT marketplace
  SOLD_OUT: "No unit of the tier is left",
  INSUFFICIENT_VVX: "The wallet does not hold the NFT's price in VVX on the validated ledger",
  TIER_INACTIVE: "The tier is not on sale",
  TIER_NOT_FOUND: "No such NFT tier",
  NFT_NOT_FOUND: "No such NFT (not minted yet)",
  PURCHASE_NOT_FOUND: "No such NFT purchase request",
  PURCHASE_CLOSED: "The purchase ended without an NFT (expired, refunded or failed)",
  OFFER_NOT_FOUND: "No NFT offer from this platform with this id",
  OFFER_NOT_READY: "The NFT offer does not exist yet (payment pending or being processed)",
  OFFER_NOT_ACCEPTED: "The NFT offer waits for the buyer's acceptance",
  OFFER_ALREADY_ACCEPTED: "The NFT offer was accepted already",

  // Rewards and NFT transfers
  NOT_NFT_OWNER: "The wallet does not hold the NFT on the ledger",
  NOTHING_TO_CLAIM: "No reward has accrued since the last claim",
  CLAIM_TOO_SOON: "24 hours must pass between two claims of an NFT",
  FULL_CLAIM_NOT_AVAILABLE: "A full claim is not open yet (an early claim is)",
  TREASURY_SHORT: "The treasury cannot pay the claim right now",
  REWARD_PAYOUT_FAILED: "The reward payment failed on the ledger; nothing was deducted",
  TRANSFER_PENDING: "A transfer of this NFT is already waiting",
  TRANSFER_OFFER_NOT_FOUND: "No such NFT transfer offer on the ledger",

  // Swap (XRP -> VVX through the AMM)
  ACCOUNT_NOT_FOUND: "The wallet is not activated on the ledger yet",
  TRUSTLINE_REQUIRED: "The wallet needs a VVX trust line first",
  TRUSTLINE_EXISTS: "The wallet has a VVX trust line already",
  TRUSTLINE_LIMIT: "The VVX trust line's limit leaves too little room",
  INSUFFICIENT_RESERVE: "Not enough free XRP for the reserve and the fee",
  PRICE_IMPACT_TOO_HIGH: "The swap would move the pool's price too far",
  POOL_UNAVAILABLE: "The XRP/VVX pool is not available",
  SWAP_NOT_FOUND: "No swap for this sign request",

  // Provably fair seeds, slots and the daily wheel
  SEED_PAIR_NOT_FOUND: "The wallet has no seed pair yet (its first spin or POST /api/fair/seeds makes one)",
  SEED_NOT_REVEALED: "The server seed is revealed only after the seed pair is rotated",
  SESSION_NOT_FOUND: "No such slot session",
  SESSION_EXPIRED: "The slot session expired",
  NO_SPINS_LEFT: "The slot session has no spins left",
  SESSION_NOT_YOURS: "The slot session belongs to another wallet",
  SESSION_ACTIVE: "The wallet has an active slot session already",
  PAYMENT_NOT_FOUND: "No such package payment",
  WHEEL_HOLDERS_ONLY: "The daily wheel is for VVX NFT holders and recent players here (DAILY_SPIN_ELIGIBILITY=holders)",
  ALREADY_SPUN_TODAY: "The daily wheel was spun already today (UTC)",
  ROUND_NOT_FOUND: "No such round, race, spin or wheel spin",
  ROUND_NOT_OVER: "The round is still being played: its seeds and result are published once it is over",

  // Unicorn Racing
  RACE_ALREADY_BET: "The wallet has a bet on this race already (one bet per wallet per race)",
  RACE_BETTING_CLOSED: "Betting on this race has closed (it starts soon or runs); bet on the next one",
  RACE_FULL: "The treasury could not cover this race's worst case with this bet; bet on the next race",

  // Crash
  NO_ACTIVE_BET: "The wallet has no bet riding in the running round",
  ALREADY_CASHED_OUT: "The wallet cashed out of this round already",
  ROUND_CRASHED: "The round crashed before the cash-out arrived",

  // WebSocket control messages
  BAD_MESSAGE: "A socket frame that is not a JSON object with a type",
  UNKNOWN_TYPE: "A socket message type the server does not know",
  TOO_MANY_TOPICS: "A socket asked for more topics than allowed",
} as const;

/** A code from the registry, or `HTTP_<status>` for a framework error with only a status. */
export type ErrorCode = keyof typeof ERROR_CODES | `HTTP_${number}`;
