use tandem_rules::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v: Variant = args[1].parse().unwrap();
    let pos = if args.len() > 3 {
        Position::from_fen(v, &args[3]).unwrap()
    } else {
        Position::start(v)
    };
    for d in 1..=args[2].parse().unwrap() {
        let t = std::time::Instant::now();
        let n = perft(&pos, d);
        let s = t.elapsed().as_secs_f64();
        println!("{d} {n} {:.3}s {:.1} Mn/s", s, n as f64 / s / 1e6);
    }
}
#[allow(dead_code)]
fn dbg() {}
