import * as da from '../index.js';
import { ERROR_CLASSES, fromSerialized } from './errors.js';

describe('error classes', () => {
  test('every package error is a DeferredArrayError with a string code and its own name', () => {
    for (const [name, ctor] of Object.entries(ERROR_CLASSES)) {
      const e = new ctor('boom');
      expect(e).toBeInstanceOf(da.DeferredArrayError);
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe(name);
      expect(typeof e.code).toBe('string');
      expect(e.message).toBe('boom');
    }
    expect(new da.ShapeError('x').code).toBe('SHAPE');
    expect(new da.DTypeError('x').code).toBe('DTYPE');
  });

  test('errors serialised across a thread boundary come back as the same classes', () => {
    for (const ctor of Object.values(ERROR_CLASSES)) {
      const e = new ctor('m');
      const back = fromSerialized({ name: e.name, message: e.message, code: e.code });
      expect(back).toBeInstanceOf(ctor);
      expect(back.message).toBe('m');
    }
    expect(fromSerialized({ name: 'RangeError', message: 'r' })).toBeInstanceOf(RangeError);
    expect(fromSerialized({ name: 'TypeError', message: 't' })).toBeInstanceOf(TypeError);
    const unknown = fromSerialized({ name: 'SegFault', message: 'oops' });
    expect(unknown).toBeInstanceOf(da.WorkerError);
    expect(unknown.message).toBe('SegFault: oops');
  });
});

describe('definition-time errors name what was wrong', () => {
  test('dtypes', () => {
    expect(() => da.zeros([2], { dtype: 'float16' as da.DType })).toThrow(da.DTypeError);
    expect(() => da.zeros([2], { dtype: 'float16' as da.DType })).toThrow(/zeros: option dtype must be one of 'float64', 'float32', 'int64', 'uint64', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool'; got "float16"/);
    expect(() => da.array([1]).astype('complex' as da.DType)).toThrow(/astype: dtype/);
    expect(() => da.negative(da.array([true]))).toThrow(/negative is not defined for bool/);
    expect(() => da.sign(da.array([true]))).toThrow(da.DTypeError);
  });

  test('operands', () => {
    expect(() => da.add(da.zeros([1]), 'x' as never)).toThrow(/add: operand 1 must be a DeferredArray, a number, a bigint, a boolean or an array; got string x/);
    expect(() => da.sin({} as never)).toThrow(TypeError);
    expect(() => da.wrap(new Uint8ClampedArray(2) as never)).toThrow(TypeError);
  });

  test('axes', () => {
    const x = da.zeros([2, 3]);
    expect(() => x.sum({ axis: 2 })).toThrow(/sum: axis 2 is out of bounds for an array of dimension 2 \(valid: -2..1\)/);
    expect(() => x.sum({ axis: [0, -2] })).toThrow(/repeats an axis/);
    expect(() => x.sum({ axis: 0.5 })).toThrow(TypeError);
    expect(() => x.transpose([0, 0])).toThrow(da.ShapeError);
    expect(() => x.reshape([4, 2])).toThrow(/cannot reshape an array of size 6 \(shape \(2, 3\)\) into shape \(4, 2\)/);
  });

  test('linear algebra shapes', () => {
    expect(() => da.matmul(da.zeros([2, 3]), da.zeros([2, 3]))).toThrow(/matmul: shapes \(2, 3\) and \(2, 3\) are not aligned/);
    expect(() => da.dot(da.zeros([3]), da.zeros([4]))).toThrow(/\(3 != 4\)/);
  });
});
