// The @stdlib pieces this package uses, each required by its own subpath
// rather than through a package's whole namespace (@stdlib/ndarray's takes
// about a second to load). The build bundles this file into one
// (dist/stdlib-pieces.cjs), which loads in a few milliseconds; util/stdlib.ts
// loads it on first use, so importing the package costs none of it.
'use strict';

module.exports = {
  ndarray: require('@stdlib/ndarray/ctor'),
  empty: require('@stdlib/ndarray/empty'),
  promotionRules: require('@stdlib/ndarray/promotion-rules'),
  broadcastShapes: require('@stdlib/ndarray/base/broadcast-shapes'),
  reinterpretBoolean: require('@stdlib/ndarray/base/reinterpret-boolean'),
  Slice: require('@stdlib/slice/ctor'),
  MultiSlice: require('@stdlib/slice/multi'),
  seq2multislice: require('@stdlib/slice/base/seq2multislice'),
  normalizeMultiSlice: require('@stdlib/slice/base/normalize-multi-slice'),
};
