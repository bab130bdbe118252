//! The tournament director's comparisons for backgammon: two records of one
//! match compared turn by turn, and two positions (gnubg's Position ID and
//! Match ID) compared point by point (004 3.8: a match may be recorded in
//! writing; 004 4.2 (iii): an illegal move is put right; 004 4.3 (ii) c):
//! the director sets the clocks).
//!
//! A record is a list of [`Entry`]s: a turn (`52: 13/8 13/11`, the roll and
//! its move; `64:` a roll that cannot be played), a cube action (`doubles`,
//! `takes`, `drops`), a resignation (`resign 2`) or a game's end (`wins 2
//! points`), each with the side that made it where the record says so
//! (`white 52: 13/8 13/11`). Records come from a Jellyfish `.mat` file
//! ([`read_mat`]), a sheet typed one entry a line ([`read_list`]), or the
//! actions of a match ([`from_match`], what a journal replays to). They are
//! compared through [`crate::reconcile`] with a turn as the ply: records
//! agree on a turn when both name the same roll and the same legal move
//! (however written: `13/8 13/11`, `13-8 13-11`, `138 1311`), or the same
//! cube action.
//!
//! Pure: no I/O.

mod entry;
mod positions;
mod records;
mod turns;

pub use positions::{
    apply_fixes, diff_boards, diff_infos, read_ids, BgFix, IdError, IdPosition, InfoChange, Spot,
    SpotChange,
};
pub use records::{
    fill_sides, from_match, is_mat, looks_like_backgammon, read_list, read_mat, settle, BgRecord,
    Entry, RecordError,
};
pub use turns::{
    after_roll, entry_key, entry_parts, entry_place, play_entry, reconcile_match, turn_text,
    BgReconciliation, BgRecordGame, BgReplay, Turn, TurnError,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::{Board, Match, MatchOptions};
    use crate::reconcile::RecordedGame;
    use crate::Color;

    fn texts(r: &BgRecord) -> Vec<String> {
        r.texts()
    }

    #[test]
    fn a_mat_file_reads_into_entries_with_sides() {
        let m = " 3 point match\n\n Game 1\n A : 0                          B : 0\n  1)                             52: 13/8 13/11\n  2) 31: 8/5 6/5                 Doubles => 2\n  3)  Takes                      64: 24/18 13/9\n";
        let r = read_mat(m).unwrap();
        assert_eq!(r.length, Some(3));
        assert_eq!(r.names, Some(("A".to_owned(), "B".to_owned())));
        assert_eq!(
            texts(&r),
            [
                "black 52: 13/8 13/11",
                "white 31: 8/5 6/5",
                "black Doubles => 2",
                "white Takes",
                "black 64: 24/18 13/9"
            ]
        );
    }

    #[test]
    fn typed_sheets_agree_with_the_mat_and_name_a_wrong_roll() {
        let mat = " 3 point match\n\n Game 1\n A : 0                          B : 0\n  1) 52: 13/8 13/11              31: 8/5 6/5\n  2) 64: 24/18 13/9\n";
        let a = read_mat(mat).unwrap();
        let mut b = read_list("1) 52 13-8 13-11\nblack 31: 85 65\n64: 24/18 13/9\n").unwrap();
        fill_sides(&mut b, &a);
        let r = reconcile_match(3, &a.texts(), &b.texts());
        assert!(r.agree(), "{:?}", r.first_difference);
        let mut c =
            read_list("white 52: 13/8 13/11\nblack 31: 8/5 6/5\nwhite 63: 24/18 13/10\n").unwrap();
        fill_sides(&mut c, &a);
        let r = reconcile_match(3, &a.texts(), &c.texts());
        assert_eq!(r.agreed_plies, 2);
        let d = r.first_difference.unwrap();
        assert_eq!(d.ply, 3);
        assert_eq!(d.b_legal(), Some(true));
    }

    #[test]
    fn two_entries_a_line_and_tandems_record_lines_read() {
        let a = read_list("1) 52: 13/11 13/8     64: 24/14*\n").unwrap();
        assert_eq!(a.texts(), ["white 52: 13/11 13/8", "black 64: 24/14*"]);
        let b = read_list("Game 1 (0-0)\n  White: roll 52\n  White: move 13/11 13/8\n  Black: roll 64\n  Black: move 24/14*\n  White: roll 31\n").unwrap();
        assert_eq!(b.texts(), a.texts());
        assert!(looks_like_backgammon(
            "Game 1\n  White: roll 52\n  White: move 13/11 13/8\n"
        ));
        assert!(looks_like_backgammon(
            "1) W 52: 13/11 13/8\n   B 64: 24-14\n"
        ));
        assert!(!looks_like_backgammon("1. 32 28 19 23\n2. 28x19 14x23\n"));
        assert_eq!(b.entries[0].game, 1);
        assert_eq!(b.notes.len(), 1);
        let c = read_list("1. roll 52 (5:58)\n  move 13/11 13/8 (5:58)\n2. roll 64 move 24/14* double take\n3. roll 11\n move pass\n").unwrap();
        assert_eq!(
            c.texts(),
            [
                "52: 13/11 13/8",
                "64: 24/14*",
                "doubles",
                "takes",
                "11: pass"
            ]
        );
        let r = reconcile_match(3, &a.texts(), &b.texts());
        assert!(r.agree());
    }

    #[test]
    fn an_illegal_move_is_a_difference_not_an_unreadable_record() {
        let a = read_list("white 52: 13/8 13/11\nblack 31: 8/5 6/5\n").unwrap();
        let b = read_list("white 52: 13/8 13/10\nblack 31: 8/5 6/5\n").unwrap();
        let r = reconcile_match(3, &a.texts(), &b.texts());
        assert!(!r.agree());
        let d = r.first_difference.unwrap();
        assert_eq!(d.ply, 1);
        assert_eq!(d.b_legal(), Some(false));
        assert!(matches!(d.b_result, Some(Err(TurnError::Move { .. }))));
    }

    #[test]
    fn wins_lines_that_state_a_game_end_are_dropped() {
        // A game to a passed double: the `Wins 1 point` line only states it.
        let mut a = read_list(
            "white 52: 13/8 13/11\nblack doubles\nwhite drops\nblack wins 1 point\nGame 2\nblack 31: 8/5 6/5\n",
        )
        .unwrap();
        a.length = Some(3);
        settle(&mut a);
        assert_eq!(a.entries.len(), 4);
        let r = reconcile_match(3, &a.texts(), &a.texts());
        assert!(r.agree(), "{:?}", r.a.illegal);
        // A sheet without sides, its game's end written out, takes them
        // from the other record around that line.
        let mut b =
            read_list("52: 13/8 13/11\ndoubles\ndrops\nblack wins 1 point\nGame 2\n31: 8/5 6/5\n")
                .unwrap();
        b.length = Some(3);
        fill_sides(&mut b, &a);
        settle(&mut b);
        assert_eq!(b.texts(), a.texts());
    }

    #[test]
    fn a_roll_then_a_resignation_at_the_table_agrees_with_its_mat_file() {
        use crate::backgammon::{mat, Action, Dice};
        let mut m = Match::new(MatchOptions { length: 3 });
        for a in ["roll 5 2", "move 13/11 13/8", "roll 3 1"] {
            m.act_text(a).unwrap();
        }
        m.act(Action::Resign {
            side: Color::Black,
            level: 1,
        })
        .unwrap();
        let journal = from_match(&m);
        assert_eq!(
            journal.texts(),
            ["white 52: 13/11 13/8", "black 31:", "black resigns 1"]
        );
        let text = mat::export(&m, &mat::Names::default());
        assert!(text.contains("31: "), "{text}");
        let mut file = read_mat(&text).unwrap();
        settle(&mut file);
        let r = reconcile_match(3, &journal.texts(), &file.texts());
        assert!(r.agree(), "{:?}\n{text}", r.first_difference);
        let last = r.a.game.played().get(1).copied();
        assert_eq!(
            last,
            Some(Turn::Rolled {
                side: Color::Black,
                dice: Dice(3, 1)
            })
        );
    }

    #[test]
    fn entry_places_follow_the_mat_lines() {
        let mut m = Match::new(MatchOptions { length: 3 });
        assert_eq!(entry_place(&m, Color::Black), (1, 1));
        play_entry(&mut m, "black 52: 13/8 13/11").unwrap();
        assert_eq!(entry_place(&m, Color::White), (1, 2));
        play_entry(&mut m, "white 31: 8/5 6/5").unwrap();
        assert_eq!(entry_place(&m, Color::Black), (1, 2));
    }

    #[test]
    fn fixes_make_the_second_board_the_first() {
        let a = Board::start(Color::White);
        let mut m = Match::new(MatchOptions { length: 3 });
        play_entry(&mut m, "white 52: 13/8 13/11").unwrap();
        let b = *m.board();
        let changes = diff_boards(&a, &b);
        let fixes: Vec<BgFix> = changes.iter().filter_map(SpotChange::fix).collect();
        let fixed = apply_fixes(&b, &fixes).unwrap();
        assert!(diff_boards(&a, &fixed).is_empty());
    }

    #[test]
    fn ids_read_with_and_without_a_match_id() {
        let p = read_ids("4HPwATDgc/ABMA", Color::White).unwrap();
        assert_eq!(p.board, Board::start(Color::White));
        assert!(read_ids("4HPwATDgc/ABMA:cAkAAAAAAAAA", Color::White)
            .unwrap()
            .info
            .is_some());
        assert!(read_ids("not an id", Color::White).is_err());
    }
}
