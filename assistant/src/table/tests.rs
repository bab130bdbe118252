//! What a table opens, from its config alone; the address `--seats
//! 0.0.0.0:P` names.

use std::net::IpAddr;

use super::*;
use crate::config::{BrailleChoice, RawConfig, ScreenChoice, SpeechChoice};

/// A table with no speech-dispatcher, BRLTTY or microphone to try: only
/// what each test gives it.
fn quiet() -> RawConfig {
    RawConfig {
        journal: Some("/tmp/never-written.jsonl".into()),
        speech: Some(SpeechChoice::Text),
        braille: Some(BrailleChoice::None),
        voice: Some(crate::voice_start::VoiceSwitch::Off),
        screen: Some(ScreenChoice::Plain),
        socket: Some("/run/t/tandem.sock".into()),
        ..RawConfig::default()
    }
}

/// A quiet table of an event with device seats on loopback and the relay
/// to a broker.
fn seats_and_relay() -> RawConfig {
    RawConfig {
        devices: Some("127.0.0.1:0".into()),
        relay: Some("mqtt://h:1883".into()),
        event: Some("open".into()),
        table: Some(3),
        ..quiet()
    }
}

#[test]
fn a_table_opens_its_socket_its_device_seats_and_its_relay_and_nothing_else() {
    let config = Config::from_raw(seats_and_relay()).unwrap();
    let o = opens(&config);
    assert_eq!(o.listens, ["127.0.0.1:0", "/run/t/tandem.sock"]);
    assert_eq!(o.connects, ["h:1883"]);
    assert_eq!(
        o.inputs,
        [Input::Keyboard, Input::ControlSocket, Input::Device]
    );
    assert_eq!(o.devices, ["stdin"]);
    // Read before anything started: nothing is bound.
    assert!(!std::path::Path::new("/run/t/tandem.sock").exists());
}

#[test]
fn the_relays_password_is_never_in_what_it_connects_to() {
    let config = Config::from_raw(RawConfig {
        relay: Some("mqtts://table3:sekret@broker.example:8883".into()),
        event: Some("open".into()),
        table: Some(3),
        ..quiet()
    })
    .unwrap();
    let o = opens(&config);
    assert_eq!(o.connects, ["broker.example:8883"]);
    assert!(!format!("{o:?}").contains("sekret"));
}

#[test]
fn a_table_without_relay_or_devices_listens_only_on_its_socket() {
    let o = opens(&Config::from_raw(quiet()).unwrap());
    assert_eq!(o.listens, ["/run/t/tandem.sock"]);
    assert!(o.connects.is_empty(), "{:?}", o.connects);
    assert_eq!(o.inputs, [Input::Keyboard, Input::ControlSocket]);
}

#[test]
fn seats_add_their_microphones_displays_and_sound_cards() {
    let mut raw = quiet();
    raw.voice = None;
    raw.seat = crate::seat::RawSeats::from_flags(&[
        "white:speech=alsa:plughw:1,braille=brlapi::1,mic=hw:2".into(),
        "black:speech=none".into(),
    ])
    .unwrap();
    let o = opens(&Config::from_raw(raw).unwrap());
    assert_eq!(
        o.inputs,
        [
            Input::Keyboard,
            Input::ControlSocket,
            Input::Voice,
            Input::Braille
        ]
    );
    assert_eq!(o.connects, ["brlapi::1"]);
    assert!(o.devices.contains(&"alsa:plughw:1".to_owned()), "{o:?}");
    assert!(o.devices.contains(&"microphone hw:2".to_owned()), "{o:?}");
}

#[test]
fn the_parts_are_listed_in_their_order_and_stop_socket_first() {
    let config = Config::from_raw(RawConfig {
        braille: Some(BrailleChoice::Terminal),
        ..seats_and_relay()
    })
    .unwrap();
    let list = parts(&config);
    let names: Vec<_> = list.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "speech",
            "voice",
            "braille",
            "speech fallback notice",
            "relay",
            "screen",
            "device seats",
            "control socket"
        ]
    );
    let mut stages: Vec<_> = list.iter().map(|p| (p.stage(), p.name())).collect();
    stages.sort_by_key(|(s, _)| *s);
    let order: Vec<_> = stages.iter().map(|(_, n)| *n).collect();
    // The control socket, (the session), the relay's drain, speech, the
    // screens, the displays: the order `tandem play` stopped in before.
    assert_eq!(
        order,
        [
            "control socket",
            "relay",
            "speech",
            "screen",
            "voice",
            "braille",
            "speech fallback notice",
            "device seats"
        ]
    );
}

fn ips(list: &[&str]) -> Vec<IpAddr> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

#[test]
fn every_address_names_the_first_one_other_machines_reach() {
    let any4: IpAddr = "0.0.0.0".parse().unwrap();
    let any6: IpAddr = "::".parse().unwrap();
    let list = ips(&[
        "127.0.0.1",
        "::1",
        "169.254.3.4",
        "fe80::1",
        "2001:db8::5",
        "192.168.1.20",
        "10.0.0.7",
    ]);
    assert_eq!(
        reachable_address(any4, &list),
        Some("192.168.1.20".parse().unwrap())
    );
    // `::` takes IPv4 too: an IPv4 address first.
    assert_eq!(
        reachable_address(any6, &list),
        Some("192.168.1.20".parse().unwrap())
    );
    let v6_only = ips(&["::1", "fe80::1", "2001:db8::5"]);
    assert_eq!(reachable_address(any4, &v6_only), None);
    assert_eq!(
        reachable_address(any6, &v6_only),
        Some("2001:db8::5".parse().unwrap())
    );
    assert_eq!(
        reachable_address(any4, &ips(&["127.0.0.1", "169.254.0.9"])),
        None
    );
}

#[test]
fn a_seats_e_board_is_an_input_and_its_serial_device() {
    let seat =
        crate::seat::RawSeats::from_flags(&["white:board=chesslink:/dev/ttyACM0".into()]).unwrap();
    let config = Config::from_raw(RawConfig { seat, ..quiet() }).unwrap();
    let o = opens(&config);
    assert!(o.inputs.contains(&Input::Eboard), "{o:?}");
    assert!(o.devices.contains(&"/dev/ttyACM0".to_owned()), "{o:?}");
}

/// `tandem play`'s own flags, as `tandem report` will take them.
#[derive(clap::Parser)]
struct Play {
    #[command(flatten)]
    args: crate::cmd::play::Args,
}

#[test]
fn the_flags_of_tandem_play_give_what_the_table_opens() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("t.sock");
    let play = <Play as clap::Parser>::try_parse_from([
        "play",
        "--config",
        dir.path().join("none.toml").to_str().unwrap(),
        "--seats",
        "127.0.0.1:0",
        "--relay",
        "mqtt://h:1883",
        "--event",
        "open",
        "--table",
        "2",
        "--socket",
        socket.to_str().unwrap(),
        "--journal",
        dir.path().join("g.jsonl").to_str().unwrap(),
        "--speech",
        "none",
        "--braille",
        "none",
        "--voice",
        "off",
        "--screen",
        "none",
    ]);
    std::fs::write(dir.path().join("none.toml"), "").unwrap();
    let config = crate::cmd::play::config(&play.unwrap().args).unwrap();
    let o = opens(&config);
    assert_eq!(
        o.listens,
        ["127.0.0.1:0".to_owned(), socket.display().to_string()]
    );
    assert_eq!(o.connects, ["h:1883"]);
    // Nothing was opened to answer.
    assert!(!socket.exists());
    assert!(!dir.path().join("g.jsonl").exists());
}
