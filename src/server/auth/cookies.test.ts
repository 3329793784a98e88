import { describe, expect, test } from "bun:test";
import { parseCookie, serializeCookie } from "elysia/cookies";
import { parseCookieHeader } from "../platform/http/cookieHeader";
import { cookieAttributes, RequestCookies } from "./cookies";
import type { Config } from "../platform/config";

// The routes read cookies from the Cookie header themselves instead of Elysia's jar (see RequestCookies):
// what they read and what they set must stay exactly what Elysia's jar read and set.
const headers = [
  "",
  "a",
  "vvx_session=abc",
  "vvx_session=abc; vvx_client=tok.mac",
  " vvx_session = spaced ;\tvvx_client=\ttabbed\t",
  "vvx_session=first; vvx_session=second",
  "junk; vvx_session=after-junk; =empty-name; x",
  "vvx_session=%41%42; vvx_client=%2541",
  "vvx_session=%E0%A4%A; vvx_client=ok",
  "vvx_session=%25E0%25A4%25A; vvx_session=later",
  "vvx_session=; vvx_client=a=b=c",
  "vvx_session=\"quoted\"",
  "__proto__=x; constructor=y; vvx_session=z",
  "vvx_session=[1,2]; vvx_client={\"a\":1}",
];

describe("RequestCookies reads and sets what Elysia's cookie jar did", () => {
  test.each(headers)("Cookie: %p", async (header) => {
    const jar = (await parseCookie({ headers: {} } as never, header || null, { path: "/" } as never)) as unknown as Record<string, { value: unknown }>;
    const ours = parseCookieHeader(header || null);
    for (const name of ["vvx_session", "vvx_client", "a", "x", ""]) {
      const theirs = jar[name]?.value;
      // Elysia turned JSON-looking values into objects; every reader of a product cookie checks for a string shape.
      const expected = typeof theirs === "string" ? theirs : theirs === null || theirs === undefined ? undefined : JSON.stringify(theirs);
      const got = ours.get(name) ?? undefined;
      expect(got === undefined ? undefined : typeof theirs === "object" && theirs !== null ? JSON.stringify(JSON.parse(got)) : got).toBe(expected);
    }
  });

  test("Set-Cookie headers are byte for byte Elysia's, one per name, the last set winning", () => {
    for (const publicUrl of ["http://localhost:3000", "https://vvx.example"]) {
      const config = { publicUrl } as Config;
      const set = { headers: {} as Record<string, unknown> };
      const cookies = new RequestCookies("vvx_session=old", set);
      cookies.put("vvx_client", "tok.mac-_", cookieAttributes(config, 365 * 86_400));
      expect(set.headers["set-cookie"]).toBe(serializeCookie({ vvx_client: { value: "tok.mac-_", ...cookieAttributes(config, 365 * 86_400) } }) as string);
      cookies.put("vvx_session", "first", cookieAttributes(config, 30 * 86_400));
      const cleared = { ...cookieAttributes(config, 0), expires: new Date(0) };
      cookies.put("vvx_session", "", cleared);
      expect(set.headers["set-cookie"]).toEqual(serializeCookie({ vvx_client: { value: "tok.mac-_", ...cookieAttributes(config, 365 * 86_400) }, vvx_session: { value: "", ...cleared } }) as string[]);
      expect(cookies.get("vvx_session")).toBe("");
      expect(cookies.get("vvx_client")).toBe("tok.mac-_");
    }
  });
});
