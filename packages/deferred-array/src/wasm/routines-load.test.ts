// The browser's loader of the routines' steps (routines-load.browser.ts), run
// here in Node: nothing until the first need, which starts the load; one load
// however many ask; the same module the Node loader gives once it is in.
import { expect, test } from '@jest/globals';
import * as browserLoad from './routines-load.browser.js';
import * as nodeLoad from './routines-load.js';

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
