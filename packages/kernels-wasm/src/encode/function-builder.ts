// Builds one function body: locals, then instructions by name with their
// immediates. Structured control flow is checked for balance at finish().
import { ByteWriter } from './bytes.js';
import { opcode } from './opcodes.js';
import type { OpcodeInfo } from './opcodes.js';
import { VALTYPE } from './types.js';
import type { ValType } from './types.js';

/** A block's result: none, or one value type. */
type BlockType = ValType | 'void';

interface MemArg {
  /** log2 of the alignment the access promises (0..4). */
  readonly align?: number;
  readonly offset?: number;
}

type Local = number & { readonly __local: unique symbol };

/** log2 of the natural alignment of a memory instruction, read off its name. */
function naturalAlign(name: string): number {
  const log2Bytes = (bits: string): number => Math.log2(Number(bits) / 8);
  if (name === 'v128.load' || name === 'v128.store') return 4;
  if (/^v128\.load\d+x\d+_[su]$/.test(name)) return 3;
  const bits = /(?:load|store|wait|rmw)(\d+)/.exec(name)?.[1];
  if (bits !== undefined) return log2Bytes(bits);
  if (name === 'memory.atomic.notify') return 2;
  return /^(?:i64|f64)\./.test(name) ? 3 : 2;
}

/** How many lanes a lane immediate of this instruction may address (i8x16.* -> 16, v128.load32_lane -> 4). */
function laneCount(name: string): number | undefined {
  const shape = /^[if](?:8|16|32|64)x(\d+)\./.exec(name);
  if (shape) return Number(shape[1]);
  const access = /(\d+)_lane$/.exec(name);
  return access ? 128 / Number(access[1]) : undefined;
}

function checkLane(name: string, lane: number): void {
  const n = laneCount(name);
  if (!Number.isInteger(lane) || lane < 0 || (n !== undefined && lane >= n)) {
    throw new RangeError(`${name}: lane ${lane} is out of range; it takes a lane index in 0..${(n ?? 256) - 1}`);
  }
}

class FunctionBuilder {
  readonly #params: readonly ValType[];
  readonly #locals: ValType[] = [];
  readonly #code = new ByteWriter();
  // The open structured instructions, innermost last; else() needs to know it is inside an if.
  readonly #blocks: Array<'block' | 'loop' | 'if' | 'else'> = [];

  constructor(params: readonly ValType[]) {
    this.#params = params;
  }

  /** The index of parameter i. */
  param(i: number): Local {
    if (i < 0 || i >= this.#params.length) throw new RangeError(`param ${i} out of range (${this.#params.length} params)`);
    return i as Local;
  }

  /** How many blocks, loops and ifs are open where the next instruction goes; 0 at the body's top level. */
  get depth(): number {
    return this.#blocks.length;
  }

  local(type: ValType): Local {
    this.#locals.push(type);
    return (this.#params.length + this.#locals.length - 1) as Local;
  }

  /**
   * Emits an instruction with no immediate, or with one index/constant/lane
   * immediate; call_indirect takes (typeIndex, tableIndex = 0).
   */
  op(name: string, ...imm: Array<number | bigint>): this {
    const info = opcode(name);
    // Routed so that block balance stays tracked whichever way they are written.
    if (name === 'end' && imm.length === 0) return this.end();
    if (name === 'else' && imm.length === 0) return this.else();
    return this.#atomically(() => this.#op(name, info, imm));
  }

  /** Runs an emit; if it throws, the body is left as it was before (no half-written instruction). */
  #atomically(emit: () => void): this {
    const start = this.#code.length;
    try {
      emit();
    } catch (e) {
      this.#code.truncate(start);
      throw e;
    }
    return this;
  }

  #op(name: string, info: OpcodeInfo, imm: Array<number | bigint>): void {
    const w = this.#code;
    if (info.prefix !== undefined) w.u8(info.prefix).uleb(info.code);
    else w.u8(info.code);
    const need = (n: number): void => {
      if (imm.length !== n) throw new TypeError(`${name} takes ${n} immediate(s); got ${imm.length}`);
    };
    /** The one immediate an instruction takes. */
    const only = (): number | bigint => {
      const [x] = imm;
      if (x === undefined || imm.length !== 1) throw new TypeError(`${name} takes 1 immediate(s); got ${imm.length}`);
      return x;
    };
    switch (info.imm) {
      case 'none': need(0); break;
      case 'index': need(1); w.uleb(Number(imm[0])); break;
      case 'i32': w.sleb(BigInt.asIntN(32, BigInt(only()))); break;
      case 'i64': w.sleb(BigInt.asIntN(64, BigInt(only()))); break;
      case 'f32': need(1); w.f32(Number(imm[0])); break;
      case 'f64': need(1); w.f64(Number(imm[0])); break;
      case 'lane': need(1); checkLane(name, Number(imm[0])); w.u8(Number(imm[0])); break;
      case 'memidx': need(0); w.u8(0); break;
      case 'memidx2': need(0); w.u8(0).u8(0); break;
      case 'call_indirect':
        if (imm.length < 1 || imm.length > 2) throw new TypeError(`${name} takes a type index and an optional table index; got ${imm.length} immediate(s)`);
        w.uleb(Number(imm[0])).uleb(Number(imm[1] ?? 0));
        break;
      default: throw new TypeError(`${name} needs its own emitter (mem, block/loop/if, v128const, shuffle, brTable)`);
    }
  }

  /**
   * A load or store; the alignment defaults to the access's natural one. It may
   * be lower (a promise of less), never higher, and atomics (0xfe) must use
   * exactly the natural one: validation rejects anything else.
   */
  mem(name: string, arg: MemArg = {}, lane?: number): this {
    const info = opcode(name);
    if (info.imm !== 'memarg' && info.imm !== 'memarg_lane') throw new TypeError(`${name} is not a memory instruction`);
    const natural = naturalAlign(name);
    const align = arg.align ?? natural;
    if (!Number.isInteger(align) || align < 0 || align > natural) {
      throw new RangeError(`${name}: align ${align} (log2 bytes) is invalid; use 0..${natural}, its natural alignment being ${natural}`);
    }
    if (info.prefix === 0xfe && align !== natural) {
      throw new RangeError(`${name}: atomic accesses must use exactly their natural alignment (align ${natural}); got ${align}`);
    }
    if (info.imm === 'memarg_lane') {
      if (lane === undefined) throw new TypeError(`${name} needs a lane index`);
      checkLane(name, lane);
    } else if (lane !== undefined) {
      throw new TypeError(`${name} takes no lane index; only the v128.*_lane instructions do`);
    }
    return this.#atomically(() => {
      const w = this.#code;
      if (info.prefix !== undefined) w.u8(info.prefix).uleb(info.code);
      else w.u8(info.code);
      w.uleb(align).uleb(arg.offset ?? 0);
      if (lane !== undefined) w.u8(lane);
    });
  }

  v128const(bytes: ArrayLike<number>): this {
    if (bytes.length !== 16) throw new RangeError(`v128.const needs 16 bytes; got ${bytes.length}`);
    this.#code.u8(0xfd).uleb(0x0c).bytes(bytes);
    return this;
  }

  /** v128.const from two f64 lanes, or four f32/i32 lanes. */
  v128f64(a: number, b = a): this {
    const v = new Float64Array([a, b]);
    return this.v128const(new Uint8Array(v.buffer));
  }

  v128f32(a: number, b = a, c = a, d = a): this {
    return this.v128const(new Uint8Array(new Float32Array([a, b, c, d]).buffer));
  }

  v128i32(a: number, b = a, c = a, d = a): this {
    return this.v128const(new Uint8Array(new Int32Array([a, b, c, d]).buffer));
  }

  v128i64(a: bigint, b = a): this {
    return this.v128const(new Uint8Array(new BigInt64Array([a, b]).buffer));
  }

  shuffle(lanes: ArrayLike<number>): this {
    if (lanes.length !== 16 || Array.from(lanes).some((l) => l < 0 || l > 31)) throw new RangeError('i8x16.shuffle needs 16 lane indices in 0..31');
    this.#code.u8(0xfd).uleb(0x0d).bytes(lanes);
    return this;
  }

  #open(name: 'block' | 'loop' | 'if', type: BlockType): this {
    this.#code.u8(opcode(name).code).u8(type === 'void' ? 0x40 : VALTYPE[type]);
    this.#blocks.push(name);
    return this;
  }

  block(type: BlockType = 'void'): this {
    return this.#open('block', type);
  }

  loop(type: BlockType = 'void'): this {
    return this.#open('loop', type);
  }

  if(type: BlockType = 'void'): this {
    return this.#open('if', type);
  }

  else(): this {
    const top = this.#blocks[this.#blocks.length - 1];
    if (top !== 'if') throw new Error(`else() must directly follow the body of an if(); the innermost open construct is ${top ?? 'none'}`);
    this.#blocks[this.#blocks.length - 1] = 'else';
    this.#code.u8(opcode('else').code);
    return this;
  }

  end(): this {
    if (this.#blocks.length === 0) throw new Error('end() without an open block');
    this.#blocks.pop();
    this.#code.u8(opcode('end').code);
    return this;
  }

  brTable(labels: readonly number[], defaultLabel: number): this {
    return this.#atomically(() => {
      const w = this.#code.u8(opcode('br_table').code).uleb(labels.length);
      for (const l of labels) w.uleb(l);
      w.uleb(defaultLabel);
    });
  }

  /** The body: local declarations (run-length grouped), the code, and the final end. */
  finish(): Uint8Array {
    if (this.#blocks.length !== 0) {
      throw new Error(`function body has ${this.#blocks.length} unclosed block(s) (${this.#blocks.join(', ')}); close each with end()`);
    }
    const groups: Array<[number, ValType]> = [];
    for (const t of this.#locals) {
      const last = groups[groups.length - 1];
      if (last && last[1] === t) last[0]++;
      else groups.push([1, t]);
    }
    const w = new ByteWriter().uleb(groups.length);
    for (const [n, t] of groups) w.uleb(n).u8(VALTYPE[t]);
    w.bytes(this.#code.finish()).u8(opcode('end').code);
    return w.finish();
  }
}

export { FunctionBuilder, naturalAlign, laneCount };
export type { BlockType, MemArg, Local };
