import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import ts from "typescript";
import { analyze, boundaryProblems, contractProblems, findCycles, isUpward, type ImportEdge } from "./layout";

// The rules of ARCHITECTURE.md, enforced: `bun run layout` prints the same facts.
const report = analyze(resolve(import.meta.dir, ".."));
const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly });

describe("the code's layout", () => {
  test("it reads the whole tree", () => {
    expect(report.files.length).toBeGreaterThan(150);
    expect(report.files).toContain("src/server/app/main.ts");
    expect(report.edges.length).toBeGreaterThan(500);
  });

  test("no import cycles", () => {
    expect(report.cycles).toEqual([]);
  });

  test("no upward imports outside the declared exceptions", () => {
    expect(report.upward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  test("the boundaries hold: engine, shared, platform, app, sandbox, games, web", () => {
    expect(report.boundaries).toEqual([]);
  });

  test("contracts in one place: every /api route's schemas are src/shared/api's, the web's API types are theirs", () => {
    expect(report.contracts).toEqual([]);
  });

  test("no file over 500 lines outside the sandbox ledger core", () => {
    expect(report.longFiles).toEqual([]);
  });

  test("no function over 80 lines without a comment saying why", () => {
    expect(report.longFunctions.filter((f) => !f.justified).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines})`)).toEqual([]);
  });
});

describe("the rules catch what they forbid", () => {
  const broken = (from: string, to: string, typeOnly = false) => boundaryProblems(edge(from, to, typeOnly));

  test("the engine imports nothing outside itself, subfolders included", () => {
    expect(broken("src/engine/games/dice.ts", "src/engine/crash.ts")).toEqual([]);
    expect(broken("src/engine/games/dice.ts", "src/shared/channels.ts")[0]).toContain("the engine imports nothing outside itself");
  });

  test("shared imports only the engine", () => {
    expect(broken("src/shared/api/nfts.ts", "src/engine/tiers.ts")).toEqual([]);
    expect(broken("src/shared/api/nfts.ts", "src/server/nfts/model.ts")[0]).toContain("shared imports only the engine");
  });

  test("platform imports no feature", () => {
    expect(broken("src/server/platform/ws/hub.ts", "src/shared/channels.ts")).toEqual([]);
    expect(broken("src/server/platform/ws/hub.ts", "src/server/nfts/service.ts")[0]).toContain("platform imports no feature");
  });

  test("nothing imports app/ but the test kits and scripts", () => {
    expect(broken("src/server/testing/testServer.ts", "src/server/app/main.ts")).toEqual([]);
    expect(broken("scripts/bench/purchase.ts", "src/server/app/main.ts")).toEqual([]);
    expect(broken("src/server/nfts/index.ts", "src/server/app/context.ts", true)[0]).toContain("nothing imports app/");
  });

  test("only app/ imports the sandbox, and only its index", () => {
    expect(broken("src/server/app/main.ts", "src/server/sandbox/index.ts")).toEqual([]);
    expect(broken("src/server/sandbox/xumm/service.ts", "src/server/sandbox/xumm/views.ts")).toEqual([]);
    expect(broken("src/server/nfts/service.ts", "src/server/sandbox/index.ts", true)[0]).toContain("only app/ imports the sandbox");
    expect(broken("src/server/app/main.ts", "src/server/sandbox/xumm/service.ts")[0]).toContain("only sandbox/index.ts");
  });

  test("games never import each other; games/kit is shared", () => {
    expect(broken("src/server/games/crash/service.ts", "src/server/games/kit/index.ts")).toEqual([]);
    expect(broken("src/server/games/crash/service.ts", "src/server/games/crash/purposes.ts")).toEqual([]);
    expect(broken("src/server/games/crash/service.ts", "src/server/games/slots/model.ts")[0]).toContain("games never import each other");
  });

  test("features talk through their index.ts: never another feature's internals or schema", () => {
    expect(broken("src/server/rewards/service.ts", "src/server/history/index.ts")).toEqual([]);
    expect(broken("src/server/games/racing/bets.ts", "src/server/games/kit/index.ts")).toEqual([]);
    expect(broken("src/server/rewards/repository.ts", "src/server/ledger/schema.ts")).toEqual([]);
    expect(broken("src/server/app/main.ts", "src/server/nfts/history.ts")).toEqual([]);
    expect(broken("src/server/stats/service.ts", "src/server/nfts/schema.ts")[0]).toContain("features talk through their index.ts");
    expect(broken("src/server/fair/index.ts", "src/server/wallet/service.ts")[0]).toContain("features talk through their index.ts");
    expect(broken("src/server/games/racing/bets.ts", "src/server/games/kit/schema.ts")[0]).toContain("features talk through their index.ts");
    expect(broken("src/server/games/crash/index.ts", "src/server/history/model.ts")[0]).toContain("features talk through their index.ts");
    expect(broken("src/server/rewards/api.test.ts", "src/server/nfts/schema.ts")).toEqual([]);
  });

  test("web never imports server code; the API schemas only as types", () => {
    expect(broken("src/web/lib/socket.ts", "src/shared/channels.ts")).toEqual([]);
    expect(broken("src/web/features/nfts/api.ts", "src/shared/api/nfts.ts", true)).toEqual([]);
    expect(broken("src/web/features/nfts/api.ts", "src/shared/api/nfts.ts", false)[0]).toContain("as types only");
    expect(broken("src/web/features/nfts/api.ts", "src/server/nfts/model.ts", true)[0]).toContain("web never imports server code");
  });

  test("a route without shared schemas, and a web API type written by hand, are refused", () => {
    const check = (file: string, code: string) =>
      contractProblems(file, ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true), (name) => (name.startsWith("Shared") ? "src/shared/api/x.ts" : name === "Local" ? "src/server/x/model.ts" : undefined));
    const route = (options: string) => check("src/server/x/index.ts", `app.post("/api/x", () => 1, ${options});`);
    expect(route("{ body: SharedBody, query: SharedQuery, response: SharedResponse }")).toEqual([]);
    expect(route("{ response: { 200: SharedOk, 503: SharedOk } }")).toEqual([]);
    expect(route("{ body: SharedBody }")[0]).toContain("POST /api/x: declares no response schema");
    expect(route("{ body: t.Object({}), response: SharedResponse }")[0]).toContain("its body schema is not imported from src/shared/api");
    expect(route("{ query: Local, response: SharedResponse }")[0]).toContain("its query schema is not imported from src/shared/api");
    expect(check("src/server/sandbox/x/index.ts", `app.get("/api/x", () => 1);`)).toEqual([]);
    const web = (code: string) => check("src/web/features/x/api.ts", code);
    expect(web("export type Row = typeof SharedRow.static;\nexport const load = () => getJson<typeof SharedList.static>(url);")).toEqual([]);
    expect(web("export interface Row { id: string }")[0]).toContain("interface Row");
    expect(web("export type Row = { id: string };")[0]).toContain("a hand-written object type");
    expect(web("export const load = () => getJson<{ rows: Row[] }>(url);")[0]).toContain("a hand-written object type");
  });

  test("any web file that types an API's answer takes the type from src/shared/api or an api.ts", () => {
    const imports: Record<string, string> = { SharedList: "src/shared/api/x.ts", Row: "src/web/features/x/api.ts", Tier: "src/web/features/x/tiers.ts" };
    const page = (code: string) => contractProblems("src/web/features/x/Page.tsx", ts.createSourceFile("Page.tsx", code, ts.ScriptTarget.Latest, true), (name) => imports[name]);
    // From the contract: a schema's type, an api.ts type, a local `typeof X.static` alias; a fetcher's own result is not an answer.
    expect(page("const a = useSWR<typeof SharedList.static>(key, getJson); const b = getJson<Row[]>(url); const c = useSWR(key, load);")).toEqual([]);
    expect(page("type Rows = typeof SharedList.static;\nconst r = (await res.json()) as Rows;")).toEqual([]);
    // Written by hand: an object type at the call, an interface or object alias of this file, a type of another web file.
    expect(page("const a = useSWR<{ balance: string }>(key, getJson);")[0]).toContain("an API answer typed by hand");
    expect(page("const b = sendJson<{ walletAddress: string }>('POST', url, body);")[0]).toContain("an API answer typed by hand");
    expect(page("interface Status { signed: boolean }\nconst s = (await res.json()) as Status;")[0]).toContain("type Status is written here");
    expect(page("type Status = { signed: boolean };\nconst s = await getJson<Status>(url);")[0]).toContain("type Status is written here");
    expect(page("const t = useSWR<Tier[]>(key, getJson);")[0]).toContain("type Tier is from src/web/features/x/tiers.ts");
    // Tests may type what they fake as they like.
    expect(contractProblems("src/web/features/x/Page.test.tsx", ts.createSourceFile("t.tsx", "getJson<{ a: 1 }>(u)", ts.ScriptTarget.Latest, true), () => undefined)).toEqual([]);
  });

  test("upward imports are found by layer; tests may reach the test kits", () => {
    expect(isUpward(edge("src/server/platform/db/index.ts", "src/server/ledger/outbox.ts"))).toBe(true);
    expect(isUpward(edge("src/server/signing/service.ts", "src/server/auth/cookies.ts"))).toBe(true);
    expect(isUpward(edge("src/server/auth/service.ts", "src/server/signing/service.ts"))).toBe(false);
    expect(isUpward(edge("src/server/nfts/purchase.test.ts", "src/server/testing/nftKit.ts"))).toBe(false);
  });

  test("cycles are found (analyze passes only the imports that load code)", () => {
    const files = ["a.ts", "b.ts", "c.ts"];
    expect(findCycles(files, [edge("a.ts", "b.ts"), edge("b.ts", "a.ts", true), edge("b.ts", "c.ts")])).toEqual([["a.ts", "b.ts"]]);
    expect(findCycles(files, [edge("a.ts", "b.ts"), edge("b.ts", "c.ts")])).toEqual([]);
  });
});
