// The type of stdlib-pieces.cjs for the browser build's static import of it (util/stdlib.ts's Pieces is the real shape).
declare const pieces: unknown;
export = pieces;
