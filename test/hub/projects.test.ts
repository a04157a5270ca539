// The conformance hub's project list, as the public hub builds it: one entry per project folder,
// worktrees included, each with its real path from its transcripts' cwd, so a folder name with
// dashes ("claude-history") or a worktree's dot folder decodes without loss.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURES } from '../helpers/paths.ts';
import { encodeProject, listProjects } from './conformance-hub.ts';

const test = suite('conformance hub project list');

test('the fixture projects: paths from the transcripts, names not split at dashes', () => {
  assert.equal(listProjects(path.join(FIXTURES, 'transcripts/config')), [
    { project: '/Users/randlee/Documents/github/claude-history', encoded: '-Users-randlee-Documents-github-claude-history', name: 'claude-history' },
    // A renamed folder: its path is still the sessions' cwd (the shortest, as a session may start in a subfolder).
    { project: '/path/to/Demo', encoded: 'sample-project', name: 'Demo' },
  ]);
});

test('a worktree is its own entry with its exact path; a folder with no cwd is left out', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-projects-'));
  try {
    const write = (project: string, cwds: string[]) => {
      const folder = path.join(dir, 'projects', encodeProject(project));
      fs.mkdirSync(folder, { recursive: true });
      cwds.forEach((cwd, i) => fs.writeFileSync(path.join(folder, `s${i}.jsonl`), `${JSON.stringify({ type: 'user', cwd })}\n`));
    };
    write('/repo/my-app', ['/repo/my-app/src', '/repo/my-app']);
    write('/repo/my-app/.claude/worktrees/fix-bug', ['/repo/my-app/.claude/worktrees/fix-bug']);
    fs.mkdirSync(path.join(dir, 'projects', 'empty'));
    assert.equal(listProjects(dir), [
      { project: '/repo/my-app', encoded: '-repo-my-app', name: 'my-app' },
      { project: '/repo/my-app/.claude/worktrees/fix-bug', encoded: '-repo-my-app--claude-worktrees-fix-bug', name: 'fix-bug' },
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
