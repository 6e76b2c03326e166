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

/// [`parallel_map`] of `items` taken by `f`: each is dropped on the core that mapped it (a
/// plan's drop is not left to the caller's thread, one after the other).
pub fn parallel_map_owned<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    if items.len() <= 1 {
        return items.into_iter().map(&f).collect();
    }
    items.into_par_iter().map(&f).collect()
}

/// `f` over `items` a chunk of `chunk` at a time, each chunk on every core ([`parallel_map`]),
/// the results one by one in `items`' order: a chunk's results are held until they are taken,
/// never all of them.
pub fn chunked_map<'a, T: Sync, R: Send + 'a>(
    items: &'a [T],
    chunk: usize,
    f: impl Fn(&'a T) -> R + Sync + 'a,
) -> impl Iterator<Item = R> + 'a {
    items.chunks(chunk.max(1)).flat_map(move |part| {
        let part: Vec<&'a T> = part.iter().collect();
        parallel_map(&part, |item| f(item))
    })
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

    #[test]
    fn parallel_map_owned_keeps_order() {
        for n in [0, 1, 2, 1000] {
            let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            let out = parallel_map_owned(items, |s| s.len());
            assert_eq!(out, (0..n).map(|i| i.to_string().len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn chunked_map_keeps_order() {
        let items: Vec<usize> = (0..1000).collect();
        for chunk in [0, 1, 7, 64, 5000] {
            let out: Vec<usize> = chunked_map(&items, chunk, |i| i * 2).collect();
            assert_eq!(out, (0..1000).map(|i| i * 2).collect::<Vec<_>>(), "{chunk}");
        }
    }
}
