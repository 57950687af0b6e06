/**
 * The API key check (src/core/key-strength.ts): placeholders and low-entropy keys are refused with the
 * reason and how to make a good key; generated keys and random keys of the usual recipes pass.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeyWeakness, characterBits, MIN_CHARACTER_BITS } from '../../src/core/key-strength.js';

const ADVICE = /openssl rand -base64 32.*crypto\.randomBytes\(32\)\.toString\('base64url'\)/;

describe('apiKeyWeakness', () => {
  it.each([
    ['changemechangemechangeme', /placeholder words \(changeme\)/],
    ['changeme-changeme-changeme', /placeholder words/],
    ['your-api-key-here-1234567', /placeholder words \(your, api, key, here\)/],
    ['your-api-key-goes-here-please', /placeholder words/],
    ['YOUR_API_KEY_HERE_XXXXXXXX', /placeholder words/],
    ['xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', /placeholder words \(xxx\)/],
    ['replace-me-replace-me-replace-me', /placeholder words/],
    ['sk_live_replace_with_your_key', /placeholder words/],
    ['passwordpasswordpassword', /placeholder words \(password\)/],
    ['fleetgate-api-key-for-production', /placeholder words/],
    ['abcdefghijklmnopqrstuvwxyz', /guessable \(sequence/],
    ['123456789012345678901234', /guessable/],
    ['abcabcabcabcabcabcabcabcabcabc', /guessable \(repeat/],
    ['p4ssw0rdp4ssw0rdp4ssw0rd', /guessable \(repeat/],
    ['hunter2hunter2hunter2hunter2', /guessable \(repeat/],
    ['abbaabababbbaababbaababa', /too few distinct characters/],
    ['k-123', /shorter than 24 characters/],
  ])('refuses %s, saying why and how to make a good key', (key, why) => {
    const weakness = apiKeyWeakness(key);
    expect(weakness).toMatch(why);
    expect(weakness).toMatch(ADVICE);
  });

  it('passes every generated key (fg_ and 24 random bytes as base64url), over many draws', () => {
    for (let i = 0; i < 2000; i++) {
      const key = `fg_${randomBytes(24).toString('base64url')}`;
      expect(apiKeyWeakness(key), key).toBeUndefined();
    }
  });

  it('passes random keys made by the usual recipes, down to 24 characters', () => {
    const recipes = [
      () => randomBytes(32).toString('base64'), // openssl rand -base64 32
      () => randomBytes(32).toString('base64url'), // the node one-liner the advice gives
      () => randomBytes(32).toString('hex'), // openssl rand -hex 32
      () => randomBytes(12).toString('hex'), // 24 hex characters, 96 bits
      () => randomBytes(18).toString('base64'), // 24 base64 characters
      () => randomUUID(),
    ];
    for (const make of recipes)
      for (let i = 0; i < 300; i++) {
        const key = make();
        expect(apiKeyWeakness(key), key).toBeUndefined();
      }
  });

  it('counts character bits from the frequencies: few distinct characters carry little', () => {
    expect(characterBits('a'.repeat(40))).toBe(0);
    expect(characterBits('ab'.repeat(20))).toBe(40);
    expect(characterBits(randomBytes(24).toString('base64url'))).toBeGreaterThan(MIN_CHARACTER_BITS);
  });
});
