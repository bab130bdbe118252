//! The input line of the full screen: editing, history (Up/Down), and
//! completion (Tab) of the legal moves and the commands.

/// The commands typed input knows (`Cmd::parse_line`), and `quit`.
pub const COMMANDS: &[&str] = &[
    "clock",
    "position",
    "last",
    "state",
    "help",
    "listen",
    "pause",
    "resume",
    "done white",
    "done black",
    "missing white",
    "missing black",
    "resign white",
    "resign black",
    "mismatch",
    "say ",
    "draw offer",
    "draw accept",
    "draw decline",
    "draw claim",
    "quit",
];

/// A line being typed.
#[derive(Debug, Default)]
pub struct LineEditor {
    /// The text.
    buf: Vec<char>,
    /// The cursor, in characters.
    cursor: usize,
    /// Lines entered, oldest first.
    history: Vec<String>,
    /// Where Up/Down is in the history (`None`: the line being typed).
    at: Option<usize>,
    /// The line being typed while the history is browsed.
    draft: String,
    /// The candidates of the last Tab, and which was taken.
    cycle: Option<(Vec<String>, usize)>,
    /// What the last Tab found, shown under the line.
    pub hint: String,
}

impl LineEditor {
    /// The text.
    #[must_use]
    pub fn text(&self) -> String {
        self.buf.iter().collect()
    }

    /// The cursor's column, in characters.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    fn set(&mut self, text: &str) {
        self.buf = text.chars().collect();
        self.cursor = self.buf.len();
    }

    fn edited(&mut self) {
        self.cycle = None;
        self.at = None;
        self.hint.clear();
    }

    /// Types a character.
    pub fn insert(&mut self, c: char) {
        self.buf.insert(self.cursor, c);
        self.cursor += 1;
        self.edited();
    }

    /// Deletes the character before the cursor.
    pub fn backspace(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
            self.buf.remove(self.cursor);
        }
        self.edited();
    }

    /// Deletes the character under the cursor.
    pub fn delete(&mut self) {
        if self.cursor < self.buf.len() {
            self.buf.remove(self.cursor);
        }
        self.edited();
    }

    /// Moves the cursor left.
    pub fn left(&mut self) {
        self.cursor = self.cursor.saturating_sub(1);
    }

    /// Moves the cursor right.
    pub fn right(&mut self) {
        self.cursor = (self.cursor + 1).min(self.buf.len());
    }

    /// To the start of the line.
    pub fn home(&mut self) {
        self.cursor = 0;
    }

    /// To the end of the line.
    pub fn end(&mut self) {
        self.cursor = self.buf.len();
    }

    /// Clears the line.
    pub fn clear(&mut self) {
        self.set("");
        self.edited();
    }

    /// The line entered before (Up).
    pub fn up(&mut self) {
        if self.history.is_empty() {
            return;
        }
        let i = match self.at {
            None => {
                self.draft = self.text();
                self.history.len() - 1
            }
            Some(i) => i.saturating_sub(1),
        };
        self.at = Some(i);
        let line = self.history[i].clone();
        self.set(&line);
    }

    /// The line entered after (Down), then the line that was being typed.
    pub fn down(&mut self) {
        let Some(i) = self.at else { return };
        if i + 1 < self.history.len() {
            self.at = Some(i + 1);
            let line = self.history[i + 1].clone();
            self.set(&line);
        } else {
            self.at = None;
            let d = std::mem::take(&mut self.draft);
            self.set(&d);
        }
    }

    /// Enter: the line, kept in the history; `None` for an empty line.
    pub fn enter(&mut self) -> Option<String> {
        let line = self.text().trim().to_owned();
        self.clear();
        self.draft.clear();
        if line.is_empty() {
            return None;
        }
        if self.history.last() != Some(&line) {
            self.history.push(line.clone());
        }
        Some(line)
    }

    /// Tab: completes the line from the legal moves and the commands: the
    /// one that fits, else what all that fit begin with; Tab again takes
    /// each in turn.
    pub fn complete(&mut self, legal: &[String]) {
        if let Some((cands, i)) = self.cycle.take() {
            let next = (i + 1) % cands.len();
            let line = cands[next].clone();
            self.set(&line);
            self.hint = cands.join("  ");
            self.cycle = Some((cands, next));
            return;
        }
        let typed = self.text().to_lowercase();
        let cands: Vec<String> = legal
            .iter()
            .map(String::as_str)
            .chain(COMMANDS.iter().copied())
            .filter(|c| c.to_lowercase().starts_with(&typed))
            .map(str::to_owned)
            .collect();
        match cands.len() {
            0 => self.hint = "(nothing fits)".to_owned(),
            1 => {
                self.set(&cands[0]);
                self.hint.clear();
            }
            _ => {
                let common = common_prefix(&cands);
                self.hint = cands.join("  ");
                if common.chars().count() > typed.chars().count() {
                    self.set(&common);
                } else {
                    // Nothing more in common: Tab again takes each in turn.
                    self.set(&cands[0]);
                    self.cycle = Some((cands, 0));
                }
            }
        }
    }
}

/// What all of `words` begin with.
fn common_prefix(words: &[String]) -> String {
    let Some(first) = words.first() else {
        return String::new();
    };
    let mut n = first.chars().count();
    for w in &words[1..] {
        n = n.min(
            first
                .chars()
                .zip(w.chars())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    first.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(e: &mut LineEditor, s: &str) {
        for c in s.chars() {
            e.insert(c);
        }
    }

    #[test]
    fn history_goes_back_and_forth_and_keeps_the_draft() {
        let mut e = LineEditor::default();
        typed(&mut e, "32-28");
        assert_eq!(e.enter().as_deref(), Some("32-28"));
        typed(&mut e, "clock");
        assert_eq!(e.enter().as_deref(), Some("clock"));
        typed(&mut e, "33-");
        e.up();
        assert_eq!(e.text(), "clock");
        e.up();
        assert_eq!(e.text(), "32-28");
        e.up();
        assert_eq!(e.text(), "32-28");
        e.down();
        assert_eq!(e.text(), "clock");
        e.down();
        assert_eq!(e.text(), "33-");
        assert_eq!(e.enter().as_deref(), Some("33-"));
        assert_eq!(e.enter(), None);
    }

    #[test]
    fn tab_completes_a_legal_move_then_cycles_through_the_rest() {
        let legal: Vec<String> = ["31-26", "31-27", "32-27", "32-28", "33-28"]
            .map(str::to_owned)
            .to_vec();
        let mut e = LineEditor::default();
        typed(&mut e, "33");
        e.complete(&legal);
        assert_eq!(e.text(), "33-28");
        e.clear();
        typed(&mut e, "3");
        e.complete(&legal);
        // 31-26, 31-27, 32-27, 32-28, 33-28 begin with "3" only.
        assert_eq!(e.text(), "31-26");
        e.complete(&legal);
        assert_eq!(e.text(), "31-27");
        assert!(e.hint.contains("33-28"));
        e.clear();
        typed(&mut e, "31");
        e.complete(&legal);
        assert_eq!(e.text(), "31-2", "the common beginning");
        e.clear();
        typed(&mut e, "dr");
        e.complete(&legal);
        assert_eq!(e.text(), "draw ");
        typed(&mut e, "c");
        e.complete(&legal);
        assert_eq!(e.text(), "draw claim");
        e.clear();
        typed(&mut e, "zz");
        e.complete(&legal);
        assert_eq!(e.text(), "zz");
        assert_eq!(e.hint, "(nothing fits)");
    }

    #[test]
    fn editing_in_the_middle_of_the_line() {
        let mut e = LineEditor::default();
        typed(&mut e, "32-8");
        e.left();
        e.insert('2');
        assert_eq!(e.text(), "32-28");
        e.home();
        e.delete();
        e.end();
        e.backspace();
        assert_eq!(e.text(), "2-2");
        assert_eq!(e.cursor(), 3);
    }
}
