// Byte shuffles (i8x16.shuffle lane lists) between the halves of v128 values,
// for code that widens four 32-bit lanes into two f64x2 and narrows them back,
// or pairs the lanes of two rows read from a table.

/** The high 8 bytes moved low (the high half read twice): what promote_low or convert_low then widens. */
const HIGH_TO_LOW = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15] as const;

/** The low 8 bytes of the first operand, then the low 8 bytes of the second: two narrowed halves joined. */
const JOIN_LOW_HALVES = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] as const;

/** The high 8 bytes of the first operand, then those of the second: the second f64 lanes of two vectors side by side. */
const JOIN_HIGH_HALVES = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] as const;

/** The high 32 bits of each i64 lane moved to i32 lanes 0 and 1 (what convert_low then widens). */
const HIGH_WORDS = [4, 5, 6, 7, 12, 13, 14, 15, 4, 5, 6, 7, 12, 13, 14, 15] as const;

/** The high 32 bits of each i64 lane of two vectors (two i64x2 products), as one i32x4. */
const PRODUCT_HIGH_WORDS = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] as const;

/** The low 32 bits of each i64 lane of two vectors, as one i32x4. */
const PRODUCT_LOW_WORDS = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] as const;

export { HIGH_TO_LOW, JOIN_LOW_HALVES, JOIN_HIGH_HALVES, HIGH_WORDS, PRODUCT_HIGH_WORDS, PRODUCT_LOW_WORDS };
