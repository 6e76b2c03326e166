//! Work shared across the cores: the objects of a run, read, planned or written in parallel.

use rayon::prelude::*;

/// `f` over `items` on every core (rayon's pool: its threads live as long as the process, so a
/// run of many chunks does not start and end threads per chunk, each end handing memory back
/// to the system; work is stolen, so slow and fast objects balance); the results in `items`'
/// order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() <= 1 {
        return items.iter().map(&f).collect();
    }
    items.par_iter().map(&f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_map_keeps_order() {
        let items: Vec<usize> = (0..1000).collect();
        let out = parallel_map(&items, |i| i * 2);
        assert_eq!(out, (0..1000).map(|i| i * 2).collect::<Vec<_>>());
    }
}
