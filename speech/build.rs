//! Links libvosk when the `vosk` feature is on.
//!
//! The `vosk-sys` crate emits `-lvosk` but no search path. Point
//! `VOSK_LIB_DIR` at the folder holding `libvosk.so` (for example the
//! `vosk/` folder of the unzipped PyPI `vosk` 0.3.45 wheel); the folder is
//! also written into the binary's rpath so no `LD_LIBRARY_PATH` is needed.

fn main() {
    println!("cargo:rerun-if-env-changed=VOSK_LIB_DIR");
    if std::env::var_os("CARGO_FEATURE_VOSK").is_none() {
        return;
    }
    match std::env::var("VOSK_LIB_DIR") {
        Ok(dir) if !dir.is_empty() => {
            let lib = std::path::Path::new(&dir).join("libvosk.so");
            if !lib.exists() {
                println!(
                    "cargo:warning=VOSK_LIB_DIR={dir} has no libvosk.so; linking will fail \
                     (unzip the PyPI vosk 0.3.45 wheel and point VOSK_LIB_DIR at its vosk/ folder)"
                );
            }
            println!("cargo:rustc-link-search=native={dir}");
            println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
        }
        _ => println!(
            "cargo:warning=the vosk feature is on but VOSK_LIB_DIR is not set; \
             linking -lvosk relies on the system library path"
        ),
    }
}
