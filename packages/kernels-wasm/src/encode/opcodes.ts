// The instruction table: every opcode the kernels use, with its encoding and
// the kind of immediate that follows it. Prefixed opcodes (0xfc, 0xfd, 0xfe)
// carry their sub-opcode as an unsigned LEB128.
// Checked entry by entry against the spec's index of instructions (core, 0xfc
// and the 0xfd SIMD set) and the threads proposal (0xfe); opcodes.test.ts
// validates every entry in a module and spot-checks encodings.

/**
 * none, u32 index (local/global/func/label), i32/i64/f32/f64 constants,
 * memarg (align, offset), lane (one byte), memarg+lane, v128 (16 bytes),
 * shuffle (16 lane bytes), blocktype, memidx (a 0x00 byte), and the two
 * oddballs br_table and memory.copy/call_indirect.
 */
type Imm = 'none' | 'index' | 'i32' | 'i64' | 'f32' | 'f64' | 'memarg' | 'lane' | 'memarg_lane' | 'v128' | 'shuffle'
  | 'block' | 'memidx' | 'memidx2' | 'br_table' | 'call_indirect';

interface OpcodeInfo {
  readonly prefix?: number;
  readonly code: number;
  readonly imm: Imm;
}

const core: Record<string, [number, Imm]> = {
  'unreachable': [0x00, 'none'], 'nop': [0x01, 'none'], 'block': [0x02, 'block'], 'loop': [0x03, 'block'],
  'if': [0x04, 'block'], 'else': [0x05, 'none'], 'end': [0x0b, 'none'], 'br': [0x0c, 'index'], 'br_if': [0x0d, 'index'],
  'br_table': [0x0e, 'br_table'], 'return': [0x0f, 'none'], 'call': [0x10, 'index'], 'call_indirect': [0x11, 'call_indirect'],
  'drop': [0x1a, 'none'], 'select': [0x1b, 'none'],
  'local.get': [0x20, 'index'], 'local.set': [0x21, 'index'], 'local.tee': [0x22, 'index'],
  'global.get': [0x23, 'index'], 'global.set': [0x24, 'index'],
  'i32.load': [0x28, 'memarg'], 'i64.load': [0x29, 'memarg'], 'f32.load': [0x2a, 'memarg'], 'f64.load': [0x2b, 'memarg'],
  'i32.load8_s': [0x2c, 'memarg'], 'i32.load8_u': [0x2d, 'memarg'], 'i32.load16_s': [0x2e, 'memarg'], 'i32.load16_u': [0x2f, 'memarg'],
  'i64.load8_s': [0x30, 'memarg'], 'i64.load8_u': [0x31, 'memarg'], 'i64.load16_s': [0x32, 'memarg'], 'i64.load16_u': [0x33, 'memarg'],
  'i64.load32_s': [0x34, 'memarg'], 'i64.load32_u': [0x35, 'memarg'],
  'i32.store': [0x36, 'memarg'], 'i64.store': [0x37, 'memarg'], 'f32.store': [0x38, 'memarg'], 'f64.store': [0x39, 'memarg'],
  'i32.store8': [0x3a, 'memarg'], 'i32.store16': [0x3b, 'memarg'], 'i64.store8': [0x3c, 'memarg'], 'i64.store16': [0x3d, 'memarg'],
  'i64.store32': [0x3e, 'memarg'], 'memory.size': [0x3f, 'memidx'], 'memory.grow': [0x40, 'memidx'],
  'i32.const': [0x41, 'i32'], 'i64.const': [0x42, 'i64'], 'f32.const': [0x43, 'f32'], 'f64.const': [0x44, 'f64'],
};

// Runs of consecutive opcodes with no immediate.
const runs: Array<[number, string[]]> = [
  [0x45, ['i32.eqz', 'i32.eq', 'i32.ne', 'i32.lt_s', 'i32.lt_u', 'i32.gt_s', 'i32.gt_u', 'i32.le_s', 'i32.le_u', 'i32.ge_s', 'i32.ge_u',
    'i64.eqz', 'i64.eq', 'i64.ne', 'i64.lt_s', 'i64.lt_u', 'i64.gt_s', 'i64.gt_u', 'i64.le_s', 'i64.le_u', 'i64.ge_s', 'i64.ge_u',
    'f32.eq', 'f32.ne', 'f32.lt', 'f32.gt', 'f32.le', 'f32.ge', 'f64.eq', 'f64.ne', 'f64.lt', 'f64.gt', 'f64.le', 'f64.ge',
    'i32.clz', 'i32.ctz', 'i32.popcnt', 'i32.add', 'i32.sub', 'i32.mul', 'i32.div_s', 'i32.div_u', 'i32.rem_s', 'i32.rem_u',
    'i32.and', 'i32.or', 'i32.xor', 'i32.shl', 'i32.shr_s', 'i32.shr_u', 'i32.rotl', 'i32.rotr',
    'i64.clz', 'i64.ctz', 'i64.popcnt', 'i64.add', 'i64.sub', 'i64.mul', 'i64.div_s', 'i64.div_u', 'i64.rem_s', 'i64.rem_u',
    'i64.and', 'i64.or', 'i64.xor', 'i64.shl', 'i64.shr_s', 'i64.shr_u', 'i64.rotl', 'i64.rotr',
    'f32.abs', 'f32.neg', 'f32.ceil', 'f32.floor', 'f32.trunc', 'f32.nearest', 'f32.sqrt', 'f32.add', 'f32.sub', 'f32.mul',
    'f32.div', 'f32.min', 'f32.max', 'f32.copysign',
    'f64.abs', 'f64.neg', 'f64.ceil', 'f64.floor', 'f64.trunc', 'f64.nearest', 'f64.sqrt', 'f64.add', 'f64.sub', 'f64.mul',
    'f64.div', 'f64.min', 'f64.max', 'f64.copysign',
    'i32.wrap_i64', 'i32.trunc_f32_s', 'i32.trunc_f32_u', 'i32.trunc_f64_s', 'i32.trunc_f64_u', 'i64.extend_i32_s',
    'i64.extend_i32_u', 'i64.trunc_f32_s', 'i64.trunc_f32_u', 'i64.trunc_f64_s', 'i64.trunc_f64_u', 'f32.convert_i32_s',
    'f32.convert_i32_u', 'f32.convert_i64_s', 'f32.convert_i64_u', 'f32.demote_f64', 'f64.convert_i32_s', 'f64.convert_i32_u',
    'f64.convert_i64_s', 'f64.convert_i64_u', 'f64.promote_f32', 'i32.reinterpret_f32', 'i64.reinterpret_f64',
    'f32.reinterpret_i32', 'f64.reinterpret_i64', 'i32.extend8_s', 'i32.extend16_s', 'i64.extend8_s', 'i64.extend16_s',
    'i64.extend32_s']],
];

const saturating = ['i32.trunc_sat_f32_s', 'i32.trunc_sat_f32_u', 'i32.trunc_sat_f64_s', 'i32.trunc_sat_f64_u',
  'i64.trunc_sat_f32_s', 'i64.trunc_sat_f32_u', 'i64.trunc_sat_f64_s', 'i64.trunc_sat_f64_u'];

// 0xfd sub-opcodes. Gaps are opcodes that were removed from the proposal.
const simd: Array<[number, string, Imm]> = [
  [0x00, 'v128.load', 'memarg'], [0x01, 'v128.load8x8_s', 'memarg'], [0x02, 'v128.load8x8_u', 'memarg'],
  [0x03, 'v128.load16x4_s', 'memarg'], [0x04, 'v128.load16x4_u', 'memarg'], [0x05, 'v128.load32x2_s', 'memarg'],
  [0x06, 'v128.load32x2_u', 'memarg'], [0x07, 'v128.load8_splat', 'memarg'], [0x08, 'v128.load16_splat', 'memarg'],
  [0x09, 'v128.load32_splat', 'memarg'], [0x0a, 'v128.load64_splat', 'memarg'], [0x0b, 'v128.store', 'memarg'],
  [0x0c, 'v128.const', 'v128'], [0x0d, 'i8x16.shuffle', 'shuffle'], [0x0e, 'i8x16.swizzle', 'none'],
  [0x0f, 'i8x16.splat', 'none'], [0x10, 'i16x8.splat', 'none'], [0x11, 'i32x4.splat', 'none'], [0x12, 'i64x2.splat', 'none'],
  [0x13, 'f32x4.splat', 'none'], [0x14, 'f64x2.splat', 'none'],
  [0x15, 'i8x16.extract_lane_s', 'lane'], [0x16, 'i8x16.extract_lane_u', 'lane'], [0x17, 'i8x16.replace_lane', 'lane'],
  [0x18, 'i16x8.extract_lane_s', 'lane'], [0x19, 'i16x8.extract_lane_u', 'lane'], [0x1a, 'i16x8.replace_lane', 'lane'],
  [0x1b, 'i32x4.extract_lane', 'lane'], [0x1c, 'i32x4.replace_lane', 'lane'], [0x1d, 'i64x2.extract_lane', 'lane'],
  [0x1e, 'i64x2.replace_lane', 'lane'], [0x1f, 'f32x4.extract_lane', 'lane'], [0x20, 'f32x4.replace_lane', 'lane'],
  [0x21, 'f64x2.extract_lane', 'lane'], [0x22, 'f64x2.replace_lane', 'lane'],
  ...seq(0x23, ['i8x16.eq', 'i8x16.ne', 'i8x16.lt_s', 'i8x16.lt_u', 'i8x16.gt_s', 'i8x16.gt_u', 'i8x16.le_s', 'i8x16.le_u',
    'i8x16.ge_s', 'i8x16.ge_u', 'i16x8.eq', 'i16x8.ne', 'i16x8.lt_s', 'i16x8.lt_u', 'i16x8.gt_s', 'i16x8.gt_u', 'i16x8.le_s',
    'i16x8.le_u', 'i16x8.ge_s', 'i16x8.ge_u', 'i32x4.eq', 'i32x4.ne', 'i32x4.lt_s', 'i32x4.lt_u', 'i32x4.gt_s', 'i32x4.gt_u',
    'i32x4.le_s', 'i32x4.le_u', 'i32x4.ge_s', 'i32x4.ge_u', 'f32x4.eq', 'f32x4.ne', 'f32x4.lt', 'f32x4.gt', 'f32x4.le',
    'f32x4.ge', 'f64x2.eq', 'f64x2.ne', 'f64x2.lt', 'f64x2.gt', 'f64x2.le', 'f64x2.ge', 'v128.not', 'v128.and',
    'v128.andnot', 'v128.or', 'v128.xor', 'v128.bitselect', 'v128.any_true']),
  [0x54, 'v128.load8_lane', 'memarg_lane'], [0x55, 'v128.load16_lane', 'memarg_lane'], [0x56, 'v128.load32_lane', 'memarg_lane'],
  [0x57, 'v128.load64_lane', 'memarg_lane'], [0x58, 'v128.store8_lane', 'memarg_lane'], [0x59, 'v128.store16_lane', 'memarg_lane'],
  [0x5a, 'v128.store32_lane', 'memarg_lane'], [0x5b, 'v128.store64_lane', 'memarg_lane'], [0x5c, 'v128.load32_zero', 'memarg'],
  [0x5d, 'v128.load64_zero', 'memarg'],
  ...seq(0x5e, ['f32x4.demote_f64x2_zero', 'f64x2.promote_low_f32x4', 'i8x16.abs', 'i8x16.neg', 'i8x16.popcnt',
    'i8x16.all_true', 'i8x16.bitmask', 'i8x16.narrow_i16x8_s', 'i8x16.narrow_i16x8_u', 'f32x4.ceil', 'f32x4.floor',
    'f32x4.trunc', 'f32x4.nearest', 'i8x16.shl', 'i8x16.shr_s', 'i8x16.shr_u', 'i8x16.add', 'i8x16.add_sat_s',
    'i8x16.add_sat_u', 'i8x16.sub', 'i8x16.sub_sat_s', 'i8x16.sub_sat_u', 'f64x2.ceil', 'f64x2.floor', 'i8x16.min_s',
    'i8x16.min_u', 'i8x16.max_s', 'i8x16.max_u', 'f64x2.trunc', 'i8x16.avgr_u', 'i16x8.extadd_pairwise_i8x16_s',
    'i16x8.extadd_pairwise_i8x16_u', 'i32x4.extadd_pairwise_i16x8_s', 'i32x4.extadd_pairwise_i16x8_u',
    'i16x8.abs', 'i16x8.neg', 'i16x8.q15mulr_sat_s', 'i16x8.all_true', 'i16x8.bitmask', 'i16x8.narrow_i32x4_s',
    'i16x8.narrow_i32x4_u', 'i16x8.extend_low_i8x16_s', 'i16x8.extend_high_i8x16_s', 'i16x8.extend_low_i8x16_u',
    'i16x8.extend_high_i8x16_u', 'i16x8.shl', 'i16x8.shr_s', 'i16x8.shr_u', 'i16x8.add', 'i16x8.add_sat_s',
    'i16x8.add_sat_u', 'i16x8.sub', 'i16x8.sub_sat_s', 'i16x8.sub_sat_u', 'f64x2.nearest', 'i16x8.mul', 'i16x8.min_s',
    'i16x8.min_u', 'i16x8.max_s', 'i16x8.max_u']),
  ...seq(0x9b, ['i16x8.avgr_u', 'i16x8.extmul_low_i8x16_s', 'i16x8.extmul_high_i8x16_s', 'i16x8.extmul_low_i8x16_u',
    'i16x8.extmul_high_i8x16_u', 'i32x4.abs', 'i32x4.neg']),
  ...seq(0xa3, ['i32x4.all_true', 'i32x4.bitmask']),
  ...seq(0xa7, ['i32x4.extend_low_i16x8_s', 'i32x4.extend_high_i16x8_s', 'i32x4.extend_low_i16x8_u',
    'i32x4.extend_high_i16x8_u', 'i32x4.shl', 'i32x4.shr_s', 'i32x4.shr_u', 'i32x4.add']),
  [0xb1, 'i32x4.sub', 'none'],
  ...seq(0xb5, ['i32x4.mul', 'i32x4.min_s', 'i32x4.min_u', 'i32x4.max_s', 'i32x4.max_u', 'i32x4.dot_i16x8_s']),
  ...seq(0xbc, ['i32x4.extmul_low_i16x8_s', 'i32x4.extmul_high_i16x8_s', 'i32x4.extmul_low_i16x8_u',
    'i32x4.extmul_high_i16x8_u', 'i64x2.abs', 'i64x2.neg']),
  ...seq(0xc3, ['i64x2.all_true', 'i64x2.bitmask']),
  ...seq(0xc7, ['i64x2.extend_low_i32x4_s', 'i64x2.extend_high_i32x4_s', 'i64x2.extend_low_i32x4_u',
    'i64x2.extend_high_i32x4_u', 'i64x2.shl', 'i64x2.shr_s', 'i64x2.shr_u', 'i64x2.add']),
  [0xd1, 'i64x2.sub', 'none'],
  ...seq(0xd5, ['i64x2.mul', 'i64x2.eq', 'i64x2.ne', 'i64x2.lt_s', 'i64x2.gt_s', 'i64x2.le_s', 'i64x2.ge_s',
    'i64x2.extmul_low_i32x4_s', 'i64x2.extmul_high_i32x4_s', 'i64x2.extmul_low_i32x4_u', 'i64x2.extmul_high_i32x4_u',
    'f32x4.abs', 'f32x4.neg']),
  ...seq(0xe3, ['f32x4.sqrt', 'f32x4.add', 'f32x4.sub', 'f32x4.mul', 'f32x4.div', 'f32x4.min', 'f32x4.max', 'f32x4.pmin',
    'f32x4.pmax', 'f64x2.abs', 'f64x2.neg']),
  ...seq(0xef, ['f64x2.sqrt', 'f64x2.add', 'f64x2.sub', 'f64x2.mul', 'f64x2.div', 'f64x2.min', 'f64x2.max', 'f64x2.pmin',
    'f64x2.pmax', 'i32x4.trunc_sat_f32x4_s', 'i32x4.trunc_sat_f32x4_u', 'f32x4.convert_i32x4_s', 'f32x4.convert_i32x4_u',
    'i32x4.trunc_sat_f64x2_s_zero', 'i32x4.trunc_sat_f64x2_u_zero', 'f64x2.convert_low_i32x4_s',
    'f64x2.convert_low_i32x4_u']),
];

// 0xfe: the atomics the pool needs (a block counter, waiting and waking).
const atomics: Array<[number, string, Imm]> = [
  [0x00, 'memory.atomic.notify', 'memarg'], [0x01, 'memory.atomic.wait32', 'memarg'], [0x02, 'memory.atomic.wait64', 'memarg'],
  [0x03, 'atomic.fence', 'memidx'], [0x10, 'i32.atomic.load', 'memarg'], [0x17, 'i32.atomic.store', 'memarg'],
  [0x1e, 'i32.atomic.rmw.add', 'memarg'], [0x25, 'i32.atomic.rmw.sub', 'memarg'], [0x41, 'i32.atomic.rmw.xchg', 'memarg'],
  [0x48, 'i32.atomic.rmw.cmpxchg', 'memarg'],
];

function seq(start: number, names: string[]): Array<[number, string, Imm]> {
  return names.map((n, i) => [start + i, n, 'none']);
}

function buildTable(): Map<string, OpcodeInfo> {
  const t = new Map<string, OpcodeInfo>();
  const add = (name: string, info: OpcodeInfo): void => {
    if (t.has(name)) throw new Error(`internal: opcode ${name} listed twice`);
    t.set(name, Object.freeze(info));
  };
  for (const [name, [code, imm]] of Object.entries(core)) add(name, { code, imm });
  for (const [start, names] of runs) names.forEach((n, i) => add(n, { code: start + i, imm: 'none' }));
  saturating.forEach((n, i) => add(n, { prefix: 0xfc, code: i, imm: 'none' }));
  add('memory.copy', { prefix: 0xfc, code: 0x0a, imm: 'memidx2' });
  add('memory.fill', { prefix: 0xfc, code: 0x0b, imm: 'memidx' });
  for (const [code, name, imm] of simd) add(name, { prefix: 0xfd, code, imm });
  for (const [code, name, imm] of atomics) add(name, { prefix: 0xfe, code, imm });
  return t;
}

const OPCODES: ReadonlyMap<string, OpcodeInfo> = buildTable();

function opcode(name: string): OpcodeInfo {
  const info = OPCODES.get(name);
  if (!info) throw new Error(`unknown WebAssembly instruction '${name}'`);
  return info;
}

export { OPCODES, opcode };
export type { Imm, OpcodeInfo };
