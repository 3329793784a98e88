import { expect, test } from "bun:test";
import { Glob } from "bun";
import { join, relative } from "node:path";

const WEB = join(import.meta.dir, "..");

test("every PixiJS import goes through lib/pixi.ts (the CSP forbids eval; it installs PixiJS's eval-free code)", async () => {
  const direct: string[] = [];
  for await (const file of new Glob("**/*.{ts,tsx}").scan(WEB)) {
    if (file === "lib/pixi.ts" || file.endsWith(".test.ts") || file.endsWith(".test.tsx")) continue;
    const text = await Bun.file(join(WEB, file)).text();
    if (/from\s+["']pixi\.js["']|import\(\s*["']pixi\.js["']\s*\)|require\(\s*["']pixi\.js["']\s*\)/.test(text)) direct.push(relative(WEB, join(WEB, file)));
  }
  expect(direct).toEqual([]);
});
