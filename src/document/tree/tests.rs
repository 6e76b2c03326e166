use super::*;

const O: Origin = Origin { line: 1, col0: 0 };

fn tree(text: &str, record: bool) -> Tree<'_> {
    match build(text, text, O, &Rewrites::default(), record) {
        Ok(Some(tree)) => tree,
        other => panic!("{text:?}: {other:?}"),
    }
}

fn scalars(tree: &Tree<'_>) -> Vec<(bool, String)> {
    let text_of = |s: &Scalar| match s.owned {
        true => tree.texts[s.at as usize].clone(),
        false => tree.text[s.at as usize..(s.at + s.len) as usize].to_owned(),
    };
    (tree.nodes.iter())
        .filter_map(|k| match k {
            Kind::Scalar(s) => Some((s.owned, text_of(s))),
            _ => None,
        })
        .collect()
}

#[test]
fn scalars_written_as_they_are_point_into_the_text() {
    let text = "a: b c\n'q': \"r s\"\n&x t: !!str u\nd: \"e\\tf\"\ng: 'h''i'\nj: k\n  l\nm: |\n  n\n\u{e9}: \u{e8}\n";
    let t = tree(text, false);
    let want = [
        (false, "a"),
        (false, "b c"),
        (false, "q"),
        (false, "r s"),
        (false, "t"),
        (false, "u"),
        (false, "d"),
        (true, "e\tf"),
        (false, "g"),
        (true, "h'i"),
        (false, "j"),
        (true, "k l"),
        (false, "m"),
        (true, "n\n"),
        (false, "\u{e9}"),
        (false, "\u{e8}"),
    ];
    let want: Vec<_> = want.iter().map(|&(o, s)| (o, s.to_owned())).collect();
    assert_eq!(scalars(&t), want);
    assert_eq!(t.tags.len(), 1);
    assert!(t.places.recorded.is_empty());
}

#[test]
fn tags_are_kept_once() {
    let t = tree("- !!str a\n- !!str b\n- !x c\n- d\n", false);
    assert_eq!(t.tags.len(), 2);
    let tags: Vec<u32> = (t.nodes.iter())
        .filter_map(|k| match k {
            Kind::Scalar(s) => Some(s.tag),
            _ => None,
        })
        .collect();
    assert_eq!(tags, [1, 1, 2, 0]);
}

/// Positions read again (not recorded) are the recorded ones, node by node, also where
/// saphyr's columns do not follow from the bytes (after a byte order mark).
#[test]
fn places_read_again_are_the_recorded_ones() {
    let origin = Origin { line: 7, col0: 3 };
    for text in [
        "a: [b, {c: d}]\ne:\n  - &f g\n  - *f\n",
        "\u{feff}a: 1\nb: \u{e9}t\u{e9}\n",
        "a: [\u{e9}, 'z', \"\u{1f600}\"]\n",
        "a: 1\r\nb:\r  - c\r\n",
    ] {
        let recorded = build(text, text, origin, &Rewrites::default(), true);
        let Ok(Some(recorded)) = recorded else {
            panic!("{text:?}")
        };
        let Ok(Some(again)) = build(text, text, origin, &Rewrites::default(), false) else {
            panic!("{text:?}")
        };
        assert_eq!(recorded.places.recorded.len(), recorded.nodes.len());
        for id in 0..recorded.nodes.len() as u32 {
            assert_eq!(
                again.places.span(id),
                recorded.places.span(id),
                "{text:?} {id}"
            );
        }
    }
}
