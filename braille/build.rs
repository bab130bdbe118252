//! Links liblouis when the `liblouis` feature is on (found with pkg-config:
//! Debian's `liblouis-dev`).

fn main() {
    if std::env::var_os("CARGO_FEATURE_LIBLOUIS").is_none() {
        return;
    }
    #[cfg(feature = "liblouis")]
    if let Err(e) = pkg_config::Config::new()
        .atleast_version("3.0")
        .probe("liblouis")
    {
        panic!("the liblouis feature needs liblouis (apt-get install liblouis-dev): {e}");
    }
}
