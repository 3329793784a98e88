import { afterEach, describe, expect, test } from "bun:test";
import { memoryLogger } from "../log";
import { queryOf, ReadLane, type LaneAnswer } from "./readLane";

const servers: { stop(force?: boolean): unknown }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

/** A server with the lane's routes and a fallback that answers (and counts) what the lane leaves. */
function serve(paths: Record<string, LaneAnswer>) {
  const lane = new ReadLane();
  for (const [path, answer] of Object.entries(paths)) lane.add(path, answer);
  const log = memoryLogger();
  const observed: unknown[][] = [];
  const fellBack: string[] = [];
  const fallback = (request: Request) => (fellBack.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`), new Response("elysia"));
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", routes: lane.routes({ log, observe: (...args) => void observed.push(args), fallback }), fetch: fallback });
  servers.push(server);
  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, init);
    return `${res.status} ${await res.text()}`;
  };
  return { get, log, observed, fellBack };
}

describe("read lane", () => {
  test("a fresh cached answer goes out from the lane; undefined, a throw and other methods go to Elysia", async () => {
    let fresh = true;
    const { get, fellBack, log, observed } = serve({
      "/api/cached": () => (fresh ? new Response("cached") : undefined),
      "/api/refused": () => {
        throw new Error("bad input: Elysia's route says so");
      },
      "/api/wallet/:wallet": (request) => new Response(`wallet ${request.params.wallet}`),
    });
    expect(await get("/api/cached")).toBe("200 cached");
    expect(await get("/api/wallet/rAbc")).toBe("200 wallet rAbc");
    expect(fellBack).toEqual([]);
    fresh = false;
    expect(await get("/api/cached?x=1")).toBe("200 elysia");
    expect(await get("/api/refused")).toBe("200 elysia");
    expect(await get("/api/cached", { method: "POST", body: "{}" })).toBe("200 elysia");
    expect(fellBack).toEqual(["GET /api/cached?x=1", "GET /api/refused", "POST /api/cached"]);
    // Logged by path, counted by route (the metrics' label is the route, not each wallet).
    expect(log.lines.filter((l) => l.includes("request")).map((l) => l.replace(/ ms=[\d.]+/, "").split(" INFO ")[1])).toEqual(["request method=GET path=/api/cached status=200", "request method=GET path=/api/wallet/rAbc status=200"]);
    expect(observed.map(([method, route, status]) => [method, route, status])).toEqual([
      ["GET", "/api/cached", 200],
      ["GET", "/api/wallet/:wallet", 200],
    ]);
  });

  test("a path is added once", () => {
    const lane = new ReadLane();
    lane.add("/api/x", () => undefined);
    expect(() => lane.add("/api/x", () => undefined)).toThrow("added twice");
  });

  test("queryOf reads a plain query of known keys; anything else is Elysia's to parse", () => {
    const q = (search: string) => queryOf(new Request(`http://h/api/x${search}`), "wallet", "limit");
    expect(q("")).toEqual({});
    expect(q("?")).toEqual({});
    expect(q("?wallet=rAbc&limit=5")).toEqual({ wallet: "rAbc", limit: "5" });
    for (const odd of ["?other=1", "?limit=1&limit=2", "?limit=%35", "?wallet=a+b", "?limit=", "?limit", "?wallet=rAbc&", "?limit=5#x"]) expect([odd, q(odd)]).toEqual([odd, undefined]);
  });
});
