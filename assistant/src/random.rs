//! The one source of random bytes: the kernel's, through ring's
//! `SystemRandom` (`getrandom`). Pairing codes (`devices/pairing.rs`), the
//! desk's session tokens (`hall/login.rs`), tandem's dice
//! (`games/backgammon`) and the relay's token (`cmd/play.rs`) are drawn here.

/// Fills `buf` with random bytes from the kernel.
///
/// # Errors
/// The kernel gave none (never on Linux once booted).
pub fn fill(buf: &mut [u8]) -> std::io::Result<()> {
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), buf)
        .map_err(|_| std::io::Error::other("no random bytes from the kernel"))
}

/// `n` random bytes.
///
/// # Errors
/// As [`fill`].
pub fn bytes(n: usize) -> std::io::Result<Vec<u8>> {
    let mut b = vec![0u8; n];
    fill(&mut b)?;
    Ok(b)
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_draws_differ_and_fill_the_buffer() {
        let a = super::bytes(32).unwrap();
        let b = super::bytes(32).unwrap();
        assert_eq!(a.len(), 32);
        // 2^-256: equal only if the source is broken.
        assert_ne!(a, b);
        assert!(a.iter().any(|&x| x != 0));
    }
}
