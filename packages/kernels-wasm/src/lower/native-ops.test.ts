// The native lowering is keyed by the op table: a row whose lowering is
// native needs an emitter, and one with lanes needs a lane form, or `tsc`
// fails (npm run typecheck compiles this file: each @ts-expect-error below
// must meet the error it names, or it is an error itself).
import { describe, expect, test } from '@jest/globals';
import { ELEMENTWISE_OPS, isElementwiseOp } from '../ops/elementwise-ops.js';
import { NATIVE_BINARY } from './native-binary.js';
import type { BinaryEmitters } from './native-binary.js';
import { NATIVE_UNARY } from './native-unary.js';
import type { UnaryEmitters } from './native-unary.js';
import { hasNativeLanes } from './op-rules.js';

const { add: _add, ...withoutAdd } = NATIVE_BINARY;
// @ts-expect-error add is native in the op table, so the emitters must have it
void (withoutAdd satisfies BinaryEmitters);
// @ts-expect-error add's float lowering is native with lanes, so its emitter needs a lane form
void ({ ...NATIVE_BINARY, add: { scalar: NATIVE_BINARY.add.scalar } } satisfies BinaryEmitters);
// @ts-expect-error power is not native (the math library's), so it has no emitter
void ({ ...NATIVE_BINARY, power: NATIVE_BINARY.add } satisfies BinaryEmitters);
const { sqrt: _sqrt, ...withoutSqrt } = NATIVE_UNARY;
// @ts-expect-error sqrt is native for floats
void (withoutSqrt satisfies UnaryEmitters);
// The maps as they are compile: the two lines above fail only for what they take away.
void (NATIVE_BINARY satisfies BinaryEmitters);
void (NATIVE_UNARY satisfies UnaryEmitters);

describe('native emitters', () => {
  const emitters: Readonly<Record<string, { readonly lanes?: unknown }>> = { ...NATIVE_UNARY, ...NATIVE_BINARY };
  const names = Object.keys(ELEMENTWISE_OPS).filter(isElementwiseOp);

  test('every row the table lowers natively has an emitter, and only those', () => {
    const native = names.filter((fn) => ELEMENTWISE_OPS[fn].float === 'native' || ELEMENTWISE_OPS[fn].int === 'native');
    expect(Object.keys(emitters).sort()).toEqual(native.sort());
  });

  test('every row with lanes has a lane form', () => {
    const lanes = names.filter((fn) => hasNativeLanes(fn, 'float') || hasNativeLanes(fn, 'int'));
    expect(lanes.filter((fn) => emitters[fn]?.lanes === undefined)).toEqual([]);
  });
});
