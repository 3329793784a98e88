import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Config } from "../platform/config";
import { parseCookieHeader } from "../platform/http/cookieHeader";

/** The wallet session cookie (HttpOnly; its SHA-256 is the session's key in SQLite). */
export const SESSION_COOKIE = "vvx_session";
/**
 * The browser binding cookie: set with a sign request and stored (hashed)
 * with it, so only the browser that asked for a sign-in can turn it into a session.
 * Its value is `<token>.<HMAC>`: only the server issues them (rate limits count on that).
 */
export const CLIENT_COOKIE = "vvx_client";
/** Sessions last 30 days from sign-in. */
export const SESSION_DAYS = 30;
/** The binding cookie lives a year; it identifies a browser, not a person. */
export const CLIENT_COOKIE_DAYS = 365;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh random cookie token (32 bytes, base64url). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The token when it has the shape this server issues, else undefined (garbage is ignored, not trusted). */
export function validToken(value: unknown): string | undefined {
  return typeof value === "string" && TOKEN.test(value) ? value : undefined;
}

/** SHA-256 hex: what the database keeps instead of a token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Attributes shared by the product's cookies: HttpOnly, SameSite=Lax, Secure behind https. */
export function cookieAttributes(config: Config, maxAgeSeconds: number) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: config.publicUrl.startsWith("https:"),
    path: "/",
    maxAge: maxAgeSeconds,
  };
}

/** A cookie's attributes, as cookieAttributes makes them (plus `expires` to clear one). */
export type CookieAttributes = ReturnType<typeof cookieAttributes> & { expires?: Date };

/** What RequestCookies writes Set-Cookie into: Elysia's `set` (its headers go out with the answer, errors included). */
interface HeaderSink {
  headers: Record<string, unknown>;
}

/**
 * One request's cookies: read from its Cookie header, set through `set.headers` (Set-Cookie).
 * HTTP routes never take Elysia's `cookie` from the context: one route reading it makes Elysia
 * parse the cookies of, and copy the Response of, every route of the app. Parsing follows what
 * Elysia did (the `cookie` package's rules, first pair of a name wins, percent-decoding), and
 * Set-Cookie is written as it did (`cookie`'s serializer: Max-Age, Path, Expires, HttpOnly, Secure,
 * SameSite), one header per name, the last set of a name winning.
 */
export class RequestCookies {
  private parsed: Map<string, string | null> | undefined;
  private readonly outgoing = new Map<string, { value: string; header: string }>();

  constructor(
    private readonly header: string | null,
    private readonly set: HeaderSink,
  ) {}

  /** The cookie's value: set in this request, else sent with it; undefined when neither. */
  get(name: string): string | undefined {
    const sent = this.outgoing.get(name);
    if (sent) return sent.value;
    this.parsed ??= parseCookieHeader(this.header);
    return this.parsed.get(name) ?? undefined;
  }

  /** Sets the cookie on the answer. */
  put(name: string, value: string, attributes: CookieAttributes): void {
    this.outgoing.set(name, { value, header: serializeCookie(name, value, attributes) });
    const headers = [...this.outgoing.values()].map((c) => c.header);
    this.set.headers["set-cookie"] = headers.length === 1 ? headers[0] : headers;
  }
}

/** The cookies of a request's context (its Cookie header; Set-Cookie through its `set`). */
export function requestCookies(ctx: { request: Request; set: HeaderSink }): RequestCookies {
  return new RequestCookies(ctx.request.headers.get("cookie"), ctx.set);
}

/** One cookie of a request (read only). */
export function readCookie(request: Request, name: string): string | undefined {
  return parseCookieHeader(request.headers.get("cookie")).get(name) ?? undefined;
}

/** A Set-Cookie header in the `cookie` package's format and attribute order. */
function serializeCookie(name: string, value: string, a: CookieAttributes): string {
  let text = `${name}=${value ? encodeURIComponent(value) : ""}; Max-Age=${a.maxAge}; Path=${a.path}`;
  if (a.expires) text += `; Expires=${a.expires.toUTCString()}`;
  if (a.httpOnly) text += "; HttpOnly";
  if (a.secure) text += "; Secure";
  return `${text}; SameSite=Lax`;
}

/** The cookie value for a binding token: the token and its HMAC under the server's key. */
function signedClientValue(token: string, config: Pick<Config, "cookieSecret">): string {
  return `${token}.${clientMac(token, config)}`;
}

function clientMac(token: string, config: Pick<Config, "cookieSecret">): string {
  if (!config.cookieSecret) throw new Error("cookieSecret is not set (createContext sets it)");
  return createHmac("sha256", config.cookieSecret).update(`${CLIENT_COOKIE}:${token}`).digest("base64url");
}

/**
 * The browser's binding token when its cookie (the value of CLIENT_COOKIE) is one this server issued (the HMAC checks);
 * anything else, made up or tampered with, counts as no cookie at all.
 */
export function clientToken(value: unknown, config: Pick<Config, "cookieSecret">): string | undefined {
  if (typeof value !== "string") return undefined;
  const dot = value.indexOf(".");
  const token = validToken(value.slice(0, dot));
  if (dot < 0 || !token) return undefined;
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(clientMac(token, config));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : undefined;
}

/** The browser's binding token, issuing (and setting) a signed one when it has none the server issued. */
export function ensureClientToken(cookies: RequestCookies, config: Config): string {
  const existing = clientToken(cookies.get(CLIENT_COOKIE), config);
  if (existing) return existing;
  const token = newToken();
  cookies.put(CLIENT_COOKIE, signedClientValue(token, config), cookieAttributes(config, CLIENT_COOKIE_DAYS * 86_400));
  return token;
}
