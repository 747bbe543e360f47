// The browser's loader of the routines' steps (routines-load.browser.ts), run
// here in Node: nothing until the first need, which starts the load; one load
// however many ask; the same module the Node loader gives once it is in; and
// a load that fails warns once and is tried again only after RETRY_MS.
import { afterEach, expect, jest, test } from '@jest/globals';
import * as browserLoad from './routines-load.browser.js';
import * as nodeLoad from './routines-load.js';

afterEach(() => {
  jest.restoreAllMocks();
});

test('the routines load on the first need, once, and are the Node build\'s routines', async () => {
  expect(nodeLoad.routinesReady()).toBeUndefined();
  expect(browserLoad.routinesNow()).toBeUndefined();
  const ready = browserLoad.routinesReady();
  expect(ready).toBeInstanceOf(Promise);
  expect(browserLoad.routinesReady()).toBe(ready);
  expect(browserLoad.routinesNow()).toBeUndefined();
  await ready;
  expect(browserLoad.routinesNow()).toBe(nodeLoad.routinesNow());
  expect(browserLoad.routinesReady()).toBeUndefined();
});

test('a failed load warns once, leaves the steps to the reference, and is tried again after RETRY_MS', async () => {
  const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  let clock = 1000;
  jest.spyOn(performance, 'now').mockImplementation(() => clock);
  let attempts = 0;
  const loader = new browserLoad.OnDemand(async () => {
    attempts++;
    if (attempts < 3) throw new Error('offline');
    return 'module';
  }, 'the test module');
  expect(loader.now()).toBeUndefined();
  await loader.ready();
  expect([attempts, warn.mock.calls.length]).toEqual([1, 1]);
  expect(String(warn.mock.calls[0]![0])).toMatch(/the test module did not load \(Error: offline\)/);
  // Within RETRY_MS no run tries again.
  clock += browserLoad.RETRY_MS - 1;
  expect(loader.ready()).toBeUndefined();
  expect(loader.now()).toBeUndefined();
  expect(attempts).toBe(1);
  // After it, the next need tries again: failing once more warns no more.
  clock += 1;
  await loader.ready();
  expect([attempts, warn.mock.calls.length]).toEqual([2, 1]);
  clock += browserLoad.RETRY_MS;
  expect(loader.now()).toBeUndefined();
  await loader.ready();
  expect([attempts, loader.now()]).toEqual([3, 'module']);
});
