//! For the workspace's tests: a small random number generator, so that every test that plays
//! random games draws its moves the same way (not part of the library's interface).

/// A xorshift generator (13, 7, 17): the same numbers from the same seed, every run.
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// One of `items`, drawn with the next number; `None` (drawing nothing) if there is none.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        let n = self.next();
        usize::try_from(n % items.len() as u64)
            .ok()
            .and_then(|i| items.get(i).copied())
    }
}
