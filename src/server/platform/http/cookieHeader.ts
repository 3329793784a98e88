// The Cookie header as Elysia read it, for HTTP routes (auth/cookies.ts) and the /ws upgrade alike.
/** Percent-decoding that gives up on malformed input (the `cookie` package's rule). */
function decodeLoose(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Trims spaces and tabs (not other whitespace), as the `cookie` package does. */
function trimPair(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return text.slice(start, end);
}

/**
 * A Cookie header's pairs by name: `name=value` pairs split at `;` (a part without `=` is skipped),
 * the first pair of a name kept, values percent-decoded twice as Elysia did (the `cookie` package
 * once, then Elysia's own decode, whose failure is null: that name has no value).
 */
export function parseCookieHeader(header: string | null): Map<string, string | null> {
  const out = new Map<string, string | null>();
  if (!header || header.length < 2) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = trimPair(part.slice(0, eq));
    if (out.has(name) || name === "__proto__" || name === "constructor" || name === "prototype") continue;
    const once = decodeLoose(trimPair(part.slice(eq + 1)));
    try {
      out.set(name, once.includes("%") ? decodeURIComponent(once) : once);
    } catch {
      out.set(name, null);
    }
  }
  return out;
}
