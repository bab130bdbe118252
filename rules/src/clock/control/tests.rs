use super::*;

fn err(s: &str) -> (String, ParseReason) {
    let e = s.parse::<TimeControl>().unwrap_err();
    (e.part().to_owned(), e.reason().clone())
}

#[test]
fn relaxed_input_strict_output() {
    for (input, canonical) in [
        ("90m", "90m"),
        ("1h30m", "90m"),
        ("5400s", "90m"),
        ("80 min + 1 min", "80m+1m"),
        ("15' + 5\"", "15m+5s"),
        ("2H/50, 1H/25 *", "2h/50,60m/25*"),
        ("3m+2s:Bronstein", "3m+2s:bronstein"),
        ("3m+2s:fischer", "3m+2s"),
        ("10m + 12 s : delay", "10m+12s:delay"),
        ("90m/45,30m+30s@46", "90m/45,30m+30s@46"),
        ("1m30s", "1m30s"),
        ("90.5s", "1m30.5s"),
        ("2.250s", "2.25s"),
        ("1h0m1s", "60m1s"),
        ("1 h 30 min", "90m"),
        ("3h", "3h"),
        ("1h", "60m"),
        ("0.000000001s", "0.000000001s"),
    ] {
        let tc: TimeControl = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(tc.to_string(), canonical, "{input}");
    }
}

#[test]
fn errors_name_the_wrong_part() {
    // The text, the part named, why.
    let cases = [
        ("", "", ParseReason::Empty),
        ("   ", "   ", ParseReason::Empty),
        ("90", "90", ParseReason::ExpectedUnit),
        ("90x", "90x", ParseReason::ExpectedUnit),
        ("90m/x", "x", ParseReason::BadMoves),
        ("90m/0", "0", ParseReason::BadMoves),
        ("2h/50*,1h", "*", ParseReason::RepeatNotLast),
        ("30s1m", "1m", ParseReason::UnitOrder),
        ("1.5m", "1.5m", ParseReason::FractionNotSeconds),
        ("1.s", "1.s", ParseReason::ExpectedNumber),
        ("1.0000000001s", "1.0000000001", ParseReason::TooPrecise),
        ("3m+2s:bernstein", "bernstein", ParseReason::BadKind),
        ("3m+", "", ParseReason::ExpectedNumber),
        ("3m+2s extra", "extra", ParseReason::Trailing),
        ("3m+2s@x", "x", ParseReason::BadMoves),
        (
            "99999999999999999999h",
            "99999999999999999999",
            ParseReason::TooLarge,
        ),
        ("1001h", "1001", ParseReason::TooLarge),
        (
            "2h,1h",
            "2h",
            ParseReason::Invalid(InvalidTimeControl::MissingMoves(0)),
        ),
        (
            "0m",
            "0m",
            ParseReason::Invalid(InvalidTimeControl::ZeroFirstPeriod),
        ),
        (
            "2h/50,1h/25",
            "1h/25",
            ParseReason::Invalid(InvalidTimeControl::LastPeriodEnds),
        ),
        (
            "3m+0s",
            "3m+0s",
            ParseReason::Invalid(InvalidTimeControl::ZeroBonus),
        ),
        ("blitz-5", "blitz-5", ParseReason::ExpectedNumber),
        ("5m–3s", "–3s", ParseReason::Trailing),
    ];
    for (text, part, reason) in cases {
        assert_eq!(err(text), (part.to_owned(), reason), "{text:?}");
    }
}

#[test]
fn error_messages() {
    let e = "2h/50,1h/25".parse::<TimeControl>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "time control \"2h/50,1h/25\": the last period must run to the end of the game (no /moves) \
         or repeat (/moves*) at \"1h/25\""
    );
    let e = "3m+".parse::<TimeControl>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "time control \"3m+\": expected a number at the end"
    );
}

#[test]
fn period_at_walks_the_periods() {
    let tc: TimeControl = "2h/50,60m/25*".parse().unwrap();
    assert_eq!(tc.period_at(74), (1, 24));
    assert_eq!(tc.period_at(75), (1, 0));
    assert_eq!(tc.period_at(100), (1, 0));
    let tc: TimeControl = "90m/45,30m".parse().unwrap();
    assert_eq!(tc.period_at(45), (1, 0));
    assert_eq!(tc.period_at(200), (1, 155));
    let tc: TimeControl = "40m/10*".parse().unwrap();
    assert_eq!(tc.period_at(25), (0, 5));
}

#[test]
fn serde_uses_the_written_form() {
    let tc: TimeControl = "90m/45,30m+30s@46".parse().unwrap();
    let json = serde_json::to_string(&tc).unwrap();
    assert_eq!(json, "\"90m/45,30m+30s@46\"");
    assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), tc);
    assert_eq!(
        serde_json::from_str::<TimeControl>("\"fmjd-preferred\"").unwrap(),
        tc
    );
    assert!(serde_json::from_str::<TimeControl>("\"nonsense\"").is_err());
}
