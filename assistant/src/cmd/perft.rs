//! `tandem perft`: placeholder until the rules CLI lands.
