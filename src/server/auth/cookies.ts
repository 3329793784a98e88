import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Config } from "../platform/config";

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

/** Minimal view of Elysia's cookie jar that the auth helpers need. */
export interface CookieJar {
  [name: string]: { value: unknown; set(options: Record<string, unknown>): unknown; remove(): unknown };
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
 * The browser's binding token when its cookie is one this server issued (the HMAC checks);
 * anything else, made up or tampered with, counts as no cookie at all.
 */
export function clientToken(cookie: CookieJar, config: Pick<Config, "cookieSecret">): string | undefined {
  const value = cookie[CLIENT_COOKIE]?.value;
  if (typeof value !== "string") return undefined;
  const dot = value.indexOf(".");
  const token = validToken(value.slice(0, dot));
  if (dot < 0 || !token) return undefined;
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(clientMac(token, config));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : undefined;
}

/** The browser's binding token, issuing (and setting) a signed one when it has none the server issued. */
export function ensureClientToken(cookie: CookieJar, config: Config): string {
  const existing = clientToken(cookie, config);
  if (existing) return existing;
  const token = newToken();
  cookie[CLIENT_COOKIE]!.set({ value: signedClientValue(token, config), ...cookieAttributes(config, CLIENT_COOKIE_DAYS * 86_400) });
  return token;
}
