import { createHash, randomBytes } from "node:crypto";
import type { Config } from "../platform/config";

/** The wallet session cookie (HttpOnly; its SHA-256 is the session's key in SQLite). */
export const SESSION_COOKIE = "vvx_session";
/**
 * The browser binding cookie: set with a sign request and stored (hashed)
 * with it, so only the browser that asked for a sign-in can turn it into a session.
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

/** The browser's binding token, creating and setting it when absent. */
export function ensureClientToken(cookie: CookieJar, config: Config): string {
  const existing = validToken(cookie[CLIENT_COOKIE]?.value);
  if (existing) return existing;
  const token = newToken();
  cookie[CLIENT_COOKIE]!.set({ value: token, ...cookieAttributes(config, CLIENT_COOKIE_DAYS * 86_400) });
  return token;
}

/** The browser's binding token if it has one. */
export function clientToken(cookie: CookieJar): string | undefined {
  return validToken(cookie[CLIENT_COOKIE]?.value);
}
