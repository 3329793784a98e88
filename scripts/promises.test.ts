import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectProgram, promiseProblems } from "./promises";

// The rules of the promise check (scripts/test.sh runs it on the whole project beside the tests: `bun run promises`).
describe("no dropped promises", () => {
  test("the rules catch what they forbid, and leave alone what is handled", () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-promises-"));
    try {
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, target: "ESNext", module: "Preserve", lib: ["ESNext"], types: [] }, include: ["scripts"] }));
      const source = `
        const save = async (n: number): Promise<boolean> => n > 0;
        const maybe = (): Promise<number> | undefined => undefined;
        declare function expect(value: unknown): { toBe(v: unknown): void; resolves: { toBe(v: unknown): Promise<void> } };
        declare function after(fn: () => void): void;
        declare function write(): number | Promise<number>;
        export async function body() {
          save(1);
          if (!save(2)) return;
          const claimed = save(3) ? 1 : 0;
          expect(save(4)).toBe(true);
          after(() => save(5));
          void save(6);
          save(7).catch(() => undefined);
          save(8).then(() => 1, () => 0);
          await save(9);
          if (!(await save(10))) return;
          const pending = maybe();
          if (pending) await pending;
          await expect(save(11)).resolves.toBe(true);
          after(() => void save(12));
          write();
          pay({ tag: save(13) });
          expect(() => save(14)).toBe(true);
          return claimed;
        }
        declare function pay(tx: Record<string, unknown>): void;
      `;
      mkdirSync(join(dir, "scripts"));
      writeFileSync(join(dir, "scripts", "sample.ts"), source);
      const found = promiseProblems(projectProgram(dir), dir).map((p) => `${p.line} ${p.rule}`);
      expect(found).toEqual(["8 floating", "9 truthiness", "10 truthiness", "11 expect", "12 void-callback", "23 value", "24 expect"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

