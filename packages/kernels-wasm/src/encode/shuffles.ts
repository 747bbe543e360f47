// Byte shuffles (i8x16.shuffle lane lists) between the halves of v128 values,
// for code that widens four 32-bit lanes into two f64x2 and narrows them back.

/** The high 8 bytes moved low (the high half read twice): what promote_low or convert_low then widens. */
const HIGH_TO_LOW = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15] as const;

/** The low 8 bytes of the first operand, then the low 8 bytes of the second: two narrowed halves joined. */
const JOIN_LOW_HALVES = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] as const;

export { HIGH_TO_LOW, JOIN_LOW_HALVES };
