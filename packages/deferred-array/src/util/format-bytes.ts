// Byte counts for people, as kernels-wasm's heap errors print them (so a
// note this package adds to one reads the same).

/** Exact bytes plus a binary-prefixed size: '3,145,728 bytes (3.0 MiB)'. */
function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'] as const;
  let value = bytes;
  let unit = '';
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  return unit === '' ? exact : `${exact} (${value.toFixed(1)} ${unit})`;
}

export { formatBytes };
