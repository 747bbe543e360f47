// The parent's side of a child process that answers in messages: a queue
// the parent awaits one message at a time, and the child's stop. A child that
// exits answers every wait, now and later, with an error, so no await hangs.
import type { ChildProcess } from 'node:child_process';

type Exited = { readonly error: string };

/** Messages from `proc` (delivered by `subscribe`) one at a time; after its exit, `{ error }` naming `id`. */
function mailbox<M>(proc: ChildProcess, id: string, subscribe: (deliver: (m: M) => void) => void): () => Promise<M | Exited> {
  const inbox: Array<M | Exited> = [];
  const waiting: Array<(m: M | Exited) => void> = [];
  const deliver = (m: M | Exited): void => {
    const w = waiting.shift();
    if (w) w(m);
    else inbox.push(m);
  };
  subscribe(deliver);
  proc.on('exit', (code, signal) => {
    const m: Exited = { error: `the ${id} process exited (${signal ?? `code ${code}`})` };
    for (const w of waiting.splice(0)) w(m);
    inbox.push(m);
  });
  return () => new Promise<M | Exited>((resolve) => {
    const m = inbox.shift();
    if (m) resolve(m);
    else waiting.push(resolve);
  });
}

/** Asks a forked child to exit (it disconnects), and kills it in case it does not. */
function stopChild(proc: ChildProcess): void {
  if (proc.connected) proc.send('exit');
  proc.kill();
}

export { mailbox, stopChild };
