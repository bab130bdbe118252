//! The broker as docs/hall.md configures it, with the real Mosquitto: one
//! table's credentials cannot take another table's client id, nor the
//! desk's, and so cannot push them off the broker (issue 36: kicked 86
//! times in 20 s, false "lost its connection" alerts).

mod hall_common;
mod support;

use std::process::Command;
use std::time::Duration;

use hall_common::{Broker, CLIENT_ID_LINE, DEADLINE, EVENT, MAX_PACKET_LINE};
use rumqttc::{Client, Connection, Event, MqttOptions, Packet, QoS};

/// A client connected as `user` sending `id` (ConnAck received).
fn connect(broker: &Broker, user: &str, password: &str, id: &str) -> (Client, Connection) {
    let mut o = MqttOptions::new(id, "127.0.0.1", broker.port);
    o.set_credentials(user, password)
        .set_keep_alive(Duration::from_secs(60))
        .set_clean_session(true);
    let (client, mut conn) = Client::new(o, 16);
    loop {
        match conn.recv_timeout(DEADLINE) {
            Ok(Ok(Event::Incoming(Packet::ConnAck(_)))) => return (client, conn),
            Ok(Ok(_)) => {}
            other => panic!("{user} ({id}) does not connect: {other:?}"),
        }
    }
}

/// Whether the client is still on its first connection: a message of its
/// own is acknowledged on it, with no error (the broker closed it) and no
/// new ConnAck (it connected again) before.
fn still_connected(client: &Client, conn: &mut Connection, topic: &str) -> Result<(), String> {
    client
        .publish(topic, QoS::AtLeastOnce, false, "still here")
        .map_err(|e| e.to_string())?;
    loop {
        match conn.recv_timeout(DEADLINE) {
            Ok(Ok(Event::Incoming(Packet::PubAck(_)))) => return Ok(()),
            Ok(Ok(Event::Incoming(Packet::ConnAck(_)))) => {
                return Err("connected again: it had been pushed off".into())
            }
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return Err(format!("pushed off the broker: {e}")),
            Err(e) => return Err(format!("no answer: {e:?}")),
        }
    }
}

/// `mosquitto_pub` as `user` sending the client id `id`: whether it
/// connected and published.
fn pub_as(broker: &Broker, user: &str, password: &str, id: &str, topic: &str) -> bool {
    Command::new("mosquitto_pub")
        .args(["-h", "127.0.0.1", "-p", &broker.port.to_string(), "-q", "1"])
        .args(["-u", user, "-P", password, "-i", id, "-t", topic, "-m", "x"])
        .status()
        .unwrap()
        .success()
}

/// With table 1's password, a client sending table 2's client id or the
/// desk's (the ids tandem sends now, its user names, and the ids it sent
/// before) connects as itself: table 2 and the desk stay connected.
#[test]
fn one_tables_credentials_cannot_take_another_clients_id() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 2);
    let (t2, mut t2_conn) = connect(&broker, "table2", "pw2", "table2");
    let (desk, mut desk_conn) = connect(&broker, "desk", "deskpw", "desk");
    let t2_topic = format!("tandem/{EVENT}/table/2/state");
    let desk_topic = format!("tandem/{EVENT}/desk/cmd/2");
    let own = format!("tandem/{EVENT}/table/1/state");
    for id in [
        "table2",
        "desk",
        &format!("tandem-{EVENT}-table-2"),
        &format!("tandem-{EVENT}-desk-1"),
    ] {
        for _ in 0..3 {
            assert!(pub_as(&broker, "table1", "pw1", id, &own), "as {id}");
        }
    }
    still_connected(&t2, &mut t2_conn, &t2_topic).expect("table 2");
    still_connected(&desk, &mut desk_conn, &desk_topic).expect("the desk");
}

/// The broker the hall tests start has the lines docs/hall.md's
/// `tandem.conf` gives.
#[test]
fn the_tests_broker_has_the_documented_lines() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/hall.md")).unwrap();
    let conf = doc
        .split("`/etc/mosquitto/conf.d/tandem.conf`:")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .expect("the tandem.conf block");
    let lines: Vec<&str> = conf.lines().map(str::trim).collect();
    for want in [CLIENT_ID_LINE, MAX_PACKET_LINE] {
        assert!(lines.contains(&want), "{want} in {conf}");
    }
    // Under the listener, where Mosquitto reads it.
    let listener = lines
        .iter()
        .position(|l| l.starts_with("listener "))
        .unwrap();
    let id = lines.iter().position(|l| *l == CLIENT_ID_LINE).unwrap();
    assert!(id > listener, "{conf}");
}
