import { expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { memoryLogger } from "../platform/log";
import { startTestServer } from "../testing/testServer";

const ADMIN = Wallet.generate().classicAddress;
const warningOf = (lines: string[]) => lines.find((l) => l.includes("WARN") && l.includes("ADMIN_WALLETS"));

test("sandbox mode listening beyond localhost with ADMIN_WALLETS set warns at start", async () => {
  const log = memoryLogger();
  const server = await startTestServer({ HOST: "0.0.0.0", ADMIN_WALLETS: ADMIN }, undefined, log);
  await server.stop(true);
  const warning = warningOf(log.lines);
  expect(warning).toBeDefined();
  expect(warning).toContain("host=0.0.0.0");
  expect(warning).toContain("sandbox wallet");
});

test("no warning on localhost, or without admin wallets", async () => {
  const cases: Record<string, string>[] = [{ HOST: "127.0.0.1", ADMIN_WALLETS: ADMIN }, { HOST: "0.0.0.0" }];
  for (const env of cases) {
    const log = memoryLogger();
    const server = await startTestServer(env, undefined, log);
    await server.stop(true);
    expect(warningOf(log.lines)).toBeUndefined();
  }
});
