//! Text made in pieces on two threads and written in order by the calling thread: the writer
//! of a large output lays it out as pieces that each can be made on its own, and this makes
//! them, at most [`AHEAD`] ahead of the one being written, and hands each to the sink as soon
//! as those before it are written. The buffers go round: a piece written is the next one's. A
//! piece that grows past its usual size (a field holding a long string) hands what it has made
//! over as it goes ([`write_in_order`]'s spill), so no piece is held whole.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError, mpsc};

/// Threads making pieces (the machine's two cores; the caller writes).
const THREADS: usize = 2;

/// How many pieces may be made ahead of the one being written (the memory held: a piece is
/// about half a megabyte).
const AHEAD: usize = 4;

/// A piece's buffer as made: room for a piece of the usual size (made at once, not grown a
/// step at a time).
const CAPACITY: usize = 1 << 20;

/// Part of a piece, or its end, as handed to the writing thread.
enum Part {
    Spilled(Vec<u8>),
    Last(Vec<u8>),
}

type Made<E> = (usize, Result<Part, E>);

/// The first piece not yet written, and the buffers of those written (to make the next in),
/// with the signal that it moved on.
type Written = (Mutex<(usize, Vec<Vec<u8>>)>, Condvar);

/// The parts of a piece made and not yet written, and its end when it has come.
type Early<E> = (Vec<Vec<u8>>, Option<Result<(), E>>);

/// What a piece hands over before its end.
struct Spill<'a, E> {
    piece: usize,
    tx: &'a mpsc::Sender<Made<E>>,
}

impl<E> Write for Spill<'_, E> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.tx
            .send((self.piece, Ok(Part::Spilled(bytes.to_vec()))))
            .map_err(|_| std::io::Error::other("the output stopped"))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Make the pieces `0..count` with `make(i, buf, spill)` on two threads, and write them to
/// `sink` in order: a piece's text is what it wrote to `spill` (which it may use for a piece
/// larger than usual), then what it appended to the empty `buf`.
///
/// # Errors
/// The first piece's error, in order, or the sink's.
pub(super) fn write_in_order<E>(
    count: usize,
    make: impl Fn(usize, &mut String, &mut dyn Write) -> Result<(), E> + Sync,
    sink: &mut impl Write,
) -> Result<(), E>
where
    E: From<std::io::Error> + Send,
{
    let make = |i: usize, bytes: &mut Vec<u8>, spill: &mut dyn Write| {
        // An empty buffer: nothing to check.
        let mut buf = String::from_utf8(std::mem::take(bytes)).unwrap_or_default();
        let made = make(i, &mut buf, spill);
        *bytes = buf.into_bytes();
        made
    };
    write_bytes_in_order(count, make, sink)
}

/// [`write_bytes_in_order`] of these pieces, each made by `make`.
///
/// # Errors
/// As [`write_in_order`].
pub(super) fn write_pieces<P: Sync, E>(
    pieces: &[P],
    make: impl Fn(&P, &mut Vec<u8>, &mut dyn Write) -> Result<(), E> + Sync,
    sink: &mut impl Write,
) -> Result<(), E>
where
    E: From<std::io::Error> + Send,
{
    let make = |i: usize, buf: &mut Vec<u8>, spill: &mut dyn Write| match pieces.get(i) {
        Some(piece) => make(piece, buf, spill),
        None => Ok(()),
    };
    write_bytes_in_order(pieces.len(), make, sink)
}

/// [`write_in_order`] of pieces made as bytes (appended to the empty `Vec`).
///
/// # Errors
/// As [`write_in_order`].
fn write_bytes_in_order<E>(
    count: usize,
    make: impl Fn(usize, &mut Vec<u8>, &mut dyn Write) -> Result<(), E> + Sync,
    sink: &mut impl Write,
) -> Result<(), E>
where
    E: From<std::io::Error> + Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let written: Written = (Mutex::new((0, Vec::new())), Condvar::new());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Made<E>>();
        for _ in 0..THREADS {
            let tx = tx.clone();
            let (next, stop, written, make) = (&next, &stop, &written, &make);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let (lock, ready) = written;
                    let mut state = lock.lock().unwrap_or_else(PoisonError::into_inner);
                    while state.0 + AHEAD <= i && !stop.load(Ordering::Relaxed) {
                        state = ready.wait(state).unwrap_or_else(PoisonError::into_inner);
                    }
                    let buf = state
                        .1
                        .pop()
                        .unwrap_or_else(|| Vec::with_capacity(CAPACITY));
                    drop(state);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let mut buf = buf;
                    let mut spill = Spill { piece: i, tx: &tx };
                    let made = make(i, &mut buf, &mut spill).map(|()| Part::Last(buf));
                    // The writer stopped (it failed): nothing more to hand over.
                    if tx.send((i, made)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let written_all = write_each(count, &rx, &written, sink);
        if written_all.is_err() {
            stop.store(true, Ordering::Relaxed);
            let _guard = written.0.lock().unwrap_or_else(PoisonError::into_inner);
            written.1.notify_all();
        }
        written_all
    })
}

/// The writing side of [`write_in_order`]: each piece's parts as they come, in order.
fn write_each<E: From<std::io::Error>>(
    count: usize,
    rx: &mpsc::Receiver<Made<E>>,
    written: &Written,
    sink: &mut impl Write,
) -> Result<(), E> {
    // The parts made and not yet written, by the distance of their piece from the one to
    // write, and the piece's end when it has come (an error waits for its turn).
    let mut made: VecDeque<Early<E>> = VecDeque::new();
    for want in 0..count {
        // Write what has come of piece `want` until its end.
        let mut buf = loop {
            if let Some((parts, end)) = made.front_mut() {
                let mut last = Vec::new();
                for part in parts.drain(..) {
                    sink.write_all(&part)?;
                    last = part;
                }
                if let Some(end) = end.take() {
                    made.pop_front();
                    end?;
                    break last;
                }
            }
            let (i, part) = rx
                .recv()
                .map_err(|_| std::io::Error::other("a thread making the output stopped"))?;
            let (part, end) = match part {
                Ok(Part::Spilled(part)) => (part, None),
                Ok(Part::Last(part)) => (part, Some(Ok(()))),
                Err(e) => (Vec::new(), Some(Err(e))),
            };
            // Each piece is made once, and those before `want` are written: `i >= want`.
            let at = i.saturating_sub(want);
            if made.len() <= at {
                made.resize_with(at + 1, || (Vec::new(), None));
            }
            if let Some(slot) = made.get_mut(at) {
                slot.0.push(part);
                slot.1 = end;
            }
        };
        buf.clear();
        let (lock, ready) = written;
        let mut state = lock.lock().unwrap_or_else(PoisonError::into_inner);
        state.0 = want + 1;
        if buf.capacity() > 0 {
            state.1.push(buf);
        }
        drop(state);
        ready.notify_all();
    }
    sink.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces made in any order (the later ones faster) are written in order, every one once.
    #[test]
    fn writes_every_piece_in_order() {
        for count in [0, 1, 2, 7, 100] {
            let mut out = Vec::new();
            write_in_order::<std::io::Error>(
                count,
                |i, buf, spill| {
                    if i % 3 == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    // Some pieces hand part of their text over first.
                    if i % 4 == 1 {
                        spill.write_all(format!("{i}:").as_bytes())?;
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    buf.push_str(&format!("{i},"));
                    Ok(())
                },
                &mut out,
            )
            .unwrap();
            let want: String = (0..count)
                .map(|i| match i % 4 {
                    1 => format!("{i}:{i},"),
                    _ => format!("{i},"),
                })
                .collect();
            assert_eq!(String::from_utf8(out).unwrap(), want);
        }
    }

    /// A piece that fails stops the writing with its error, after the pieces before it.
    #[test]
    fn a_failed_piece_ends_the_writing_with_its_error() {
        let mut out = Vec::new();
        let failed = write_in_order(
            50,
            |i, buf, _| {
                if i == 20 {
                    return Err(std::io::Error::other("piece 20"));
                }
                buf.push_str(&format!("{i},"));
                Ok(())
            },
            &mut out,
        );
        assert_eq!(failed.unwrap_err().to_string(), "piece 20");
        let want: String = (0..20).map(|i| format!("{i},")).collect();
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }
}
