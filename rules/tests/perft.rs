//! Perft against the published counts (issue 2). Debug runs stop at a node
//! limit; `cargo test --release -p tandem-rules -- --ignored` runs them all.

use tandem_rules::draughts::{perft, Position, Variant};

struct Case {
    name: String,
    pos: Position,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut out: Vec<Case> = Vec::new();
    let mut variant = Variant::International;
    let mut name = String::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, rest) = line.split_once(' ').expect("key value");
        match key {
            "name" => name = rest.to_owned(),
            "variant" => variant = rest.parse().expect("variant"),
            "fen" => {
                let pos = if rest == "start" {
                    Position::start(variant)
                } else {
                    Position::from_fen(variant, rest).expect("fen")
                };
                out.push(Case {
                    name: name.clone(),
                    pos,
                    counts: Vec::new(),
                });
            }
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth count");
                out.last_mut()
                    .expect("perft after fen")
                    .counts
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    out
}

fn run(limit: u64) {
    let cases = cases();
    assert_eq!(cases.len(), 3);
    for c in cases {
        for &(depth, expected) in c.counts.iter().filter(|(_, n)| *n <= limit) {
            assert_eq!(perft(&c.pos, depth), expected, "{} depth {depth}", c.name);
        }
    }
}

#[test]
fn perft_published_counts_up_to_a_million_nodes() {
    run(if cfg!(debug_assertions) {
        1_100_000
    } else {
        50_000_000
    });
}

#[test]
#[ignore = "deep: run in release (cargo test --release -- --ignored)"]
fn perft_published_counts_all_depths() {
    run(u64::MAX);
}
