// The file readers and writers (api/data-files.ts loads this module on
// first use): .npy and .npz through load-save.ts, Zarr through zarr.ts, and
// with them the streamed runs of mapped arrays (streamed.ts registers its
// streamer as it loads, before any mapped array can exist).
export { load, save, savez, savezCompressed } from './load-save.js';
export { fromZarr } from './zarr.js';
