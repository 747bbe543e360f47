// Variants timed side by side, each in a process of its own, interleaved
// round by round. Side by side in one process they disturb each other: a
// variant that allocates a fresh 80 MB array per run keeps the collector's
// background threads busy, which on a 2-core machine slows a neighbour's
// pooled kernels by a third or more. Each child builds its variant once,
// warms it up, then runs it once per round when the parent asks. Processes
// do not stop a collector's threads from spilling into the next variant's
// run, so after each timed run a child collects its garbage (untimed)
// before it answers.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mailbox, stopChild } from './mailbox.js';

type Message = { readonly ready: true } | { readonly ms: number } | { readonly error: string };

/** In the child: builds variant process.argv[2] with `make`, warms it up, then runs it once per 'run' from the parent. */
async function serveVariant(make: (name: string) => Promise<() => unknown> | (() => unknown), warmups = 2): Promise<void> {
  const send = (m: Message): void => { process.send!(m); };
  let run: () => unknown;
  try {
    run = await make(process.argv[2]!);
    for (let i = 0; i < warmups; i++) await run();
  } catch (e) {
    send({ error: String((e as Error)?.stack ?? e) });
    return;
  }
  let queue = Promise.resolve();
  process.on('message', (m: unknown) => {
    if (m === 'exit') {
      process.disconnect();
      return;
    }
    if (m !== 'run') return;
    queue = queue.then(async () => {
      const t0 = performance.now();
      await run();
      const ms = performance.now() - t0;
      (globalThis as { gc?: () => void }).gc?.();
      send({ ms });
    }).catch((e: unknown) => send({ error: String((e as Error)?.stack ?? e) }));
  });
  send({ ready: true });
}

interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  next(): Promise<Message>;
}

function start(script: string, name: string, args: readonly string[]): Child {
  const proc = fork(script, [name, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...process.execArgv, '--expose-gc'] });
  return { name, proc, next: mailbox<Message>(proc, name, (deliver) => proc.on('message', deliver)) };
}

async function expect(c: Child, key: 'ready' | 'ms'): Promise<number> {
  const m = await c.next();
  if ('error' in m) throw new Error(`variant ${c.name}: ${m.error}`);
  if (key === 'ms' && 'ms' in m) return m.ms;
  if (key === 'ready' && 'ready' in m) return 0;
  throw new Error(`variant ${c.name}: unexpected message ${JSON.stringify(m)}`);
}

/**
 * Times each variant of `script` (a module calling serveVariant) in its own
 * process: `rounds` rounds, each running every variant once, in turn.
 * `progress` hears of each run. Returns each variant's times in ms.
 */
async function runIsolated(
  script: URL, variants: readonly string[], args: readonly string[], rounds: number,
  progress?: (round: number, variant: string, ms: number) => void,
): Promise<Map<string, number[]>> {
  const path = fileURLToPath(script);
  const children: Child[] = [];
  try {
    // Started one at a time: each builds its data and warms up alone.
    for (const v of variants) {
      const c = start(path, v, args);
      children.push(c);
      await expect(c, 'ready');
    }
    const times = new Map(variants.map((v) => [v, [] as number[]]));
    for (let r = 0; r < rounds; r++) {
      for (const c of children) {
        c.proc.send('run');
        const ms = await expect(c, 'ms');
        times.get(c.name)!.push(ms);
        progress?.(r, c.name, ms);
      }
    }
    return times;
  } finally {
    for (const c of children) stopChild(c.proc);
  }
}

export { runIsolated, serveVariant };
