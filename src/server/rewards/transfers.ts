import { nftDisplayName } from "../../engine";
import { atEachClose } from "../ledger/closes";
import type { LedgerGateway } from "../ledger/gateway";
import type { Clock } from "../platform/clock";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { BackgroundLoop } from "../platform/loop";
import { RetryGate } from "../platform/retry";
import type { Hub } from "../platform/ws/hub";
import type { NftTransferMessage } from "../../shared/channels";
import type { SignRequestCreated, SigningService } from "../signing/service";
import { ledgerTransaction } from "../signing/transaction";
import { parseAddress } from "../ledger/address";
import { NftNotFoundError, NotNftOwnerError } from "./errors";
import { nftMovesOf } from "./holders";
import type { LedgerReads, NftOffer } from "./ledgerReads";
import { REWARD_ERROR, parseLedgerId } from "./model";
import { type TransferOfferView } from "../../shared/api/rewards";
import type { NftRecord, RewardRepository, TierRow, TransferRow } from "./repository";

/** NFTokenCreateOffer flag: a sell offer. */
const TF_SELL_NFTOKEN = 0x00000001;
/** A transfer row with no offer on the ledger is given up after this long (its sign request lives 5 minutes). */
const STALE_TRANSFER_MS = 86_400_000;
/** How often open transfers are looked at (an offer accepted in the recipient's own wallet app, or while the server was down). */
const TRANSFER_SWEEP_MS = 60_000;

/** Who asks: the session's wallet and the browser's binding token. */
export interface TransferActor {
  wallet: string;
  clientToken?: string;
}

/**
 * Transfers of the platform's NFTs between people, signed in Xaman: the owner offers the NFT for 0 to
 * a recipient (an NFTokenCreateOffer sell offer with Destination), may cancel it (NFTokenCancelOffer),
 * and the recipient accepts it (NFTokenAcceptOffer). Rewards follow the NFT: its unclaimed rewards are
 * the new owner's to claim. The ledger is the truth about every offer.
 */
export class TransferService {
  private readonly loop = new BackgroundLoop(TRANSFER_SWEEP_MS, () => this.tick());
  private readonly gate: RetryGate;
  private sweeping = false;

  constructor(
    private readonly deps: {
      repo: RewardRepository;
      reads: LedgerReads;
      signing: SigningService;
      clock: Clock;
      log: Logger;
      platformAddress: string;
      ledger: Pick<LedgerGateway, "request" | "isConnected" | "on">;
      /** Both wallets of a transfer hear of each change the validated ledger shows (their My NFTs pages follow it). */
      hub: Pick<Hub, "emit">;
    },
  ) {
    this.gate = new RetryGate("nft transfers sweep", deps.log);
  }

  /** Looks at the open transfers now and every minute (accepted ones get their txid for the history). */
  startSweeping(): void {
    this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  private tick(): void {
    if (!this.loop.running || this.sweeping || !this.deps.ledger.isConnected()) return;
    this.sweeping = true;
    void this.gate
      .run(async () => {
        await this.sweep();
      })
      .finally(() => (this.sweeping = false));
  }

  /** Settles every open transfer that ended (accepted, or never to be); returns how many were accepted. */
  async sweep(): Promise<number> {
    let accepted = 0;
    for (const row of await this.deps.repo.openTransfers()) if ((await this.settle(row)) === "accepted") accepted++;
    return accepted;
  }

  /**
   * An open transfer's state on the ledger: accepted once the recipient holds the NFT (the txid of the
   * NFTokenAcceptOffer that moved it, read from the recipient's account_tx), closed when no offer can show
   * any more, else still open.
   */
  async settle(row: TransferRow): Promise<"accepted" | "closed" | "open"> {
    const { reads, repo, clock, log } = this.deps;
    const now = new Date(clock.now());
    if (await reads.holds(row.toWallet, row.tokenId)) {
      // An owner has one transfer offer at a time: a newer request for the same NFT and recipient means this
      // one's offer was cancelled (the sweep had not seen it yet), so the acceptance is the newer one's.
      if (await repo.hasNewerTransfer(row)) {
        await repo.closeTransfer(row.id, now);
        return "closed";
      }
      const move = (await nftMovesOf(this.deps.ledger, row.toWallet)).find((m) => m.tokenId === row.tokenId && m.from === row.fromWallet && m.to === row.toWallet);
      // Two settles of one row at once (the sweep, a page's list) record and push it once.
      if (!(await repo.acceptTransfer(row.id, move?.hash ?? null, new Date(move?.closedAtMs ?? now.getTime()), now))) return "accepted";
      log.info("nft transfer accepted", { tokenId: row.tokenId, from: row.fromWallet, to: row.toWallet, txid: move?.hash ?? null });
      this.publish("accepted", row.tokenId, row.fromWallet, row.toWallet, move?.hash ?? null);
      return "accepted";
    }
    const offers = (await reads.sellOffers(row.tokenId)).filter((o) => o.owner === row.fromWallet && o.destination === row.toWallet);
    if (!offers.length && (await this.finished(row))) {
      await repo.closeTransfer(row.id, now);
      return "closed";
    }
    return "open";
  }

  private async name(tokenId: string): Promise<string> {
    const record = await this.deps.repo.nftRecord(tokenId);
    if (!record) throw new NftNotFoundError(tokenId);
    return nftDisplayName(record.taxon, record.tokenId);
  }

  /** Asks the owner to sign a sell offer for 0 to `recipient` (a funded account other than the owner). */
  async start(actor: TransferActor, tokenIdRaw: unknown, recipientRaw: unknown): Promise<SignRequestCreated> {
    const { reads, signing, repo, clock, log } = this.deps;
    const tokenId = parseLedgerId(tokenIdRaw, "tokenId");
    const recipient = parseAddress(recipientRaw, "recipient");
    if (recipient === actor.wallet) throw new ValidationError("recipient", "Field 'recipient' must be another wallet than your own");
    if (recipient === this.deps.platformAddress) throw new ValidationError("recipient", "Field 'recipient' cannot be the platform's treasury");
    const name = await this.name(tokenId);
    if (!(await reads.holds(actor.wallet, tokenId))) throw new NotNftOwnerError(actor.wallet, name, "transfer it");
    if (!(await reads.accountExists(recipient))) throw new ValidationError("recipient", `Field 'recipient': ${recipient} does not exist on the ledger (an account must be funded before it can hold an NFT)`);
    const pending = (await reads.sellOffers(tokenId)).find((o) => o.owner === actor.wallet && o.destination);
    if (pending) throw new ConflictError(REWARD_ERROR.transferPending, `A transfer of ${name} to ${pending.destination} is already waiting; cancel it first`);
    const sign = await signing.createSignRequest({
      kind: "nft_transfer",
      txjson: { TransactionType: "NFTokenCreateOffer", NFTokenID: tokenId, Amount: "0", Flags: TF_SELL_NFTOKEN, Destination: recipient },
      wallet: actor.wallet,
      clientToken: actor.clientToken,
      reference: tokenId,
      instruction: `Transfer ${name} to ${recipient}: it can accept the NFT (and its unclaimed rewards) for free`,
    });
    const now = new Date(clock.now());
    await repo.insertTransfer({ tokenId, fromWallet: actor.wallet, toWallet: recipient, signUuid: sign.uuid, status: "open", createdAt: now, updatedAt: now });
    log.info("nft transfer requested", { tokenId, from: actor.wallet, to: recipient, uuid: sign.uuid });
    const offered = async () => (await reads.sellOffers(tokenId)).some((o) => o.owner === actor.wallet && o.destination === recipient);
    this.whenSigned(sign.uuid, offered, (txid) => this.publish("offered", tokenId, actor.wallet, recipient, txid));
    return sign;
  }

  /** A live NFT offer; 404 when it is gone. */
  private async liveOffer(offerIdRaw: unknown): Promise<NftOffer> {
    const offerId = parseLedgerId(offerIdRaw, "offerId");
    const offer = await this.deps.reads.offer(offerId);
    if (!offer) throw new NotFoundError(`No NFT offer ${offerId} on the ledger (accepted or cancelled already?)`, REWARD_ERROR.offerNotFound);
    return offer;
  }

  /** Asks the owner to sign the cancellation of its transfer offer. */
  async cancel(actor: TransferActor, offerIdRaw: unknown): Promise<SignRequestCreated> {
    const offer = await this.liveOffer(offerIdRaw);
    if (offer.owner !== actor.wallet) throw new ForbiddenError("Only the wallet that made this offer can cancel it");
    const name = await this.name(offer.tokenId);
    const sign = await this.deps.signing.createSignRequest({
      kind: "nft_transfer_cancel",
      txjson: { TransactionType: "NFTokenCancelOffer", NFTokenOffers: [offer.offerId] },
      wallet: actor.wallet,
      clientToken: actor.clientToken,
      reference: offer.tokenId,
      instruction: `Cancel the transfer of ${name} to ${offer.destination ?? "anyone"}`,
    });
    if (offer.destination) {
      const gone = async () => !(await this.deps.reads.sellOffers(offer.tokenId)).some((o) => o.offerId === offer.offerId);
      this.whenSigned(sign.uuid, gone, (txid) => this.publish("cancelled", offer.tokenId, offer.owner, offer.destination!, txid));
    }
    return sign;
  }

  /** Asks the recipient to sign the acceptance of a transfer offered to it. */
  async accept(actor: TransferActor, offerIdRaw: unknown): Promise<SignRequestCreated> {
    const offer = await this.liveOffer(offerIdRaw);
    if (!offer.sell || offer.destination !== actor.wallet) throw new ForbiddenError("This NFT offer is not made to your wallet");
    if (offer.amount !== "0") throw new ValidationError("offerId", "Field 'offerId' is a sale, not a free transfer: accept it in your wallet app if you want to buy");
    const name = await this.name(offer.tokenId);
    const sign = await this.deps.signing.createSignRequest({
      kind: "nft_transfer_accept",
      txjson: { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: offer.offerId },
      wallet: actor.wallet,
      clientToken: actor.clientToken,
      reference: offer.tokenId,
      instruction: `Accept ${name} from ${offer.owner}`,
    });
    // Signed: the transfer is settled (with its txid, and pushed) as soon as a validated ledger shows it, not at the next sweep.
    const settled = async () => {
      const rows = (await this.deps.repo.openTransfersTo(actor.wallet)).filter((r) => r.tokenId === offer.tokenId && r.fromWallet === offer.owner);
      return !(await Promise.all(rows.map((r) => this.settle(r)))).includes("open");
    };
    this.whenSigned(sign.uuid, settled, () => {});
    return sign;
  }

  /**
   * Once a request signed here has its result, looks at once and after each validated ledger close
   * whether its transaction validated (by its hash) and the ledger shows its effect (`shown`), then
   * calls `then` with the transaction's id; a request not signed, or refused by the ledger, changes
   * nothing. After the sweep's interval the sweep (or the page's reload) carries on.
   */
  private whenSigned(uuid: string, shown: () => Promise<boolean>, then: (txid: string | null) => void): void {
    this.deps.signing.watch(uuid, (status) => {
      if (!status.signed || (status.dispatchedResult !== null && status.dispatchedResult !== "tesSUCCESS" && status.dispatchedResult !== "terQUEUED")) return;
      const look = async (): Promise<boolean | undefined> => {
        if (status.txid) {
          const tx = await ledgerTransaction(this.deps.ledger, status.txid).catch((err: unknown) => {
            if (err instanceof NotFoundError) return undefined; // not in a ledger yet
            throw err;
          });
          if (!tx?.validated) return undefined;
          if (tx.result !== "tesSUCCESS") return false;
          return shown();
        }
        return (await shown()) || undefined;
      };
      void atEachClose(this.deps.ledger, look, {
        timeoutMs: TRANSFER_SWEEP_MS,
        stopped: () => this.loop.stopped,
        onError: (err) => this.deps.log.warn("nft transfer not on the validated ledger yet; looking again at the next close", { uuid, error: err instanceof Error ? err.message : String(err) }),
      }).then((ok) => ok && then(status.txid));
    });
  }

  private publish(state: NftTransferMessage["state"], tokenId: string, from: string, to: string, txid: string | null): void {
    for (const wallet of [from, to]) this.deps.hub.emit("wallet", wallet, { type: "nft.transfer", tokenId, from, to, state, txid });
  }

  private view(o: NftOffer, record: NftRecord, tiers: TierRow[], from: string, to: string): TransferOfferView {
    const tier = tiers.find((t) => t.id === record.tierId);
    return { offerId: o.offerId, tokenId: o.tokenId, name: nftDisplayName(record.taxon, record.tokenId), tierName: tier?.name ?? "Unknown", from, to };
  }

  /** Free transfer offers of platform NFTs: made by `wallet` (outgoing, from the ledger) and made to it (incoming). */
  async list(wallet: string): Promise<{ outgoing: TransferOfferView[]; incoming: TransferOfferView[] }> {
    const { reads, repo } = this.deps;
    const [owned, open, tiers] = await Promise.all([reads.offersOwnedBy(wallet), repo.openTransfersTo(wallet), repo.tiers()]);
    // The platform's records of the NFTs offered: only those are transfers made here.
    const records = new Map((await repo.nftRecords([...new Set(owned.map((o) => o.tokenId).concat(open.map((r) => r.tokenId)))])).map((r) => [r.tokenId, r]));
    const isTransfer = (o: NftOffer) => o.sell && o.amount === "0" && o.destination !== null && records.has(o.tokenId);
    const outgoing = owned.filter(isTransfer).map((o) => this.view(o, records.get(o.tokenId)!, tiers, wallet, o.destination!));
    const incoming: TransferOfferView[] = [];
    const seen = new Set<string>();
    for (const row of open) {
      const offers = (await reads.sellOffers(row.tokenId)).filter((o) => isTransfer(o) && o.destination === wallet && o.owner === row.fromWallet);
      for (const o of offers) {
        if (seen.has(o.offerId)) continue;
        seen.add(o.offerId);
        incoming.push(this.view(o, records.get(o.tokenId)!, tiers, o.owner, wallet));
      }
      if (!offers.length) await this.settle(row);
    }
    return { outgoing, incoming };
  }

  /** Whether a transfer row with no live offer can never show one again. */
  private async finished(row: TransferRow): Promise<boolean> {
    if (this.deps.clock.now() - row.createdAt.getTime() > STALE_TRANSFER_MS) return true;
    if (!(await this.deps.reads.holds(row.fromWallet, row.tokenId))) return true;
    try {
      const s = await this.deps.signing.status(row.signUuid);
      return s.expired || s.cancelled || (s.resolved && !s.signed) || (s.signed && s.dispatchedResult !== null && s.dispatchedResult !== "tesSUCCESS" && s.dispatchedResult !== "terQUEUED");
    } catch {
      return false;
    }
  }
}
