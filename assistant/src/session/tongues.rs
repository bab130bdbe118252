//! A table of two languages (`--seat SIDE:lang=en` at a `--lang pl` table:
//! at an international event each player hears their own language). Each
//! language a seat speaks other than the table's is a [`Tongue`]: the
//! table as it stands (the same journal replayed, kept in step with every
//! line journaled) with that language's words. An announcement is made once
//! per language from the same state (the words' source is a closure over
//! the session, evaluated with each tongue swapped in), each seat hears its
//! own language's, and the journal has one `announced` line per language
//! that someone heard, each with its own `to` (the table's language always).

use super::*;

/// The table in another language's words.
pub(crate) struct Tongue {
    /// `pl`, `en`.
    lang: String,
    /// The table, replayed in that language and kept in step.
    table: Table,
    /// The shared words (turn, clock, refusals) in that language.
    words: Announcer,
    /// The table's own sentences in that language.
    msgs: Messages,
}

impl Session {
    /// The language each seat hears: its own (`lang=`), else the table's.
    fn seat_lang(&self, side: Color) -> &str {
        self.out
            .seats
            .iter()
            .find(|s| s.side == side)
            .and_then(|s| s.lang.as_deref())
            .unwrap_or(&self.table.info.lang)
    }

    /// Which version a seat hears: 0 the table's language, `i + 1` tongue `i`.
    pub(super) fn version_of(&self, side: Color) -> usize {
        let lang = self.seat_lang(side);
        self.tongues
            .iter()
            .position(|t| t.lang == lang)
            .map_or(0, |i| i + 1)
    }

    /// Makes a tongue for each language a seat speaks other than the
    /// table's, from the journal as written.
    pub(super) fn build_tongues(&mut self) {
        let table_lang = self.table.info.lang.clone();
        let mut langs: Vec<String> = self
            .out
            .seats
            .iter()
            .filter_map(|s| s.lang.clone())
            .filter(|l| *l != table_lang)
            .collect();
        langs.sort();
        langs.dedup();
        if langs.is_empty() {
            return;
        }
        let records = match Journal::read(self.journal.path()) {
            Ok(j) => j.records,
            Err(e) => {
                tracing::error!("seats' languages: cannot read the journal: {e}");
                return;
            }
        };
        for lang in langs {
            let mut recs = records.clone();
            if let Some(Record {
                event: Event::Start(info),
                ..
            }) = recs.first_mut()
            {
                info.lang.clone_from(&lang);
            }
            match Table::replay(&recs) {
                Ok(table) => {
                    let book = phrasebook(&lang);
                    self.tongues.push(Tongue {
                        words: Announcer::new(book.clone(), AnnounceOptions::default()),
                        msgs: Messages::new(book),
                        lang,
                        table,
                    });
                }
                Err(e) => tracing::error!("seats' language {lang}: {e}"),
            }
        }
    }

    /// Applies a journaled event to every tongue's table too; a tongue that
    /// cannot follow (it never should) is dropped, its seats then hearing
    /// the table's language.
    pub(super) fn sync_tongues(&mut self, event: &Event, at: GameTime) {
        self.tongues.retain_mut(|t| match t.table.apply(event, at) {
            Ok(()) => true,
            Err(e) => {
                tracing::error!("the {} words lost step with the table: {e}", t.lang);
                false
            }
        });
    }

    fn swap_tongue(&mut self, i: usize) {
        let t = &mut self.tongues[i];
        std::mem::swap(&mut self.table, &mut t.table);
        std::mem::swap(&mut self.words, &mut t.words);
        std::mem::swap(&mut self.msgs, &mut t.msgs);
    }

    /// `f` in every language of the table: the table's first, then each
    /// tongue's (the same state, that language's words).
    pub(super) fn in_every_tongue(&mut self, f: &dyn Fn(&Session) -> Utterance) -> Vec<Utterance> {
        let mut v = vec![f(self)];
        v.extend(self.in_other_tongues(f));
        v
    }

    /// `f` in each tongue's words only (not the table's): for words made
    /// before the state changes (a move's announcement), said after.
    pub(super) fn in_other_tongues(&mut self, f: &dyn Fn(&Session) -> Utterance) -> Vec<Utterance> {
        let mut v = Vec::with_capacity(self.tongues.len());
        for i in 0..self.tongues.len() {
            self.swap_tongue(i);
            v.push(f(self));
            self.swap_tongue(i);
        }
        v
    }

    /// Says `first` (the table's words) and `others` (each tongue's), to
    /// whom its kind is for.
    pub(super) fn announce_made(&mut self, first: Utterance, others: Vec<Utterance>) {
        let to = self.audience(first.kind);
        let mut v = vec![first];
        v.extend(others);
        self.announce_versions(v, to);
    }

    /// Says what `f` makes, in each seat's language, to whom its kind is for.
    pub(super) fn announce_with(&mut self, f: impl Fn(&Session) -> Utterance) {
        let versions = self.in_every_tongue(&f);
        let to = self.audience(versions[0].kind);
        self.announce_versions(versions, to);
    }

    /// Says what `f` makes, in each seat's language, to `to`.
    pub(super) fn announce_with_to(&mut self, f: impl Fn(&Session) -> Utterance, to: Audience) {
        let versions = self.in_every_tongue(&f);
        self.announce_versions(versions, to);
    }

    /// Says one utterance in each language (`versions[0]` the table's,
    /// then each tongue's) to `to`'s outputs, each seat its own language's;
    /// tells the subscribers and journals each language someone heard.
    pub(super) fn announce_versions(&mut self, versions: Vec<Utterance>, to: Audience) {
        self.announce_versions_as(versions, to, None);
    }

    /// [`Session::announce_versions`], the journal recording `journaled`
    /// (one a version) instead of the words (a pairing code said is never
    /// written); such words are not kept for "repeat" either.
    pub(super) fn announce_versions_as(
        &mut self,
        versions: Vec<Utterance>,
        to: Audience,
        journaled: Option<Vec<String>>,
    ) {
        let texts: Vec<String> = versions.iter().map(Utterance::text).collect();
        // A language whose words are the table's (a sentence no tongue
        // translates): its seats hear the table's line.
        let said_as = |v: usize| if texts[v] == texts[0] { 0 } else { v };
        let mut asker_text = None;
        for (i, u) in versions.iter().enumerate() {
            let text = texts[i].clone();
            if text.is_empty() || said_as(i) != i {
                continue;
            }
            let heard = self.send_speech(u, to, i == 0, |side| said_as(self.version_of(side)) == i);
            if i > 0 && heard.is_empty() {
                continue;
            }
            if self
                .asker
                .map_or(i == 0, |a| said_as(self.version_of(a)) == i)
            {
                asker_text = Some(text.clone());
            }
            let lang = (i > 0).then(|| self.tongues[i - 1].lang.clone());
            let _ = self.out.notices.send(Notice::Speech {
                priority: u.priority,
                kind: u.kind,
                text: text.clone(),
                to: heard.clone(),
            });
            // The record of what was said (001 ch. VIII 2.2): after the words are queued.
            let text = match &journaled {
                Some(j) => j.get(i).or(j.first()).cloned().unwrap_or_default(),
                None => text,
            };
            let ev = Event::Announced {
                kind: kind_name(u.kind),
                priority: u.priority.name().to_owned(),
                text,
                to: heard,
                lang,
            };
            if let Err(e) = self.journal.append(self.now().as_millis(), ev) {
                tracing::error!("journal: {e}");
            }
        }
        // The reply says what the asker heard, in the asker's language.
        if let Some(t) = asker_text.or_else(|| versions.first().map(Utterance::text)) {
            if !t.is_empty() {
                self.said.push(t);
            }
        }
        if journaled.is_some() || texts[0].is_empty() {
            return;
        }
        self.keep_heard(&versions, to);
    }
}
