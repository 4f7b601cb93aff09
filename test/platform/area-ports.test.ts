/**
 * Ports are data on the area list: an entry names the ports its modules use (`needs`) and the ports it
 * implements for the areas below it (`provides`). The area loader checks the wiring when the platform is
 * built and connects an area's ports before its first request, from the provider's small module, without
 * loading the providing area.
 */
import { describe, expect, it } from 'vitest';
import { AreaLoader } from '../../src/areas.ts';
import { AREAS } from '../../src/modules.ts';
import { declarePort } from '../../src/platform/platform.ts';
import type { AreaEntry } from '../../src/platform/sandbox-module.ts';

const area = (name: string) => AREAS.find((entry) => entry.name === name) as AreaEntry;
const auth = area('auth');

describe('ports declared on the area list', () => {
  it('an area that needs a port no area provides is refused when the platform is built, naming both', () => {
    const greeting = declarePort<string>('auth → greeting');
    expect(() => new AreaLoader([{ ...auth, needs: [greeting] }])).toThrow(
      'Area auth needs the auth → greeting port, which no area of src/modules.ts provides.',
    );
  });

  it("loading an area provides its ports first, each implementation loaded once, the provider's area never loaded", async () => {
    const greeting = declarePort<string>('auth → greeting');
    let implementations = 0;
    const provider: AreaEntry = {
      name: 'greeter',
      load: () => Promise.reject(new Error('the providing area is not loaded to provide its port')),
      provides: [{ port: greeting, load: async () => `hello ${++implementations}` }],
    };
    const loader = new AreaLoader([{ ...auth, needs: [greeting] }, { ...area('async-jobs'), needs: [greeting] }, provider]);
    expect(() => greeting.get()).toThrow('The auth → greeting port was used before the area loader provided it');

    await loader.load('auth');
    expect(greeting.get()).toBe('hello 1');
    expect(loader.isLoaded('greeter')).toBe(false);
    await loader.load('async-jobs');
    expect(implementations).toBe(1);
  });
});
