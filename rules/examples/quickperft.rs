//! Perft at every depth up to DEPTH, with the time of each (a quick look at
//! the generator's speed without building the daemon):
//!
//! `cargo run --release -p tandem-rules --example quickperft -- VARIANT DEPTH [FEN] [--last]`
//!
//! `--last` runs only DEPTH (for instruction counts under callgrind).
use tandem_rules::draughts::{perft, Position, Variant};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let last = args.iter().any(|a| a == "--last");
    args.retain(|a| a != "--last");
    let usage = "usage: quickperft VARIANT DEPTH [FEN] [--last]";
    let (Some(v), Some(depth)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let v: Variant = v.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let depth: u32 = depth.parse().unwrap_or_else(|_| {
        eprintln!("{usage}");
        std::process::exit(2)
    });
    let pos = match args.get(2) {
        Some(fen) => Position::from_fen(v, fen).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }),
        None => Position::start(v),
    };
    let first = if last { depth } else { 1 };
    for d in first..=depth {
        let t = std::time::Instant::now();
        let n = perft(&pos, d);
        let s = t.elapsed().as_secs_f64();
        println!("{d} {n} {s:.3}s {:.1} Mn/s", n as f64 / s / 1e6);
    }
}
