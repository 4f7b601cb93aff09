import { describe, expect, it } from 'vitest';
import { packageOnFirstUse } from '../../src/platform/package-on-first-use.ts';

describe('packageOnFirstUse', () => {
  it('loads the package on the first call only and gives the same module after', () => {
    const libphonenumber = packageOnFirstUse<typeof import('libphonenumber-js/max')>(import.meta.url, 'libphonenumber-js/max');
    const first = libphonenumber();
    expect(first.parsePhoneNumberFromString('+447911123456')?.getType()).toBe('MOBILE');
    expect(libphonenumber()).toBe(first);
  });

  it('requires ES-module-only packages too (faker)', () => {
    const faker = packageOnFirstUse<typeof import('@faker-js/faker/locale/en')>(import.meta.url, '@faker-js/faker/locale/en');
    expect(faker().faker.rawDefinitions.metadata).toMatchObject({ code: 'en', title: 'English' });
  });

  it('names the package when it cannot be found, at the first call and not before', () => {
    const missing = packageOnFirstUse(import.meta.url, 'no-such-package-idv');
    expect(() => missing()).toThrow(/no-such-package-idv/);
  });
});
