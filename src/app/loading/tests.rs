//! The loading screen's and the filling list's state, message by message.

use super::*;
use crate::app::List;
use crate::app::screen::App;

#[test]
fn waiting_names_the_oldest_request_and_its_time() {
    let t0 = Instant::now();
    let at = |ms| t0 + Duration::from_millis(ms);
    let mut w = Waiting::since(t0);
    assert_eq!(w.text(), "starting");
    w.record(&Event::Step("reading web.yaml".into()), at(0));
    assert_eq!(w.text(), "reading web.yaml 0 s");
    let sent = |id, what: &str| {
        Event::Request(Activity::Sent {
            id,
            what: what.into(),
        })
    };
    w.record(&sent(1, "discovery apps/v1"), at(100));
    w.record(
        &sent(2, "reading deployments.apps/web from http://k"),
        at(200),
    );
    w.record(&Event::Request(Activity::Ended { id: 1 }), at(300));
    w.tick(at(4300));
    assert_eq!(w.text(), "reading deployments.apps/web from http://k 4 s");
    w.record(&sent(3, "OpenAPI v3 apps/v1"), at(4400));
    w.record(
        &Event::Count {
            done: 412,
            total: 1000,
        },
        at(4500),
    );
    assert_eq!(
        w.text(),
        "412/1000 objects · reading deployments.apps/web from http://k 4 s (+1 more)"
    );
    assert_eq!(w.spinner(), SPINNER[45 % SPINNER.len()]);
    // Time does not go back (reports may be stamped before a tick is handled).
    w.tick(at(10));
    assert_eq!(w.now, Some(at(4500)));
}

#[test]
fn retry_after_a_failure_opens_again_and_quit_quits() {
    let t0 = Instant::now();
    let mut l = Loading::new("web.yaml".into(), Waiting::since(t0));
    assert!(update(&mut l, Message::Retry).is_empty());
    update(&mut l, Message::OpenFailed(Error::Input("boom".into())));
    assert!(l.failed.is_some());
    assert_eq!(update(&mut l, Message::Retry), vec![Command::Open]);
    assert!(l.failed.is_none());
    assert_eq!(update(&mut l, Message::Quit), vec![Command::Quit]);
    assert_eq!(update(&mut l, Message::Back), vec![Command::Quit]);
}

#[test]
fn bad_input_quits_and_a_cluster_failure_waits_for_retry() {
    let loading = || App::Loading(Box::new(Loading::new("x".into(), Waiting::default())));
    let mut app = loading();
    let bad = Error::Input("x.yaml:2:1: bad".into());
    assert_eq!(app.update(Message::OpenFailed(bad)), vec![Command::Quit]);
    let mut app = loading();
    let down = Error::from(crate::cluster::ClusterError::Status {
        code: 500,
        message: "etcd is down".into(),
    })
    .context("x.yaml");
    assert!(app.update(Message::OpenFailed(down)).is_empty());
    assert!(!app.is_loading());
    assert_eq!(app.update(Message::Retry), vec![Command::Open]);
    assert!(app.is_loading());
}

#[test]
fn the_list_opens_on_listing_and_fills_in_under_the_cursor() {
    use crate::session::objects::Key;
    use crate::session::progress::RowHead;
    use crate::session::risk::Summary;
    let t0 = Instant::now();
    let mut app = App::Loading(Box::new(Loading::new("d/".into(), Waiting::since(t0))));
    let report = |event| Message::Report {
        event: Box::new(event),
        at: t0,
    };
    app.update(report(Event::Listing {
        title: "d/ → live/".into(),
        total: 3,
    }));
    let row = |name: &str| {
        let key = Key {
            group: String::new(),
            kind: "ConfigMap".into(),
            namespace: "team".into(),
            name: name.into(),
        };
        report(Event::Row(Box::new(RowHead {
            key,
            source: format!("{name}.yaml"),
            live_source: None,
            summary: Summary::failed("no"),
        })))
    };
    let names = |app: &App| match app {
        App::Many(l) => (
            l.rows
                .iter()
                .map(|r| r.key.name.clone())
                .collect::<Vec<_>>(),
            l.selected_key().map(|k| k.name.clone()),
        ),
        _ => panic!("no list"),
    };
    app.update(row("b"));
    app.update(row("c"));
    assert_eq!(
        names(&app),
        (vec!["b".into(), "c".into()], Some("b".into()))
    );
    // The first row stays selected: the riskiest so far.
    app.update(row("a"));
    assert_eq!(
        names(&app),
        (vec!["a".into(), "b".into(), "c".into()], Some("a".into()))
    );
    // A cursor moved down stays on its row as rows arrive before it.
    app.update(Message::Down);
    app.update(row("0"));
    assert_eq!(
        names(&app),
        (
            vec!["0".into(), "a".into(), "b".into(), "c".into()],
            Some("b".into())
        )
    );
    assert!(app.is_loading());
}

#[test]
fn r_in_the_list_reads_again_only_after_a_failure_and_rows_are_replaced() {
    use crate::session::objects::Key;
    use crate::session::progress::RowHead;
    use crate::session::risk::Summary;
    let key = |name: &str| Key {
        group: String::new(),
        kind: "ConfigMap".into(),
        namespace: "team".into(),
        name: name.into(),
    };
    let head = |name: &str, summary: Summary| RowHead {
        key: key(name),
        source: format!("{name}.yaml"),
        live_source: None,
        summary,
    };
    let mut list = List::loading("d/".into(), Waiting::default());
    list.add_pending(head("a", Summary::failed("etcd is down")));
    list.add_pending(head("b", Summary::failed("also")));
    list.loading = None;
    let mut app = App::Many(Box::new(list));
    assert_eq!(app.update(Message::Retry), vec![Command::Open]);
    assert!(app.is_loading());
    // Loading again: r does nothing more.
    assert!(app.update(Message::Retry).is_empty());
    let App::Many(list) = &mut app else {
        panic!("no list")
    };
    // Read again, a is fine now: its row is replaced, not added.
    let mut ok = Summary::failed("x");
    ok.error = None;
    ok.op = crate::session::risk::Op::Unchanged;
    list.add_pending(head("a", ok));
    let names: Vec<&str> = list.rows.iter().map(|r| r.key.name.as_str()).collect();
    assert_eq!(names, ["b", "a"]);
    list.loading = None;
    // Nothing failed: nothing to read again.
    list.rows.retain(|r| r.key.name == "a");
    assert!(app.update(Message::Retry).is_empty());
    assert!(!app.is_loading());
}

#[test]
fn a_parcel_is_taken_once_and_equal_to_its_clones_only() {
    let p = Parcel::new(5);
    let q = p.clone();
    assert_eq!(p, q);
    assert_ne!(p, Parcel::new(5));
    assert_eq!(q.take(), Some(5));
    assert_eq!(p.take(), None);
}
