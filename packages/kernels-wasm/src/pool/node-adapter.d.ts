// comlink ships this module's types as node-adapter.d.ts, which TypeScript does
// not pair with a .mjs file.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  interface NodeEndpoint {
    postMessage(message: any, transfer?: any[]): void; // eslint-disable-line @typescript-eslint/no-explicit-any -- as comlink declares it
    on(type: string, listener: (...args: never[]) => void, options?: object): void;
    off(type: string, listener: (...args: never[]) => void, options?: object): void;
    start?: () => void;
  }
  export default function nodeEndpoint(nep: NodeEndpoint): Endpoint;
}
