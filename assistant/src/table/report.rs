//! The table's report (issue 41; FIDE Laws 11.3.2.1), read from its list
//! of parts ([`super::opens`]): what `tandem report` prints, what `tandem
//! play` journals as its `report` line before the first move, and the
//! checks of a rated game before it starts.

use std::path::Path;

use crate::config::Config;
use crate::radios::{Radio, RadioKind};
use crate::report::{Allow, Report};

/// The report of a table with `config`: this binary, what its parts open,
/// the radios read under `TANDEM_SYSFS` or `/sys`; `variant` that of a
/// resumed journal (else the config's).
#[must_use]
pub fn report(config: &Config, variant: Option<&str>) -> Report {
    let (version, commit, binary_sha256) = crate::report::binary();
    let o = super::opens(config);
    let hints = !config.rated || config.allow.contains(&Allow::Hints);
    Report {
        version,
        commit,
        binary_sha256,
        variant: variant
            .unwrap_or(config.setup.start.kind().name())
            .to_owned(),
        rated: config.rated,
        allow: config.allow.iter().map(|a| a.name().to_owned()).collect(),
        inputs: o.inputs.iter().map(|i| i.as_str().to_owned()).collect(),
        listens: o.listens,
        connects: o.connects,
        devices: o.devices,
        radios: crate::radios::read(&crate::radios::sysfs_root()),
        engine: false,
        assistance: crate::report::assistance(hints),
        journal_dir: journal_dir(&config.journal),
    }
}

fn journal_dir(journal: &Path) -> String {
    journal
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .display()
        .to_string()
}

/// Why a rated table may not start (`tandem play --rated`, exit 2): a
/// radio up without `--allow radio`, device seats without `--allow devices`.
#[must_use]
pub fn refusal(config: &Config, report: &Report) -> Option<String> {
    if !config.rated {
        return None;
    }
    let up: Vec<&Radio> = crate::radios::up(&report.radios);
    if !up.is_empty() && !config.allow.contains(&Allow::Radio) {
        let names: Vec<String> = up
            .iter()
            .map(|r| {
                let kind = match r.kind {
                    RadioKind::Wifi => "Wi-Fi",
                    RadioKind::Bluetooth => "Bluetooth",
                };
                format!("{kind} {}", r.name)
            })
            .collect();
        return Some(format!(
            "a rated game (FIDE Laws 11.3.2.1) does not start while a radio is up: {} \
             (switch it off, e.g. `rfkill block all`, or give --allow radio if the arbiter approves)",
            names.join(", ")
        ));
    }
    if config.devices.is_some() && !config.allow.contains(&Allow::Devices) {
        return Some(
            "a rated game (FIDE Laws 11.3.2.1) does not serve device seats: --seats opens pages \
             for phones (give --allow devices if the arbiter approves)"
                .to_owned(),
        );
    }
    None
}
