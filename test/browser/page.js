// The browser suite's page: deferred-array's browser build and the scenarios, on window.
import * as da from 'deferred-array';
import * as scenarios from './scenarios.js';

window.da = da;
window.scenarios = Object.fromEntries(Object.entries(scenarios).map(([k, f]) => [k, (...args) => f(da, ...args)]));
window.ready = true;
