// `bun run promises`: the promises the code drops or misreads, found with the TypeScript compiler's types.
// The repositories and services are async (ARCHITECTURE.md "One store, two drivers"): a call that forgot its
// `await` compiles, runs later or never, and loses its error (a write that silently did not happen, a
// refusal that never reached the caller). Reported, in src/server, scripts and e2e:
//   - a statement that is a promise (`repo.save(x);`), unless it says so with `void` or handles it
//     (`.catch(handler)`, `.then(ok, failed)`); a value that is only sometimes one (a stream's
//     `write`, `number | Promise<number>`) is left alone;
//   - a promise read as a truth value (`!repo.claim(...)`, `if (promise)`, `promise && ...`): always true;
//   - a promise handed to `expect(...)` without `.resolves`/`.rejects` (it asserts on the promise object), or
//     an arrow returning one (`expect(() => save()).toThrow()`);
//   - a promise given as an object's field where the field's type does not say promise (`{ tag: nextTag() }`
//     handed to a loosely typed `pay(...)`);
//   - an arrow function whose body is a promise where a callback returning void is expected
//     (`after(() => this.publish(row))`): nobody awaits it, so its failure goes nowhere.
// `bun scripts/promises.ts --typecheck` is also the type check of the whole project, `tsc --noEmit`'s diagnostics,
// from the same program: one compiler pass for both (scripts/test.sh runs that under Node: scripts/lib/typecheckNode.ts).
import { relative, resolve } from "node:path";
import ts from "typescript";

/** Where the server-side code lives (relative to the repository root); the web app has no store. */
const CHECKED = /^(src\/server|src\/engine|src\/shared|scripts|e2e)\//;

export interface PromiseProblem {
  file: string;
  line: number;
  rule: "floating" | "truthiness" | "expect" | "void-callback" | "value";
  text: string;
}

/**
 * The program of the checked files (and what they import), with tsconfig.json's options: the web app is not
 * read, unless `whole` (every file tsconfig.json includes, as tsc reads them).
 */
export function projectProgram(root: string, whole = false): ts.Program {
  const configPath = resolve(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const rootNames = whole ? parsed.fileNames : parsed.fileNames.filter((f) => CHECKED.test(relative(root, f)));
  return ts.createProgram({ rootNames, options: { ...parsed.options, noEmit: true } });
}

/** Whether a type is a promise or another thenable (a drizzle query builder is one). */
function isThenable(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some((t) => isThenable(checker, t));
  const then = type.getProperty("then");
  if (!then) return false;
  const thenType = checker.getTypeOfSymbol(then);
  return thenType.getCallSignatures().length > 0;
}

/** Whether every possible value of a type is a thenable (a promise that may be absent, `Promise<T> | undefined`, is not). */
function alwaysThenable(checker: ts.TypeChecker, type: ts.Type): boolean {
  return type.isUnion() ? type.types.every((t) => alwaysThenable(checker, t)) : isThenable(checker, type);
}

/** `p.catch(handler)` or `p.then(ok, failed)`, maybe followed by `.finally(...)`: a promise whose failure is handled. */
function isHandled(node: ts.Expression): boolean {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return false;
  const name = node.expression.name.text;
  if (name === "finally") return isHandled(node.expression.expression);
  return (name === "catch" && node.arguments.length >= 1) || (name === "then" && node.arguments.length >= 2);
}

/** Whether a function type expected here returns void only (a promise returned to it is dropped). */
function expectsVoid(checker: ts.TypeChecker, fn: ts.ArrowFunction): boolean {
  const contextual = checker.getContextualType(fn);
  if (!contextual) return false;
  const signatures = (contextual.isUnion() ? contextual.types : [contextual]).flatMap((t) => t.getCallSignatures());
  if (!signatures.length) return false;
  return signatures.every((s) => {
    const ret = checker.getReturnTypeOfSignature(s);
    return (ret.flags & ts.TypeFlags.Void) !== 0 && !isThenable(checker, ret);
  });
}

/** Whether the place a value goes (its contextual type) takes a promise: not when it is unknown, any or a plain value (a fresh object, with no such type, may hold one). */
function acceptsPromise(checker: ts.TypeChecker, node: ts.Expression): boolean {
  const expected = checker.getContextualType(node);
  if (!expected) return true;
  return !(expected.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) && isThenable(checker, expected);
}

/** Every problem in the given files of the program (default: all the checked ones). */
export function promiseProblems(program: ts.Program, root: string, only?: (file: string) => boolean): PromiseProblem[] {
  const checker = program.getTypeChecker();
  const problems: PromiseProblem[] = [];
  for (const source of program.getSourceFiles()) {
    const file = relative(root, source.fileName);
    if (source.isDeclarationFile || file.startsWith("..") || !CHECKED.test(file) || (only && !only(file))) continue;
    const report = (node: ts.Node, rule: PromiseProblem["rule"]) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      problems.push({ file, line: line + 1, rule, text: node.getText(source).split("\n")[0]!.slice(0, 120) });
    };
    const promise = (node: ts.Expression) => isThenable(checker, checker.getTypeAtLocation(node));
    const truthy = (node: ts.Expression) => alwaysThenable(checker, checker.getTypeAtLocation(node));
    const visit = (node: ts.Node): void => {
      if (ts.isExpressionStatement(node)) {
        const e = node.expression;
        const dropped = !ts.isVoidExpression(e) && !ts.isAwaitExpression(e) && !ts.isBinaryExpression(e) && !isHandled(e);
        const logical = ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken);
        if (dropped && (ts.isCallExpression(e) || ts.isNewExpression(e) || ts.isPropertyAccessExpression(e) || ts.isConditionalExpression(e)) && truthy(e)) report(node, "floating");
        else if (logical && !isHandled(e.right) && truthy(e.right)) report(node, "floating");
      } else if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
        if (truthy(node.operand)) report(node, "truthiness");
      } else if ((ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) && truthy(node.expression)) {
        report(node.expression, "truthiness");
      } else if (ts.isConditionalExpression(node) && truthy(node.condition)) {
        report(node.condition, "truthiness");
      } else if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || node.operatorToken.kind === ts.SyntaxKind.BarBarToken) && truthy(node.left)) {
        report(node.left, "truthiness");
      } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "expect" && node.arguments.length === 1) {
        const settled = ts.isPropertyAccessExpression(node.parent) && (node.parent.name.text === "resolves" || node.parent.name.text === "rejects");
        const arg = node.arguments[0]!;
        // `expect(() => asyncCall()).toThrow()` asserts on a function that returns a promise: `expect(asyncCall()).rejects`.
        const thrower = ts.isArrowFunction(arg) && !ts.isBlock(arg.body) && promise(arg.body);
        if ((!settled && promise(arg)) || thrower) report(node, "expect");
      } else if (ts.isPropertyAssignment(node) && truthy(node.initializer) && !acceptsPromise(checker, node.initializer)) {
        report(node, "value");
      } else if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
        const body = node.body;
        if (!ts.isVoidExpression(body) && !isHandled(body) && promise(body) && expectsVoid(checker, node)) report(node, "void-callback");
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return problems;
}

/**
 * The check scripts/test.sh runs (and `bun run promises` without `typecheck`): prints every problem found in the
 * project at `root`, with tsc's diagnostics when `typecheck`, and returns the exit status (1 when any was found).
 */
export function checkProject(root: string, typecheck: boolean): number {
  const program = projectProgram(root, typecheck);
  const diagnostics = typecheck ? ts.getPreEmitDiagnostics(program) : [];
  if (diagnostics.length) {
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
    console.log(ts.formatDiagnostics(diagnostics, host));
    console.log(`${diagnostics.length} type error(s)`);
  }
  const problems = promiseProblems(program, root);
  for (const p of problems) console.log(`${p.file}:${p.line} ${p.rule}: ${p.text}`);
  console.log(problems.length ? `${problems.length} promise problem(s)` : "no promise problems");
  return problems.length || diagnostics.length ? 1 : 0;
}

if (import.meta.main) process.exit(checkProject(resolve(import.meta.dir, ".."), process.argv.includes("--typecheck")));
