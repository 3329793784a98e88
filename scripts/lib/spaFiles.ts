// The production SPA written to a folder: what `bun run build` embeds in the binary (scripts/build.ts) and what
// scripts/test.sh hands every test file's servers (scripts/lib/prebuilt.ts), bundled once with SPA_BUILD_OPTIONS.
import { mkdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { isCompressible, type Compressed } from "../../src/server/platform/http/compression";
import { SPA_BUILD_OPTIONS, type PrebuiltSpa } from "../../src/server/platform/http/spa";

const root = join(import.meta.dir, "../..");

/** The SPA as PREBUILT_SPA describes it (file fields are the paths written), and its text's size raw and as brotli. */
export interface WrittenSpa {
  spa: PrebuiltSpa;
  raw: number;
  br: number;
}

/** Bundles the SPA into `dir` (emptied first), each text file with the compressed copies `compress` makes beside it. */
export async function writeSpa(dir: string, compress: (bytes: Uint8Array<ArrayBuffer>) => Promise<Compressed>): Promise<WrittenSpa> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const spa = await Bun.build({ entrypoints: [join(root, "src/web/index.html")], ...SPA_BUILD_OPTIONS });
  if (!spa.success) throw new AggregateError(spa.logs, "the SPA did not build");
  const write = async (name: string, data: Uint8Array) => {
    const file = join(dir, name);
    await Bun.write(file, data);
    return file;
  };
  const written: WrittenSpa = { spa: { html: "", assets: [] }, raw: 0, br: 0 };
  for (const out of spa.outputs) {
    const bytes = new Uint8Array(await out.arrayBuffer());
    const name = basename(out.path);
    if (out.type.startsWith("text/html")) {
      written.spa.html = await write(name, bytes);
      continue;
    }
    const asset: PrebuiltSpa["assets"][number] = { path: `/${name}`, file: await write(name, bytes), contentType: out.type, ...(out.hash ? { etag: out.hash } : {}) };
    if (isCompressible(out.type)) {
      const copies = await compress(bytes);
      for (const [encoding, data] of Object.entries(copies) as [keyof Compressed, Uint8Array][]) asset[encoding] = await write(`${name}.${encoding}`, data);
      written.raw += bytes.length;
      written.br += copies.br?.length ?? bytes.length;
    }
    written.spa.assets.push(asset);
  }
  if (!written.spa.html) throw new Error("the SPA build produced no page");
  return written;
}
