// The parent's side of a system's process: JS systems are forked (IPC),
// NumPy and numexpr are spawned under the first python3 that has them.
import { fork, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FromChild, ToChild } from './protocol.js';
import { mailbox, stopChild } from '../mailbox.js';

interface Proc {
  readonly id: string;
  send(m: ToChild): void;
  next(): Promise<FromChild>;
  kill(): void;
}

const PY_SYSTEMS = ['numpy', 'numexpr'] as const;
const childJs = fileURLToPath(new URL('./child.js', import.meta.url));
const childPy = fileURLToPath(new URL('../../src/peers/python/child.py', import.meta.url));

/** The python3 to run `module` under: BENCH_PYTHON, python3 on the PATH, or Debian's /usr/bin/python3 (which may differ). */
function pythonFor(module: 'numpy' | 'numexpr'): string | undefined {
  const candidates = [process.env['BENCH_PYTHON'], 'python3', '/usr/bin/python3'].filter((p): p is string => !!p);
  return candidates.find((py) => spawnSync(py, ['-c', `import numpy, ${module}`], { stdio: 'ignore' }).status === 0);
}

function startProc(id: string): Proc {
  if ((PY_SYSTEMS as readonly string[]).includes(id)) {
    const py = pythonFor(id as 'numpy' | 'numexpr');
    if (!py) {
      const reason = `no python3 here can import numpy${id === 'numexpr' ? ' and numexpr' : ''} (Debian: apt install python3-${id})`;
      return { id, send: () => undefined, next: async () => ({ skipped: reason }), kill: () => undefined };
    }
    const proc = spawn(py, [childPy, id], { stdio: ['pipe', 'pipe', 'inherit'] });
    const next = mailbox<FromChild>(proc, id, (deliver) => {
      createInterface({ input: proc.stdout! }).on('line', (line) => deliver(JSON.parse(line) as FromChild));
    });
    return { id, send: (m) => { if (proc.stdin!.writable) proc.stdin!.write(`${JSON.stringify(m)}\n`); }, next, kill: () => proc.kill() };
  }
  const proc = fork(childJs, [id], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--expose-gc'] });
  const next = mailbox<FromChild>(proc, id, (deliver) => proc.on('message', deliver));
  return {
    id,
    send: (m) => { if (proc.connected) proc.send(m); },
    next,
    kill: () => stopChild(proc),
  };
}

export { startProc, pythonFor };
export type { Proc };
