// ANCHOR: stage-08-tt
//! The transposition table: what the search has learned about the
//! positions it has seen, kept in a fixed-size hash table.
//!
//! The same position is reached by many move orders (1.e4 e5 2.Nf3 and
//! 1.Nf3 e5 2.e4), and iterative deepening searches every position again
//! one ply deeper. The table remembers, for each position, the best move
//! found and the score with its depth and bound, so that a second visit
//! can try the best move first or, when the old result is deep enough,
//! not search at all.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use cozy_chess::{Move, Piece, Square};

// ANCHOR: entry
/// How the stored score relates to the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact: it was inside the window.
    Exact,
    /// The true score is at least this (the node failed high).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
}

/// What the table remembers about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<Move>,
    /// Score from the side to move's point of view, mate scores counted
    /// from this position (see [`score_to_table`]).
    pub score: i32,
    /// The position's static evaluation, so that a later visit need not
    /// compute it again.
    pub eval: i32,
    /// Depth of the search that produced the score.
    pub depth: i32,
    pub bound: Bound,
}
// ANCHOR_END: entry

// ANCHOR: bucket
/// One slot: the entry packed into 64 bits, and the position's full 64-bit
/// key XORed with them, to tell the positions that share a bucket apart:
///
/// ```text
/// bits  0-15  move        from (6) | to (6) | promotion (3), 0 = none
/// bits 16-31  score       i16
/// bits 32-47  eval        i16, the static evaluation
/// bits 48-55  depth       0-255
/// bits 56-57  bound       1 exact, 2 lower, 3 upper (0: empty slot)
/// bits 58-63  age         the search that wrote it, modulo 64
/// ```
///
/// Both words are atomics, so that several search threads can share the
/// table without a lock. One thread may read a slot while another writes
/// it and get one word of each; the XOR makes that harmless: the key it
/// gives back matches no position, so the read counts as a miss.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The key and the data, as one read of the slot sees them.
    fn read(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        (self.check.load(Ordering::Relaxed) ^ data, data)
    }

    fn write(&self, key: u64, data: u64) {
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// Four slots, 64 bytes: one cache line, so a probe costs one memory
/// access however many slots it reads.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; SLOTS],
}

const SLOTS: usize = 4;
// ANCHOR_END: bucket

// ANCHOR: hash-size
/// The size of the table when the GUI sets none (UCI option `Hash`).
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest table `Hash` accepts.
pub const MAX_HASH_MB: usize = 65536;
// ANCHOR_END: hash-size

/// The transposition table. Every method takes `&self`: the slots are
/// atomics, so the search threads can share one table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Which search this is, modulo 64: entries of older searches are the
    /// first to be replaced.
    age: AtomicU8,
}

/// Which slot of its bucket a new entry takes when none is empty and none
/// holds the same position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Replace {
    /// The slot with the shallowest entry, entries of older searches
    /// counting as shallower: deep results cost the most to find again.
    #[default]
    DepthPreferred,
    /// Each position has one slot of the bucket, chosen by its key, and a
    /// new entry always takes it: the newest result is the most relevant.
    Always,
}

impl Replace {
    /// The policy `Params::tt_replace` names: 0 depth-preferred, 1 always.
    pub fn from_param(value: i32) -> Self {
        match value {
            1 => Replace::Always,
            _ => Replace::DepthPreferred,
        }
    }
}

impl Default for TranspositionTable {
    fn default() -> Self {
        TranspositionTable::new(DEFAULT_HASH_MB).unwrap_or_else(|_| TranspositionTable::tiny())
    }
}

impl TranspositionTable {
    /// A table of `mb` megabytes (2^20 bytes), or an error if the memory
    /// cannot be had: the caller keeps its old table then.
    pub fn new(mb: usize) -> Result<Self, String> {
        let mb = mb.clamp(1, MAX_HASH_MB);
        let count = (mb << 20) / std::mem::size_of::<Bucket>();
        let refused = || format!("cannot allocate {mb} MB for the transposition table");
        // Filling the table touches every page, and Linux, which promises
        // more memory than it has, would kill the process then rather than
        // fail the allocation: ask first what it can still give.
        if available_mb().is_some_and(|available| mb > available) {
            return Err(refused());
        }
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| refused())?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// A one-bucket table, the fallback when not even the default fits.
    fn tiny() -> Self {
        TranspositionTable {
            buckets: vec![Bucket::default()],
            age: AtomicU8::new(0),
        }
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    // ANCHOR: clear
    /// Forget everything (`ucinewgame`).
    pub fn clear(&self) {
        for slot in self.buckets.iter().flat_map(|bucket| &bucket.slots) {
            slot.write(0, 0);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// A new search begins: what earlier searches stored ages by one.
    pub fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed);
        self.age.store((age + 1) % 64, Ordering::Relaxed);
    }
    // ANCHOR_END: clear

    // ANCHOR: index
    /// The bucket of `key`: the high bits of `key * buckets`, which spreads
    /// keys evenly over any number of buckets without a division.
    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }
    // ANCHOR_END: index

    /// What the table knows about the position with `key`, if anything.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.bucket(key)];
        bucket.slots.iter().find_map(|slot| {
            let (slot_key, data) = slot.read();
            (slot_key == key && bound_bits(data) != 0).then(|| unpack(data))
        })
    }

    /// Remember `entry` for the position with `key`; `replace` chooses the
    /// slot when the position has none yet.
    pub fn store(&self, key: u64, entry: Entry, replace: Replace) {
        let age = self.age.load(Ordering::Relaxed);
        let slots = &self.buckets[self.bucket(key)].slots;
        let seen: [(u64, u64); SLOTS] = std::array::from_fn(|i| slots[i].read());
        let target = match seen.iter().position(|&(slot_key, _)| slot_key == key) {
            Some(same) => same,
            None => match replace {
                Replace::DepthPreferred => (0..SLOTS)
                    .min_by_key(|&i| worth_keeping(seen[i].1, age))
                    .unwrap_or(0),
                // The low bits: the high ones chose the bucket, and are the
                // same for every key in it.
                Replace::Always => key as usize % SLOTS,
            },
        };
        // A result without a move keeps the move an earlier visit found.
        let mut entry = entry;
        let (target_key, target_data) = seen[target];
        if entry.mv.is_none() && target_key == key {
            entry.mv = unpack(target_data).mv;
        }
        slots[target].write(key, pack(entry, age));
    }

    /// Permille of the first thousand slots in use by this search (UCI
    /// `hashfull`): a sample, so that it costs nothing to report.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let used = self
            .buckets
            .iter()
            .flat_map(|bucket| bucket.slots.iter())
            .take(1000)
            .filter(|slot| {
                let (_, data) = slot.read();
                bound_bits(data) != 0 && age_bits(data) == age
            })
            .count();
        let sampled = (self.buckets.len() * SLOTS).min(1000);
        (used * 1000 / sampled.max(1)) as u32
    }
}

/// Megabytes the system can still give this process, where it says:
/// Linux's `MemAvailable`, or what is left under the process's cgroup
/// limit if that is less. `None` where neither can be read.
fn available_mb() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let mut bytes = kb.saturating_mul(1024);
    let cgroup = |file: &str| -> Option<u64> {
        let text = std::fs::read_to_string(format!("/sys/fs/cgroup/{file}")).ok()?;
        text.trim().parse().ok()
    };
    if let (Some(max), Some(used)) = (cgroup("memory.max"), cgroup("memory.current")) {
        bytes = bytes.min(max.saturating_sub(used));
    }
    Some((bytes >> 20) as usize)
}

/// How much a slot is worth keeping: empty slots are worth nothing, then
/// entries from older searches, then shallow ones.
fn worth_keeping(data: u64, age: u8) -> i32 {
    if bound_bits(data) == 0 {
        return i32::MIN;
    }
    let searches_ago = (age as i32 - age_bits(data) as i32).rem_euclid(64);
    depth_bits(data) as i32 - 8 * searches_ago
}

// ANCHOR: mate-scores
/// Mate scores count plies from the root ("mate in 5 from here" is
/// `MATE - 5 - ply`); in the table they must count from the position
/// itself, because the same position can be reached at another ply.
pub fn score_to_table(score: i32, ply: usize, mate_bound: i32) -> i32 {
    if score >= mate_bound {
        score + ply as i32
    } else if score <= -mate_bound {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_table`], at the ply where it is read.
pub fn score_from_table(score: i32, ply: usize, mate_bound: i32) -> i32 {
    if score >= mate_bound {
        score - ply as i32
    } else if score <= -mate_bound {
        score + ply as i32
    } else {
        score
    }
}
// ANCHOR_END: mate-scores

fn pack(entry: Entry, age: u8) -> u64 {
    let bound = match entry.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    pack_move(entry.mv) as u64
        | ((entry.score as i16 as u16 as u64) << 16)
        | ((entry.eval as i16 as u16 as u64) << 32)
        | ((entry.depth.clamp(0, 255) as u64) << 48)
        | (bound << 56)
        | (((age % 64) as u64) << 58)
}

fn unpack(data: u64) -> Entry {
    let bound = match bound_bits(data) {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    Entry {
        mv: unpack_move(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: depth_bits(data) as i32,
        bound,
    }
}

fn bound_bits(data: u64) -> u64 {
    (data >> 56) & 3
}

fn depth_bits(data: u64) -> u64 {
    (data >> 48) & 0xff
}

fn age_bits(data: u64) -> u8 {
    ((data >> 58) & 63) as u8
}

const PROMOTIONS: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

fn pack_move(mv: Option<Move>) -> u16 {
    let Some(mv) = mv else {
        return 0;
    };
    let promotion = mv
        .promotion
        .and_then(|p| PROMOTIONS.iter().position(|&q| q == p))
        .map_or(0, |i| i as u16 + 1);
    // A move from a1 to a1 is impossible, so 0 can stand for "no move".
    mv.from as u16 | (mv.to as u16) << 6 | promotion << 12
}

fn unpack_move(bits: u16) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let promotion = match (bits >> 12) & 7 {
        0 => None,
        i => PROMOTIONS.get(i as usize - 1).copied(),
    };
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index(((bits >> 6) & 63) as usize),
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More than the system says it can give is refused before allocating,
    /// so that the process is never killed for touching it.
    #[test]
    fn a_table_larger_than_the_available_memory_is_refused() {
        let Some(available) = available_mb() else {
            return; // not Linux: nothing to ask
        };
        if available < MAX_HASH_MB {
            let refused = TranspositionTable::new(available + 1);
            let error = refused.err().expect("refused");
            assert!(error.contains("cannot allocate"), "{error}");
        }
    }
}
// ANCHOR_END: stage-08-tt
