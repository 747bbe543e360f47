// Runs a jest project as a browser page without cross-origin isolation runs: no shared
// memory, so the heap is an ordinary WebAssembly.Memory and kernels run on the calling thread
// (read by kernels-wasm's heapIsShared() when the heap is first made).
process.env.DEFERRED_ARRAY_SHARED_MEMORY = '0';
