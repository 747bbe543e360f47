import { FunctionBuilder } from './function-builder.js';

describe('block balance', () => {
  test('finish() refuses unclosed blocks, naming them', () => {
    const f = new FunctionBuilder([]).block().loop();
    expect(() => f.finish()).toThrow('function body has 2 unclosed block(s) (block, loop); close each with end()');
  });

  test('end() without an open block', () => {
    expect(() => new FunctionBuilder([]).end()).toThrow('end() without an open block');
    expect(() => new FunctionBuilder([]).block().end().end()).toThrow('end() without an open block');
  });

  test("op('end') and op('else') are tracked like end() and else()", () => {
    expect(() => new FunctionBuilder([]).block().op('end').finish()).not.toThrow();
    expect(() => new FunctionBuilder([]).op('end')).toThrow('end() without an open block');
    expect(() => new FunctionBuilder([]).op('else')).toThrow(/else\(\) must directly follow the body of an if\(\)/);
  });

  test('else() only inside an if, and only once', () => {
    expect(() => new FunctionBuilder([]).block().else()).toThrow('else() must directly follow the body of an if(); the innermost open construct is block');
    const f = new FunctionBuilder(['i32']).op('local.get', 0).if().else();
    expect(() => f.else()).toThrow(/innermost open construct is else/);
    expect(() => f.end().finish()).not.toThrow();
  });

  test('a balanced body ends with exactly one final end', () => {
    const body = new FunctionBuilder([]).block().loop().end().end().finish();
    expect(Array.from(body)).toEqual([0x00, 0x02, 0x40, 0x03, 0x40, 0x0b, 0x0b, 0x0b]);
  });
});

describe('locals', () => {
  test('locals are numbered after the params and declared in run-length groups', () => {
    const f = new FunctionBuilder(['i32', 'f64']);
    expect([f.local('i32'), f.local('i32'), f.local('v128'), f.local('i32')]).toEqual([2, 3, 4, 5]);
    expect(Array.from(f.finish())).toEqual([3, 2, 0x7f, 1, 0x7b, 1, 0x7f, 0x0b]);
  });

  test('param() checks its index', () => {
    expect(new FunctionBuilder(['i32']).param(0)).toBe(0);
    expect(() => new FunctionBuilder(['i32']).param(1)).toThrow('param 1 out of range (1 params)');
  });
});

describe('immediates are checked where they are emitted', () => {
  test('wrong immediate counts', () => {
    const f = new FunctionBuilder([]);
    expect(() => f.op('i32.add', 1)).toThrow('i32.add takes 0 immediate(s); got 1');
    expect(() => f.op('local.get')).toThrow('local.get takes 1 immediate(s); got 0');
    expect(() => f.op('call_indirect')).toThrow(/call_indirect takes a type index and an optional table index/);
  });

  test('instructions with their own emitters are refused by op()', () => {
    for (const name of ['block', 'v128.const', 'i8x16.shuffle', 'br_table', 'f64.load']) {
      expect(() => new FunctionBuilder([]).op(name)).toThrow(`${name} needs its own emitter`);
    }
  });

  test('lane indices must address a lane of the shape', () => {
    const f = new FunctionBuilder([]);
    expect(() => f.op('f64x2.extract_lane', 2)).toThrow('f64x2.extract_lane: lane 2 is out of range; it takes a lane index in 0..1');
    expect(() => f.op('i8x16.replace_lane', 16)).toThrow(/0\.\.15/);
    expect(() => f.op('i32x4.extract_lane', -1)).toThrow(RangeError);
    expect(() => f.mem('v128.load32_lane', {}, 4)).toThrow('v128.load32_lane: lane 4 is out of range; it takes a lane index in 0..3');
    expect(() => f.mem('v128.store8_lane', {})).toThrow('v128.store8_lane needs a lane index');
    expect(() => f.mem('f64.load', {}, 0)).toThrow(/f64.load takes no lane index/);
  });

  test('alignment: lower than natural is allowed, higher is not', () => {
    const f = new FunctionBuilder([]);
    expect(() => f.mem('f64.load', { align: 0 })).not.toThrow();
    expect(() => f.mem('f64.load', { align: 4 })).toThrow('f64.load: align 4 (log2 bytes) is invalid; use 0..3, its natural alignment being 3');
    expect(() => f.mem('v128.load8_splat', { align: 1 })).toThrow(/use 0\.\.0/);
  });

  test('atomics must use exactly their natural alignment', () => {
    const f = new FunctionBuilder([]);
    expect(() => f.mem('i32.atomic.rmw.add', { align: 2 })).not.toThrow();
    expect(() => f.mem('i32.atomic.rmw.add', { align: 1 })).toThrow('i32.atomic.rmw.add: atomic accesses must use exactly their natural alignment (align 2); got 1');
    expect(() => f.mem('memory.atomic.wait64', { align: 2 })).toThrow(/exactly their natural alignment \(align 3\)/);
  });

  test('mem() refuses instructions without a memarg', () => {
    expect(() => new FunctionBuilder([]).mem('i32.add')).toThrow('i32.add is not a memory instruction');
  });

  test('v128 constants and shuffles need 16 bytes / lanes', () => {
    const f = new FunctionBuilder([]);
    expect(() => f.v128const([1, 2, 3])).toThrow('v128.const needs 16 bytes; got 3');
    expect(() => f.shuffle([0, 1])).toThrow('i8x16.shuffle needs 16 lane indices in 0..31');
    expect(() => f.shuffle(new Array<number>(16).fill(32))).toThrow(RangeError);
  });

  test('a refused instruction leaves nothing behind in the body', () => {
    const f = new FunctionBuilder([]);
    const clean = Array.from(new FunctionBuilder([]).op('nop').finish());
    expect(() => f.op('f64x2.extract_lane', 5)).toThrow(RangeError);
    expect(() => f.op('i32.add', 1)).toThrow(TypeError);
    expect(() => f.op('local.get', 2 ** 32)).toThrow(RangeError);
    expect(() => f.mem('f64.load', { offset: -1 })).toThrow(RangeError);
    expect(() => f.brTable([0, -1], 0)).toThrow(RangeError);
    expect(Array.from(f.op('nop').finish())).toEqual(clean);
  });

  test('indices must be u32', () => {
    expect(() => new FunctionBuilder([]).op('local.get', -1)).toThrow(/is not a u32/);
  });
});
