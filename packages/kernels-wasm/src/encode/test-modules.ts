// Small modules the encoder's tests build, disassemble and run.
import type { ModuleBuilder } from './module-builder.js';

/** Adds add(a, b, out, n): out[i] = a[i] + b[i] over n f64s (n even, byte addresses), two lanes at a time. */
function addVectorAdd(mb: ModuleBuilder): void {
  const [, f] = mb.func('add', ['i32', 'i32', 'i32', 'i32'], []);
  const i = f.local('i32');
  f.block().loop()
    .op('local.get', i).op('local.get', 3).op('i32.const', 3).op('i32.shl').op('i32.ge_u').op('br_if', 1)
    .op('local.get', 2).op('local.get', i).op('i32.add')
    .op('local.get', 0).op('local.get', i).op('i32.add').mem('v128.load')
    .op('local.get', 1).op('local.get', i).op('i32.add').mem('v128.load')
    .op('f64x2.add')
    .mem('v128.store')
    .op('local.get', i).op('i32.const', 16).op('i32.add').op('local.set', i)
    .op('br', 0)
    .end().end();
}

export { addVectorAdd };
