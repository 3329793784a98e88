import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

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
// Relative imports stay inside the engine (checked by path below); packages: only @noble/hashes.
const ALLOWED_IMPORT = /^((\.\.?\/)+[\w./-]+|@noble\/hashes\/(sha2|hmac|utils)\.js)$/;

// Drops comments so a doc comment may mention what the code must not use.
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Every rule a source file breaks, as readable messages. */
export function purityViolations(source: string, file = "index.ts"): string[] {
  const code = stripComments(source);
  const problems = FORBIDDEN.filter(([pattern]) => pattern.test(code)).map(([, what]) => `uses ${what}`);
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
  for (const specifier of specifiers) {
    const outside = specifier.startsWith(".") && relative(engineDir, join(engineDir, file, "..", specifier)).startsWith("..");
    if (!ALLOWED_IMPORT.test(specifier) || outside) problems.push(`imports "${specifier}"`);
  }
  return problems;
}

const engineDir = import.meta.dir;
/** Every engine source, subfolders included (paths relative to src/engine). */
function engineSources(dir = engineDir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return engineSources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [relative(engineDir, path)] : [];
  });
}
const sources = engineSources();

describe("engine purity", () => {
  test("there are engine sources to check", () => {
    expect(sources).toContain("index.ts");
    expect(sources).toContain("crash.ts");
    expect(sources.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of sources) {
    test(`${file} has no clock, randomness, I/O, DOM, renderer or runtime-specific import`, () => {
      expect(purityViolations(readFileSync(join(engineDir, file), "utf8"), file)).toEqual([]);
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
    expect(purityViolations('import { x } from "../server/db";')).toEqual(['imports "../server/db"']);
    expect(purityViolations('import { x } from "../crash";', "games/dice.ts")).toEqual([]);
    expect(purityViolations('import { x } from "../../shared/api";', "games/dice.ts")).toEqual(['imports "../../shared/api"']);
  });
});
