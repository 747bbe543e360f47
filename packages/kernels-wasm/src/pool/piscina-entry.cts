// The file piscina loads in each worker. piscina loads its file with
// require() first, and under Node 20.19 and later a require() of an ES module
// links and instantiates it synchronously, in a path Node marks as not
// handling every state a module can be in: in the soak, once in about 10^4
// programs with workers exiting, starting and shut down, a worker aborted the
// whole process there ("v8::Module::IsGraphAsync must be used on an
// instantiated module", from ModuleWrap::InstantiateSync under piscina's
// require()). This file is CommonJS, so require() loads it plainly, and it
// loads the worker through import(), the loader Node runs for every ES module
// worker, where a failure is a rejected promise.
import type { StartReply } from './protocol.js';

const worker = import('./piscina-worker.js');
// A failure to load is the reply to start()'s ping, not an unhandled rejection that ends the worker (piscina would start it again and again).
worker.catch(() => {});

async function handle(): Promise<StartReply> {
  try {
    return await (await worker).default();
  } catch (e) {
    const error = e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
    return { kind: 'failed', error };
  }
}

export = handle;
