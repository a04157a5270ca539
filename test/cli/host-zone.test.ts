// The system zone named without Intl: the name after `/zoneinfo/` in the real path of a localtime link, set in TZ only
// when TZ is unset and the link names a zone; on this machine, the zone Intl resolves with that TZ is the one it
// resolves without TZ, so a report's figures stay in the same zone. And a TZ of a UTC name matches the rollups' 'UTC'.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pinHostZone } from '../../src/cli/host-zone.ts';
import { isProcessZone } from '../../src/index-db/time.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { skipTest } from '../helpers/skip.ts';

const { dir } = tempDir('host-zone-');
const zoneFile = (...parts: string[]): string => {
  const p = path.join(dir, ...parts);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, 'TZif');
  return p;
};
const link = (name: string, target: string): string => {
  const p = path.join(dir, name);
  fs.symlinkSync(target, p);
  return p;
};

const t = suite('host zone');

t('a link into a zoneinfo folder names the zone; anything else leaves TZ unset', () => {
  const pinned = (localtime: string, env: NodeJS.ProcessEnv = {}): string | undefined => {
    pinHostZone(env, localtime);
    return env.TZ;
  };
  assert.is(pinned(link('paris', zoneFile('usr', 'share', 'zoneinfo', 'Europe', 'Paris'))), 'Europe/Paris');
  assert.is(pinned(link('baires', zoneFile('usr', 'share', 'zoneinfo', 'America', 'Argentina', 'Buenos_Aires'))), 'America/Argentina/Buenos_Aires');
  assert.is(pinned(link('gmt5', zoneFile('usr', 'share', 'zoneinfo', 'Etc', 'GMT+5'))), 'Etc/GMT+5');
  // A link to a link: the real path counts, as for ICU.
  assert.is(pinned(link('hop', path.join(dir, 'paris'))), 'Europe/Paris');
  assert.is(pinned(link('paris2', path.join(dir, 'paris')), { TZ: 'Asia/Tokyo' }), 'Asia/Tokyo', 'a TZ that is set stays');
  assert.is(pinned(link('paris3', path.join(dir, 'paris')), { TZ: '' }), '', 'an empty TZ (UTC for the C library) stays');
  assert.is(pinned(zoneFile('copy', 'localtime')), undefined, 'a copied zone file names nothing');
  assert.is(pinned(link('custom', zoneFile('etc', 'my-zone'))), undefined, 'a link outside a zoneinfo folder');
  assert.is(pinned(link('odd', zoneFile('zoneinfo', 'Europe', 'Paris copy'))), undefined, 'not a zone name');
  assert.is(pinned(link('dangling', path.join(dir, 'zoneinfo', 'Nowhere'))), undefined, 'a broken link');
  assert.is(pinned(path.join(dir, 'missing')), undefined);
});

t('this machine: the pinned zone is the zone Intl resolves with TZ unset', () => {
  const env: NodeJS.ProcessEnv = {};
  pinHostZone(env);
  if (env.TZ === undefined) return skipTest('/etc/localtime is not a link into a zoneinfo folder here');
  const zone = (tz: string | undefined): string => {
    const childEnv = { ...process.env };
    if (tz === undefined) delete childEnv.TZ;
    else childEnv.TZ = tz;
    return execFileSync(process.execPath, ['-e', 'process.stdout.write(Intl.DateTimeFormat().resolvedOptions().timeZone + " " + new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset() + " " + new Date(Date.UTC(2026, 6, 1)).getTimezoneOffset())'], { env: childEnv, encoding: 'utf8' });
  };
  assert.is(zone(env.TZ), zone(undefined));
});

t('a TZ naming the stored zone, or a UTC name for the stored UTC, matches without Intl; others ask it', () => {
  const tz = process.env.TZ;
  try {
    for (const [env, stored, match] of [['Europe/Paris', 'Europe/Paris', true], ['Etc/UTC', 'UTC', true], ['GMT', 'UTC', true], ['Etc/UTC', 'Etc/UTC', true],
      ['Europe/Paris', 'UTC', false], ['Asia/Kolkata', 'Asia/Calcutta', true], ['Asia/Kolkata', 'Asia/Tokyo', false]] as const) {
      process.env.TZ = env;
      assert.is(isProcessZone(stored), match, `${env} vs ${stored}`);
    }
    assert.is(isProcessZone(undefined), false, 'no stored zone');
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
});

t.run();
