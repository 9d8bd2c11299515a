//! A tiny seeded pseudo-random number generator (SplitMix64).
//!
//! The arena needs randomness only to order the opening book and for the
//! `arena mover` test opponent. A self-written generator keeps every run
//! reproducible: the same `--seed` gives the same schedule on every
//! platform and with every version of every dependency.

/// SplitMix64 (Steele, Lea and Flood, 2014): the state advances by a fixed
/// odd constant and each output is that state put through two
/// xor-shift-multiply rounds. Fast, tiny, and statistically good enough to
/// pick openings.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose whole future is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n`. Returns 0 when `n` is 0.
    ///
    /// A plain `next_u64() % n` would favour small values slightly, because
    /// 2^64 is rarely a multiple of `n`. We reject the `2^64 mod n` lowest
    /// outputs, so that the accepted range is an exact multiple of `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let rejected = n.wrapping_neg() % n; // = 2^64 mod n
        loop {
            let x = self.next_u64();
            if x >= rejected {
                return x % n;
            }
        }
    }

    /// Shuffles `items` in place (Fisher-Yates): every order is equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_splitmix64_sequence() {
        // The first outputs for seed 0 of the reference C implementation
        // (splitmix64.c by Sebastiano Vigna), as listed in many test suites.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = SplitMix64::new(42);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = rng.below(7);
            assert!(x < 7);
            seen[x as usize] += 1;
        }
        // Each value expects 1000 hits; a fair generator stays well inside
        // 800..1200 (that is more than six standard deviations).
        assert!(
            seen.iter().all(|&count| (800..1200).contains(&count)),
            "{seen:?}"
        );
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn shuffle_is_a_reproducible_permutation() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        SplitMix64::new(9).shuffle(&mut a);
        SplitMix64::new(9).shuffle(&mut b);
        assert_eq!(a, b, "same seed, same order");
        assert_ne!(a, (0..50).collect::<Vec<_>>(), "the order changed");
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            (0..50).collect::<Vec<_>>(),
            "nothing lost or duplicated"
        );
        let mut c: Vec<u32> = (0..50).collect();
        SplitMix64::new(10).shuffle(&mut c);
        assert_ne!(a, c, "another seed, another order");
    }
}
