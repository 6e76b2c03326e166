//! Standard output written on a thread of its own ([`Piped`]): the many-object output hands it
//! a buffer at a time and goes on planning while the buffer is copied out (writing 300 MB to
//! a file costs a quarter of a second of system time, otherwise spent with the planners idle).

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

/// How much is gathered before it is handed to the writing thread.
const BUFFER: usize = 1 << 20;

/// A sink whose bytes are written to `W` on another thread, in order. [`Piped::finish`] (or
/// `flush`) waits until all is written; a failed write is returned by the next call.
pub struct Piped {
    buf: Vec<u8>,
    to_writer: Option<SyncSender<Vec<u8>>>,
    writer: Option<JoinHandle<io::Result<()>>>,
    /// Buffers written already, handed back for reuse.
    spent: Receiver<Vec<u8>>,
}

impl Piped {
    /// Starts the thread that writes to `out`.
    pub fn new<W: Write + Send + 'static>(mut out: W) -> Piped {
        // Two buffers in flight at most: one being written, one waiting.
        let (to_writer, from_main) = sync_channel::<Vec<u8>>(1);
        let (give_back, spent) = sync_channel::<Vec<u8>>(2);
        let writer = std::thread::spawn(move || {
            for mut buf in from_main {
                out.write_all(&buf)?;
                buf.clear();
                let _ = give_back.try_send(buf);
            }
            out.flush()
        });
        Piped {
            buf: Vec::with_capacity(BUFFER),
            to_writer: Some(to_writer),
            writer: Some(writer),
            spent,
        }
    }

    /// Hands the buffer to the writing thread.
    fn hand_over(&mut self) -> io::Result<()> {
        let fresh = self
            .spent
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(BUFFER));
        let full = std::mem::replace(&mut self.buf, fresh);
        let sent = self.to_writer.as_ref().map(|tx| tx.send(full));
        match sent {
            Some(Ok(())) => Ok(()),
            // The thread stopped: its error says why.
            _ => self.finish(),
        }
    }

    /// Writes what is left and waits for the thread: its first error, if any.
    ///
    /// # Errors
    /// The writing thread's.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(tx) = &self.to_writer
            && !self.buf.is_empty()
        {
            let _ = tx.send(std::mem::take(&mut self.buf));
        }
        self.to_writer = None;
        match self.writer.take().map(JoinHandle::join) {
            None => Err(io::Error::other("the output was closed already")),
            Some(Ok(written)) => written,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
        }
    }
}

impl Write for Piped {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.writer.is_none() {
            return Err(io::Error::other("the output was closed already"));
        }
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= BUFFER {
            self.hand_over()?;
        }
        Ok(bytes.len())
    }

    /// Everything written so far is out (the thread is ended: nothing more can be written).
    fn flush(&mut self) -> io::Result<()> {
        self.finish()
    }
}

impl Drop for Piped {
    fn drop(&mut self) {
        if self.writer.is_some() {
            let _ = self.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A sink shared with the test, that fails after `limit` bytes.
    #[derive(Clone)]
    struct Shared(Arc<Mutex<Vec<u8>>>, usize);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            let mut v = self.0.lock().unwrap();
            if v.len() + b.len() > self.1 {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            v.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn bytes_arrive_in_order_and_a_failed_write_is_returned() {
        let expected: Vec<u8> = (0..3 * BUFFER + 17).map(|i| (i % 251) as u8).collect();
        let out = Shared(Arc::default(), usize::MAX);
        let mut piped = Piped::new(out.clone());
        for part in expected.chunks(1000) {
            piped.write_all(part).unwrap();
        }
        piped.flush().unwrap();
        assert_eq!(*out.0.lock().unwrap(), expected);
        assert!(piped.write_all(b"more").is_err());

        let closed = Shared(Arc::default(), BUFFER);
        let mut piped = Piped::new(closed);
        let written = (0..10).try_for_each(|_| piped.write_all(&expected[..BUFFER]));
        let e = written.and_then(|()| piped.flush()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    }
}
