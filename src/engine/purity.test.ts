import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// Keeps src/engine pure: no clock, no randomness, no I/O, no DOM, no renderer, no runtime-specific modules.
const FORBIDDEN: readonly [RegExp, string][] = [
  [/\bDate\b/, "Date (a clock)"],
  [/\bMath\s*\.\s*random\b/, "Math.random"],
  [/\bperformance\b/, "performance (a clock)"],
  [/\bfetch\b/, "fetch (I/O)"],
  [/\bXMLHttpRequest\b|\bWebSocket\b/, "network I/O"],
  [/\bsetTimeout\b|\bsetInterval\b|\bqueueMicrotask\b/, "timers"],
  [/\bprocess\b/, "process"],
  [/\bBun\b/, "Bun globals"],
  [/\bdocument\b|\bwindow\b|\bnavigator\b|\blocalStorage\b/, "the DOM"],
  [/pixi/i, "the renderer"],
  [/\brequire\s*\(/, "require"],
  [/\bcrypto\s*\./, "the platform crypto object (differs between Bun and browsers)"],
  [/["']node:|["']bun:/, "node:/bun: modules"],
];
const ALLOWED_IMPORT = /^(\.\/[\w-]+|@noble\/hashes\/(sha2|hmac|utils)\.js)$/;

// Drops comments so a doc comment may mention what the code must not use.
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Every rule a source file breaks, as readable messages. */
export function purityViolations(source: string): string[] {
  const code = stripComments(source);
  const problems = FORBIDDEN.filter(([pattern]) => pattern.test(code)).map(([, what]) => `uses ${what}`);
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
  for (const specifier of specifiers) {
    if (!ALLOWED_IMPORT.test(specifier)) problems.push(`imports "${specifier}"`);
  }
  return problems;
}

const engineDir = import.meta.dir;
const sources = readdirSync(engineDir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));

describe("engine purity", () => {
  test("there are engine sources to check", () => {
    expect(sources).toContain("index.ts");
    expect(sources).toContain("crash.ts");
    expect(sources.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of sources) {
    test(`${file} has no clock, randomness, I/O, DOM, renderer or runtime-specific import`, () => {
      expect(purityViolations(readFileSync(join(engineDir, file), "utf8"))).toEqual([]);
    });
  }

  test("the scanner catches each kind of violation", () => {
    expect(purityViolations("const t = Date.now();")).toEqual(["uses Date (a clock)"]);
    expect(purityViolations("const r = Math.random();")).toEqual(["uses Math.random"]);
    expect(purityViolations('import { readFileSync } from "node:fs";')).toContain('imports "node:fs"');
    expect(purityViolations('import { Application } from "pixi.js";')).toContain('imports "pixi.js"');
    expect(purityViolations("document.body.append(x);")).toEqual(["uses the DOM"]);
    expect(purityViolations("const v = crypto.getRandomValues(a);")).toEqual([
      "uses the platform crypto object (differs between Bun and browsers)",
    ]);
    expect(purityViolations('const m = await import("fs");')).toEqual(['imports "fs"']);
    expect(purityViolations("// Date.now() is not used here\nconst x = 1;")).toEqual([]);
    expect(purityViolations('import { sha256 } from "@noble/hashes/sha2.js";')).toEqual([]);
  });
});
