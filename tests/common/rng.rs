//! xorshift64: a deterministic pseudo-random sequence for mutated inputs and random reads.

/// The generator; its state is never 0 (a 0 seed is made 1).
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.max(1))
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
