// `bun run layout`: prints the facts that keep the code changeable. Import cycles, imports that
// point up the layers (ARCHITECTURE.md) outside the declared exceptions, the boundary rules
// (engine, shared, platform, app, sandbox, games, web; a feature reaches another only through its
// index.ts), files over 500 lines and functions over
// 80 lines without a comment saying why. scripts/layout.test.ts fails when any of them is not empty.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Where the code lives (relative to the repository root). */
const SOURCE_ROOTS = ["src", "scripts", "e2e"];
const EXTENSIONS = [".ts", ".tsx"];
/** Longest file, in lines, outside the sandbox ledger core. */
export const MAX_FILE_LINES = 500;
/** Longest function, in lines, unless a comment on it says why ("Long because ..."). */
export const MAX_FUNCTION_LINES = 80;
/** The sandbox ledger core: a rippled stand-in whose transaction engine may have long files and functions. */
const LONG_FILES_ALLOWED = /^src\/server\/sandbox\/ledger\//;
/** The marker of a justified long function, in a comment on it. */
const LONG_REASON = /long because/i;

/**
 * The server's layers, lowest first: an import may point at the same layer or a lower one.
 * Folders not named here are features (nfts, rewards, swap ...). games/ holds kit/ and the games.
 */
const SERVER_LAYERS: Record<string, number> = {
  platform: 0,
  ledger: 1,
  payments: 2,
  signing: 3,
  auth: 4,
  // features: 5
  games: 6,
  sandbox: 7,
  app: 8,
  // Test kits build the whole app (startTestServer), so they sit above the composition root.
  testing: 9,
};
const FEATURE_LAYER = 5;

/** Upward imports that are allowed, as "from -> to" path prefixes, each with its reason. */
export const DECLARED_EXCEPTIONS: { from: string; to: string; why: string }[] = [
  {
    from: "src/server/sandbox/ledger/testkit.ts",
    to: "src/server/testing/",
    why: "the sandbox ledger's own test kit (types only) lives beside the ledger core it tests",
  },
];

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface FunctionInfo {
  file: string;
  line: number;
  name: string;
  lines: number;
  justified: boolean;
}

export interface LayoutReport {
  files: string[];
  edges: ImportEdge[];
  /** Cycles of imports that load code (a file's module runs before its own imports finish). */
  cycles: string[][];
  /** Cycles only through `import type` (erased at run time): listed, not forbidden. */
  typeCycles: string[][];
  upward: ImportEdge[];
  /** Broken boundary rules, as readable lines. */
  boundaries: string[];
  /** Routes whose schemas are not src/shared/api's, and web API files that write types by hand. */
  contracts: string[];
  longFiles: { file: string; lines: number }[];
  longFunctions: FunctionInfo[];
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (EXTENSIONS.some((e) => name.endsWith(e)) && !name.endsWith(".d.ts")) out.push(path);
  }
}

/** The repository-relative file an import specifier points at, or undefined for packages and non-code files. */
function resolveImport(root: string, fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(root, dirname(fromFile), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, "index" + e))];
  for (const c of candidates) {
    try {
      if (statSync(c).isFile() && EXTENSIONS.some((e) => c.endsWith(e))) return relative(root, c);
    } catch {
      // not this candidate
    }
  }
  return undefined;
}

/** Every import and re-export of a source file, with whether it brings in types only. */
function importsOf(source: ts.SourceFile): { specifier: string; typeOnly: boolean }[] {
  const out: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Each name a file imports (named or default), with the specifier it comes from. */
function importedNames(source: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || !s.importClause) continue;
    const spec = s.moduleSpecifier.text;
    if (s.importClause.name) names.set(s.importClause.name.text, spec);
    const bindings = s.importClause.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.set(e.name.text, spec);
  }
  return names;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** The server layer of a file under src/server, or undefined elsewhere. */
function serverLayer(file: string): number | undefined {
  const m = /^src\/server\/([^/]+)\//.exec(file);
  if (!m) return undefined;
  return SERVER_LAYERS[m[1]!] ?? FEATURE_LAYER;
}

/** The game folder (games/<name>/) of a file, or undefined. */
const gameOf = (file: string) => /^src\/server\/games\/([^/]+)\//.exec(file)?.[1];

/**
 * The server feature a file belongs to ("nfts", "games/kit", "games/crash" ...), or undefined for
 * the layers below and above the features (platform ... auth, sandbox, app, testing).
 */
export function featureOf(file: string): string | undefined {
  const m = /^src\/server\/([^/]+)\/(?:([^/]+)\/)?/.exec(file);
  if (!m) return undefined;
  if (m[1] === "games") return m[2] && file !== `src/server/games/${m[2]}` ? `games/${m[2]}` : undefined;
  return m[1]! in SERVER_LAYERS ? undefined : m[1];
}

/** Boundary rules broken by one import (empty when it is fine). */
export function boundaryProblems(edge: ImportEdge): string[] {
  const { from, to } = edge;
  // Tests reach the app through the test kits (src/server/testing), wherever they sit.
  if (isTest(from) && to.startsWith("src/server/testing/")) return [];
  const problems: string[] = [];
  const say = (rule: string) => problems.push(`${from} -> ${to}: ${rule}`);
  const inDir = (file: string, dir: string) => file.startsWith(dir + "/");
  if (inDir(from, "src/engine") && !inDir(to, "src/engine")) say("the engine imports nothing outside itself");
  if (inDir(from, "src/shared") && !inDir(to, "src/shared") && !inDir(to, "src/engine")) say("shared imports only the engine");
  if (inDir(from, "src/server/platform") && !["src/server/platform", "src/shared", "src/engine"].some((d) => inDir(to, d))) say("platform imports no feature");
  if (inDir(to, "src/server/app") && !inDir(from, "src/server/app") && !inDir(from, "src/server/testing") && !inDir(from, "scripts")) {
    say("nothing imports app/ (except src/server/testing and scripts)");
  }
  if (inDir(to, "src/server/sandbox") && !inDir(from, "src/server/sandbox")) {
    if (to !== "src/server/sandbox/index.ts") say("only sandbox/index.ts is imported from the sandbox");
    else if (!inDir(from, "src/server/app")) say("only app/ imports the sandbox");
  }
  const [a, b] = [gameOf(from), gameOf(to)];
  if (a && b && a !== b && b !== "kit") say("games never import each other (games/kit is shared)");
  const [fa, fb] = [featureOf(from), featureOf(to)];
  if (!isTest(from) && fa && fb && fa !== fb && to !== `src/server/${fb}/index.ts`) {
    say(`features talk through their index.ts (import src/server/${fb}/index.ts, not its internals or schema)`);
  }
  if (inDir(from, "src/web") && inDir(to, "src/server")) say("web never imports server code");
  if (inDir(from, "src/web") && inDir(to, "src/shared/api") && !edge.typeOnly) say("web imports the API schemas as types only (import type)");
  return problems;
}

export function isUpward(edge: ImportEdge): boolean {
  if (isTest(edge.from)) return false;
  const [a, b] = [serverLayer(edge.from), serverLayer(edge.to)];
  if (a === undefined || b === undefined || b <= a) return false;
  return !DECLARED_EXCEPTIONS.some((x) => edge.from.startsWith(x.from) && edge.to.startsWith(x.to));
}

const ROUTE_METHODS = new Set(["get", "post", "put", "patch", "delete"]);
/** The route options that carry schemas of the API's contract (params are path text, checked by the route). */
const CONTRACT_SCHEMAS = ["body", "query", "response"];
/** The browser's API clients: their types are the shared schemas' (`typeof X.static`), never written by hand. */
const isWebApiFile = (file: string) => /^src\/web\/features\/.*(\/api|Api)\.tsx?$/.test(file);
/** A hand-written object type where an API type is declared: a type alias, or the type a call asks for (getJson<...>). */
const handWritten = (node: ts.Node): boolean => {
  const declares = (n: ts.Node) => ts.isTypeAliasDeclaration(n) || (ts.isCallExpression(n) && !!n.typeArguments?.length);
  for (let n: ts.Node | undefined = node.parent; n && !ts.isSourceFile(n); n = n.parent) if (declares(n)) return true;
  return false;
};

/** The browser's calls that answer with an API's JSON: their type arguments (or an `as` cast of `.json()`) name the answer's type. */
const API_CALLS = new Set(["getJson", "sendJson", "useSWR", "useSWRImmutable", "useSWRInfinite"]);
const isJsonCall = (node: ts.Node): boolean => {
  const inner = ts.isAwaitExpression(node) || ts.isParenthesizedExpression(node) ? node.expression : node;
  if (inner !== node) return isJsonCall(inner);
  return ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "json";
};
/** The type nodes that say what an API answered: `getJson<T>(...)`, `useSWR<T>(...)`, `(await res.json()) as T`. */
function answerTypes(node: ts.Node): readonly ts.TypeNode[] {
  if (ts.isCallExpression(node) && node.typeArguments?.length && ts.isIdentifier(node.expression) && API_CALLS.has(node.expression.text)) return node.typeArguments.slice(0, 1);
  if (ts.isAsExpression(node) && isJsonCall(node.expression)) return [node.type];
  return [];
}

/**
 * Where a web file types an API's answer, the type comes from the contract: names imported from
 * src/shared/api or from a web API file (whose types are the schemas'), or this file's own
 * `typeof X.static` aliases; never an object type written here or a type of another web file.
 */
function answerTypeProblems(file: string, source: ts.SourceFile, importedFrom: (name: string) => string | undefined, at: (node: ts.Node) => string): string[] {
  const local = new Map<string, ts.Node>();
  for (const st of source.statements) if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) local.set(st.name.text, st);
  const staticAlias = (decl: ts.Node | undefined) => !!decl && ts.isTypeAliasDeclaration(decl) && !hasTypeLiteral(decl.type);
  const out: string[] = [];
  const check = (type: ts.TypeNode) => {
    if (hasTypeLiteral(type)) return void out.push(`${at(type)} an API answer typed by hand: use \`typeof X.static\` of a src/shared/api schema`);
    const names: string[] = [];
    const collect = (n: ts.Node) => {
      if (ts.isTypeReferenceNode(n)) names.push(ts.isIdentifier(n.typeName) ? n.typeName.text : n.typeName.getText(source).split(".")[0]!);
      ts.forEachChild(n, collect);
    };
    collect(type);
    for (const name of names) {
      const from = importedFrom(name);
      const ok = from ? from.startsWith("src/shared/api/") || isWebApiFile(from) : !local.has(name) || staticAlias(local.get(name));
      if (!ok) out.push(`${at(type)} the API answer's type ${name} is ${from ? `from ${from}` : "written here"}: use \`typeof X.static\` of a src/shared/api schema (in an api.ts)`);
    }
  };
  const visit = (node: ts.Node) => {
    answerTypes(node).forEach(check);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Whether a type is or contains an object type written out (`{ ... }`). */
function hasTypeLiteral(node: ts.Node): boolean {
  if (ts.isTypeLiteralNode(node) || ts.isMappedTypeNode(node)) return true;
  let found = false;
  ts.forEachChild(node, (n) => void (found ||= hasTypeLiteral(n)));
  return found;
}

/**
 * Contract rules broken in one file (`importedFrom` maps a local name to the file it is imported
 * from): every /api route declares its response, and its body, query and response are schemas of
 * src/shared/api (the browser types itself from the same); a web API file holds no interface or
 * hand-written object type, and any web file that types an API's answer takes that type from them.
 */
export function contractProblems(file: string, source: ts.SourceFile, importedFrom: (name: string) => string | undefined): string[] {
  if (isTest(file)) return [];
  const out: string[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const shared = (node: ts.Node): boolean =>
    (ts.isIdentifier(node) && importedFrom(node.text)?.startsWith("src/shared/api/") === true) ||
    (ts.isObjectLiteralExpression(node) && node.properties.every((p) => ts.isPropertyAssignment(p) && shared(p.initializer)));
  const server = file.startsWith("src/server/") && !file.startsWith("src/server/sandbox/");
  const visit = (node: ts.Node) => {
    if (server && ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ROUTE_METHODS.has(node.expression.name.text)) {
      const [path, , options] = node.arguments;
      if (path && ts.isStringLiteralLike(path) && path.text.startsWith("/api/") && !path.text.startsWith("/api/docs")) {
        const route = `${node.expression.name.text.toUpperCase()} ${path.text}`;
        const props = options && ts.isObjectLiteralExpression(options) ? options.properties.filter(ts.isPropertyAssignment) : [];
        if (!props.some((p) => p.name.getText(source) === "response")) out.push(`${at(node)} ${route}: declares no response schema`);
        for (const p of props) {
          const name = p.name.getText(source);
          if (CONTRACT_SCHEMAS.includes(name) && !shared(p.initializer)) out.push(`${at(p)} ${route}: its ${name} schema is not imported from src/shared/api`);
        }
      }
    }
    if (isWebApiFile(file)) {
      if (ts.isInterfaceDeclaration(node)) out.push(`${at(node)} interface ${node.name.text}: a web API type is \`typeof X.static\` of a src/shared/api schema`);
      else if (ts.isTypeLiteralNode(node) && handWritten(node)) out.push(`${at(node)} a hand-written object type: use \`typeof X.static\` of a src/shared/api schema`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (file.startsWith("src/web/")) out.push(...answerTypeProblems(file, source, importedFrom, at));
  return out;
}

/** Strongly connected components of more than one file (or a file importing itself): the import cycles. */
export function findCycles(files: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) strong(f);
  return cycles;
}

function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `callback of ${parent.expression.getText().split("\n")[0]!.slice(-40)}`;
  return "(anonymous)";
}

/** Whether a comment on the function (or the statement that holds it) says why it is long. */
function justified(node: ts.Node, text: string): boolean {
  for (let n: ts.Node | undefined = node; n && !ts.isSourceFile(n); n = n.parent) {
    const ranges = ts.getLeadingCommentRanges(text, n.getFullStart()) ?? [];
    if (ranges.some((r) => LONG_REASON.test(text.slice(r.pos, r.end)))) return true;
    if (ts.isStatement(n) || ts.isClassElement(n)) break;
  }
  return false;
}

function functionsOf(file: string, source: ts.SourceFile): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  const text = source.getFullText();
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file, line: start + 1, name: functionName(node), lines: end - start + 1, justified: justified(node, text) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Reads the code under `root` and reports its layout. */
export function analyze(root: string): LayoutReport {
  const absolute: string[] = [];
  for (const dir of SOURCE_ROOTS) walk(join(root, dir), absolute);
  const files = absolute.map((f) => relative(root, f)).sort();
  const edges: ImportEdge[] = [];
  const longFiles: LayoutReport["longFiles"] = [];
  const longFunctions: FunctionInfo[] = [];
  const contracts: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    for (const imp of importsOf(source)) {
      const to = resolveImport(root, file, imp.specifier);
      if (to) edges.push({ from: file, to, typeOnly: imp.typeOnly });
    }
    const names = importedNames(source);
    contracts.push(...contractProblems(file, source, (name) => (names.has(name) ? resolveImport(root, file, names.get(name)!) : undefined)));
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_FILE_LINES && !LONG_FILES_ALLOWED.test(file)) longFiles.push({ file, lines });
    // Tests are lists of cases (a describe block is as long as its cases); the ledger core is exempt as above.
    if (isTest(file) || LONG_FILES_ALLOWED.test(file)) continue;
    for (const f of functionsOf(file, source)) if (f.lines > MAX_FUNCTION_LINES) longFunctions.push(f);
  }
  return {
    files,
    edges,
    cycles: findCycles(files, edges.filter((e) => !e.typeOnly)),
    typeCycles: findCycles(files, edges).filter((c) => !findCycles(files, edges.filter((e) => !e.typeOnly)).some((r) => r.join() === c.join())),
    upward: edges.filter(isUpward),
    boundaries: edges.flatMap(boundaryProblems),
    contracts,
    longFiles,
    longFunctions,
  };
}

/** The report as the lines `bun run layout` prints. */
export function formatReport(r: LayoutReport): string {
  const out: string[] = [];
  const section = (title: string, items: string[]) => {
    out.push(`${title}: ${items.length ? items.length : "none"}`);
    for (const i of items) out.push(`  ${i}`);
  };
  out.push(`${r.files.length} files, ${r.edges.length} imports between them`);
  section("import cycles", r.cycles.map((c) => c.join(" <-> ")));
  out.push(`type-only import cycles (erased at run time, allowed): ${r.typeCycles.length ? r.typeCycles.map((c) => c.join(" <-> ")).join("; ") : "none"}`);
  section("upward imports (outside the declared exceptions)", r.upward.map((e) => `${e.from} -> ${e.to}`));
  section("boundary rules broken", r.boundaries);
  section("API contract rules broken", r.contracts);
  section(`files over ${MAX_FILE_LINES} lines (outside the sandbox ledger core)`, r.longFiles.map((f) => `${f.file} (${f.lines})`));
  const unexplained = r.longFunctions.filter((f) => !f.justified);
  section(`functions over ${MAX_FUNCTION_LINES} lines without a comment saying why`, unexplained.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines})`));
  const explained = r.longFunctions.filter((f) => f.justified);
  out.push(`functions over ${MAX_FUNCTION_LINES} lines with a reason: ${explained.length}`);
  for (const f of explained) out.push(`  ${f.file}:${f.line} ${f.name} (${f.lines})`);
  if (DECLARED_EXCEPTIONS.length) section("declared exceptions", DECLARED_EXCEPTIONS.map((x) => `${x.from} -> ${x.to}: ${x.why}`));
  return out.join("\n");
}

if (import.meta.main) {
  const report = analyze(resolve(import.meta.dir, ".."));
  console.log(formatReport(report));
  const broken = report.cycles.length + report.upward.length + report.boundaries.length + report.contracts.length + report.longFiles.length + report.longFunctions.filter((f) => !f.justified).length;
  process.exit(broken ? 1 : 0);
}
