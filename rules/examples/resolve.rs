fn main() {
    let a: Vec<String> = std::env::args().collect();
    let p = tandem_rules::draughts::Position::from_fen(a[1].parse().unwrap(), &a[2]).unwrap();
    println!("{:?}", p.legal_moves());
    println!("{:?}", tandem_rules::draughts::notation::resolve(&p, &a[3]));
}
