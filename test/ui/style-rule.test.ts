// The UI's style rule (ARCHITECTURE.md "UI"), read off the sources: only the elements that a document-level rule or
// query must reach render in light DOM, each of them brings its own styles to the document, and app.css styles the
// page alone.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../helpers/paths.ts';

const COMPONENTS = path.join(ROOT, 'ui/src/components');
/** The light-DOM elements ARCHITECTURE.md names, each with its reason there. */
const LIGHT = ['cost-app', 'cost-help-overlay', 'cost-range-picker', 'cost-theme-picker', 'cost-top-bar', 'cost-usage-dialog'];
const PAGE_SELECTORS = ['body', 'body.dark', 'body.light', 'cost-app:not(:defined)', 'cost-app', 'a', '.skip-link', '.skip-link:focus'];

const sources = fs
  .readdirSync(COMPONENTS)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ name: f.replace(/\.ts$/, ''), text: fs.readFileSync(path.join(COMPONENTS, f), 'utf8') }));
const renderIntoLightDom = /createRenderRoot\(\)\s*\{\s*return this;/;

const Rule = suite('UI style rule');

Rule('light DOM only for the elements the rule names', () => {
  assert.equal(sources.filter((s) => renderIntoLightDom.test(s.text)).map((s) => s.name).sort(), LIGHT);
});

Rule('each light-DOM element adopts its own styles into the document; shadow elements never do', () => {
  for (const s of sources) {
    const adopts = /^adoptDocumentStyles\(.*\bstyles\);$/m.test(s.text);
    assert.is(adopts, LIGHT.includes(s.name), `${s.name}: ${adopts ? 'adopts document styles' : 'adopts no document styles'}`);
  }
});

Rule('app.css styles the page only: body, its tokens, cost-app before it is defined and the skip link', () => {
  const css = fs.readFileSync(path.join(ROOT, 'ui/static/app.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const selectors = [...css.matchAll(/([^{}]+)\{/g)].flatMap((m) => m[1]!.split(',').map((x) => x.trim()));
  assert.ok(selectors.length > 5, `read ${selectors.length} selectors`);
  assert.equal(selectors.filter((x) => !PAGE_SELECTORS.includes(x)), []);
});

Rule.run();
