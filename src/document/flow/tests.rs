use super::*;

fn start_of(text: &str, at: usize) -> Mark {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count());
    Mark {
        byte: at,
        index: before.chars().count(),
        line,
        col,
    }
}

#[test]
fn a_mask_keeps_every_byte_and_line_in_place() {
    let text = "a:\n  b: [x, \"\u{e9}\",\n\u{fc}, y] # c\n  d: 1\n";
    let start = text.find('[').unwrap_or(0);
    let end = text.find(']').map_or(0, |i| i + 1);
    let masked = mask(text, start, end, false).expect("masked");
    assert_eq!(masked.len(), text.len());
    let lines = |s: &str| s.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
    assert_eq!(lines(&masked), lines(text));
    // The first line is a quoted scalar, the second a comment; what follows stays.
    assert_eq!(&masked[..start + 4], "a:\n  b: \"xxx");
    assert!(
        masked[start..]
            .split('\n')
            .nth(1)
            .is_some_and(|l| l.starts_with('#'))
    );
    assert!(masked.ends_with(" # c\n  d: 1\n"));
}

#[test]
fn a_mask_refuses_text_after_the_collection_unless_it_is_the_top_node() {
    let text = "a: [x,\n  y] z\n";
    let (start, end) = (3, text.find(']').map_or(0, |i| i + 1));
    assert!(mask(text, start, end, false).is_err());
    let top = "[x,\ny] z\n";
    let masked = mask(top, 0, 6, true).expect("top node");
    assert_eq!(masked, "\"x\"\n#]\n");
    // A comment right after the bracket gets a blank before it.
    assert_eq!(
        mask("a: [x]#c\n", 3, 6, false).as_deref(),
        Ok("a: \"\" #c\n")
    );
}

#[test]
fn the_extent_is_go_yamls() {
    // The tag takes `[`, `]` and `,`: the collection ends at the last bracket.
    let text = "[!!str[a], b]\n";
    assert_eq!(extent(text, start_of(text, 0), -1), Ok(13));
    // A tag must end at a blank: `#` is not one of its characters.
    let text = "k: [!a#b]\n";
    let got = extent(text, start_of(text, 3), 0).map_err(|(at, msg)| (at.byte, msg));
    let want = "did not find expected whitespace or line break".to_owned();
    assert_eq!(got, Err((4, want)));
    // Lines indented less than the block are read on.
    let text = "a:\n  b: [x,\ny]\n";
    assert_eq!(extent(text, start_of(text, 8), 2), Ok(14));
}
