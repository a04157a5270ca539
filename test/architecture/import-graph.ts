// The import graph of the source tree and the two rules ARCHITECTURE.md states over it ("Dependency rules"): an
// import may only point to a layer below its own (with the files and the kind of import the rule names), and no
// chain of imports may come back to where it started. TypeScript's own parser reads the imports, so an import
// written in a comment or a string is never counted and a multi-line one never missed.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportRef {
  specifier: string;
  /** `import type` / `export type`: erased from the build. `import { type A }` is not (verbatimModuleSyntax keeps it). */
  typeOnly: boolean;
}

/** One import between two files, as paths relative to the repository root with '/' separators. */
export interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** What a layer may import from one layer below it. */
export interface Allowance {
  layer: string;
  /** Only these files of that layer (default: any). */
  files?: string[];
  /** Only `import type` (default: any import). */
  typeOnly?: boolean;
}

export interface Layer {
  name: string;
  /** Folders ('src/http/') or single files ('src/bin.ts') it consists of; the longest match places a file. */
  paths: string[];
  /** The layers below it that it may import from (an import passes when one allowance for its layer does); within a layer every import is allowed (the circle rule still holds). */
  may: Allowance[];
}

/** The imports (`import x = require(…)` too), `export … from` re-exports and literal dynamic `import()`s of one source file. */
export function importsOf(fileName: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      // `import x = require('…')`, the import of a CommonJS (.cts) file
      out.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) out.push({ specifier: arg.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.c?ts$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const rel = (root: string, p: string): string => path.relative(root, p).split(path.sep).join('/');

/** Every relative import of the .ts (and CommonJS .cts) files under `dirs` (relative to `root`); packages and node: builtins are left out. */
export function readGraph(root: string, dirs: string[]): Edge[] {
  const edges: Edge[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(path.join(root, dir))) {
      for (const ref of importsOf(file, fs.readFileSync(file, 'utf8'))) {
        if (!ref.specifier.startsWith('.')) continue;
        edges.push({ from: rel(root, file), to: rel(root, path.resolve(path.dirname(file), ref.specifier)), typeOnly: ref.typeOnly });
      }
    }
  }
  return edges;
}

/** The layer a file belongs to (longest matching path), or undefined. */
export function layerOf(file: string, layers: Layer[]): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers) {
    for (const p of layer.paths) {
      const hit = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (hit && (!best || p.length > best.length)) best = { layer, length: p.length };
    }
  }
  return best?.layer;
}

/** One line per import that breaks the layer rules: it runs back up or sideways, reaches a file the rule does not name, or is not type-only where it must be. */
export function layerBreaks(edges: Edge[], layers: Layer[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const from = layerOf(e.from, layers);
    const to = layerOf(e.to, layers);
    if (!from || !to) {
      out.push(`${e.from} -> ${e.to}: ${!from ? e.from : e.to} is in no layer`);
      continue;
    }
    if (from === to) continue;
    const rules = from.may.filter((a) => a.layer === to.name);
    if (!rules.length) out.push(`${e.from} -> ${e.to}: ${from.name} may not import ${to.name}`);
    else if (!rules.some((r) => permits(r, e))) out.push(`${e.from} -> ${e.to}: ${from.name} may import from ${to.name} only ${rules.map(describe).join(', or ')}`);
  }
  return out;
}

function permits(rule: Allowance, e: Edge): boolean {
  return (!rule.files || rule.files.includes(e.to)) && (!rule.typeOnly || e.typeOnly);
}

function describe(rule: Allowance): string {
  return [rule.files ? rule.files.join(', ') : 'any file', rule.typeOnly ? 'with `import type`' : ''].filter(Boolean).join(' ');
}

/** Every circle of imports (type-only ones included), each as the files along it, back to the first. */
export function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  // Tarjan's strongly connected components: a component of two or more files, or a file importing itself, holds a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || next.get(v)?.includes(v)) components.push(component);
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((c) => circleThrough(c, next)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One circle inside a strongly connected component, found by walking from its first file (sorted) back to it. */
function circleThrough(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of (next.get(v) ?? []).filter((x) => members.has(x)).sort()) {
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = cameFrom.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
