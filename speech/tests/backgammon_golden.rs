//! Golden texts of the backgammon phrasebooks (pl, en): the roll, moves with
//! hits, entries, bear-offs and counts, the numbering setting, the cube, a
//! game's end and the match score with the Crawford game.

use tandem_rules::backgammon::{
    position_id, resolve, Action, Board, Dice, EndKind, GameEnd, Match, MatchOptions,
};
use tandem_rules::Color;
use tandem_speech::backgammon::{BgAnnouncer, BgPhrasebook, Numbering};

fn announcer(lang: &str, numbering: Numbering, listener: Color) -> BgAnnouncer {
    BgAnnouncer::new(BgPhrasebook::builtin(lang).unwrap(), numbering, listener)
}

fn said(a: &BgAnnouncer, board: &Board, dice: Dice, text: &str) -> String {
    a.play(board, &resolve(board, dice, text).unwrap())
}

#[test]
fn rolls() {
    let en = announcer("en", Numbering::Listener, Color::White);
    let pl = announcer("pl", Numbering::Listener, Color::White);
    assert_eq!(
        en.roll(Color::White, Dice(1, 3), false),
        "White rolls three one."
    );
    assert_eq!(
        en.roll(Color::Black, Dice(6, 6), false),
        "Black rolls double sixes."
    );
    assert_eq!(
        pl.roll(Color::Black, Dice(6, 6), false),
        "Czarny rzuca szóstki."
    );
    assert_eq!(
        pl.roll(Color::White, Dice(3, 1), true),
        "Biały zaczyna, trzy jeden."
    );
}

#[test]
fn moves_in_both_numberings() {
    let start = Board::start(Color::White);
    let own = announcer("en", Numbering::Listener, Color::White);
    assert_eq!(
        said(&own, &start, Dice(3, 1), "8/5 6/5"),
        "White: eight to five, six to five."
    );
    assert_eq!(
        said(&own, &start, Dice(4, 4), "8/4(2) 6/2(2)"),
        "White: eight to four, two checkers, six to two, two checkers."
    );
    // The opponent's move for a white listener: in white's numbering (25 minus each point).
    let black_start = Board::start(Color::Black);
    let listener = announcer("en", Numbering::Listener, Color::White);
    assert_eq!(
        said(&listener, &black_start, Dice(6, 5), "24/13"),
        "Black: one to twelve."
    );
    let mover = announcer("en", Numbering::Mover, Color::White);
    assert_eq!(
        said(&mover, &black_start, Dice(6, 5), "24/13"),
        "Black: twenty-four to thirteen."
    );
    let both = announcer("en", Numbering::Both, Color::White);
    assert_eq!(
        said(&both, &black_start, Dice(6, 5), "24/13"),
        "Black: twenty-four to thirteen, your one to twelve."
    );
    let pl = announcer("pl", Numbering::Listener, Color::Black);
    assert_eq!(
        said(&pl, &black_start, Dice(3, 1), "8/5 6/5"),
        "Czarny: osiem na pięć, sześć na pięć."
    );
}

#[test]
fn hits_entries_and_bear_offs() {
    // White on the bar; black blot on white's 22 (black's 3), black's home otherwise open.
    let b = position_id::decode("OoI8YFE2XiBCUQ", Color::White).unwrap();
    let en = announcer("en", Numbering::Mover, Color::White);
    let pl = announcer("pl", Numbering::Mover, Color::White);
    assert_eq!(
        said(&en, &b, Dice(2, 3), "bar/23* 7/4*"),
        "White: from the bar to twenty-three, hitting, seven to four, hitting."
    );
    assert_eq!(
        said(&pl, &b, Dice(2, 3), "bar/23* 7/4*"),
        "Biały: z bandy na dwadzieścia trzy, bicie, siedem na cztery, bicie."
    );
    let b = position_id::decode("nEqyQgPv/QAABA", Color::White).unwrap();
    assert_eq!(
        said(&en, &b, Dice(2, 6), "21/19*/13"),
        "White: twenty-one to nineteen, hitting, to thirteen."
    );
    let b = position_id::decode("8H0AALC7BQAAAA", Color::White).unwrap();
    assert_eq!(
        said(&en, &b, Dice(6, 2), "6/off 2/off"),
        "White: six off, two off."
    );
    assert_eq!(
        said(&pl, &b, Dice(6, 2), "6/off 2/off"),
        "Biały: sześć wyprowadza, dwa wyprowadza."
    );
    let closed = position_id::decode("27YdAADg/wcAQA", Color::White).unwrap();
    assert_eq!(said(&en, &closed, Dice(6, 4), "pass"), "White cannot move.");
    assert_eq!(said(&pl, &closed, Dice(6, 4), ""), "Biały nie ma ruchu.");
}

#[test]
fn the_cube_the_end_and_the_score() {
    let en = announcer("en", Numbering::Listener, Color::White);
    let pl = announcer("pl", Numbering::Listener, Color::White);
    assert_eq!(en.double(Color::Black, 2), "Black doubles to two.");
    assert_eq!(pl.double(Color::Black, 2), "Czarny kontruje na dwa.");
    assert_eq!(pl.take(Color::White), "Biały akceptuje.");
    assert_eq!(pl.drop(Color::White), "Biały pasuje.");
    assert_eq!(en.resign(Color::White, 2), "White resigns a gammon.");
    assert_eq!(
        pl.resign(Color::White, 3),
        "Biały poddaje partię potrójnie."
    );
    let end = GameEnd {
        winner: Color::White,
        points: 4,
        kind: EndKind::Gammon,
    };
    assert_eq!(en.game_end(&end), "White wins four points with a gammon.");
    assert_eq!(pl.game_end(&end), "Biały wygrywa cztery punkty, gammon.");
    let one = GameEnd {
        winner: Color::Black,
        points: 1,
        kind: EndKind::Pass,
    };
    assert_eq!(pl.game_end(&one), "Czarny wygrywa jeden punkt.");
    let five = GameEnd {
        winner: Color::Black,
        points: 6,
        kind: EndKind::Backgammon,
    };
    assert_eq!(
        pl.game_end(&five),
        "Czarny wygrywa sześć punktów, backgammon."
    );
    // 2-0 in a 3-point match: the Crawford game.
    let mut m = Match::new(MatchOptions { length: 3 });
    m.act(Action::Roll(Dice(3, 1))).unwrap();
    m.act_text("8/5 6/5").unwrap();
    m.act(Action::Resign {
        side: Color::Black,
        level: 2,
    })
    .unwrap();
    assert_eq!(
        en.score(&m),
        [
            "White 2, Black 0, match to 3.",
            "Crawford game: no doubling."
        ]
    );
    assert_eq!(
        pl.score(&m),
        [
            "Biały 2, Czarny 0, mecz do 3.",
            "Partia Crawforda: bez kontry."
        ]
    );
    assert_eq!(
        en.pips(&Board::start(Color::White)),
        "Pips: White 167, Black 167."
    );
}

/// A checker entering from the bar with a hit is said with the bar's words
/// (`enter`), in every numbering, never as a point 25 or 0; every hit on the
/// way is said; a checker borne off after a hit is said borne off.
#[test]
fn entries_with_hits_and_a_hit_then_off() {
    // White on the bar; black blots on white's 21 and 17.
    let a = position_id::decode("yCfyATDgc/AAWA", Color::White).unwrap();
    let en = announcer("en", Numbering::Mover, Color::White);
    let pl = announcer("pl", Numbering::Mover, Color::White);
    assert_eq!(
        said(&en, &a, Dice(4, 3), "bar/21*/18"),
        "White: from the bar to twenty-one, hitting, to eighteen."
    );
    assert_eq!(
        said(&pl, &a, Dice(4, 3), "bar/21*/18"),
        "Biały: z bandy na dwadzieścia jeden z biciem, na osiemnaście."
    );
    assert_eq!(
        said(&en, &a, Dice(3, 1), "bar/21*"),
        "White: from the bar to twenty-one, hitting."
    );
    assert_eq!(
        said(&en, &a, Dice(4, 4), "bar/21*/17*/9"),
        "White: from the bar to twenty-one, hitting, to seventeen, hitting, to nine."
    );
    assert_eq!(
        said(&pl, &a, Dice(4, 4), "bar/21*/17* 24/20(2)"),
        "Biały: z bandy na dwadzieścia jeden z biciem, na siedemnaście, bicie, \
         dwadzieścia cztery na dwadzieścia, dwa piony."
    );
    // White's move said to black: in black's numbering, the bar still the bar.
    let black = announcer("en", Numbering::Listener, Color::Black);
    assert_eq!(
        said(&black, &a, Dice(4, 3), "bar/21*/18"),
        "White: from the bar to four, hitting, to seven."
    );
    let both = announcer("pl", Numbering::Both, Color::Black);
    assert_eq!(
        said(&both, &a, Dice(4, 3), "bar/21*/18"),
        "Biały: z bandy na dwadzieścia jeden z biciem, na osiemnaście, \
         twoje z bandy na cztery z biciem, na siedem."
    );
    // Two white checkers on the bar; black blots on white's 22 and 21.
    let c = position_id::decode("lM/BBwDgc3AAbA", Color::White).unwrap();
    assert_eq!(
        said(&en, &c, Dice(4, 3), "bar/22* bar/21*"),
        "White: from the bar to twenty-two, hitting, from the bar to twenty-one, hitting."
    );
    // White bearing off; a black blot on white's 2.
    let b = position_id::decode("4PPgAxDcew8AAA", Color::White).unwrap();
    assert_eq!(
        said(&en, &b, Dice(4, 2), "6/2*/off"),
        "White: six to two, hitting, two off."
    );
    assert_eq!(
        said(&pl, &b, Dice(4, 2), "6/2*/off"),
        "Biały: sześć na dwa, bicie, dwa wyprowadza."
    );
}
