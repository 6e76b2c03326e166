//! A ratatui `Buffer` as an SVG image: one `<rect>` per run of background colour, one `<text>`
//! per run of foreground style, a fixed cell size and a named monospace font. Deterministic,
//! so a stale image is a failing test.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

const CELL_W: f64 = 8.43;
const CELL_H: f64 = 17.0;
const BASELINE: f64 = 13.3;
const FG: &str = "#d0d0d0";
const BG: &str = "#1c1c1c";

fn hex(c: Color, default: &str) -> String {
    let named = |i: u8| -> (u8, u8, u8) {
        [
            (0x1c, 0x1c, 0x1c),
            (0xcd, 0x31, 0x31),
            (0x0d, 0xbc, 0x79),
            (0xe5, 0xe5, 0x10),
            (0x24, 0x72, 0xc8),
            (0xbc, 0x3f, 0xbc),
            (0x11, 0xa8, 0xcd),
            (0xe5, 0xe5, 0xe5),
            (0x66, 0x66, 0x66),
            (0xf1, 0x4c, 0x4c),
            (0x23, 0xd1, 0x8b),
            (0xf5, 0xf5, 0x43),
            (0x3b, 0x8e, 0xea),
            (0xd6, 0x70, 0xd6),
            (0x29, 0xb8, 0xdb),
            (0xff, 0xff, 0xff),
        ][usize::from(i & 15)]
    };
    let (r, g, b) = match c {
        Color::Reset => return default.to_owned(),
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => named(8),
        Color::LightRed => named(9),
        Color::LightGreen => named(10),
        Color::LightYellow => named(11),
        Color::LightBlue => named(12),
        Color::LightMagenta => named(13),
        Color::LightCyan => named(14),
        Color::White => named(15),
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) if i < 16 => named(i),
        Color::Indexed(i) if i >= 232 => {
            let v = 8 + (i - 232) * 10;
            (v, v, v)
        }
        Color::Indexed(i) => {
            let i = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
    };
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The buffer as an SVG document.
pub fn to_svg(buf: &Buffer) -> String {
    let (w, h) = (buf.area.width, buf.area.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.2} {:.2}">"#,
        f64::from(w) * CELL_W,
        f64::from(h) * CELL_H,
        f64::from(w) * CELL_W,
        f64::from(h) * CELL_H
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="{BG}"/>"#);
    let _ = writeln!(
        out,
        r#"<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14" xml:space="preserve">"#
    );
    for y in 0..h {
        let cells: Vec<_> = (0..w).map(|x| &buf[(x, y)]).collect();
        let colours: Vec<(String, String)> = cells
            .iter()
            .map(|c| {
                let (fg, bg) = (hex(c.fg, FG), hex(c.bg, BG));
                if c.modifier.contains(Modifier::REVERSED) {
                    (bg, fg)
                } else {
                    (fg, bg)
                }
            })
            .collect();
        let ty = f64::from(y) * CELL_H;
        // Backgrounds.
        let mut x = 0;
        while x < cells.len() {
            let bg = &colours[x].1;
            let start = x;
            while x < cells.len() && colours[x].1 == *bg {
                x += 1;
            }
            if bg != BG {
                let _ = writeln!(
                    out,
                    r#"<rect x="{:.2}" y="{ty:.2}" width="{:.2}" height="{CELL_H:.2}" fill="{bg}"/>"#,
                    start as f64 * CELL_W,
                    (x - start) as f64 * CELL_W
                );
            }
        }
        // Text runs of one style.
        let mut x = 0;
        while x < cells.len() {
            let key = (&colours[x].0, cells[x].modifier);
            let start = x;
            let mut text = String::new();
            while x < cells.len() && (&colours[x].0, cells[x].modifier) == key {
                text.push_str(cells[x].symbol());
                x += 1;
            }
            if text.trim().is_empty() {
                continue;
            }
            let m = key.1;
            let mut attrs = String::new();
            if m.contains(Modifier::BOLD) {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if m.contains(Modifier::ITALIC) {
                attrs.push_str(r#" font-style="italic""#);
            }
            if m.contains(Modifier::DIM) {
                attrs.push_str(r#" opacity="0.6""#);
            }
            match (
                m.contains(Modifier::UNDERLINED),
                m.contains(Modifier::CROSSED_OUT),
            ) {
                (true, _) => attrs.push_str(r#" text-decoration="underline""#),
                (_, true) => attrs.push_str(r#" text-decoration="line-through""#),
                _ => {}
            }
            let _ = writeln!(
                out,
                r#"<text x="{:.2}" y="{:.2}" fill="{}" textLength="{:.2}" lengthAdjust="spacingAndGlyphs"{attrs}>{}</text>"#,
                start as f64 * CELL_W,
                ty + BASELINE,
                key.0,
                (x - start) as f64 * CELL_W,
                escape(&text)
            );
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}
