//! The desk's Ed25519 key pair (docs/hall.md, "The desk's key"): the desk
//! signs its commands and its witnesses of the tables' journals with the
//! private key, which only the desk holds; the tables and `tandem journal
//! verify --desk-key` check them with the public key, which cannot sign.
//!
//! Ed25519 through `ring` (already in tandem for TLS: no second crypto
//! crate). The files are PEM, as OpenSSL reads them:
//!
//! - `desk.key`: `-----BEGIN PRIVATE KEY-----`, PKCS#8 as RFC 8410 gives it
//!   (the 32-byte seed; what `openssl genpkey -algorithm ed25519` writes, and
//!   OpenSSL, Go and `ring` read; a v2 key with the public key is read too);
//!   mode 0600, refused when the group or others may read it.
//! - `desk.pub`: `-----BEGIN PUBLIC KEY-----`, SubjectPublicKeyInfo (RFC 8410).
//!
//! A signature travels as 128 lowercase hex digits.

use std::io::Write as _;
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use ring::signature::{self, Ed25519KeyPair, KeyPair as _};
use sha2::{Digest, Sha256};

/// The DER of an Ed25519 SubjectPublicKeyInfo before the 32 key bytes
/// (RFC 8410: SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING }).
const SPKI_PREFIX: [u8; 12] = [
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
];

/// The DER of an RFC 8410 PKCS#8 Ed25519 private key before its 32-byte seed.
const PKCS8_V1_PREFIX: [u8; 16] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

/// The file names `tandem hall keygen DIR` writes.
pub const PRIVATE_FILE: &str = "desk.key";
/// The public key's file name.
pub const PUBLIC_FILE: &str = "desk.pub";

/// Where to point someone whose key file is not one (an older desk's
/// shared secret, most likely).
const HINT: &str = "make the desk's key pair with `tandem hall keygen DIR`, give the desk \
     `--signing-key DIR/desk.key` and every table `--desk-key DIR/desk.pub` \
     (the arbiter's secret no longer signs the desk's commands: it is the desk's login only)";

/// The desk's private key (`tandem hall --signing-key`).
pub struct SigningKey {
    pair: Ed25519KeyPair,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SigningKey({})", self.public().fingerprint())
    }
}

/// The desk's public key (`tandem play --desk-key`, `tandem journal verify --desk-key`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeskKey([u8; 32]);

impl std::fmt::Debug for DeskKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeskKey({})", self.fingerprint())
    }
}

/// Writes a new key pair into `dir`: `desk.key` (0600, never over an
/// existing one) and `desk.pub`. Returns both paths.
///
/// # Errors
/// A key is there already, or the folder cannot be written.
pub fn keygen(dir: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot make {}: {e}", dir.display()))?;
    let private = dir.join(PRIVATE_FILE);
    let public = dir.join(PUBLIC_FILE);
    anyhow::ensure!(
        !private.exists(),
        "{} exists already: refusing to overwrite the desk's key (the tables check its \
         signatures with its desk.pub; remove it yourself to make a new one)",
        private.display()
    );
    let mut seed = [0u8; 32];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut seed)
        .map_err(|_| anyhow::anyhow!("cannot make a key: no randomness"))?;
    let mut pkcs8 = PKCS8_V1_PREFIX.to_vec();
    pkcs8.extend_from_slice(&seed);
    let pair = Ed25519KeyPair::from_pkcs8_maybe_unchecked(&pkcs8)
        .map_err(|_| anyhow::anyhow!("the new key does not read back"))?;
    let mut pub_der = SPKI_PREFIX.to_vec();
    pub_der.extend_from_slice(pair.public_key().as_ref());
    // Created 0600 and exclusively: no moment with looser modes, never over
    // a key made meanwhile.
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&private)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", private.display()))?;
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    f.write_all(pem_text("PRIVATE KEY", &pkcs8).as_bytes())?;
    f.sync_all()?;
    std::fs::write(&public, pem_text("PUBLIC KEY", &pub_der))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", public.display()))?;
    std::fs::set_permissions(&public, std::fs::Permissions::from_mode(0o644))?;
    Ok((private, public))
}

fn pem_text(tag: &str, der: &[u8]) -> String {
    pem::encode_config(
        &pem::Pem::new(tag, der),
        pem::EncodeConfig::new().set_line_ending(pem::LineEnding::LF),
    )
}

/// The PEM block of `path` with the tag `tag`, or why not.
fn read_pem(path: &Path, tag: &str, what: &str) -> anyhow::Result<Vec<u8>> {
    let bytes = std::fs::read(path)
        .map_err(|e| anyhow::anyhow!("cannot read {what} {}: {e}", path.display()))?;
    anyhow::ensure!(
        bytes.len() <= 16 * 1024,
        "{} is not {what}: too big",
        path.display()
    );
    let Ok(p) = pem::parse(&bytes) else {
        anyhow::bail!(
            "{} is not {what} (a PEM `{tag}` file): an arbiter secret of an older tandem? {HINT}",
            path.display()
        );
    };
    anyhow::ensure!(
        p.tag() == tag,
        "{} holds a PEM `{}`, not {what} (`{tag}`): {HINT}",
        path.display(),
        p.tag()
    );
    Ok(p.into_contents())
}

impl SigningKey {
    /// Reads the desk's private key; refuses a file the group or others may
    /// read (or write), and a file that is not an Ed25519 PKCS#8 key.
    ///
    /// # Errors
    /// As above, with what to do.
    pub fn load(path: &Path) -> anyhow::Result<SigningKey> {
        let meta = std::fs::metadata(path).map_err(|e| {
            anyhow::anyhow!("cannot read the desk's signing key {}: {e}", path.display())
        })?;
        let mode = meta.permissions().mode() & 0o777;
        anyhow::ensure!(
            mode & 0o077 == 0,
            "--signing-key {}: the desk's private key may be read by others (mode {mode:04o}); \
             whoever reads it can act as the arbiter at every table. `chmod 600 {}` and try again",
            path.display(),
            path.display()
        );
        let der = read_pem(path, "PRIVATE KEY", "the desk's private key")?;
        let pair = Ed25519KeyPair::from_pkcs8_maybe_unchecked(&der).map_err(|_| {
            anyhow::anyhow!(
                "{} is not an Ed25519 private key (PKCS#8): {HINT}",
                path.display()
            )
        })?;
        Ok(SigningKey { pair })
    }

    /// The signature of `msg`, as 128 hex digits.
    #[must_use]
    pub fn sign(&self, msg: &[u8]) -> String {
        hex(self.pair.sign(msg).as_ref())
    }

    /// Its public key.
    #[must_use]
    pub fn public(&self) -> DeskKey {
        let mut k = [0u8; 32];
        k.copy_from_slice(self.pair.public_key().as_ref());
        DeskKey(k)
    }
}

impl DeskKey {
    /// Reads the desk's public key (`desk.pub`).
    ///
    /// # Errors
    /// Not a PEM Ed25519 public key: what to do.
    pub fn load(path: &Path) -> anyhow::Result<DeskKey> {
        let der = read_pem(path, "PUBLIC KEY", "the desk's public key")?;
        let key = der
            .strip_prefix(&SPKI_PREFIX[..])
            .filter(|k| k.len() == 32)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{} is not an Ed25519 public key (SubjectPublicKeyInfo): {HINT}",
                    path.display()
                )
            })?;
        let mut k = [0u8; 32];
        k.copy_from_slice(key);
        Ok(DeskKey(k))
    }

    /// Whether `sig` (hex) is the desk's signature of `msg`.
    #[must_use]
    pub fn verify(&self, msg: &[u8], sig: &str) -> bool {
        let Some(sig) = unhex(sig).filter(|s| s.len() == 64) else {
            return false;
        };
        signature::UnparsedPublicKey::new(&signature::ED25519, &self.0)
            .verify(msg, &sig)
            .is_ok()
    }

    /// A short name for the key: the first 16 hex digits of the SHA-256 of its 32 bytes.
    #[must_use]
    pub fn fingerprint(&self) -> String {
        hex(&Sha256::digest(self.0)[..8])
    }
}

/// Lowercase hex.
#[must_use]
pub fn hex(b: &[u8]) -> String {
    use std::fmt::Write as _;
    b.iter()
        .fold(String::with_capacity(b.len() * 2), |mut s, x| {
            let _ = write!(s, "{x:02x}");
            s
        })
}

/// Bytes from hex (either case), or `None`.
#[must_use]
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A signed message's bytes: a label, then each field with its length first
/// (no two field lists give the same bytes).
#[must_use]
pub fn framed(label: &str, fields: &[&[u8]]) -> Vec<u8> {
    let mut v = label.as_bytes().to_vec();
    for f in fields {
        v.extend_from_slice(&(f.len() as u64).to_be_bytes());
        v.extend_from_slice(f);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keygen_signs_and_verifies_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let (private, public) = keygen(dir.path()).unwrap();
        let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let sk = SigningKey::load(&private).unwrap();
        let pk = DeskKey::load(&public).unwrap();
        assert_eq!(sk.public(), pk);
        let sig = sk.sign(b"hello");
        assert_eq!(sig.len(), 128);
        assert!(pk.verify(b"hello", &sig));
        assert!(!pk.verify(b"hellO", &sig));
        assert!(!pk.verify(b"hello", "00"));
        assert!(keygen(dir.path()).is_err());
        // A public key is not a private one, and a loose mode is refused.
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o640)).unwrap();
        assert!(format!("{:#}", SigningKey::load(&private).unwrap_err()).contains("chmod 600"));
        assert!(DeskKey::load(&private).is_err());
        let old = dir.path().join("secret");
        std::fs::write(&old, "s3cret\n").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o600)).unwrap();
        let e = format!("{:#}", SigningKey::load(&old).unwrap_err());
        assert!(e.contains("tandem hall keygen"), "{e}");
    }
}
