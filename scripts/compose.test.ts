import { expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../src/server/platform/config";

// `docker compose config` is not on this machine: the cluster's Compose file is checked here instead.
const root = join(import.meta.dir, "..");
const compose = Bun.YAML.parse(await Bun.file(join(root, "deploy/cluster/compose.yml")).text()) as {
  services: Record<string, { image?: string; build?: { context: string; dockerfile: string }; command?: string[]; environment?: Record<string, string>; ports?: string[] }>;
};
const configSource = await Bun.file(join(root, "src/server/platform/config.ts")).text();
/** The image's own settings (Dockerfile ENV) under every service's environment. */
const imageEnv = Object.fromEntries([...(await Bun.file(join(root, "Dockerfile")).text()).matchAll(/^ENV (.+)$/gm)].flatMap(([, line]) => line!.split(/\s+/).map((kv) => kv.split("=") as [string, string])));

/** A service's environment with Compose's `${VAR:?message}` filled as the README's commands fill them (random hex). */
function filled(env: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{(\w+):\?[^}]*\}/g, (_, name: string) => `${name.toLowerCase()}-${"0".repeat(40)}`)]));
}

const vvxServices = Object.entries(compose.services).filter(([, s]) => s.image === "vvx:local");

test("the cluster's Compose file: the project's image for the sandbox and three instances, official postgres and redis images", () => {
  expect(vvxServices.map(([name]) => name).sort()).toEqual(["sandbox", "vvx-1", "vvx-2", "vvx-3"]);
  for (const [, s] of vvxServices) expect(s.build).toEqual({ context: "../..", dockerfile: "Dockerfile" });
  expect(compose.services.sandbox!.command).toEqual(["sandbox"]);
  expect(compose.services.postgres!.image).toBe("postgres:15");
  expect(compose.services.redis!.image).toBe("redis:7.0");
  // Loopback only: nothing of a sandbox cluster is reachable from other machines.
  for (const s of Object.values(compose.services)) for (const port of s.ports ?? []) expect(port).toStartWith("127.0.0.1:");
});

test("every variable the VVX services set is one config.ts reads, and each service's environment loads without a configuration error", () => {
  for (const [name, s] of vvxServices) {
    for (const variable of Object.keys(s.environment ?? {})) expect({ name, variable, read: configSource.includes(`"${variable}"`) || configSource.includes(`env.${variable}`) }).toEqual({ name, variable, read: true });
    const config = loadConfig({ ...imageEnv, ...filled(s.environment) });
    expect(config.network).toBe("sandbox");
    if (name !== "sandbox") {
      expect(config).toMatchObject({ databaseUrl: expect.stringMatching(/^postgres:\/\/vvx:/), brokerUrl: "redis://redis:6379", sandboxUrl: "http://sandbox:4000", instanceId: name });
      expect(config.sandboxLedgerKey).toBe(loadConfig({ ...imageEnv, ...filled(compose.services.sandbox!.environment) }).sandboxLedgerKey);
    }
  }
});
