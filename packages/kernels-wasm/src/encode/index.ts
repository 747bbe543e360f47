// The WebAssembly binary encoder.
export { ByteWriter, ByteReader, WasmDecodeError } from './bytes.js';
export { OPCODES, opcode } from './opcodes.js';
export { FunctionBuilder } from './function-builder.js';
export { ModuleBuilder } from './module-builder.js';
export { VALTYPE } from './types.js';
export { disassemble, disassembleFunction } from './disassemble.js';
export { HIGH_TO_LOW, JOIN_LOW_HALVES } from './shuffles.js';
export type { ValType, FuncType } from './types.js';
export type { BlockType, MemArg, Local } from './function-builder.js';
export type { MemoryImport } from './module-builder.js';
export type { Imm, OpcodeInfo } from './opcodes.js';
