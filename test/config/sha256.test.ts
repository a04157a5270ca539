// sha256Hex (the default index file's name) against node:crypto: every padding case (a message that fills a block
// up to the length field, one byte past it, several blocks), multi-byte UTF-8, and the FIPS 180-4 examples.
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sha256Hex } from '../../src/config/sha256.ts';

const t = suite('sha256Hex');

t('the FIPS 180-4 examples', () => {
  assert.is(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.is(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.is(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
});

t('equals node:crypto at every length around a block boundary and in UTF-8', () => {
  for (const unit of ['a', 'é', '😀', '/home/user/.claude\n']) {
    for (let length = 0; length <= 200; length++) {
      const text = unit.repeat(length);
      assert.is(sha256Hex(text), createHash('sha256').update(text).digest('hex'), `${JSON.stringify(unit)} x ${length}`);
    }
  }
});

t.run();
