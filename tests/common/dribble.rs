//! A reader that hands out its bytes a few at a time, to test that streaming gives what a slice
//! gives however the reads fall.

use super::rng::XorShift;
use std::io::Read;

/// A reader that returns 1 to `max` bytes per call (xorshift-chosen, fixed seed).
pub struct Dribble<'a> {
    data: &'a [u8],
    pos: usize,
    rng: XorShift,
    max: usize,
}

impl<'a> Dribble<'a> {
    pub fn new(data: &'a [u8], seed: u64, max: usize) -> Dribble<'a> {
        Dribble { data, pos: 0, rng: XorShift::new(seed | 1), max }
    }
}

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (1 + (self.rng.next() % self.max as u64) as usize).min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}
