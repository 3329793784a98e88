import { Elysia } from "elysia";
import { ValidationError } from "../platform/errors";
import { parseAddress } from "../ledger/address";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseHistoryType, parsePeriod } from "./model";
import { HistoryQueryShape, HistoryResponse } from "../../shared/api/history";
import { parsePositive } from "../platform/http/query";
import { MAX_HISTORY_ROWS, type HistoryService } from "./service";

/** GET /api/history?wallet=&period=&type=&page=: a wallet's transactions (public ledger facts, no session needed). */
export function historyRoutes(ctx: { history: HistoryService }) {
  return new Elysia({ name: "history" }).get(
    "/api/history",
    async ({ query }) => {
      const raw = query.wallet ?? query.walletAddress;
      if (raw === undefined || raw === "") throw new ValidationError("wallet", "Field 'wallet' is required: an XRPL address (r...)");
      const wallet = parseAddress(raw, "wallet");
      const period = parsePeriod(query.period, "30days");
      const type = parseHistoryType(query.type);
      const page = parsePositive(query.page, "page", 1);
      const pageSize = parsePositive(query.pageSize, "pageSize", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      if (page * pageSize > MAX_HISTORY_ROWS) throw new ValidationError("page", `Field 'page' goes past the ${MAX_HISTORY_ROWS.toLocaleString("en-US")} newest transactions; choose a shorter period`);
      return { success: true as const, walletAddress: wallet, period, type, page, pageSize, ...(await ctx.history.query(wallet, period, type, page, pageSize)) };
    },
    {
      query: HistoryQueryShape,
      response: HistoryResponse,
      detail: { summary: "A wallet's transaction history: purchases, reward claims, refunds (and swaps and games as they are added), with statistics", tags: ["history"] },
    },
  );
}

export { HistoryService } from "./service";
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  explorerAccountUrl,
  explorerTxUrl,
  parsePeriod,
  periodStartMs,
  type HistoryEntry,
  type HistoryQuery,
  type HistorySource,
  type Period,
} from "./model";
