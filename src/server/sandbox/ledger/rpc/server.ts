import { createHash, randomBytes } from "node:crypto";
import { encodeNodePublic } from "xrpl";
import definitions from "ripple-binary-codec/dist/enums/definitions.json";
import { FEES } from "../apply/common";
import { RpcError } from "../codes";
import { NETWORK_ID, RIPPLE_EPOCH_OFFSET, rippledHumanTime } from "../format";
import { sha512Half } from "../keys";
import type { SandboxLedger } from "../ledger";
import type { Method } from "./context";

const BUILD_VERSION = "2.4.0";
/**
 * rippled's simulated consensus round in standalone mode lasts a nominal
 * 100 ms (Consensus::simulate); the sandbox has no consensus either and
 * reports the same.
 */
const CONVERGE_MS = 100;

/** The amendments whose rules the sandbox applies (all enabled); the feature command lists them. */
const AMENDMENTS = [
  "AMM",
  "DeepFreeze",
  "ExpandedSignerList",
  "Flow",
  "FlowCross",
  "MultiSignReserve",
  "NonFungibleTokensV1_1",
  "RequireFullyCanonicalSig",
  "fixAMMv1_1",
  "fixNFTokenRemint",
];

/** An amendment's ID: SHA-512Half of its name (rippled's Feature.cpp). */
export function amendmentId(name: string): string {
  return sha512Half(Buffer.from(name, "ascii").toString("hex"));
}

const FEATURES = Object.fromEntries(AMENDMENTS.map((name) => [amendmentId(name), { enabled: true, name, supported: true }]));

/** server_info's time: to the microsecond, as rippled prints it. */
function rippledTime(date: Date): string {
  return rippledHumanTime(date, `${String(date.getUTCMilliseconds()).padStart(3, "0")}000`);
}

function nodeKey(ledger: SandboxLedger): string {
  const key = createHash("sha256").update(`node:${ledger.wallets.issuer.address}`).digest();
  return encodeNodePublic(Uint8Array.from([0x02, ...key]));
}

/** Fields server_info and server_state share (rippled's NetworkOPs::getServerInfo). */
function commonInfo(ledger: SandboxLedger) {
  const upUs = String((Date.now() - ledger.startedAt) * 1000);
  const zero = { duration_us: "0", transitions: "0" };
  return {
    build_version: BUILD_VERSION,
    complete_ledgers: `${ledger.firstIndex}-${ledger.validatedIndex}`,
    initial_sync_duration_us: "0",
    io_latency_ms: 1,
    jq_trans_overflow: "0",
    load: { job_types: [], threads: 1 },
    network_id: NETWORK_ID,
    peer_disconnects: "0",
    peer_disconnects_resources: "0",
    peers: 0,
    pubkey_node: nodeKey(ledger),
    pubkey_validator: "none",
    server_state: "full",
    server_state_duration_us: upUs,
    state_accounting: { connected: zero, disconnected: zero, full: { duration_us: upUs, transitions: "1" }, syncing: zero, tracking: zero },
    time: rippledTime(new Date()),
    uptime: Math.floor((Date.now() - ledger.startedAt) / 1000),
    validation_quorum: 0,
  };
}

export const serverMethods: Record<string, Method> = {
  ping() {
    // Every sandbox client has what rippled gives an admin connection (ledger closes, no limits).
    return { role: "admin", unlimited: true };
  },

  random() {
    return { random: randomBytes(32).toString("hex").toUpperCase() };
  },

  server_info(_params, { ledger }) {
    const last = ledger.lastClosed;
    return {
      info: {
        ...commonInfo(ledger),
        hostid: "VVX-SANDBOX",
        last_close: { converge_time_s: CONVERGE_MS / 1000, proposers: 0 },
        load_factor: 1,
        validated_ledger: {
          age: Math.max(0, Math.floor(Date.now() / 1000) - (last.close_time + RIPPLE_EPOCH_OFFSET)),
          base_fee_xrp: Number(FEES.baseFee) / 1e6,
          hash: last.ledger_hash,
          reserve_base_xrp: Number(FEES.reserveBase) / 1e6,
          reserve_inc_xrp: Number(FEES.reserveIncrement) / 1e6,
          seq: last.ledger_index,
        },
        validator_list: { count: 0, expiration: "unknown", status: "unknown" },
      },
    };
  },

  server_state(_params, { ledger }) {
    const last = ledger.lastClosed;
    return {
      state: {
        ...commonInfo(ledger),
        last_close: { converge_time: CONVERGE_MS, proposers: 0 },
        load_base: 256,
        load_factor: 256,
        load_factor_fee_escalation: 256,
        load_factor_fee_queue: 256,
        load_factor_fee_reference: 256,
        load_factor_server: 256,
        validated_ledger: {
          base_fee: Number(FEES.baseFee),
          close_time: last.close_time,
          hash: last.ledger_hash,
          reserve_base: Number(FEES.reserveBase),
          reserve_inc: Number(FEES.reserveIncrement),
          seq: last.ledger_index,
        },
        validator_list_expires: 0,
      },
    };
  },

  fee(_params, { ledger }) {
    const base = FEES.baseFee.toString();
    return {
      current_ledger_size: String(ledger.openTransactions.length),
      current_queue_size: "0",
      drops: { base_fee: base, median_fee: (FEES.baseFee * 500n).toString(), minimum_fee: base, open_ledger_fee: base },
      expected_ledger_size: "1000",
      ledger_current_index: ledger.openIndex,
      levels: { median_level: "128000", minimum_level: "256", open_ledger_level: "256", reference_level: "256" },
      max_queue_size: "20000",
    };
  },

  feature(params) {
    if (params.vetoed !== undefined) throw new RpcError("notSupported", "The sandbox does not vote on amendments.");
    if (params.feature === undefined) return { features: FEATURES };
    const wanted = String(params.feature);
    const entry = Object.entries(FEATURES).find(([id, f]) => id === wanted.toUpperCase() || f.name === wanted);
    if (!entry) throw new RpcError("badFeature");
    return { [entry[0]]: entry[1] };
  },

  server_definitions(params) {
    // The binary codec's definitions are this server's: the sandbox encodes and decodes with them.
    if (typeof params.hash === "string" && params.hash.toUpperCase() === definitions.hash) return { hash: definitions.hash };
    return definitions as unknown as Record<string, unknown>;
  },

  ledger_current(_params, { ledger }) {
    return { ledger_current_index: ledger.openIndex };
  },

  ledger_closed(_params, { ledger }) {
    const last = ledger.lastClosed;
    return { ledger_hash: last.ledger_hash, ledger_index: last.ledger_index };
  },
};
