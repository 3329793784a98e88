import { amountJson, fundsOf, issueOf, valueOf } from "../apply/book";
import { LSF, lineBalance } from "../apply/common";
import { RpcError } from "../codes";
import { rippleTimeIso } from "../format";
import { Rational } from "../iou";
import { ammKey, bookBaseOf, trustLineKey } from "../keys";
import type { LedgerSelector, SandboxLedger } from "../ledger";
import { ApplyView, type Entry } from "../view";
import { offerQuality } from "./account";
import { ledgerFields, limitOf, page, requireAccount, stateLedger, type Method, type Params } from "./context";
import { parseIssue } from "./ledgerMethods";
import { pathFindMethods } from "./paths";

type IssueJson = { currency: string; issuer?: string };

/**
 * A book's offers as book_offers shows them: the ledger object plus quality,
 * owner_funds on each owner's first offer, and the funded part of offers
 * their owners can only partly cover (rippled's NetworkOPs::getBookPage).
 */
export function bookOffersJson(ledger: SandboxLedger, pays: IssueJson, gets: IssueJson, which: LedgerSelector, taker: string | undefined, limit: number): Record<string, unknown>[] {
  const offers = ledger.bookOffers(bookBaseOf(pays as never, gets as never), which).slice(0, limit);
  const view = new ApplyView(ledger.reader(which));
  const getsIssue = issueOf(gets);
  const used = new Map<string, Rational>();
  return offers.map((offer) => {
    const funds = offer.Account === getsIssue.issuer ? "unlimited" : fundsOf(view, offer.Account, getsIssue);
    const spent = used.get(offer.Account);
    const out: Record<string, unknown> = { ...offer, quality: offerQuality(offer) };
    if (spent === undefined && funds !== "unlimited") {
      const json = amountJson(getsIssue, funds);
      out.owner_funds = typeof json === "string" ? json : json.value;
    }
    if (funds !== "unlimited") {
      const left = funds.sub(spent ?? Rational.of(0));
      const wants = valueOf(offer.TakerGets);
      if (left.compare(wants) < 0) {
        const funded = left.compare(Rational.of(0)) > 0 ? left : Rational.of(0);
        out.taker_gets_funded = amountJson(getsIssue, funded);
        out.taker_pays_funded = amountJson(issueOf(offer.TakerPays), funded.mul(valueOf(offer.TakerPays)).div(wants));
      }
      used.set(offer.Account, (spent ?? Rational.of(0)).add(wants));
    }
    if (taker === offer.Account) out.taker_owns = true;
    return out;
  });
}

function nftOffersResult(ledger: SandboxLedger, params: Params, sell: boolean) {
  const id = params.nft_id;
  if (typeof id !== "string" || !/^[0-9A-Fa-f]{64}$/.test(id)) throw new RpcError("invalidParams", "Missing field 'nft_id'.");
  const which = stateLedger(ledger, params);
  const offers = ledger.nftOffers(id, which).filter((o) => (((o.Flags ?? 0) & LSF.sellNFToken) !== 0) === sell);
  if (!offers.length) throw new RpcError("objectNotFound");
  const limit = limitOf(params, 250, 500);
  const p = page(offers, (o) => o.index, params.marker, limit);
  return {
    nft_id: id.toUpperCase(),
    offers: p.items.map((o) => ({
      amount: o.Amount,
      flags: o.Flags ?? 0,
      nft_offer_index: o.index,
      owner: o.Owner,
      ...(o.Destination ? { destination: o.Destination } : {}),
      ...(o.Expiration !== undefined ? { expiration: o.Expiration } : {}),
    })),
    ...(p.marker ? { limit, marker: p.marker } : {}),
  };
}

/** The AMM named by amm_account or by asset/asset2, with the side order the request used. */
function findAmm(ledger: SandboxLedger, params: Params, which: LedgerSelector): { amm: Entry; assetFirst: boolean } {
  if (params.amm_account !== undefined) {
    if (params.asset !== undefined || params.asset2 !== undefined) throw new RpcError("invalidParams");
    const root = ledger.accountRoot(requireAccount(params, "amm_account"), which);
    const amm = root?.AMMID ? ledger.entry(root.AMMID, which) : undefined;
    if (!amm) throw new RpcError("actNotFound");
    return { amm, assetFirst: true };
  }
  const asset = parseIssue(params.asset, "asset");
  const asset2 = parseIssue(params.asset2, "asset2");
  const amm = ledger.entry(ammKey(asset, asset2), which);
  if (!amm) throw new RpcError("actNotFound");
  return { amm, assetFirst: asset.currency === "XRP" };
}

export const dexMethods: Record<string, Method> = {
  ...pathFindMethods,

  book_offers(params, { ledger }) {
    const pays = parseIssue(params.taker_pays, "taker_pays");
    const gets = parseIssue(params.taker_gets, "taker_gets");
    if (pays.currency === gets.currency && pays.issuer === gets.issuer) throw new RpcError("badMarket");
    const taker = params.taker === undefined ? undefined : requireAccount(params, "taker");
    const which = stateLedger(ledger, params);
    const limit = limitOf(params, 60, 100);
    return { ...ledgerFields(ledger, which), offers: bookOffersJson(ledger, pays, gets, which, taker, limit) };
  },

  nft_sell_offers(params, { ledger }) {
    return nftOffersResult(ledger, params, true);
  },

  nft_buy_offers(params, { ledger }) {
    return nftOffersResult(ledger, params, false);
  },

  amm_info(params, { ledger }) {
    const which = stateLedger(ledger, params);
    const { amm, assetFirst } = findAmm(ledger, params, which);
    const ammAccount: string = amm.Account;
    const root = ledger.accountRoot(ammAccount, which)!;
    const line = ledger.entry(trustLineKey(ammAccount, amm.Asset2.issuer, amm.Asset2.currency), which);
    const xrpAmount = root.Balance as string;
    const iouAmount = { currency: amm.Asset2.currency, issuer: amm.Asset2.issuer, value: line ? lineBalance(line, ammAccount).toString() : "0" };
    const [amount, amount2] = assetFirst ? [xrpAmount, iouAmount] : [iouAmount, xrpAmount];
    let lpToken = amm.LPTokenBalance;
    if (params.account !== undefined) {
      // With `account`, lp_token is what that account holds (rippled's AMMInfo).
      const holder = requireAccount(params);
      const lpLine = ledger.entry(trustLineKey(holder, ammAccount, lpToken.currency), which);
      lpToken = { ...lpToken, value: lpLine ? lineBalance(lpLine, holder).toString() : "0" };
    }
    const slot = amm.AuctionSlot;
    return {
      amm: {
        account: ammAccount,
        amount,
        amount2,
        asset2_frozen: false,
        ...(slot
          ? { auction_slot: { account: slot.Account, discounted_fee: slot.DiscountedFee ?? 0, expiration: rippleTimeIso(slot.Expiration), price: slot.Price, time_interval: 0 } }
          : {}),
        lp_token: lpToken,
        trading_fee: amm.TradingFee ?? 0,
        vote_slots: (amm.VoteSlots ?? []).map((v: { VoteEntry: Params }) => ({ account: v.VoteEntry.Account, trading_fee: v.VoteEntry.TradingFee ?? 0, vote_weight: v.VoteEntry.VoteWeight })),
      },
      ...ledgerFields(ledger, which),
    };
  },
};

