// Reads back a table that scripts/pack-tables.mjs packed: `count` doubles as
// base64 of their little-endian bytes, byte k of every value together (the
// bytes that vary little, exponents and zero low bits, sit side by side and
// compress), in rows of `width`.

/** The bytes of a base64 string (atob is in every browser and in Node 16 and later). */
function fromBase64(text: string): Uint8Array {
  const chars = atob(text);
  const bytes = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) bytes[i] = chars.charCodeAt(i);
  return bytes;
}

function unpackRows(base64: string, count: number, width: number): number[][] {
  const planes = fromBase64(base64);
  if (planes.length !== 8 * count || count % width !== 0) {
    throw new Error(`internal: a packed table of ${count} doubles in rows of ${width} holds ${planes.length} bytes`);
  }
  const view = new DataView(new ArrayBuffer(8));
  const rows: number[][] = [];
  for (let r = 0; r < count / width; r++) {
    const row: number[] = [];
    for (let c = 0; c < width; c++) {
      const i = r * width + c;
      for (let k = 0; k < 8; k++) view.setUint8(k, planes[k * count + i]!);
      row.push(view.getFloat64(0, true));
    }
    rows.push(row);
  }
  return rows;
}

export { unpackRows };
