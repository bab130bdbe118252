//! With the `vosk` feature, give the `tandem` binary a run-time search path to
//! libvosk (`VOSK_LIB_DIR`), as `speech/build.rs` does for the speech crate's
//! own tests: libvosk from the PyPI wheel is not installed system-wide.

fn main() {
    println!("cargo:rerun-if-env-changed=VOSK_LIB_DIR");
    if std::env::var_os("CARGO_FEATURE_VOSK").is_some() {
        if let Some(dir) = std::env::var_os("VOSK_LIB_DIR") {
            let dir = dir.to_string_lossy();
            println!("cargo:rustc-link-search=native={dir}");
            println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
        }
    }
}
