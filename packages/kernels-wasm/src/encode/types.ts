// Value types and function types of the binary format.

const VALTYPE = { i32: 0x7f, i64: 0x7e, f32: 0x7d, f64: 0x7c, v128: 0x7b } as const;
type ValType = keyof typeof VALTYPE;

interface FuncType {
  readonly params: readonly ValType[];
  readonly results: readonly ValType[];
}

const VALTYPE_NAME = new Map<number, ValType>(Object.entries(VALTYPE).map(([k, v]) => [v, k as ValType]));

const funcTypeKey = (t: FuncType): string => `${t.params.join(',')}->${t.results.join(',')}`;

export { VALTYPE, VALTYPE_NAME, funcTypeKey };
export type { ValType, FuncType };
