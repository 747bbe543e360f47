// Every JavaScript system by id (NumPy and numexpr live in python/child.py).
import { scalingWorkers } from '../cases.js';
import { jaxjs } from './jax.js';
import { js } from './js.js';
import { ndarrayOps } from './ndarray-ops.js';
import { ours } from './ours.js';
import { stdlib } from './stdlib.js';
import type { System } from './system.js';
import { tfjs } from './tfjs.js';

function systemById(id: string): System {
  const workers = scalingWorkers(id);
  if (workers !== undefined) return ours('execute', workers);
  switch (id) {
    case 'ours': return ours('execute');
    case 'ours-views': return ours('views');
    case 'reference': return ours('reference');
    case 'js-fresh': return js(false);
    case 'js-owned': return js(true);
    case 'stdlib': return stdlib();
    case 'ndarray-ops': return ndarrayOps();
    case 'tfjs-wasm': return tfjs();
    case 'jax-f64': return jaxjs('float64');
    case 'jax-f32': return jaxjs('float32');
    default: throw new Error(`no system '${id}'`);
  }
}

export { systemById };
