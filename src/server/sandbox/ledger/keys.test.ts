import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { Wallet, type SubmittableTransaction } from "xrpl";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { LedgerTestKit } from "./testkit";

setDefaultTimeout(30_000);

let server: TestServer;
let kit: LedgerTestKit;
let issuer: string;

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "60000" });
  server.ctx.sandbox!.ledger!.stopAutoClose();
  kit = await new LedgerTestKit(server).connect();
  issuer = server.ctx.sandbox!.ledger!.wallets.issuer.address;
});

afterAll(async () => {
  await kit?.disconnect();
  await server?.stop(true);
});

async function request(body: Record<string, unknown>) {
  return (await kit.client.request(body as never)) as { result: Record<string, any> };
}

/** Signs `tx` for `account` with `signer`'s keys (a regular key, or the master key) and submits it. */
async function submitSignedBy(signer: Wallet, account: string, tx: Record<string, unknown>) {
  const prepared = await kit.client.autofill({ ...tx, Account: account } as SubmittableTransaction);
  return (await request({ command: "submit", tx_blob: signer.sign(prepared).tx_blob })).result;
}

describe("keys", () => {
  test("a regular key signs; a disabled master key is refused with tefMASTER_DISABLED; the last key cannot be removed", async () => {
    const owner = await kit.fund({ xrp: 50 });
    const regular = Wallet.generate();
    await kit.apply(owner, { TransactionType: "SetRegularKey", RegularKey: regular.address });
    expect((await submitSignedBy(regular, owner.address, { TransactionType: "AccountSet" })).engine_result).toBe("tesSUCCESS");
    await kit.close();
    // Only the master key may disable itself.
    expect((await submitSignedBy(regular, owner.address, { TransactionType: "AccountSet", SetFlag: 4 })).engine_result).toBe("tecNEED_MASTER_KEY");
    await kit.close();
    await kit.apply(owner, { TransactionType: "AccountSet", SetFlag: 4 });
    expect((await submitSignedBy(owner, owner.address, { TransactionType: "AccountSet" })).engine_result).toBe("tefMASTER_DISABLED");
    expect((await submitSignedBy(regular, owner.address, { TransactionType: "SetRegularKey" })).engine_result).toBe("tecNO_ALTERNATIVE_KEY");
    const info = (await request({ command: "account_info", account: owner.address, ledger_index: "current" })).result;
    expect(info.account_flags.disableMasterKey).toBe(true);
    expect(info.account_data.RegularKey).toBe(regular.address);
    expect((await kit.submit(owner, { TransactionType: "SetRegularKey", RegularKey: owner.address })).engine_result).toBe("temBAD_REGKEY");
  });
});

describe("account checks", () => {
  test("gateway_balances sums what an issuer owes and lists what its hot wallets hold", async () => {
    const hot = await kit.fund({ xrp: 20, vvx: 500 });
    const { result } = await request({ command: "gateway_balances", account: issuer, hotwallet: [hot.address], ledger_index: "validated" });
    expect(result.balances[hot.address]).toEqual([{ currency: "VVX", value: "500" }]);
    expect(Number(result.obligations.VVX)).toBeGreaterThan(1_000_000_000); // the treasury's billion and the pool's tokens
  });

  test("noripple_check suggests DefaultRipple to a gateway and NoRipple to a user, with the fixing transactions", async () => {
    const gateway = await kit.fund({ xrp: 20 });
    const g = (await request({ command: "noripple_check", account: gateway.address, role: "gateway", transactions: true })).result;
    expect(g.problems).toEqual(["You should immediately set your default ripple flag"]);
    expect(g.transactions).toEqual([expect.objectContaining({ TransactionType: "AccountSet", SetFlag: 8, Account: gateway.address, Fee: 10 })]);
    const user = await kit.fund({ xrp: 20 });
    await kit.apply(user, { TransactionType: "TrustSet", LimitAmount: { currency: "VVX", issuer, value: "100" }, Flags: 0x00040000 });
    const u = (await request({ command: "noripple_check", account: user.address, role: "user", transactions: true })).result;
    expect(u.problems).toEqual([`You should probably set the no ripple flag on your VVX line to ${issuer}`]);
    expect(u.transactions[0]).toMatchObject({ TransactionType: "TrustSet", Flags: 0x00020000, LimitAmount: { currency: "VVX", issuer, value: "100" } });
    const bad = await kit.client.request({ command: "noripple_check", account: user.address } as never).catch((e) => e.data);
    expect(bad.error).toBe("invalidParams");
  });

  test("deposit_authorized: true unless the destination requires deposit authorization", async () => {
    const a = await kit.fund({ xrp: 20 });
    const b = await kit.fund({ xrp: 20 });
    const { result } = await request({ command: "deposit_authorized", source_account: a.address, destination_account: b.address });
    expect(result).toMatchObject({ deposit_authorized: true, source_account: a.address, destination_account: b.address, validated: false });
    const missing = await kit.client.request({ command: "deposit_authorized", source_account: a.address, destination_account: Wallet.generate().address } as never).catch((e) => e.data);
    expect(missing.error).toBe("dstActNotFound");
  });

  test("simulate reports the outcome and metadata of an unsigned transaction and changes nothing", async () => {
    const w = await kit.fund({ xrp: 20 });
    const before = (await request({ command: "account_info", account: w.address, ledger_index: "current" })).result.account_data;
    const sim = (await request({ command: "simulate", tx_json: { TransactionType: "AccountSet", Account: w.address, SetFlag: 10, NFTokenMinter: issuer } })).result;
    expect(sim).toMatchObject({ applied: false, engine_result: "tesSUCCESS", tx_json: { Sequence: before.Sequence, Fee: "10" } });
    expect(sim.meta.AffectedNodes[0].ModifiedNode.FinalFields.NFTokenMinter).toBe(issuer);
    const after = (await request({ command: "account_info", account: w.address, ledger_index: "current" })).result.account_data;
    expect(after).toEqual(before);
    const binary = (await request({ command: "simulate", tx_json: { TransactionType: "AccountSet", Account: w.address }, binary: true })).result;
    expect(typeof binary.meta_blob).toBe("string");
    const prepared = await kit.client.autofill({ TransactionType: "AccountSet", Account: w.address });
    const signed = await kit.client.request({ command: "simulate", tx_blob: w.sign(prepared).tx_blob } as never).catch((e) => e.data);
    expect(signed.error).toBe("txSigned");
  });
});
