//! Node properties: anchors, aliases and tags, scanned as `scannerc.go` scans them.

use super::{Kind, Mark, ScanError, Scanner, err, is_alpha};

/// The characters libyaml takes in a tag's URI (with `,`, `[`, `]` and `!`, which YAML 1.2
/// leaves out).
fn is_uri(c: u8) -> bool {
    is_alpha(c) || b";/?:@&=+$,.!~*'()[]%".contains(&c)
}

impl Scanner<'_> {
    pub(super) fn anchor(&mut self, anchor: bool) -> Result<(), ScanError> {
        self.save_key();
        self.allowed = false;
        let start = self.m;
        self.skip();
        let from = self.m.byte;
        while is_alpha(self.at(0)) {
            self.skip();
        }
        let to = self.m.byte;
        let ends = self.is_blankz(0) || b"?:,]}%@`".contains(&self.at(0));
        if from == to || !ends {
            return err(
                start,
                "did not find expected alphabetic or numeric character",
            );
        }
        let kind = if anchor {
            Kind::Anchor(from, to)
        } else {
            Kind::Alias(from, to)
        };
        self.push(kind, start);
        Ok(())
    }

    pub(super) fn tag(&mut self) -> Result<(), ScanError> {
        self.save_key();
        self.allowed = false;
        let start = self.m;
        let (handle, suffix) = if self.at(1) == b'<' {
            self.skip();
            self.skip();
            let suffix = self.uri(None, start)?;
            if self.at(0) != b'>' {
                return err(start, "did not find the expected '>'");
            }
            self.skip();
            (String::new(), suffix)
        } else {
            let from = self.m.byte;
            self.skip();
            while is_alpha(self.at(0)) {
                self.skip();
            }
            if self.at(0) == b'!' {
                self.skip();
            }
            let handle = &self.text[from..self.m.byte];
            if handle.len() > 1 && handle.ends_with('!') {
                (handle.to_owned(), self.uri(None, start)?)
            } else {
                let suffix = self.uri(Some(handle), start)?;
                if suffix.is_empty() {
                    (String::new(), "!".to_owned())
                } else {
                    ("!".to_owned(), suffix)
                }
            }
        };
        if !self.is_blankz(0) {
            return err(start, "did not find expected whitespace or line break");
        }
        self.push(Kind::Tag(handle, suffix), start);
        Ok(())
    }

    /// A tag's URI, after `head` (a handle that was not one: its `!` is dropped).
    fn uri(&mut self, head: Option<&str>, start: Mark) -> Result<String, ScanError> {
        let mut bytes: Vec<u8> = head.map_or(&[][..], |h| &h.as_bytes()[1..]).to_vec();
        let mut has = head.is_some_and(|h| !h.is_empty());
        while is_uri(self.at(0)) {
            if self.at(0) == b'%' {
                self.uri_escapes(&mut bytes, start)?;
            } else {
                let from = self.m.byte;
                self.skip();
                bytes.extend_from_slice(&self.b[from..self.m.byte]);
            }
            has = true;
        }
        if !has {
            return err(start, "did not find expected tag URI");
        }
        String::from_utf8(bytes).or_else(|_| err(start, "found an incorrect UTF-8 octet"))
    }

    fn uri_escapes(&mut self, out: &mut Vec<u8>, start: Mark) -> Result<(), ScanError> {
        let mut width = 0;
        loop {
            let hex = |c: u8| (c as char).to_digit(16);
            let (Some(h), Some(l)) = (hex(self.at(1)), hex(self.at(2))) else {
                return err(start, "did not find URI escaped octet");
            };
            if self.at(0) != b'%' {
                return err(start, "did not find URI escaped octet");
            }
            let octet = (h * 16 + l) as u8;
            if width == 0 {
                width = match octet {
                    o if o & 0x80 == 0 => 1,
                    o if o & 0xE0 == 0xC0 => 2,
                    o if o & 0xF0 == 0xE0 => 3,
                    o if o & 0xF8 == 0xF0 => 4,
                    _ => return err(start, "found an incorrect leading UTF-8 octet"),
                };
            } else if octet & 0xC0 != 0x80 {
                return err(start, "found an incorrect trailing UTF-8 octet");
            }
            out.push(octet);
            for _ in 0..3 {
                self.skip();
            }
            width -= 1;
            if width == 0 {
                return Ok(());
            }
        }
    }
}
