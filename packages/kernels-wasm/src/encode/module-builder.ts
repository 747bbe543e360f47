// Assembles a module: types (deduplicated), imports, functions, exports and
// code, in the section order the binary format requires.
import { ByteWriter } from './bytes.js';
import { FunctionBuilder } from './function-builder.js';
import { VALTYPE, funcTypeKey } from './types.js';
import type { FuncType, ValType } from './types.js';

interface MemoryImport {
  readonly module: string;
  readonly name: string;
  /** Pages of 64 KiB. */
  readonly initial: number;
  readonly maximum: number;
  readonly shared: boolean;
}

interface FunctionImport {
  readonly module: string;
  readonly name: string;
  readonly type: number;
}

interface Func {
  readonly type: number;
  readonly name: string;
  readonly body: FunctionBuilder;
  readonly exported: boolean;
}

interface DataSegment {
  readonly offset: number;
  /** Read when the module is assembled, so a segment may grow while functions are added. */
  readonly bytes: () => Uint8Array;
}

const SECTION = { type: 1, import: 2, function: 3, export: 7, code: 10, data: 11, custom: 0 } as const;

class ModuleBuilder {
  readonly #types: FuncType[] = [];
  readonly #typeIndex = new Map<string, number>();
  readonly #funcImports: FunctionImport[] = [];
  #memory: MemoryImport | undefined;
  readonly #funcs: Func[] = [];
  readonly #data: DataSegment[] = [];

  type(params: readonly ValType[], results: readonly ValType[]): number {
    const t = { params: [...params], results: [...results] };
    const key = funcTypeKey(t);
    let idx = this.#typeIndex.get(key);
    if (idx === undefined) {
      idx = this.#types.length;
      this.#types.push(t);
      this.#typeIndex.set(key, idx);
    }
    return idx;
  }

  importMemory(m: MemoryImport): this {
    this.#memory = m;
    return this;
  }

  /** Whether the module imports a memory (data segments and loads need one). */
  get hasMemory(): boolean {
    return this.#memory !== undefined;
  }

  /**
   * An active data segment: instantiating the module writes bytes() at the
   * byte address offset of the imported memory (every instantiation, on
   * every thread that instantiates it).
   */
  data(offset: number, bytes: () => Uint8Array): this {
    if (!this.#memory) throw new Error('data(): the module imports no memory; call importMemory() first');
    if (!Number.isInteger(offset) || offset < 0 || offset > 0xffffffff) throw new RangeError(`data(): offset must be a byte address in 0..2^32-1; got ${offset}`);
    this.#data.push({ offset, bytes });
    return this;
  }

  /** Imports a host function; returns its function index. Imports must all come before defined functions. */
  importFunction(module: string, name: string, params: readonly ValType[], results: readonly ValType[]): number {
    if (this.#funcs.length > 0) throw new Error('import functions before defining any');
    this.#funcImports.push({ module, name, type: this.type(params, results) });
    return this.#funcImports.length - 1;
  }

  /** Defines a function; fill its body through the returned builder. Returns [function index, builder]. */
  func(name: string, params: readonly ValType[], results: readonly ValType[], exported = true): [number, FunctionBuilder] {
    const body = new FunctionBuilder(params);
    this.#funcs.push({ type: this.type(params, results), name, body, exported });
    return [this.#funcImports.length + this.#funcs.length - 1, body];
  }

  toBytes(): Uint8Array<ArrayBuffer> {
    const w = new ByteWriter().bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    const section = (id: number, fill: (s: ByteWriter) => void): void => {
      w.u8(id).sized(fill);
    };
    section(SECTION.type, (s) => {
      s.uleb(this.#types.length);
      for (const t of this.#types) {
        s.u8(0x60).uleb(t.params.length);
        for (const p of t.params) s.u8(VALTYPE[p]);
        s.uleb(t.results.length);
        for (const r of t.results) s.u8(VALTYPE[r]);
      }
    });
    const imports = this.#funcImports.length + (this.#memory ? 1 : 0);
    if (imports > 0) {
      section(SECTION.import, (s) => {
        s.uleb(imports);
        for (const f of this.#funcImports) s.name(f.module).name(f.name).u8(0x00).uleb(f.type);
        const m = this.#memory;
        if (m) s.name(m.module).name(m.name).u8(0x02).u8(m.shared ? 0x03 : 0x01).uleb(m.initial).uleb(m.maximum);
      });
    }
    section(SECTION.function, (s) => {
      s.uleb(this.#funcs.length);
      for (const f of this.#funcs) s.uleb(f.type);
    });
    const exported = this.#funcs.map((f, i) => ({ f, index: this.#funcImports.length + i })).filter(({ f }) => f.exported);
    section(SECTION.export, (s) => {
      s.uleb(exported.length);
      for (const { f, index } of exported) s.name(f.name).u8(0x00).uleb(index);
    });
    section(SECTION.code, (s) => {
      s.uleb(this.#funcs.length);
      for (const f of this.#funcs) s.sized((b) => b.bytes(f.body.finish()));
    });
    if (this.#data.length > 0) {
      section(SECTION.data, (s) => {
        s.uleb(this.#data.length);
        // Flag 0: active, memory 0, offset given by a constant expression.
        for (const d of this.#data) {
          const bytes = d.bytes();
          s.uleb(0).u8(0x41).sleb(d.offset | 0).u8(0x0b).uleb(bytes.length).bytes(bytes);
        }
      });
    }
    // The name section lets stack traces and the disassembler show function names.
    section(SECTION.custom, (s) => {
      s.name('name').u8(1).sized((sub) => {
        const all = [...this.#funcImports.map((f) => `${f.module}.${f.name}`), ...this.#funcs.map((f) => f.name)];
        sub.uleb(all.length);
        all.forEach((n, i) => sub.uleb(i).name(n));
      });
    });
    return w.finish();
  }
}

export { ModuleBuilder };
export type { MemoryImport };
