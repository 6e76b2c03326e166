//! The TUI test harness: a model from a built-in example, key scripts through the real keymap
//! and `update` (no terminal), and screens rendered into a `TestBackend` buffer.

use applyscope::app::{Command, Message, Model, Source, update};
use applyscope::keymap::{self, parse_keys};
use applyscope::theme::Theme;
use applyscope::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub struct Harness {
    pub model: Model,
    pub theme: Theme,
    pub commands: Vec<Command>,
    pub size: (u16, u16),
    /// What runs the commands that need no terminal, as the runtime runs them.
    pub effects: applyscope::tui::Effects,
}

impl Harness {
    pub fn example(name: &str) -> Harness {
        let example =
            applyscope::examples::find(name).unwrap_or_else(|| panic!("no example {name}"));
        let model = Model::new(Source::from_example(example).unwrap()).unwrap();
        Harness::of(model)
    }

    pub fn of(model: Model) -> Harness {
        let mut h = Harness {
            model,
            theme: Theme::colour(),
            commands: Vec::new(),
            size: (100, 30),
            effects: applyscope::tui::Effects::default(),
        };
        h.resize(100, 30);
        h
    }

    pub fn resize(&mut self, width: u16, height: u16) -> &mut Self {
        self.size = (width, height);
        self.send(Message::Resized { width, height })
    }

    pub fn send(&mut self, message: Message) -> &mut Self {
        for command in update(&mut self.model, message) {
            // The runtime reads the file a commit rewrites as soon as `W` asks: so does this.
            if matches!(command, Command::ReadTarget(_)) {
                let read = self.effects.perform(&command).expect("a read's report");
                self.send(read);
            } else {
                self.commands.push(command);
            }
        }
        self
    }

    /// Press keys (key notation, space-separated), each through the keymap of the current mode.
    pub fn press(&mut self, script: &str) -> &mut Self {
        for key in parse_keys(script).unwrap() {
            let message = keymap::resolve(self.model.mode.kind(), key)
                .unwrap_or_else(|| panic!("{key} is unbound in {:?}", self.model.mode.kind()));
            self.send(message);
        }
        self
    }

    pub fn quit_requested(&self) -> bool {
        self.commands.contains(&Command::Quit)
    }

    /// The selected path's text.
    pub fn path(&self) -> String {
        self.model.plan.path(self.model.current_path()).to_string()
    }

    pub fn buffer(&self) -> Buffer {
        let (w, h) = self.size;
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        ui::render(&self.model, &self.theme, buf.area, &mut buf);
        buf
    }

    /// The screen as a terminal (its `Display` is the text snapshot).
    pub fn terminal(&self) -> Terminal<TestBackend> {
        let (w, h) = self.size;
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| ui::view(&self.model, &self.theme, f)).unwrap();
        t
    }

    /// The screen as text, one line per row, trailing spaces trimmed.
    pub fn text(&self) -> String {
        screen_text(&self.buffer())
    }
}

/// A drawn buffer as text, one line per row, trailing spaces trimmed.
pub fn screen_text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(feature = "cluster")]
impl Harness {
    /// `local` (YAML or JSON, named `name`) opened against the cluster `kubeconfig` points at,
    /// as `tui::run` opens it: its commands run through the connection it was read with.
    pub fn cluster(kubeconfig: std::path::PathBuf, local: &str, name: &str) -> Harness {
        use applyscope::app::cluster::session::ClusterSession;
        let conn = applyscope::cluster::Conn {
            kubeconfig: Some(kubeconfig),
            ..applyscope::cluster::Conn::default()
        };
        let local = applyscope::document::parse_documents(local, name)
            .unwrap()
            .remove(0)
            .value;
        let (source, plan, opened) =
            applyscope::session::cluster::open_one(&conn, local, None, true, name).unwrap();
        let session = ClusterSession::new(opened.conn, opened.server, opened.loaded, opened.used);
        let mut h = Harness::of(Model::from_cluster(source, plan, session));
        h.effects = applyscope::tui::Effects::new(opened.connection);
        h
    }

    /// Runs the commands `update` returned, and those their reports return, through the
    /// runtime: how many reported.
    pub fn run_commands(&mut self) -> usize {
        let mut n = 0;
        while !self.commands.is_empty() {
            for c in std::mem::take(&mut self.commands) {
                if let Some(report) = self.effects.perform(&c) {
                    n += 1;
                    self.send(report);
                }
            }
        }
        n
    }

    /// The status bar's message.
    pub fn notice(&self) -> String {
        self.model.notice.clone().unwrap_or_default()
    }
}
