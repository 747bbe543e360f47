// Where pool workers load host functions from: host-functions.js in the
// build (host-module.browser.ts is the browser build's).
import { builtModuleUrl } from 'kernels-wasm';
import { packageRoot } from '../package-root.js';

const hostModuleUrl = (): string => builtModuleUrl('wasm/host-functions', packageRoot).href;

export { hostModuleUrl };
