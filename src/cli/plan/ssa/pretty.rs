//! `serde_json`'s pretty printing (two spaces a level, empty `[]` and `{}` compact), byte for
//! byte, with each line's indent written at once: `serde_json::ser::PrettyFormatter` writes it
//! a level at a time, a call into the buffer each, which at 1,000 containers × 100 env vars
//! (lines a dozen levels deep) was a fifth of the server-side plan's `-o json`.

use std::io::Write;

use serde_json::ser::Formatter;

/// The indent, copied a run at a time.
const SPACES: &[u8; 64] = b"                                                                ";

/// The pretty formatter.
pub(super) struct Pretty {
    level: usize,
    has_value: bool,
}

impl Pretty {
    /// A newline (after a comma unless `first`) and the indent of the current level.
    fn line<W: ?Sized + Write>(&self, w: &mut W, comma: bool) -> std::io::Result<()> {
        w.write_all(if comma { b",\n" } else { b"\n" })?;
        let mut left = self.level * 2;
        while left > 0 {
            let run = left.min(SPACES.len());
            w.write_all(&SPACES[..run])?;
            left -= run;
        }
        Ok(())
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.level = self.level.saturating_sub(1);
        if self.has_value {
            self.line(w, false)?;
        }
        w.write_all(bracket)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` pretty-printed to `sink` as `serde_json::to_writer_pretty` writes it.
///
/// # Errors
/// The sink's, or the value's own.
pub(super) fn to_writer(
    sink: &mut impl Write,
    value: &impl serde::Serialize,
) -> std::io::Result<()> {
    to_writer_at(sink, 0, value)
}

/// [`to_writer`] of `value` as if it sat `level` levels deep (its lines indented so).
///
/// # Errors
/// The sink's, or the value's own.
pub(super) fn to_writer_at(
    sink: &mut impl Write,
    level: usize,
    value: &(impl serde::Serialize + ?Sized),
) -> std::io::Result<()> {
    let pretty = Pretty {
        level,
        has_value: false,
    };
    let mut ser = serde_json::Serializer::with_formatter(sink, pretty);
    value.serialize(&mut ser).map_err(std::io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte for byte `serde_json`'s pretty printing, deep levels (past one run of spaces) and
    /// empty arrays and objects included.
    #[test]
    fn writes_as_serde_json_pretty() {
        let mut deep = serde_json::json!({"leaf": [1, "two", null, {}, []]});
        for i in 0..40 {
            deep = if i % 2 == 0 {
                serde_json::json!({"k": deep, "empty": {}, "list": [true, 1.5, "é\n\"x\""]})
            } else {
                serde_json::json!([deep, [], {"a": {}}])
            };
        }
        for value in [
            deep,
            serde_json::json!([]),
            serde_json::json!({}),
            serde_json::json!(7),
        ] {
            let mut ours = Vec::new();
            to_writer(&mut ours, &value).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
    }
}
