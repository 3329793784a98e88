import { formatMicroVvx, type ClaimUnavailableError } from "../../engine";
import { AppError, ForbiddenError, NotFoundError, UpstreamError } from "../platform/errors";
import { REWARD_ERROR } from "./model";

/** 404: the token is not an NFT this platform minted. */
export class NftNotFoundError extends NotFoundError {
  constructor(tokenId: string) {
    super(`No NFT ${tokenId} from this platform`, REWARD_ERROR.nftNotFound);
  }
}

/** 403: only the NFT's current on-ledger owner may act for it. */
export class NotNftOwnerError extends ForbiddenError {
  constructor(wallet: string, name: string, action = "claim its rewards") {
    super(`${name} is not held by ${wallet} on the ledger: only its current owner can ${action}`, REWARD_ERROR.notOwner);
  }
}

/** 409: the claim rules do not allow this claim now (the engine says why). */
export class ClaimRefusedError extends AppError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(409, code, message, details);
  }

  /** The engine's refusal as the API's 409, with the time the next claim is possible when it is a wait. */
  static from(refusal: ClaimUnavailableError, ctx: { nextClaimAtMs: number | null; targetMicro: bigint; openMicro: bigint }): ClaimRefusedError {
    switch (refusal.reason) {
      case "TOO_SOON": {
        const next = ctx.nextClaimAtMs === null ? null : new Date(ctx.nextClaimAtMs).toISOString();
        return new ClaimRefusedError(REWARD_ERROR.tooSoon, `24 hours must pass between two claims of this NFT${next ? `; next claim possible at ${next}` : ""}`, {
          nextClaimTime: next,
        });
      }
      case "NOTHING_ACCRUED":
        return new ClaimRefusedError(REWARD_ERROR.nothingToClaim, "Nothing to claim yet", {
          nextClaimTime: ctx.nextClaimAtMs === null ? null : new Date(ctx.nextClaimAtMs).toISOString(),
        });
      case "FULL_CLAIM_NOT_AVAILABLE":
        return new ClaimRefusedError(
          REWARD_ERROR.fullNotAvailable,
          `A full claim opens once ${formatMicroVvx(ctx.targetMicro)} VVX have accrued since the last claim (now ${formatMicroVvx(ctx.openMicro)} VVX) or on the last day of the month; an early claim pays 50% now`,
        );
    }
  }
}

/** 503: the treasury cannot cover the payout right now; nothing was recorded, the rewards stay claimable. */
export class TreasuryShortError extends UpstreamError {
  constructor() {
    super("The rewards treasury cannot pay this claim right now. Nothing was deducted: your rewards stay claimable. Please try again later.", REWARD_ERROR.treasuryShort, 503);
  }
}

/** 503: the payment was refused on the ledger; the claim settled nothing and can be made again. */
export class PayoutFailedError extends UpstreamError {
  constructor(result: string | null) {
    super(`The reward payment did not go through on the ledger (${result ?? "not included"}). Nothing was deducted: your rewards stay claimable.`, REWARD_ERROR.payoutFailed, 503);
  }
}
