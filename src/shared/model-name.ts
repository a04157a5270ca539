// The name a usage entry's model is priced and shown under (decisions.md: the model that served the request prices
// it; a bracketed suffix is ignored): `claude-opus-4-6[1m]` is `claude-opus-4-6`. One rule for the parser, which stores
// entries under it (so the model breakdown shows one row per served model), and the price lookup, which applies it to
// names an index stored before the rule.

/** `name` without its bracketed suffixes (`[1m]`, any `[...]`) and the spaces around them. */
export function servedModel(name: string): string {
  return name.includes('[') ? name.replace(/(?:\s*\[[^\]]*\])+\s*$/, '') : name;
}
