//! A YAML writer whose text goes to its sink a chunk at a time, and a long list of it written
//! on two threads: shared by the client-side and the server-side plan's `-o yaml`.

use std::io::Write;

use crate::engine::goyaml::YamlOut;

/// Hand the text to the sink once it holds this much.
const CHUNK: usize = 1 << 16;

/// [`YamlOut`] and the sink its text goes to.
pub(super) struct Out<'w> {
    pub(super) y: YamlOut,
    pub(super) sink: &'w mut dyn Write,
}

impl<'w> Out<'w> {
    pub(super) fn new(sink: &'w mut dyn Write) -> Out<'w> {
        Out {
            y: YamlOut::new(),
            sink,
        }
    }

    /// Hand the text over once it holds a chunk.
    pub(super) fn flush_if_full(&mut self) -> std::io::Result<()> {
        if self.y.text().len() >= CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    /// Hand the text over.
    pub(super) fn flush(&mut self) -> std::io::Result<()> {
        let text = self.y.text();
        self.sink.write_all(text.as_bytes())?;
        text.clear();
        Ok(())
    }

    /// A list's items in `batches` batches, each written by `write` (given the batch's index),
    /// in order, every other batch on another thread. Every item starts on a new line at the
    /// list's indentation whatever came before it, so a batch written from the list's opening
    /// state reads as if written after the batch before it.
    pub(super) fn on_two_threads(
        &mut self,
        batches: usize,
        write: impl Fn(&mut Out<'_>, usize) -> std::io::Result<()> + Sync,
    ) -> std::io::Result<()> {
        let start = self.y.fork();
        let write = &write;
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::sync_channel::<std::io::Result<(Vec<u8>, YamlOut)>>(2);
            scope.spawn(move || {
                for b in (1..batches).step_by(2) {
                    let mut text = Vec::new();
                    let mut other = Out {
                        y: start.fork(),
                        sink: &mut text,
                    };
                    let written = write(&mut other, b).and_then(|()| other.flush());
                    let y = other.y;
                    // The writer stopped (it failed): nothing more to hand over.
                    if tx.send(written.map(|()| (text, y))).is_err() {
                        break;
                    }
                }
            });
            for b in 0..batches {
                if b % 2 == 0 {
                    write(self, b)?;
                } else {
                    let (text, y) = rx
                        .recv()
                        .map_err(|_| std::io::Error::other("the writing thread stopped"))??;
                    self.flush()?;
                    self.sink.write_all(&text)?;
                    self.y.follow(&y);
                }
            }
            Ok(())
        })
    }
}
