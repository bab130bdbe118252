//! `--variant chess` on the command line, running the built binary:
//! perft (published counts), pdn check on PGN files (real games), say
//! (FIDE annex E announcements, espeak-ng for `--wav`), braille render.

mod support;

use support::cli::run_lossy as tandem;

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn data(rel: &str) -> String {
    support::cli::rules_data(&format!("chess/{rel}"))
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perft_chess_counts_from_the_start_and_kiwipete() {
    for (depth, nodes) in [(1, 20), (2, 400), (3, 8902), (4, 197_281)] {
        let (code, out, _) = tandem(&["perft", "--variant", "chess", "--json", &depth.to_string()]);
        assert_eq!(code, Some(0));
        let v = json(&out);
        assert_eq!(v["depth"], depth);
        assert_eq!(v["nodes"], nodes);
        assert!(v["seconds"].as_f64().unwrap() >= 0.0);
        assert_eq!(v["variant"], "chess");
    }
    for (depth, nodes) in [(1, 48), (2, 2039), (3, 97_862)] {
        let (_, out, _) = tandem(&[
            "perft",
            "--variant",
            "chess",
            "--fen",
            KIWIPETE,
            "--json",
            &depth.to_string(),
        ]);
        assert_eq!(json(&out)["nodes"], nodes);
    }
    let (code, out, _) = tandem(&["perft", "--variant", "chess", "--divide", "1"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().any(|l| l == "Nf3 1"), "{out}");
    assert!(
        out.ends_with("s\n") && out.contains("depth 1 nodes 20"),
        "{out}"
    );
}

#[test]
fn perft_chess_refuses_a_bad_fen_and_an_unknown_variant() {
    let (code, _, err) = tandem(&["perft", "--variant", "chess", "--fen", "8/8/8 w", "2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("invalid chess FEN"), "{err}");
    let (code, _, err) = tandem(&["perft", "--variant", "go", "2"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("expected international, sixty-four, chess or backgammon"),
        "{err}"
    );
    // Draughts is untouched.
    let (_, out, _) = tandem(&["perft", "--json", "5"]);
    assert_eq!(json(&out)["nodes"], 27117);
}

#[test]
fn pdn_check_replays_real_pgn_games() {
    let (code, out, _) = tandem(&[
        "pdn",
        "check",
        &data("aronian-1993-2002.pgn"),
        &data("features.pgn"),
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.ends_with("404 games, 404 ok, 0 failed\n"), "{out}");
    assert!(
        out.contains("game 1 (Aronian, Levon - Munizaba, Slobodan): ok (75 plies)"),
        "{out}"
    );
}

#[test]
fn pdn_check_reports_illegal_chess_moves_as_json() {
    let (code, out, _) = tandem(&["pdn", "check", "--json", &data("illegal.pgn")]);
    assert_eq!(code, Some(1));
    let lines: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["status"], "illegal");
    assert_eq!(lines[0]["ply"], 2);
    assert_eq!(lines[0]["move"], "Kh7");
    assert_eq!(lines[0]["move_line"], 11);
    assert_eq!(lines[0]["fen"], "7k/8/6Q1/8/8/8/8/K7 b - - 1 1");
    assert_eq!(lines[1]["move"], "O-O");
    assert!(lines[1]["reason"].as_str().unwrap().contains("castling"));
    assert_eq!(
        lines[2],
        serde_json::json!({"games": 2, "ok": 0, "failed": 2, "warnings": 0})
    );
}

#[test]
fn pdn_check_pgn_flag_reads_any_file_name_as_chess() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("game.txt");
    std::fs::write(
        &f,
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n",
    )
    .unwrap();
    let (code, out, _) = tandem(&["pdn", "check", "--pgn", f.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("game 1 (A - B): ok (6 plies)"), "{out}");
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "\n").unwrap();
    let (code, out, _) = tandem(&["pdn", "check", empty.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(out.contains("no game found"), "{out}");
}

#[test]
fn say_chess_announces_after_annex_e() {
    let (code, out, _) = tandem(&["say", "--variant", "chess", "e2e4"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "Pion Ewa dwa, Ewa cztery.\n");
    let (_, out, _) = tandem(&["say", "--variant", "chess", "--lang", "en", "Nf3"]);
    assert_eq!(out, "Knight Gustav one, Felix three.\n");
    let (_, out, _) = tandem(&["say", "--variant", "chess", "--files", "letters", "Nf3"]);
    assert_eq!(out, "Skoczek gie jeden, ef trzy.\n");
    let castle = "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 8";
    let (_, out, _) = tandem(&["say", "--variant", "chess", "--fen", castle, "0-0-0"]);
    assert_eq!(
        out,
        "Długa roszada: król na Cesar jeden, wieża z Anna jeden na Dawid jeden.\n"
    );
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let (_, out, _) = tandem(&["say", "--variant", "chess", "--fen", ep, "--json", "exf6"]);
    let v = json(&out);
    assert_eq!(v["move"], "exf6");
    assert_eq!(v["uci"], "e5f6");
    assert_eq!(
        v["sentences"][1],
        "Zdejmij czarnego piona z pola Feliks pięć."
    );
    assert_eq!(v["kind"], "move");
}

#[test]
fn say_chess_refusals_exit_1_in_words() {
    let (code, out, _) = tandem(&["say", "--variant", "chess", "--json", "e2e5"]);
    assert_eq!(code, Some(1));
    let v = json(&out);
    assert_eq!(v["legal"], false);
    assert_eq!(
        v["text"],
        "Pion z pola Ewa dwa nie może pójść na pole Ewa pięć."
    );
    let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    let (code, out, _) = tandem(&[
        "say",
        "--variant",
        "chess",
        "--lang",
        "en",
        "--fen",
        knights,
        "Nd2",
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(out, "Which knight: Bella one or Felix three?\n");
}

#[test]
fn say_chess_writes_speech_with_espeak_ng() {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("e4.wav");
    let (code, _, err) = tandem(&[
        "say",
        "--variant",
        "chess",
        "e4",
        "--wav",
        wav.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "espeak-ng is needed for --wav: {err}");
    let bytes = std::fs::read(&wav).unwrap();
    assert_eq!(&bytes[..4], b"RIFF");
    assert!(bytes.len() > 10_000, "{} bytes", bytes.len());
}

#[test]
fn braille_render_chess_views_map_cells_to_squares_1_to_64() {
    let (code, out, _) = tandem(&[
        "braille",
        "render",
        "--variant",
        "chess",
        "--view",
        "rows",
        "--json",
    ]);
    assert_eq!(code, Some(0));
    let v = json(&out);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0]["text"], "a8:r b8:n c8:b d8:q e8:k f8:b g8:n h8:r");
    assert_eq!(lines[0]["squares"][0], 57);
    assert_eq!(lines[7]["squares"][0], 1);
    let mut all: Vec<u64> = lines
        .iter()
        .flat_map(|l| {
            l["squares"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(serde_json::Value::as_u64)
        })
        .collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all, (1..=64).collect::<Vec<u64>>());

    let (_, out, _) = tandem(&[
        "braille",
        "render",
        "--variant",
        "chess",
        "--fen",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "--view",
        "list",
    ]);
    assert!(out.contains("W Ke1 e2 | B Ke8"), "{out}");
    let (_, out, _) = tandem(&[
        "braille",
        "render",
        "--variant",
        "chess",
        "--view",
        "graphic",
        "--json",
    ]);
    let v = json(&out);
    // Rank 1: "1 " then the white pieces: rook ⠟, knight ⠇, bishop ⠍, queen ⠝, king ⠗.
    assert!(v["lines"][7]["cells"]
        .as_str()
        .unwrap()
        .ends_with("⠟⠇⠍⠝⠗⠍⠇⠟"));
    let (code, _, err) = tandem(&["braille", "render", "--variant", "chess", "--fen", "x"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("invalid chess FEN"), "{err}");
}

#[test]
fn hear_variant_chess_understands_moves_commands_and_refusals_on_text() {
    let hear = |args: &[&str]| {
        let mut a = vec!["hear", "--variant", "chess", "--json"];
        a.extend_from_slice(args);
        let (code, out, err) = tandem(&a);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        json(&out)
    };
    // Annex E.2 names, letters, piece and target, in Polish and English.
    for (lang, said, san, uci) in [
        ("pl", "Ewa dwa Ewa cztery", "e4", "e2e4"),
        ("pl", "skoczek Feliks trzy", "Nf3", "g1f3"),
        ("pl", "e dwa na e cztery", "e4", "e2e4"),
        ("en", "knight f three", "Nf3", "g1f3"),
        ("en", "Eva two Eva four", "e4", "e2e4"),
    ] {
        let v = hear(&["--lang", lang, "--text", said]);
        assert_eq!(v["kind"], "move", "{said}: {v}");
        assert_eq!(
            (v["move"].as_str(), v["uci"].as_str()),
            (Some(san), Some(uci))
        );
    }
    // Two knights can go to d2: asked which, never played.
    let v = hear(&[
        "--lang",
        "pl",
        "--fen",
        "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1",
        "--text",
        "skoczek Dawid dwa",
    ]);
    assert_eq!(v["kind"], "ambiguous", "{v}");
    assert_eq!(v["question"], "Który skoczek: Bella jeden czy Feliks trzy?");
    // Clear squares of an illegal move: refused with the reason.
    let v = hear(&["--lang", "en", "--text", "Eva two Eva five"]);
    assert_eq!(v["kind"], "illegal", "{v}");
    assert_ne!(v["kind"], "move");
    // The commands are understood in a chess game too.
    let v = hear(&["--lang", "pl", "--text", "zegar"]);
    assert_eq!(
        (v["kind"].as_str(), v["command"].as_str()),
        (Some("command"), Some("clock"))
    );
    // Nothing clear.
    let v = hear(&["--lang", "en", "--text", "banana split"]);
    assert_eq!(v["kind"], "unknown", "{v}");
    // A bad FEN is an error (exit 2) naming the FEN.
    let (code, _, err) = tandem(&["hear", "--variant", "chess", "--fen", "bad", "--text", "e4"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("invalid chess FEN"), "{err}");
}

#[test]
fn hear_variant_chess_takes_the_commands_of_a_chess_phrasebook_file() {
    let book = format!(
        "{}/../speech/tests/data/chess-ko.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let hear = |text: &str| {
        tandem(&[
            "hear",
            "--variant",
            "chess",
            "--phrasebook",
            &book,
            "--text",
            text,
            "--json",
        ])
    };
    let (code, out, err) = hear("네");
    assert_eq!(code, Some(0), "{err}");
    let v = json(&out);
    assert_eq!(
        (v["kind"].as_str(), v["command"].as_str()),
        (Some("command"), Some("yes"))
    );
    let (_, out, _) = hear("오 이 오 사");
    assert_eq!(json(&out)["move"], "e4");
}

#[test]
fn a_draw_claim_is_heard_in_polish_and_english() {
    for (lang, said) in [("pl", "reklamuję remis"), ("en", "claim a draw")] {
        let (code, out, err) = tandem(&[
            "hear",
            "--variant",
            "chess",
            "--lang",
            lang,
            "--text",
            said,
            "--json",
        ]);
        assert_eq!(code, Some(0), "{err}");
        let v = json(&out);
        assert_eq!(
            (v["kind"].as_str(), v["command"].as_str()),
            (Some("command"), Some("claim-draw")),
            "{said}: {v}"
        );
    }
    // A plain "draw" is still an offer.
    let (_, out, _) = tandem(&[
        "hear",
        "--variant",
        "chess",
        "--lang",
        "en",
        "--text",
        "draw",
        "--json",
    ]);
    assert_eq!(json(&out)["command"], "draw");
}

#[test]
fn pdn_check_reads_chess960_glued_results_and_games_past_a_dead_position() {
    // Issue 44's forms, in real files (rules/tests/data/chess/SOURCES.md).
    let (code, out, _) = tandem(&[
        "pdn",
        "check",
        "--json",
        &data("cutechess-fischerrandom.pgn"),
        &data("cutechess-fischerrandom-king-takes-rook.pgn"),
        &data("aronian-glued-results.pgn"),
        &data("dead-position-played-on.pgn"),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let lines: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert_eq!(lines.len(), 4 + 4 + 120 + 3 + 1, "{out}");
    // Chess960: replayed by its rules, the last position as python-chess
    // gives it (rules/tests/pgn_real.rs compares every game).
    for g in &lines[..8] {
        assert_eq!(g["status"], "ok", "{g}");
        assert_eq!(g["chess960"], true, "{g}");
    }
    assert_eq!(lines[0]["plies"], 120);
    assert_eq!(lines[0]["result"], "0-1");
    assert_eq!(lines[0]["fen"], lines[4]["fen"], "both castling forms");
    // A result against the last move: the game ends there, with a warning.
    let glued = &lines[8..128];
    assert!(glued.iter().all(|g| g["status"] == "ok"));
    assert_eq!(glued[0]["result"], "1-0");
    let w = glued[0]["warning_details"].as_array().unwrap();
    assert_eq!(w.len(), 1, "{}", glued[0]);
    assert!(
        w[0]["message"]
            .as_str()
            .unwrap()
            .contains("`1-0` is written against the move `38.Qf5+`"),
        "{w:?}"
    );
    // Played on past a dead position: every move, the recorded result, a
    // warning at the first move after it; the file's other games unharmed.
    let dead = &lines[129];
    assert_eq!(dead["status"], "ok", "{dead}");
    assert_eq!(dead["plies"], 8);
    assert_eq!(dead["result"], "0-1");
    assert_eq!(dead["fen"], "8/8/2n5/2k5/8/3K4/8/8 w - - 6 64");
    let w = dead["warning_details"].as_array().unwrap();
    assert_eq!(w.len(), 1, "{dead}");
    assert!(w[0]["message"].as_str().unwrap().contains("5.2.2"), "{w:?}");
    assert_eq!(
        w[0]["line"],
        dead["line"].as_u64().unwrap() + 10,
        "the line of 61. Kf2"
    );
    for g in [&lines[128], &lines[130]] {
        assert_eq!(g["status"], "ok");
        assert_eq!(g["warnings"], 0, "{g}");
    }
    let summary = lines.last().unwrap();
    assert_eq!(summary["games"], 131);
    assert_eq!(summary["failed"], 0);
    assert_eq!(summary["warnings"], 121);
}
